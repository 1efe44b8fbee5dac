"""Nothing lost, nothing hidden (issue 12): non-Latin abstracts, damaged stores, rebuilds readers never see,
concurrent first runs, a chat that sees other processes' writes, stdin questions and encodings."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_env import run_cli
from conftest import ICML_JSONL

ZH1 = (
    "我们提出了一种新的图神经网络方法，用于分子性质预测。该方法在多个基准数据集上取得了最好的结果。"
)
ZH2 = "本文研究大型语言模型中的强化学习对齐问题。我们发现奖励模型的过度优化会降低生成文本的多样性。"


def cli(store, *args, stdin: str | None = None, **extra_env):
    """``paperchat ARGS`` on ``store``, in-process (``main(args, env)``)."""
    return run_cli(*args, input=stdin, store=store, env=extra_env)


def cli_process(store, *args, stdin: str | None = None, timeout: float = 240, **extra_env):
    """``paperchat ARGS`` on ``store`` in a fresh process (what another process, or a cold start, sees)."""
    env = {**os.environ, "PAPERCHAT_STORE": str(store), **extra_env}
    return subprocess.run(
        [sys.executable, "-m", "paperchat", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=timeout,
    )


def copy_store(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.lock"))
    return dst


def test_two_chinese_abstracts_are_two_papers_and_a_chinese_question_finds_the_second(tmp_path):
    from paperchat.core.sentences import split_sentences
    from paperchat.core.settings import load_settings
    from paperchat.core.text import content_key
    from paperchat.engine import Engine

    assert content_key(ZH1) != content_key(ZH2)
    assert content_key("Ｔｈｅ　ＡＢＣ model.") == content_key("the abc model")  # NFKC + casefold
    assert split_sentences(ZH2) == [
        "本文研究大型语言模型中的强化学习对齐问题。",
        "我们发现奖励模型的过度优化会降低生成文本的多样性。",
    ]
    data = tmp_path / "zh.jsonl"
    data.write_text(
        "\n".join(
            json.dumps({"id": i, "title": t, "abstract": a}, ensure_ascii=False)
            for i, t, a in [("zh1", "分子图网络", ZH1), ("zh2", "奖励过度优化", ZH2)]
        )
        + "\n",
        encoding="utf-8",
    )
    engine = Engine(load_settings({"store": str(tmp_path / "store")}))
    report = engine.ingest([data])
    assert report.duplicates_merged == report.duplicates_skipped == 0 and report.papers_added == 2
    assert sorted(r.paper_id for r in engine.papers()) == ["zh1", "zh2"]
    answer = engine.ask("奖励模型的过度优化会怎样影响多样性？", mode="extractive")
    assert answer.sources and answer.sources[0].paper_id == "zh2"


def test_a_store_missing_its_sqlite_file_is_an_error_and_nothing_is_reingested(
    tmp_path, bundled_store
):
    store = copy_store(bundled_store, tmp_path / "store")
    (store / "chroma" / "chroma.sqlite3").unlink()
    for args in (("papers",), ("ask", "What does ConfPO do?"), ("ingest",)):
        out = cli(store, *args)
        assert out.returncode == 1, (args, out.stderr)
        assert out.stderr.strip().splitlines() == [
            f"error: the store at {store} is damaged: {store / 'chroma' / 'chroma.sqlite3'} is missing. Restore it from a "
            "backup, or start afresh with `paperchat ingest --rebuild FILES` (the stored papers are lost)"
        ]
    assert not (store / "chroma" / "chroma.sqlite3").exists()  # nothing was created in its place


def test_a_truncated_index_segment_is_one_line_and_check_names_it(tmp_path):
    # Chroma writes a collection's HNSW index to disk once it holds 1,000 vectors (its sync threshold): 150 papers
    # give about 1,300 sentence vectors, so the sentence index is on disk with a real element count.
    corpus = tmp_path / "icml150.jsonl"
    corpus.write_text(
        "\n".join(ICML_JSONL.read_text(encoding="utf-8").splitlines()[:150]) + "\n",
        encoding="utf-8",
    )
    store = tmp_path / "store"
    assert cli_process(store, "ingest", str(corpus), "--quiet").returncode == 0
    assert cli_process(store, "check").returncode == 0
    segment = max((store / "chroma").glob("*/data_level0.bin"), key=lambda p: p.stat().st_size)
    with open(segment, "r+b") as fh:
        fh.truncate(1000)
    for args in (("ask", "What does ConfPO do?"), ("ingest",)):
        out = cli_process(store, *args)
        assert out.returncode == 1, (args, out.returncode, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert (
            len(lines) == 1
            and f"{segment} is cut short (1000 of " in lines[0]
            and "paperchat check" in lines[0]
        )
    out = cli_process(store, "check", "--json")
    assert out.returncode == 1
    report = json.loads(out.stdout)
    bad = [f for f in report["findings"] if f["ok"] is False]
    assert [f["check"] for f in bad] == ["vector index files"] and str(segment) in bad[0]["detail"]
    # A rebuild replaces the damaged store with a sound one.
    out = cli_process(store, "ingest", "--rebuild", str(corpus), "--quiet")
    assert out.returncode == 0, out.stderr
    assert cli_process(store, "check").returncode == 0
    assert len(json.loads(cli_process(store, "papers", "--json").stdout)) == 150


def test_readers_see_the_old_store_while_a_rebuild_runs(tmp_path, bundled_store):
    """What users see: every `ask --json` run while `ingest --rebuild` runs in another process answers from the
    old store, whole (the same answer as before); after the swap, from the new one."""
    store = copy_store(bundled_store, tmp_path / "store")
    question = "What does ConfPO use to pick preference-critical tokens?"

    def ask() -> dict:
        out = cli(store, "ask", question, "--json")
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    before = ask()
    assert before["sources"][0]["paper_id"] == "p-abe9274a3783"
    proc = subprocess.Popen(
        [sys.executable, "-m", "paperchat", "ingest", "--rebuild", "--quiet"],
        # the model runs (no vector cache), so the rebuild lasts long enough for several asks
        env={**os.environ, "PAPERCHAT_STORE": str(store), "PAPERCHAT_VECTOR_CACHE": "off"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[dict] = []
    while proc.poll() is None:
        seen.append(ask())
    assert proc.returncode == 0, proc.stderr.read()
    assert len(seen) >= 2 and all(a == before for a in seen)  # never an empty or half-built store
    assert ask() == before
    from paperchat.store.opening import open_store

    assert open_store(store, create=False).current == 2  # the new generation was swapped in


def test_two_first_run_asks_on_an_empty_store_both_answer(tmp_path):
    store = tmp_path / "fresh"
    env = {**os.environ, "PAPERCHAT_STORE": str(store)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "paperchat", "ask", "What does ConfPO use?", "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=400) for p in procs]
    for proc, (stdout, stderr) in zip(procs, outs):
        assert proc.returncode == 0, stderr
        answer = json.loads(stdout)
        assert answer["sources"][0]["title"].startswith("ConfPO")
    assert len(json.loads(cli(store, "papers", "--json").stdout)) == 38


def test_a_chat_sees_papers_another_process_ingested(tmp_path, bundled_store):
    from paperchat.chat.session import ChatSession
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    store = copy_store(bundled_store, tmp_path / "store")
    session = ChatSession(Engine(load_settings({"store": str(store)})), mode="extractive")
    first = session.handle("Which paper studies protein folding with lattice field theory?")
    assert all(s.paper_id != "lattice-fold" for s in first.answer.sources)
    data = tmp_path / "new.jsonl"
    data.write_text(
        json.dumps(
            {
                "id": "lattice-fold",
                "title": "LatticeFold: protein folding as a lattice field theory",
                "abstract": "We cast protein folding as a lattice field theory. LatticeFold samples "
                "conformations with a Hamiltonian Monte Carlo sampler on the lattice and "
                "predicts folding free energies within 0.4 kcal/mol of experiment.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    out = cli_process(store, "ingest", str(data))
    assert out.returncode == 0, out.stderr
    reply = session.handle("Which paper studies protein folding with lattice field theory?")
    assert reply.answer.sources[0].paper_id == "lattice-fold"
    assert "[1]" in reply.answer.answer


def test_ask_dash_and_piped_stdin_read_the_question(bundled_store):
    for args in (("ask", "-", "--json"), ("ask", "--json")):
        out = cli(
            bundled_store, *args, stdin="What does ConfPO use to pick preference-critical tokens?\n"
        )
        assert out.returncode == 0, out.stderr
        answer = json.loads(out.stdout)
        assert answer["question"] == "What does ConfPO use to pick preference-critical tokens?"
        assert answer["sources"][0]["title"].startswith("ConfPO")
    out = cli(bundled_store, "ask", "-", stdin="")
    assert (out.returncode, out.stdout, out.stderr) == (
        1,
        "",
        "error: the question is empty; ask something about the papers\n",
    )
    out = cli(bundled_store, "ask", "-", stdin="x" * 300_000)  # longer than what is read of stdin
    assert (out.returncode, out.stderr) == (
        1,
        "error: the question on stdin is over 100,000 characters long; the limit is 2,000\n",
    )


def test_a_latin1_csv_names_the_encoding_and_takes_encoding(tmp_path):
    data = tmp_path / "papers.csv"
    data.write_bytes(
        "title,abstract\nCafé models,Résumé: we study naïve Bayes classifiers for café menus. "
        "They are calibrated.\n".encode("latin-1")
    )
    store = tmp_path / "store"
    out = cli(store, "ingest", str(data))
    assert out.returncode == 1
    assert out.stderr.strip() == (
        f"error: {data}: not UTF-8 text (byte 18 is 0xe9); if the file is in another "
        "encoding, say which with --encoding, e.g. --encoding latin-1"
    )
    out = cli(store, "ingest", str(data), "--encoding", "latin-1", "--json")
    assert out.returncode == 0, out.stderr
    titles = [p["title"] for p in json.loads(cli(store, "papers", "--json").stdout)]
    assert titles == ["Café models"]


def test_no_arguments_shows_the_help_and_exits_0():
    out = run_cli()
    assert (out.returncode, out.stderr) == (0, "")
    assert (
        out.stdout.startswith("Usage: paperchat [OPTIONS] [COMMAND] [ARGS]...\n")
        and "ask" in out.stdout
    )


def test_a_fresh_install_lists_38_real_titles(tmp_path, seed_ids):
    store = tmp_path / "fresh"
    assert cli(store, "ingest", "--quiet").returncode == 0
    papers = json.loads(cli(store, "papers", "--json").stdout)
    assert len(papers) == 38 and all(p["title"] and not p["title"].endswith("…") for p in papers)
    metadata = [
        json.loads(line)
        for line in (Path(__file__).parent.parent / "data" / "seed_metadata.jsonl").open()
    ]
    assert sorted(p["title"] for p in papers) == sorted(m["title"] for m in metadata)
    assert all(p["authors"] for p in papers)


def test_acronym_names_get_labels_and_summarize_finds_the_paper(bundled_engine):
    from paperchat.ingest.labels import derive_label

    assert derive_label(
        "We propose SUICA, a foundation model for spatial transcriptomics."
    ).startswith("SUICA")
    assert derive_label("We introduce DTM, a discrete-time model of sequences.").startswith("DTM")
    summary = bundled_engine.summarize("SUICA")
    assert len({s.paper_id for s in summary.sources}) == 1
    assert "SUICA" in summary.sources[0].title
    # a target that is no paper and no topic says what was looked for
    none = bundled_engine.summarize("zzqx nonexistent paper", mode="extractive")
    assert none.abstained and none.notes == [
        "no paper's title matches 'zzqx nonexistent paper' and no stored paper is on that topic "
        "(none writes 'zzqx')"
    ]


def test_a_mistyped_title_offers_the_title_it_is_spelled_like(bundled_engine):
    # a newcomer's `summarize "Flow Q-Lerning"` abstained with no suggestion
    summary = bundled_engine.summarize("Isolatd Casual Efects of Natral Langage", mode="extractive")
    assert summary.abstained and summary.notes == [
        "no paper's title matches 'Isolatd Casual Efects of Natral Langage' and no stored paper is on "
        "that topic; did you mean 'Isolated Causal Effects of Natural Language'?"
    ]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("A claim [9] that cites nothing.", "A claim that cites nothing."),
        ("Trailing gap \ud800 here.", "Trailing gap here."),
    ],
)
def test_removals_leave_no_double_space(text, expected):
    from paperchat.cite.markers import tidy
    from paperchat.core.text import clean_text

    assert tidy(clean_text(text).replace("[9]", "")) == expected


def test_chat_save_refuses_to_overwrite_without_force(tmp_path, bundled_store):
    target = tmp_path / "talk.md"
    target.write_text("keep me", encoding="utf-8")
    script = f"What does ConfPO use?\n/save {target}\n/save {target} --force\n/save {tmp_path}\n"
    out = cli(bundled_store, "chat", stdin=script, PAPERCHAT_HISTORY="0")
    assert out.returncode == 0, out.stderr
    assert f"{target} exists; /save {target} --force replaces it." in out.stdout
    # a folder is no file to replace (a break-it session: it said "exists; --force replaces it")
    assert (
        f"{tmp_path} is a folder; give a file name, e.g. /save {tmp_path / 'chat.md'}" in out.stdout
    )
    assert target.read_text(encoding="utf-8").startswith("# paperchat")


@pytest.mark.integration  # a whole rebuild of a copied store: about 10 s, too long for the unit tier
def test_a_reader_holding_the_old_generation_reads_again_from_the_new(tmp_path, bundled_store):
    """A rebuild in another process finishes (and drops the old collections) while this process holds the old
    generation open: the store says so (StoreSwitched, never "damaged"), and the engine reads again, whole,
    from the new generation."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.store.failures import StoreSwitched

    store = copy_store(bundled_store, tmp_path / "store")
    engine = Engine(load_settings({"store": str(store)}))
    before = {r.paper_id for r in engine.papers()}
    assert len(before) == 38
    rebuilt = cli(store, "ingest", "--rebuild", "--quiet")
    assert rebuilt.returncode == 0, rebuilt.stderr
    old_generation = engine.store.current
    with pytest.raises(StoreSwitched, match="was rebuilt while this command read it"):
        engine.store.papers()
    assert {r.paper_id for r in engine.papers()} == before  # read again from the new generation
    assert engine.store.current == old_generation + 1


def test_an_error_from_a_collection_dropped_midway_is_a_switch_not_damage(tmp_path):
    """Caught halfway through a rebuild's drop of the old collections, Chroma answers a read of them with an
    InternalError ("Missing metadata segment", seen in CI and reproduced with a writer dropping collections
    under a reader), not "does not exist": when the generation changed meanwhile, that is a switch too, so
    the engine reads again instead of calling the store damaged."""
    from chromadb.errors import InternalError

    from paperchat.store.failures import StoreSwitched
    from paperchat.store.opening import open_store

    store = open_store(tmp_path / "store", create=True)
    store.write_meta(current=2)
    store._state = {"current": 1}  # what this reader read before the rebuild switched generations
    midway = InternalError("Error getting collection: Missing field: [Missing metadata segment]")
    with pytest.raises(StoreSwitched, match="was rebuilt while this command read it"):
        store.raise_if_switched(midway)
    assert store.raise_if_switched(ValueError("not Chroma's")) is None  # not a read of the store
    # no switch: the same error is the store's own, reported as damage
    store._state = {"current": 2}
    assert store.raise_if_switched(midway) is None


def _engine(store: Path):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(store)}))


@pytest.mark.integration
def test_a_reader_does_not_check_the_index_files_a_rebuild_is_writing(tmp_path, monkeypatch):
    """A rebuild writes its pending generation in the same Chroma folder; hnswlib rewrites ``header.bin`` in
    place when it persists, so a reader can find it empty. Readers check the current generation only."""
    from paperchat.store.chroma import ChromaStore
    from paperchat.store.integrity import index_damage

    corpus = tmp_path / "icml150.jsonl"
    corpus.write_text(
        "\n".join(ICML_JSONL.read_text(encoding="utf-8").splitlines()[:150]) + "\n",
        encoding="utf-8",
    )
    store = tmp_path / "store"
    chroma = store / "chroma"
    _engine(store).ingest([corpus])
    current = {p.parent for p in chroma.glob("*/header.bin")}
    assert current  # 150 papers give over 1,000 sentence vectors: that index is on disk

    write_meta = ChromaStore.write_meta

    def stop_before_the_switch(self, **changes):
        if changes.get("current") and changes.get("pending") == 0:
            raise KeyboardInterrupt  # the rebuild stops with its pending generation written
        write_meta(self, **changes)

    monkeypatch.setattr(ChromaStore, "write_meta", stop_before_the_switch)
    with pytest.raises(KeyboardInterrupt):
        _engine(store).ingest([corpus], rebuild=True)
    monkeypatch.undo()
    pending = {p.parent for p in chroma.glob("*/header.bin")} - current
    assert pending
    for folder in pending:
        (folder / "header.bin").write_bytes(b"")  # the moment hnswlib persists it
    assert index_damage(chroma) == []
    out = cli(store, "ask", "Can transformers predict pseudo-random numbers?", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["sources"][0]["paper_id"] == "asDx9sPAUN"
    header = sorted(current)[0] / "header.bin"
    header.write_bytes(b"")
    assert index_damage(chroma, settle_s=0) == [f"{header} is cut short (0 bytes)"]


def test_papers_on_a_path_with_no_store_says_so_and_creates_nothing(tmp_path):
    missing = tmp_path / "mistyped" / "store"
    out = cli(missing, "papers")
    assert (out.returncode, out.stderr) == (
        1,
        f"error: no store at {missing}: nothing to list "
        f"(`paperchat --store {missing.resolve()} ingest FILES` creates one of your files; without FILES, of the bundled corpus)\n",
    )
    assert not (tmp_path / "mistyped").exists()


def test_the_first_run_check_reads_again_when_a_rebuild_switches_under_it(
    tmp_path, bundled_store, monkeypatch
):
    """An `ask` during another process's rebuild checks the store is not empty (the first run) before it
    answers; that count, read as the old generation was dropped, had ended the command ("was rebuilt while this
    command read it") where the answer itself reads again (CI saw it once in the test above)."""
    import paperchat.engine.ingesting as ingesting
    from paperchat.store.failures import StoreSwitched

    engine = _engine(copy_store(bundled_store, tmp_path / "store"))
    real, calls = ingesting.ensure_corpus, []

    def switched_once(eng, progress=None):
        calls.append(1)
        if len(calls) == 1:
            raise StoreSwitched("the store was rebuilt while this command read it; run it again")
        return real(eng, progress)

    monkeypatch.setattr(ingesting, "ensure_corpus", switched_once)
    assert (
        engine.ensure_corpus() is None and len(calls) == 2
    )  # read again: the store holds its papers
