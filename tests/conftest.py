"""Shared fixtures (a real Chroma store of the bundled corpus, built once per test session) and the test tiers.

Every test is in one of two tiers, marked at collection (:func:`pytest_collection_modifyitems`):

* ``unit``: in-process and fast; the only store it may use is the shared ``bundled_store``
  (one model load, one ingest of 38 papers). ``pytest -m unit`` runs first, in under 60 s.
* ``integration``: everything else, run after (``-m "not unit"``). A test is one when it, a
  fixture it uses, or a helper of its own module that either calls (followed through the test
  folder's functions) names ``subprocess``, ``pexpect`` or ``sys.executable``; when it uses a
  fixture of :data:`INTEGRATION_FIXTURES`; when it is marked ``slow``, ``llm_server`` or
  ``integration`` (by hand, for an in-process test that is not fast).

So a new test lands in the right tier by what it does. A unit test that starts a process anyway
(through code the scan does not follow) fails with a message saying how to mark it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# An empty config file: tests never read the user's own settings.
_EMPTY_CONFIG = Path(tempfile.mkdtemp(prefix="paperchat-test-")) / "config.toml"
atexit.register(shutil.rmtree, _EMPTY_CONFIG.parent, True)  # not left behind in /tmp
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


#: Fixtures that make a test an integration test: stores at conference scale or of their own
#: (each one more ingest), servers and daemons, a whole `eval --html` run (test_eval_html.py).
INTEGRATION_FIXTURES = frozenset(
    {
        "icml_store",
        "icml_engine",
        "two_venue_store",
        "icml_subset",
        "chroma_server",
        "server_url",
        "runtime",
        "run_dir",
    }
)
#: Names whose use in a test's code means it starts a process (``sys.executable`` reads as ``executable``).
_PROCESS_NAMES = frozenset({"subprocess", "Popen", "pexpect", "executable"})
_TESTS = Path(__file__).resolve().parent


def _names(code: types.CodeType) -> set[str]:
    """The global and attribute names a code object and its nested functions use."""
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _names(const)
    return out


def _starts_processes(func, seen: set) -> bool:
    """Whether ``func`` (a test or fixture) or a function of the test folder it calls names a process launcher."""
    func = getattr(func, "__wrapped__", func)
    code = getattr(func, "__code__", None)
    if code is None or code in seen or not code.co_filename.startswith(str(_TESTS)):
        return False
    seen.add(code)
    names = _names(code)
    if names & _PROCESS_NAMES:
        return True
    called = (func.__globals__.get(n) for n in names)
    return any(_starts_processes(f, seen) for f in called if isinstance(f, types.FunctionType))


def _is_integration(item: pytest.Item) -> bool:
    if any(item.get_closest_marker(m) for m in ("integration", "slow", "llm_server")):
        return True
    if INTEGRATION_FIXTURES & set(item.fixturenames):
        return True
    seen: set = set()
    funcs = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for name, defs in info.name2fixturedefs.items() if info else ():
        if name != "_unit_tests_start_no_process":  # the guard below names Popen to refuse it
            funcs += [d.func for d in defs]
    return any(_starts_processes(f, seen) for f in funcs if f is not None)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marker
def pytest_collection_modifyitems(config, items):
    """Mark every test ``unit`` or ``integration`` (see the module docstring)."""
    for item in items:
        item.add_marker("integration" if _is_integration(item) else "unit")


@pytest.fixture(autouse=True)
def _unit_tests_start_no_process(request, monkeypatch):
    """In a ``unit`` test, starting a process fails and says how to move the test to the integration tier."""
    if request.node.get_closest_marker("unit") is None:
        return

    def refuse(*args, **kwargs):
        raise AssertionError(
            f"{request.node.nodeid} is in the unit tier but starts a process: mark it "
            "@pytest.mark.integration (or name its fixture in conftest.INTEGRATION_FIXTURES)"
        )

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)


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


@pytest.fixture(scope="session", autouse=True)
def _run_vector_cache(tmp_path_factory):
    """Every ingest of the test run, in this process and the ones it starts, shares one vector cache
    (:mod:`paperchat.ingest.vector_cache`) in the run's temporary folder, never the user's: the
    conference store's build fills it, and the many small stores of the bundled corpus and of the first
    ICML papers then read their vectors from it. A test that needs the model to run (an ingest slow enough
    to interrupt) sets ``PAPERCHAT_VECTOR_CACHE=off``."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    os.environ["PAPERCHAT_VECTOR_CACHE"] = str(shared / "vector-cache")


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

    Building it embeds about 20,000 sentences: a few minutes on two cores, once per test run (with
    pytest-xdist, once for all its workers). Tests only read it.
    """
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    def build(folder: Path) -> Path:
        engine = Engine(load_settings({"store": str(folder)}))
        engine.ensure_corpus()
        engine.ingest([ICML_JSONL])
        return folder

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build(tmp_path_factory.mktemp("icml-store"))
    # pytest-xdist (scripts/test.sh: -n 2): the first worker to need the store builds it in the run's
    # shared temporary folder while the others wait, then every worker reads it (the pattern of
    # pytest-xdist's docs, "Making session-scoped fixtures execute only once")
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent
    folder, built = shared / "icml-store", shared / "icml-store.built"
    with FileLock(str(shared / "icml-store.lock")):
        if not built.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build another worker left half done
            build(folder)
            built.touch()
    return folder


@pytest.fixture(scope="session")
def icml_engine(icml_store):
    """An :class:`Engine` on the shared 2,740-paper store (read-only use)."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(icml_store)}))


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
