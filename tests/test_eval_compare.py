"""`paperchat eval compare` (paperchat.cli.eval_compare) and paperchat.evaluation.compare.

One real eval run of 20 bundled questions (14 lookups, 6 unanswerable) on
the bundled store is run A; run B is built from a copy of its rows, broken on
purpose, so every expected difference is known exactly. Hand-made rows check
the paired bootstrap itself.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest
from cli_env import run_cli
from click.testing import CliRunner

from paperchat.cli import cli
from paperchat.core.errors import PaperchatError
from paperchat.evaluation import questions as qs
from paperchat.evaluation.compare import compare_runs, load_run, render_comparison
from paperchat.evaluation.stats import BOOTSTRAP_SEED, METRICS

SET_IDS = [f"q{i:03d}" for i in range(1, 15)] + [f"q{i:03d}" for i in range(68, 74)]
#: Questions run A answers correctly that run B breaks: no gold paper retrieved, none cited.
BROKEN = ["q001", "q002", "q003", "q005", "q007", "q008", "q010"]
#: An unanswerable question A abstains on that B answers.
ANSWERED = "q068"
RETRIEVAL = [
    "retrieval.recall@1",
    "retrieval.recall@5",
    "retrieval.recall@10",
    "retrieval.mrr@10",
    "retrieval.ndcg@10",
]


@pytest.fixture(scope="module")
def run_a(bundled_store, tmp_path_factory):
    """The folder of a real eval run (the 20 questions of SET_IDS) and its loaded results."""
    tmp = tmp_path_factory.mktemp("compare")
    rows = [
        json.loads(line)
        for line in qs.default_question_set().read_text().splitlines()
        if line.strip()
    ]
    set_path = tmp / "small.jsonl"
    set_path.write_text("".join(json.dumps(q) + "\n" for q in rows if q["id"] in SET_IDS))
    out = tmp / "run-a"
    res = CliRunner().invoke(
        cli,
        ["--store", str(bundled_store), "eval", "--set", str(set_path), "--out", str(out), "-q"],
    )
    assert res.exit_code == 0, res.output
    return out, json.loads((out / "results.json").read_text())


def _broken(a: dict) -> dict:
    """Run B: BROKEN lose their gold paper, ANSWERED is answered, the first question A fails passes."""
    b = copy.deepcopy(a)
    b["config"]["retriever"] = "bm25"
    fixed = False
    for row in b["questions"]:
        if row["id"] in BROKEN:
            row.update({m: 0.0 for m in ("recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10")})
            row.update(
                first_gold_rank=None,
                gold_cited=0.0,
                first_cited_gold=0.0,
                correct=False,
                failure="cites no gold paper",
            )
        elif row["id"] == ANSWERED:
            row.update(abstained=False, correct=False, failure="answered an unanswerable question")
        elif not row["correct"] and row["answerable"] and not fixed:
            row.update(correct=True, failure="", all_facts=1.0)
            fixed = True
    return b


def _write(folder, results) -> str:
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps(results))
    return str(folder)


# -- a run against itself -----------------------------------------------------
def test_a_run_compared_with_itself_changes_nothing(run_a):
    out, a = run_a
    cmp = compare_runs(a, a)
    assert (
        cmp["paired"] == 20
        and cmp["only_a"] == []
        and cmp["only_b"] == []
        and cmp["config_diff"] == {}
    )
    assert list(cmp["metrics"]) == [name for name, *_ in METRICS]
    for name, m in cmp["metrics"].items():
        assert m["n"] == 0 or (
            m["diff"] == 0.0 and m["ci"] == [0.0, 0.0] and m["a"] == m["b"] == m["a_run"]
        ), name
        assert not m["significant"] and not m["regression"] and not m["improvement"]
    assert cmp["metrics"]["retrieval.recall@5"]["n"] == 14
    assert cmp["metrics"]["abstention.abstention_rate"]["n"] == 6
    assert cmp["metrics"]["abstention.accuracy"]["n"] == 20
    assert cmp["newly_failing"] == [] and cmp["newly_passing"] == [] and cmp["regressions"] == []

    res = CliRunner().invoke(cli, ["eval", "compare", str(out), str(out), "--fail-on-regression"])
    assert res.exit_code == 0, res.output
    assert (
        "regressions: none" in res.stdout
        and "newly failing (0)" in res.stdout
        and "▼ worse" not in res.stdout
    )
    assert res.stderr == ""


# -- a deliberately broken run ------------------------------------------------
def test_a_broken_run_shows_the_regressions_and_the_questions(run_a):
    _, a = run_a
    rows_a = {r["id"]: r for r in a["questions"]}
    # the premise: A gets BROKEN right with the gold paper first, and abstains on ANSWERED
    assert all(
        rows_a[i]["correct"] and rows_a[i]["recall@1"] == 1.0 and rows_a[i]["mrr@10"] == 1.0
        for i in BROKEN
    )
    assert rows_a[ANSWERED]["abstained"] and rows_a[ANSWERED]["correct"]
    fixed = next(r for r in a["questions"] if r["answerable"] and not r["correct"])
    cmp = compare_runs(a, _broken(a))

    assert [r["id"] for r in cmp["newly_failing"]] == [*BROKEN, ANSWERED]
    failing = {r["id"]: r for r in cmp["newly_failing"]}
    assert (
        failing["q001"]["failure"] == "cites no gold paper" and failing["q001"]["failure_a"] == ""
    )
    assert failing["q001"]["question"] == rows_a["q001"]["question"]
    assert failing[ANSWERED]["failure"] == "answered an unanswerable question"
    assert [(r["id"], r["failure"], r["failure_a"]) for r in cmp["newly_passing"]] == [
        (fixed["id"], "", fixed["failure"])
    ]
    assert cmp["config_diff"] == {"retriever": {"a": "hybrid", "b": "bm25"}}

    for name in RETRIEVAL:  # 7 of the 14 answerable questions drop from 1 to 0
        m = cmp["metrics"][name]
        assert (m["n"], m["a"], m["b"], m["diff"]) == (14, 1.0, 0.5, -0.5), name
        assert m["ci"][1] < 0 and m["significant"] and m["regression"] and not m["improvement"], (
            name
        )
    acc = cmp["metrics"]["abstention.accuracy"]  # 8 questions newly wrong, 1 newly right, of 20
    assert acc["diff"] == round(-7 / 20, 4) and acc["regression"]
    rate = cmp["metrics"]["abstention.abstention_rate"]  # 1 of 6: too few to tell
    assert rate["diff"] == round(-1 / 6, 4) and not rate["significant"]
    facts = cmp["metrics"]["answers.fact_recall"]
    assert facts["diff"] == 0.0 and not facts["significant"]
    # "answered" figures are paired over the questions answered in both runs (ANSWERED is not, in A);
    # B's own figure, as its report gives it, also counts ANSWERED (answered, wrong)
    answered_a = [r for r in a["questions"] if not r["abstained"]]
    precision = cmp["metrics"]["abstention.precision"]
    assert (
        precision["n"] == cmp["metrics"]["citations.sentence_citation_rate"]["n"] == len(answered_a)
    )
    correct_b = (
        len(answered_a) - sum(not r["correct"] for r in answered_a) - len(BROKEN) + 1
    )  # + the fixed one
    assert precision["b"] == round(correct_b / len(answered_a), 4)
    assert precision["b_run"] == round(correct_b / (len(answered_a) + 1), 4)
    assert set(RETRIEVAL) | {"answers.gold_cited", "abstention.accuracy"} <= set(cmp["regressions"])
    assert cmp["regressions"] == [n for n, m in cmp["metrics"].items() if m["regression"]]


def test_compare_command_table_json_and_gate(run_a, tmp_path):
    out, a = run_a
    run_b = _write(tmp_path / "run-b", _broken(a))
    runner = CliRunner()

    table = runner.invoke(cli, ["eval", "compare", str(out), run_b])
    assert table.exit_code == 0, table.output
    text = table.stdout
    for name in RETRIEVAL:
        line = next(line for line in text.splitlines() if line.startswith(name + " "))
        assert "0.500" in line and "-0.500" in line and line.endswith("▼ worse"), line
    assert 'config differs: retriever "hybrid" → "bm25"' in text
    assert text.index("newly failing (8):") < text.index("q010") < text.index("newly passing (1):")

    as_json = runner.invoke(cli, ["eval", "compare", "--json", str(out), run_b])
    assert as_json.exit_code == 0
    data = json.loads(as_json.stdout)
    assert [r["id"] for r in data["newly_failing"]] == [*BROKEN, ANSWERED]
    assert data["metrics"]["retrieval.recall@5"]["regression"] is True
    assert data["paths"] == {"a": str(out), "b": run_b}

    gate = runner.invoke(cli, ["eval", "compare", str(out), run_b, "--fail-on-regression"])
    assert gate.exit_code == 1
    lines = gate.stderr.splitlines()
    assert len(lines) == len(data["regressions"]) and all(
        line.startswith("eval compare: ") for line in lines
    )
    assert any(
        line.startswith("eval compare: retrieval.recall@5 regressed: 1.000 → 0.500 (Δ -0.500")
        for line in lines
    )
    assert "metric" in gate.stdout  # the table is printed too

    # B as the reference: the same changes, the other way round
    back = compare_runs(_broken(a), a)
    assert back["regressions"] == [] and set(RETRIEVAL) <= set(back["improvements"])
    assert [r["id"] for r in back["newly_passing"]] == [*BROKEN, ANSWERED]


def test_runs_on_partly_different_questions(run_a):
    _, a = run_a
    b = copy.deepcopy(a)
    b["questions"] = [r for r in b["questions"] if r["id"] not in ("q013", "q014")]
    extra = copy.deepcopy(b["questions"][0])
    extra["id"] = "q999"
    b["questions"].append(extra)
    b["questions"][0]["question"] += " (reworded)"
    # an eval-workflow session: a gold paper changed under the same wording went unremarked
    b["questions"][1]["gold"] = ["p-000000000000"]
    cmp = compare_runs(a, b)
    assert (cmp["paired"], cmp["only_a"], cmp["only_b"], cmp["reworded"], cmp["relabelled"]) == (
        18,
        ["q013", "q014"],
        ["q999"],
        ["q001"],
        [b["questions"][1]["id"]],
    )
    assert cmp["metrics"]["retrieval.recall@5"]["n"] == 12
    assert all(not m["significant"] for m in cmp["metrics"].values())
    text = render_comparison(cmp)
    assert (
        "only in A: 2; only in B: 1" in text
        and "only in A (2): q013, q014" in text
        and "other wording" in text
        and f"1 paired question(s) have other labels in B (gold papers, facts, answerable or kind; e.g. "
        f"{b['questions'][1]['id']})"
        in text
    )

    b["questions"] = [dict(extra, id=f"x{i}") for i in range(3)]
    with pytest.raises(PaperchatError, match="share no question"):
        compare_runs(a, b)


# -- the paired bootstrap on hand-made rows -----------------------------------
def _rows(recall_a, recall_b):
    base = {
        "kind": "lookup",
        "answerable": True,
        "abstained": False,
        "facts": [],
        "question": "?",
        "correct": True,
    }
    return (
        {"questions": [dict(base, id=f"h{i}", **{"recall@1": x}) for i, x in enumerate(recall_a)]},
        {"questions": [dict(base, id=f"h{i}", **{"recall@1": y}) for i, y in enumerate(recall_b)]},
    )


def test_paired_bootstrap_interval():
    a, b = _rows([0, 1, 0, 1, 1, 0, 1, 1, 0, 1], [1, 1, 1, 1, 1, 0, 0, 1, 1, 1])
    m = compare_runs(a, b)["metrics"]["retrieval.recall@1"]
    diffs = np.array([1, 0, 1, 0, 0, 0, -1, 0, 1, 0], dtype=float)
    idx = np.random.default_rng(BOOTSTRAP_SEED).integers(0, 10, size=(1000, 10))
    lo, hi = np.quantile(diffs[idx].mean(axis=1), [0.025, 0.975])
    assert (m["n"], m["a"], m["b"], m["diff"]) == (10, 0.6, 0.8, 0.2)
    assert (
        m["ci"] == [round(lo, 4), round(hi, 4)]
        and m["ci"][0] <= 0 <= m["ci"][1]
        and not m["significant"]
    )

    a, b = _rows([0] * 5, [1] * 5)  # every question better: the interval is the point
    m = compare_runs(a, b)["metrics"]["retrieval.recall@1"]
    assert m["ci"] == [1.0, 1.0] and m["improvement"] and not m["regression"]
    m = compare_runs(b, a)["metrics"]["retrieval.recall@1"]
    assert m["diff"] == -1.0 and m["regression"]


def test_lower_is_better_metric_regresses_upwards():
    a, b = _rows([1] * 6, [1] * 6)
    for row in b["questions"]:
        row.update(abstained=True, correct=False, failure="abstained")
    cmp = compare_runs(a, b)
    far = cmp["metrics"]["abstention.false_abstention_rate"]
    assert (far["a"], far["b"], far["diff"], far["regression"]) == (0.0, 1.0, 1.0, True)
    assert "abstention.false_abstention_rate" in cmp["regressions"]
    assert len(cmp["newly_failing"]) == 6 and cmp["newly_failing"][0]["failure"] == "abstained"


# -- errors -----------------------------------------------------------------------
def test_missing_or_bad_results_are_one_line_errors(run_a, tmp_path):
    out, _ = run_a
    runner = CliRunner()
    empty = tmp_path / "empty"
    empty.mkdir()
    res = runner.invoke(cli, ["eval", "compare", str(out), str(empty)])
    assert res.exit_code == 1 and isinstance(res.exception, PaperchatError)
    assert f"{empty} holds no results.json" in str(res.exception)

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.json").write_text("{not json")
    with pytest.raises(PaperchatError, match="not JSON"):
        load_run(bad)
    (bad / "results.json").write_text(json.dumps({"overall": {}}))
    with pytest.raises(PaperchatError, match="no 'questions' list"):
        load_run(bad / "results.json")
    (bad / "results.json").write_text(json.dumps({"questions": [{"id": "q1"}, {"id": "q1"}]}))
    with pytest.raises(PaperchatError, match="q1 appears more than once"):
        load_run(bad)

    proc = run_cli("eval", "compare", str(out), str(tmp_path / "nope"))
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"error: no eval run at {tmp_path / 'nope'}: {tmp_path / 'nope'} does not exist "
        f"(write one with `paperchat eval --out {tmp_path / 'nope'}`)"
    ]


def test_help_is_fast_and_has_examples():
    code = (
        "import sys; from click.testing import CliRunner; from paperchat.cli import cli; "
        "r = CliRunner().invoke(cli, ['eval', 'compare', '--help']); print(r.output); "
        "print('heavy:', [m for m in ('numpy', 'chromadb', 'onnxruntime') if m in sys.modules])"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (
        "Examples:" in proc.stdout
        and "--fail-on-regression" in proc.stdout
        and "--json" in proc.stdout
    )
    assert "heavy: []" in proc.stdout


def test_an_out_folder_under_a_file_is_refused_before_any_question(bundled_store, tmp_path):
    # an eval session: `--out afile/sub` answered every question, then failed to write and lost the run
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    set_path = tmp_path / "one.jsonl"
    set_path.write_text(json.dumps({"id": "o1", "question": "What is ConfPO?"}) + "\n")
    res = CliRunner().invoke(
        cli,
        [
            "--store",
            str(bundled_store),
            "eval",
            "--set",
            str(set_path),
            "--out",
            str(afile / "sub"),
        ],
    )
    # the CLI prints a PaperchatError as its one line (`error: ...`, exit status 1)
    assert (
        str(res.exception) == f"cannot write the eval outputs to {afile / 'sub'}: Not a directory"
    )
    assert "o1" not in res.output  # refused before the question was asked
