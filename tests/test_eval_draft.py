"""`paperchat eval draft` (paperchat.evaluation.authoring; paperchat.cli.eval_draft).

On a copy of the bundled store: the offline draft's size, kinds and checks (gold papers exist, facts occur in
the gold abstract, no copied sentence, near-miss names nowhere, shared terms in every gold abstract), the same
file for the same seed, the drafted set run through `paperchat eval`; the LLM path against the scripted stub
server (good questions kept, bad ones dropped with their reason counted); one-line errors.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from collections import Counter

import pytest
from click.testing import CliRunner
from openai_stub import Reply, StubServer

from paperchat.cli import cli
from paperchat.core.sentences import split_sentences
from paperchat.evaluation.authoring import checks as ck
from paperchat.evaluation.authoring import corpus as dc
from paperchat.evaluation.authoring import introduces as di
from paperchat.evaluation.authoring import llm as dl
from paperchat.evaluation.authoring import unanswerable as du
from paperchat.evaluation.authoring.draft import DEFAULT_SEED
from paperchat.evaluation.questions import load_questions


@pytest.fixture(scope="module")
def store(bundled_store, tmp_path_factory):
    """A copy of the bundled store (drafting and the eval may write caches and locks into it)."""
    folder = tmp_path_factory.mktemp("draft") / "store"
    shutil.copytree(bundled_store, folder)
    return folder


@pytest.fixture(scope="module")
def papers(store):
    """Stored papers by id, with abstracts."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(store)})).store.papers()


def draft(store, out, *args):
    result = CliRunner().invoke(
        cli, ["--store", str(store), "eval", "draft", "--out", str(out), "--json", *args]
    )
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def offline(store, tmp_path_factory):
    """The offline draft of the bundled corpus: (summary, path, questions)."""
    out = tmp_path_factory.mktemp("offline") / "draft.jsonl"
    summary = draft(store, out, "--mode", "offline")
    return summary, out, load_questions(out)


def test_the_offline_draft_is_large_varied_and_grounded(offline, papers):
    summary, _out, questions = offline
    kinds = Counter(q["kind"] for q in questions)
    assert len(questions) == summary["questions"] >= 60 and summary["drafted_by"] == ["offline"]
    assert len(kinds) >= 4 and {"lookup", "paraphrase", "multi-paper", "unanswerable"} <= set(kinds)
    assert dict(kinds) == summary["kept"] and min(kinds.values()) >= 8
    assert sum(summary["dropped"].values()) > 0 and "over the --n cap" in summary["dropped"]
    templates = {q["template"] for q in questions}
    assert templates == {
        "introduces-description",
        "introduces-direct",
        "reports-number",
        "shared-term",
        "near-miss",
        "false-premise",
    }
    abstracts = {pid: rec.abstract for pid, rec in papers.items()}
    store_text = "\n".join((rec.title + "\n" + rec.abstract).lower() for rec in papers.values())
    sentences = [s for a in abstracts.values() for s in split_sentences(a)]
    grams = {
        tuple(t[i : i + 8]) for s in sentences for t in [dc.tokens(s)] for i in range(len(t) - 7)
    }
    for q in questions:
        gold = [g["id"] for g in q["gold"]]
        assert all(pid in abstracts for pid in gold), q
        assert (
            q["answerable"] == bool(gold)
            and q["drafted_by"] == "offline"
            and q["source"]["paper_id"] in abstracts
        )
        for group in q["facts"]:  # every spelling kept occurs in a gold abstract
            assert all(any(v.lower() in abstracts[pid].lower() for pid in gold) for v in group), q
        assert not any(s.lower() in q["question"].lower() for s in sentences), q
        toks = dc.tokens(q["question"])
        assert not any(tuple(toks[i : i + 8]) in grams for i in range(len(toks) - 7)), q
        if q["template"] == "near-miss":
            fake = q["note"].split("made-up name: ")[1]
            assert fake in q["question"] and fake.lower() not in store_text
        if (
            q["kind"] == "multi-paper"
        ):  # the shared term is in the question: no fact to hold (any answer
            # on topic had held it, an eval-workflow session found)
            assert 2 <= len(gold) <= 5 and q["facts"] == []
        if q["template"] == "introduces-description":  # asked by description, answered by the name
            assert q["facts"][0][0] not in q["question"]
        if (
            q["template"] == "reports-number"
        ):  # a number's fact is a whole figure, not a baseline or a share
            assert not re.search(r"\d[x×]\d", q["facts"][0][0]), q


def test_the_same_seed_gives_the_same_file_and_another_seed_another(store, offline, tmp_path):
    _summary, first, _questions = offline
    again = draft(store, tmp_path / "again.jsonl", "--mode", "offline")
    assert (tmp_path / "again.jsonl").read_bytes() == first.read_bytes() and again[
        "seed"
    ] == DEFAULT_SEED
    small = draft(store, tmp_path / "other.jsonl", "--mode", "offline", "--seed", "7", "--n", "20")
    assert (
        small["questions"] == 20 and max(small["kept"].values()) - min(small["kept"].values()) <= 1
    )
    assert (tmp_path / "other.jsonl").read_text() != first.read_text()


@pytest.mark.integration  # a whole eval run
def test_the_drafted_set_runs_through_the_eval(store, offline, tmp_path):
    _summary, path, _questions = offline
    result = CliRunner().invoke(
        cli,
        [
            "--store",
            str(store),
            "eval",
            "--set",
            str(path),
            "--limit",
            "40",
            "--json",
            "-q",
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 0, result.output
    overall = json.loads((tmp_path / "out" / "results.json").read_text())["overall"]
    assert overall["retrieval.recall@5"]["value"] > 0.8
    assert overall["answers.gold_cited"]["value"] > 0.8
    assert (
        overall["abstention.abstention_rate"]["n"] >= 8
        and overall["abstention.abstention_rate"]["value"] >= 0.6
    )
    assert overall["abstention.false_abstention_rate"]["value"] <= 0.2


def test_the_llm_path_keeps_good_questions_and_counts_why_bad_ones_go(store, papers, tmp_path):
    corpus = dc.Corpus((r.paper_id, r.title, r.label, r.abstract) for r in papers.values())
    first, second = dl.pick_llm_papers(corpus, DEFAULT_SEED, 2)
    assert dc.coined(second.label)
    word = {
        p.paper_id: max(re.findall(r"[a-z]{6,}", p.sentences[1]), key=len) for p in (first, second)
    }
    line = json.dumps
    replies = [
        "\n".join(
            [  # plain JSON lines: two good questions and a fact the abstract does not hold
                line(
                    {
                        "kind": "paraphrase",
                        "question": "Which study did I read that was about something like "
                        f"{word[first.paper_id]}?",
                        "facts": [[word[first.paper_id]]],
                        "sentence": 1,
                    }
                ),
                line(
                    {
                        "kind": "summary",
                        "question": "Summarize the paper on this topic for me, please.",
                        "facts": [[word[first.paper_id], "nonexistent spelling"]],
                        "sentence": 0,
                    }
                ),
                line(
                    {
                        "kind": "paraphrase",
                        "question": "Which paper teaches robotic dogs to juggle?",
                        "facts": [["juggling"]],
                        "sentence": 2,
                    }
                ),
            ]
        ),
        "Here are the questions:\n```json\n[\n"
        + ",\n".join(
            [  # an array in a code fence, with prose around it
                line(
                    {
                        "kind": "paraphrase",
                        "question": "Is there work that copies its abstract? "
                        + second.sentences[1],
                        "facts": [[word[second.paper_id]]],
                        "sentence": 1,
                    }
                ),
                line(
                    {
                        "kind": "paraphrase",
                        "question": f"What does {second.label} improve on?",
                        "facts": [[word[second.paper_id]]],
                    }
                ),
                line(
                    {
                        "kind": "paraphrase",
                        "question": "Did some authors look into " + word[second.paper_id] + "?",
                        "facts": word[second.paper_id],
                        "sentence": 99,
                    }
                ),
                line(
                    {
                        "kind": "lookup",
                        "question": "A kind the prompt does not ask for?",
                        "facts": [["x"]],
                    }
                ),
            ]
        )
        + "\n]\n```\nHope this helps!",
    ]
    offline_run = draft(store, tmp_path / "offline.jsonl", "--mode", "offline", "--n", "60")
    with StubServer() as server:
        server.script(*[Reply(r) for r in replies])
        summary = draft(
            store,
            tmp_path / "llm.jsonl",
            "--mode",
            "llm",
            "--n",
            "12",
            "--base-url",
            server.base_url,
            "--model",
            "stub-model",
        )
        assert server.count() == 2  # ceil(12 / 6) papers, one request each
        prompt = server.requests[0]["body"]["messages"]
    assert "0. " + first.sentences[0] in prompt[1]["content"] and "JSON" in prompt[0]["content"]
    assert summary["drafted_by"] == ["offline", "stub-model"] and summary["kept"]["summary"] == 1
    questions = load_questions(tmp_path / "llm.jsonl")
    by_llm = {q["question"]: q for q in questions if q["drafted_by"] == "stub-model"}
    summary_q = by_llm["Summarize the paper on this topic for me, please."]
    assert summary_q["facts"] == [
        [word[first.paper_id]]
    ]  # the spelling the abstract lacks was removed
    assert summary_q["template"] == "draft" and summary_q["source"] == {
        "paper_id": first.paper_id,
        "sentence": 0,
    }
    assert summary_q["gold"] == [{"id": first.paper_id}]
    loose = "Did some authors look into " + word[second.paper_id] + "?"
    assert (
        loose in by_llm
        and by_llm[loose]["source"]["sentence"] is None
        and by_llm[loose]["kind"] == "paraphrase"
    )
    dropped, before = summary["dropped"], offline_run["dropped"]
    for reason in ("a fact is not in the gold abstract", "copies an abstract sentence"):
        assert dropped[reason] == before.get(reason, 0) + 1, reason
    assert dropped["paraphrase names its paper"] == 1 and dropped["malformed LLM item"] == 1


def test_parse_reply_finds_json_objects_anywhere():
    text = 'Sure!\n```json\n[{"kind": "summary", "question": "Q1?"},\n {"a": {"b": 1}}]\n```\n{bad json}\n{"q": 2}'
    assert dl.parse_reply(text) == [
        {"kind": "summary", "question": "Q1?"},
        {"a": {"b": 1}},
        {"q": 2},
    ]
    assert dl.parse_reply("no questions today") == []


def test_checks_and_near_misses(papers):
    corpus = dc.Corpus((r.paper_id, r.title, r.label, r.abstract) for r in papers.values())
    checks = ck.Checks(corpus)
    confpo = next(p for p in corpus.papers if p.label == "ConfPO")
    assert checks.copies("Tell me: " + confpo.sentences[0])
    assert checks.copies(
        " ".join(confpo.sentences[0].split()[2:10]) + "?"
    )  # eight consecutive words
    assert not checks.copies(
        "Which method picks preference-critical tokens by the policy's confidence?"
    )
    rng = random.Random(1)
    fakes = {du.perturb("ConfPO", rng) for _ in range(30)}
    assert "ConfPO" not in fakes and all(dc.coined(f) for f in fakes)
    intro = di.find_intro(corpus, confpo)
    assert intro.name == "ConfPO" and intro.sentence == 0 and intro.head.startswith("method")
    miss = du.near_miss(corpus, confpo, intro, rng)[0]
    assert not corpus.anywhere(miss["absent"]) and checks.reason(miss) is None
    assert checks.reason({**miss, "absent": "ConfPO"}) == "near-miss name occurs in the store"
    assert ck.near_duplicate(
        ck.word_set("Which papers use GPT-2?"), ck.word_set("which papers use gpt-2")
    )
    assert not ck.near_duplicate(
        ck.word_set("What does ConfPO do?"), ck.word_set("What does CROW do?")
    )


def test_errors_are_one_line(store, tmp_path):
    existing = tmp_path / "exists.jsonl"
    existing.write_text("keep me\n")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperchat",
            "--store",
            str(store),
            "eval",
            "draft",
            "--out",
            str(existing),
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1 and run.stderr.strip().count("\n") == 0, run.stderr
    assert (
        run.stderr.startswith(f"error: {existing} already exists; pass --force")
        and "Traceback" not in run.stderr
    )
    assert existing.read_text() == "keep me\n"
    no_llm = CliRunner().invoke(
        cli,
        [
            "--store",
            str(store),
            "eval",
            "draft",
            "--mode",
            "llm",
            "--out",
            str(tmp_path / "x.jsonl"),
        ],
    )
    assert no_llm.exit_code == 1 and "no API key" in str(no_llm.exception)
    folder = CliRunner().invoke(
        cli, ["--store", str(store), "eval", "draft", "--out", str(tmp_path / "no" / "x.jsonl")]
    )
    assert folder.exit_code == 1 and "does not exist" in str(folder.exception)
    assert not (tmp_path / "x.jsonl").exists()


def test_draft_on_a_mistyped_store_is_refused(tmp_path):
    # a break-it session: `--store MISTYPED eval draft` embedded the bundled corpus there and drafted about it
    from cli_env import run_cli

    out = run_cli("--store", str(tmp_path / "nope"), "eval", "draft", "--n", "3")
    assert out.returncode == 1 and not (tmp_path / "nope").exists()
    assert out.stderr == (
        f"error: no store at {tmp_path / 'nope'}: no papers to draft questions about "
        f"(`paperchat --store {tmp_path / 'nope'} ingest FILES` creates one of your files; without FILES, of the bundled corpus)\n"
    )


def test_a_drafted_number_is_no_resolution_baseline_or_share():
    # an eval-workflow session: "What speed-up does APT report?" was keyed 1280x (a video resolution),
    # a FID question the baseline's 16.04 of "from 16.04 to 7.80", and a count the 3 of "3 of 7 benchmarks"
    from paperchat.evaluation.authoring.numbers import reports

    sentences = [
        "We generate 1280x720, 24fps videos in one step.",
        "It lowers FID from 16.04 to 7.80 on CAD sketches.",
        "It wins 3 of 7 benchmarks.",
    ]
    paper = dc.DraftPaper("p1", "T", "", " ".join(sentences), sentences, sentences)
    corpus = type("C", (), {"abstract_lower": {"p1": " ".join(sentences).lower()}})()
    drafted = reports(corpus, paper, "APT")
    assert [(c["question"], c["facts"]) for c in drafted] == [
        ("What fid does APT reach on CAD?", [["7.80"]]),
        ("On how many benchmarks is APT evaluated?", [["7"]]),
    ]
    # an own-set session: the first of two baselines ("from 1.79/1.58 to ..."), and a bound read as a
    # reduction ("less than 1% of the epochs"); two questions a paper, so a paper of their own
    sentences = [
        "It reduces FID from 1.79/1.58 to 1.30/0.97 on CIFAR-10 and ImageNet.",
        "It trains in less than 1% of the pretraining epochs.",
    ]
    paper = dc.DraftPaper("p2", "T", "", " ".join(sentences), sentences, sentences)
    corpus.abstract_lower["p2"] = " ".join(sentences).lower()
    assert [(c["question"], c["facts"]) for c in reports(corpus, paper, "DDO")] == [
        ("What fid does DDO reach on CIFAR-10?", [["1.30"]])
    ]


def test_a_drafted_number_is_no_power_s_base():
    # an eval author's draft: "How many samples does ... involve?" keyed ["10"] from "$10^4$ samples"
    from paperchat.evaluation.authoring.numbers import reports

    sentences = [
        r"It needs only $10^4$ samples.",
        "It drops (2) overly difficult examples and runs Gemma 2-9b models.",
        "It is tested on 12 datasets.",
    ]
    paper = dc.DraftPaper("p1", "T", "", " ".join(sentences), sentences, sentences)
    corpus = type("C", (), {"abstract_lower": {"p1": " ".join(sentences).lower()}})()
    assert [(c["question"], c["facts"]) for c in reports(corpus, paper, "FMSR")] == [
        ("On how many datasets is FMSR evaluated?", [["12"]])
    ]


def test_a_drafted_factor_is_a_speed_up_only_when_it_is_one():
    # an eval session: QuantSpec's "reduces the memory requirements by $\sim 1.3\times$" was keyed as its
    # speed-up, and its speed-up "$\sim2.5\times$" (a LaTeX "about" glued to the figure) was not read
    from paperchat.evaluation.authoring.numbers import reports

    sentences = [
        r"QuantSpec provides consistent end-to-end speedups upto $\sim2.5\times$ on long contexts.",
        r"QuantSpec also reduces the memory requirements by $\sim 1.3\times$ compared to these alternatives.",
    ]
    paper = dc.DraftPaper("p1", "T", "", " ".join(sentences), sentences, sentences)
    corpus = type("C", (), {"abstract_lower": {"p1": " ".join(sentences).lower()}})()
    assert [(c["question"], c["facts"]) for c in reports(corpus, paper, "QuantSpec")] == [
        ("What speed-up does QuantSpec report?", [["2.5\\times", "2.5"]]),
        ("By what factor does QuantSpec reduce the memory requirements?", [["1.3\\times", "1.3"]]),
    ]
    # a factor of something else ("256x256" images, "15x larger than existing" datasets) is not asked
    sentences = [
        r"On ImageNet $256\times256$ it matches REPA.",
        r"MotionLib is at least 15$\times$ larger than existing counterparts.",
    ]
    paper = dc.DraftPaper("p2", "T", "", " ".join(sentences), sentences, sentences)
    corpus.abstract_lower["p2"] = " ".join(sentences).lower()
    assert reports(corpus, paper, "MotionLib") == []
