"""Shared fixtures: a real Chroma store of the bundled corpus, built once per test session."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# An empty config file: tests never read the user's own settings.
_EMPTY_CONFIG = Path(tempfile.mkdtemp(prefix="paperchat-test-")) / "config.toml"
_EMPTY_CONFIG.write_text("", encoding="utf-8")
os.environ["PAPERCHAT_CONFIG"] = str(_EMPTY_CONFIG)
# No command of the suite uses or starts a daemon (tests/test_daemon.py starts its own, in temp folders).
os.environ["PAPERCHAT_DAEMON"] = "off"
sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
SEED_METADATA = SHARED / "seed_metadata.jsonl"
ICML_JSONL = SHARED / "icml2025_abstracts.jsonl"


def sigint_default() -> None:
    """``preexec_fn`` for a child a test sends Ctrl-C: SIGINT back to its default action.

    A shell starts a background job (``cmd &`` without job control) with SIGINT
    ignored, children inherit that, and Python then never raises
    KeyboardInterrupt; the tests must not depend on how pytest was started.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


SEED_000 = "000_215d12c2ee2986f8.txt"
SEED_003 = "003_0d78137218bc382c.txt"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch):
    """No user key, base URL or store setting leaks into tests."""
    for var in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "PAPERCHAT_STORE",
        "PAPERCHAT_CHROMA_URL",
        "PAPERCHAT_EMBED_MODEL",
        "PAPERCHAT_MODE",
        "PAPERCHAT_LLM_MODEL",
    ):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="session")
def bundled_store(tmp_path_factory) -> Path:
    """A store folder holding the bundled corpus (38 papers) as a first run makes it: with their titles joined."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    folder = tmp_path_factory.mktemp("bundled-store")
    Engine(load_settings({"store": str(folder)})).ensure_corpus()
    return folder


@pytest.fixture(scope="session")
def bundled_engine(bundled_store):
    """An :class:`Engine` on the shared bundled store (read-only use)."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(bundled_store)}))


@pytest.fixture(scope="session")
def seed_ids() -> dict[tuple[str, int], str]:
    """Paper ids of the bundled corpus by (file name, position)."""
    from paperchat.ingest.corpus import bundled_corpus_files, load_file

    return {
        (p.source_path, p.source_index): p.paper_id
        for f in bundled_corpus_files()
        for p in load_file(f)[0]
    }


@pytest.fixture(scope="session")
def icml_store(tmp_path_factory) -> Path:
    """A store holding the bundled corpus and the 2,732 ICML 2025 abstracts (2,740 papers after merging).

    Building it embeds about 20,000 sentences: a few minutes on two cores, once per test session.
    """
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    folder = tmp_path_factory.mktemp("icml-store")
    engine = Engine(load_settings({"store": str(folder)}))
    engine.ensure_corpus()
    engine.ingest([ICML_JSONL])
    return folder


#: ICML 2025 papers on backdoors (none of them in the bundled corpus) that ``two_venue_store`` stores as NeurIPS 2024
SECOND_VENUE = ["DWCDyGl6k8", "yTsbZQTsAu", "JKzS7zJRep", "dqYO5LVyYh"]
#: the one abstract of ``two_venue_store``'s seed-text file: no title, authors, url, venue or year
UNTITLED_ABSTRACT = (
    "We study quokka counting from drone imagery. We introduce QuokkaNet, a detector trained on "
    "synthetic burrows, and report a 12% gain in counting accuracy over prior detectors."
)


@pytest.fixture(scope="session")
def two_venue_store(tmp_path_factory) -> Path:
    """A store with two venues: the bundled corpus (38 ICML 2025 papers), four papers of a JSONL file written here
    with ``venue`` NeurIPS and ``year`` 2024 (:data:`SECOND_VENUE`), and one title-less abstract with no metadata."""
    import json

    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    folder = tmp_path_factory.mktemp("two-venues")
    rows = {
        r["id"]: r for r in map(json.loads, ICML_JSONL.read_text(encoding="utf-8").splitlines())
    }
    second = folder / "neurips_papers.jsonl"
    second.write_text(
        "".join(
            json.dumps(
                {
                    **{k: rows[i][k] for k in ("id", "title", "authors", "abstract", "url")},
                    "venue": "NeurIPS",
                    "year": 2024,
                }
            )
            + "\n"
            for i in SECOND_VENUE
        ),
        encoding="utf-8",
    )
    untitled = folder / "untitled.txt"
    untitled.write_text("My notes\n\n" + UNTITLED_ABSTRACT + "\n", encoding="utf-8")
    engine = Engine(load_settings({"store": str(folder / "store")}))
    engine.ensure_corpus()
    engine.ingest([second, untitled])
    return folder / "store"
