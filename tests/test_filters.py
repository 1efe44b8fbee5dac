"""Filters (--author, --venue, --year, --paper) act inside retrieval, on a real store holding two venues.

The store (conftest's ``two_venue_store``): the bundled corpus (38 ICML 2025 papers, venue and year read from
their PMLR urls) plus a small second-venue file the fixture writes (four backdoor papers of the ICML 2025 file,
labelled NeurIPS 2024) and one title-less seed-text abstract with no metadata at all.
"""

from __future__ import annotations

import json

import pytest
from cli_env import run_cli
from conftest import SECOND_VENUE, UNTITLED_ABSTRACT

CROW = "p-f951bc7f7256"  # bundled: "CROW: Eliminating Backdoors from Large Language Models ..."
ARORA = "p-3c67db56192f"  # bundled: "Backdoor Attacks in Token Selection of Attention Mechanism" (Wang, Arora)


def run(store, *args, stdin: str | None = None):
    return run_cli(
        "--store", str(store), *args, input=stdin, env={"PAPERCHAT_PROGRESS_INTERVAL": "0"}
    )


def untitled_id() -> str:
    from paperchat.ingest.corpus import paper_id_for

    return paper_id_for(UNTITLED_ABSTRACT)


def test_venue_and_year_are_read_from_the_files(two_venue_store):
    rows = json.loads(run(two_venue_store, "papers", "--json").stdout)
    by_id = {r["paper_id"]: (r["venue"], r["year"]) for r in rows}
    assert len(rows) == 43
    assert {by_id[i] for i in SECOND_VENUE} == {("NeurIPS", 2024)}
    # an unknown year is null, not 0
    assert by_id[CROW] == ("ICML", 2025) and by_id[untitled_id()] == ("", None)
    assert sum(v == ("ICML", 2025) for v in by_id.values()) == 38


def test_ask_with_a_venue_retrieves_and_cites_only_that_venue_and_fills_top_k(two_venue_store):
    question = "Which papers defend against backdoor attacks?"
    plain = json.loads(run(two_venue_store, "ask", question, "--json").stdout)
    assert CROW in {
        s["paper_id"] for s in plain["sources"]
    }  # unfiltered, the ICML paper is the first answer

    answer = json.loads(
        run(two_venue_store, "ask", question, "--venue", "neurips", "--json").stdout
    )
    assert answer["sources"] and {s["paper_id"] for s in answer["sources"]} <= set(SECOND_VENUE)
    assert sorted(r["paper_id"] for r in answer["retrieved"]) == sorted(
        SECOND_VENUE
    )  # "which papers": all four
    # top-k is filled from the matching papers (cutting the unfiltered top 3 down would leave fewer)
    three = json.loads(
        run(
            two_venue_store,
            "ask",
            "How can a backdoor be removed from a model?",
            "--venue",
            "NeurIPS",
            "--top-k",
            "3",
            "--json",
        ).stdout
    )
    assert len(three["retrieved"]) == 3 and {r["paper_id"] for r in three["retrieved"]} <= set(
        SECOND_VENUE
    )


def test_paper_author_and_year_filters(two_venue_store):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.retrieve.filters import Filters

    engine = Engine(load_settings({"store": str(two_venue_store)}))
    ask = engine.ask
    by_paper = ask(
        "How are backdoors removed?", top_k=5, filters=Filters.of(papers=["dqYO5LVyYh", ARORA])
    )
    assert {r.paper_id for r in by_paper.retrieved} == {"dqYO5LVyYh", ARORA}
    by_author = ask("What do they show about attention?", filters=Filters.of(author="RAMAN arora"))
    assert [r.paper_id for r in by_author.retrieved] == [ARORA]
    assert {
        r.paper_id
        for r in ask("backdoor attacks", top_k=8, filters=Filters.of(year=2024)).retrieved
    } == set(SECOND_VENUE)
    assert [p.paper_id for p in engine.papers(Filters.of(venue="NeurIPS", author="Shuo He"))] == [
        "DWCDyGl6k8"
    ]


def test_retrieval_is_restricted_in_chroma_and_in_bm25(two_venue_store):
    """Every search (dense chunks, dense sentences, BM25) returns only the allowed papers, k of them when it can."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.ingest.chunking import paper_of

    engine = Engine(load_settings({"store": str(two_venue_store)}))
    allowed = frozenset(SECOND_VENUE + [CROW])
    qvec = engine.embedder.embed_one("removing backdoors from a trained model")
    store = engine.store
    chunks = store.nearest_chunks(qvec, 6, allowed)
    assert len(chunks) == 6 and {paper_of(c) for c, _ in chunks} <= allowed
    sentences = store.nearest_sentences(qvec, 12, allowed)
    assert len(sentences) == 12 and {p for p, _ in sentences} <= allowed
    assert all(a >= b for (_, a), (_, b) in zip(chunks, chunks[1:]))
    bm25 = store.bm25().search("backdoor", 3, allowed)
    assert len(bm25) == 3 and {p for p, _ in bm25} <= allowed
    assert store.bm25().search("backdoor", 3, frozenset([ARORA])) == [
        (ARORA, pytest.approx(bm25_score(store, ARORA)))
    ]


def test_a_filter_on_more_papers_than_sqlite_has_variables_is_queried_in_pages(
    two_venue_store, monkeypatch
):
    """Chroma turns ``paper_id $in [...]`` into one SQL variable per id (SQLite allows 32,766): a filter on 40,000
    ids is queried a page at a time and the pages merged, exactly as one query over the allowed papers."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.store import chroma_reads

    engine = Engine(load_settings({"store": str(two_venue_store)}))
    store = engine.store
    qvec = engine.embedder.embed_one("removing backdoors from a trained model")
    allowed = frozenset(SECOND_VENUE + [CROW, ARORA])
    whole = (store.nearest_chunks(qvec, 5, allowed), store.nearest_sentences(qvec, 9, allowed))
    assert (
        whole[0][0][0] == "dqYO5LVyYh:0:598f25bc" and {p for p, _ in whole[1]} <= allowed
    )  # a NeurIPS copy
    many = allowed | frozenset(f"not-stored-{i}" for i in range(40_000))
    assert (store.nearest_chunks(qvec, 5, many), store.nearest_sentences(qvec, 9, many)) == whole
    monkeypatch.setattr(
        chroma_reads, "READ_PAGE", 2
    )  # the six papers in three pages, each page its own query
    assert (
        store.nearest_chunks(qvec, 5, allowed),
        store.nearest_sentences(qvec, 9, allowed),
    ) == whole


def bm25_score(store, paper_id: str) -> float:
    """The unfiltered BM25 score of one paper for "backdoor" (a filter masks papers, it does not rescore them)."""
    return dict(store.bm25().search("backdoor", 50))[paper_id]


def test_a_filter_that_matches_nothing_is_one_line_naming_it(two_venue_store):
    out = run(two_venue_store, "ask", "backdoors?", "--venue", "AAAI")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == 'error: no paper matches --venue "AAAI" (stored venues: ICML, NeurIPS)\n'
    out = run(two_venue_store, "papers", "--year", "2019")
    assert out.stderr == "error: no paper matches --year 2019 (stored years: 2024, 2025)\n"
    out = run(two_venue_store, "summarize", "backdoors", "--author", "Nobody Known")
    assert out.stderr == 'error: no paper matches --author "Nobody Known"\n'
    out = run(two_venue_store, "ask", "backdoors?", "--venue", "NeurIPS", "--author", "Raman Arora")
    assert out.stderr == (
        'error: no paper matches --author "Raman Arora" --venue "NeurIPS" together '
        "(each matches papers on its own)\n"
    )
    out = run(
        two_venue_store, "chat", "--no-history", "--paper", "p-000000000000", stdin="backdoors?\n"
    )
    assert out.returncode == 1
    assert out.stderr.endswith(  # the suggested command keeps the store given
        "error: no paper with id p-000000000000 in the store (--paper); "
        f"`paperchat --store {two_venue_store} papers` lists them\n"
    )


def test_papers_summarize_and_chat_take_filters(two_venue_store):
    listed = json.loads(run(two_venue_store, "papers", "--venue", "NeurIPS", "--json").stdout)
    assert sorted(r["paper_id"] for r in listed) == sorted(SECOND_VENUE)
    summary = json.loads(
        run(two_venue_store, "summarize", "backdoor defenses", "--year", "2024", "--json").stdout
    )
    assert summary["sources"] and {s["paper_id"] for s in summary["sources"]} <= set(SECOND_VENUE)
    chat = run(
        two_venue_store,
        "chat",
        "--no-history",
        "--venue",
        "NeurIPS",
        stdin="Which papers defend against backdoor attacks?\n/papers\n",
    )
    assert chat.returncode == 0
    cited = [line.split(" — ")[1] for line in chat.stdout.splitlines() if line.startswith("  [")]
    assert cited and set(cited) <= set(SECOND_VENUE)
    assert "4 papers" in chat.stdout and CROW not in chat.stdout


def test_filters_unit():
    from paperchat.core.errors import PaperchatError
    from paperchat.ingest.records import PaperRecord
    from paperchat.retrieve.filters import Filters, matching_ids

    records = {
        "a": PaperRecord("a", authors=["Sébastien Bubeck"], venue="Findings of ACL", year=2024),
        "b": PaperRecord("b", authors=["Ann Lee"], venue="NAACL", year=2024, aliases=["b-old"]),
    }
    assert matching_ids(Filters.of(author="sebastien"), records) == {"a"}
    assert matching_ids(Filters.of(venue="acl"), records) == {"a"}  # whole words: NAACL is not ACL
    assert matching_ids(Filters.of(papers=["b-old"], year=2024), records) == {"b"}
    # a merged duplicate's id in another case too (a break-it session: "zg7bkp6sct" was no paper)
    assert matching_ids(Filters.of(papers=["B-OLD"]), records) == {"b"}
    # a paper's own id wins over the same id left as another paper's alias
    clash = {**records, "b-old": PaperRecord("b-old", authors=["Bo Old"], year=2024)}
    assert matching_ids(Filters.of(papers=["b-old"]), clash) == {"b-old"}
    assert (
        not Filters.of(author="  ", papers=[""])
        and Filters.of(year=2024).describe() == "--year 2024"
    )
    with pytest.raises(
        PaperchatError,
        match=r'^no paper matches --venue "EMNLP" \(stored venues: Findings of ACL, NAACL\)$',
    ):
        matching_ids(Filters.of(venue="EMNLP"), records)
    assert matching_ids(Filters.of(year=2024), records) == {"a", "b"}


def test_a_question_without_content_words_on_one_filtered_paper_gets_its_summary(bundled_engine):
    """ "What does it propose?" with --paper ID: nothing to quote by relevance, so the paper's own summary (a
    newcomer's first try with filters); a question with a content word the paper lacks still abstains."""
    from paperchat.retrieve.filters import Filters

    one = Filters.of(papers=["p-abe9274a3783"])
    answer = bundled_engine.ask("What does it propose?", mode="extractive", filters=one)
    assert not answer.abstained and [s.paper_id for s in answer.sources] == ["p-abe9274a3783"]
    assert (
        answer.notes == ["the filters let one paper through: its summary"]
        and "ConfPO" in answer.answer
    )
    assert bundled_engine.ask(
        "Which GPU cluster did they train on?", mode="extractive", filters=one
    ).abstained


def test_a_paper_id_in_the_wrong_case_is_that_paper_and_a_near_miss_is_named():
    # a reader's --paper avesKAAETB (for AVeskAAETB) had been "no paper with id ..."
    from paperchat.core.errors import PaperchatError
    from paperchat.ingest.records import PaperRecord
    from paperchat.retrieve.filters import Filters, matching_ids

    records = {
        pid: PaperRecord.from_meta(pid, {"title": pid}, "") for pid in ("AVeskAAETB", "zy7Jw91tdh")
    }
    assert matching_ids(Filters(papers=("avesKAAETB",)), records) == frozenset({"AVeskAAETB"})
    with pytest.raises(PaperchatError) as err:
        matching_ids(Filters(papers=("avesKAAETX",)), records)
    assert str(err.value) == (
        "no paper with id avesKAAETX in the store (--paper); did you mean AVeskAAETB? "
        "`paperchat papers` lists them"
    )


def test_an_author_filter_matches_whole_words_of_a_name():
    # an MCP session: "li" let 1,334 of 2,740 papers through (Lin, Liu, Ablin), and "Levine, Sergey" none
    from paperchat.ingest.records import PaperRecord
    from paperchat.retrieve.filters import Filters, matching_ids

    records = {
        "li": PaperRecord("li", authors=["Bo Li"]),
        "lin": PaperRecord("lin", authors=["Shanchuan Lin", "Pierre Ablin"]),
        "levine": PaperRecord("levine", authors=["Seohong Park", "Sergey Levine"]),
    }
    assert matching_ids(Filters.of(author="li"), records) == {"li"}
    assert matching_ids(Filters.of(author="Levine, Sergey"), records) == {"levine"}
    assert matching_ids(Filters.of(author="S. Levine"), records) == {"levine"}
    assert matching_ids(Filters.of(author="ablin"), records) == {"lin"}
