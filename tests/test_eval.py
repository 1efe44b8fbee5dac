"""The eval (paperchat.evaluation) and `paperchat eval` (paperchat.cli.eval_cmd).

Metric functions against hand-computed values; the offline eval on the
bundled set against the committed baseline; a broken retriever failing the gate.
"""

from __future__ import annotations

import json
import math

import pytest

from paperchat.core.contract import Answer, Source
from paperchat.core.errors import PaperchatError
from paperchat.evaluation import measures, runner, stats
from paperchat.evaluation import questions as qs
from paperchat.evaluation import report as er
from paperchat.evaluation.measures import mrr_at_k, ndcg_at_k, recall_at_k


# -- metric functions ----------------------------------------------------------
def test_recall_at_k_hand_computed():
    ranked = ["a", "x", "b", "y"]
    gold = {"a", "b", "c"}
    assert recall_at_k(ranked, gold, 1) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, gold, 3) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, gold, 10) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, set(), 10) == 0.0


def test_mrr_hand_computed():
    assert mrr_at_k(["x", "y", "a"], {"a"}, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["x", "a", "b"], {"a", "b"}, 10) == pytest.approx(1 / 2)
    assert mrr_at_k(["x", "a"], {"a"}, 1) == 0.0  # outside the cut-off
    assert mrr_at_k([], {"a"}, 10) == 0.0


def test_ndcg_with_several_gold_papers():
    # gains at ranks 1 and 3; the ideal ranks all three gold papers first
    dcg = 1 / math.log2(2) + 1 / math.log2(4)
    ideal = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(["a", "x", "b", "y"], {"a", "b", "c"}, 10) == pytest.approx(dcg / ideal)
    assert dcg / ideal == pytest.approx(1.5 / 2.130930, abs=1e-6)  # 0.70392
    assert ndcg_at_k(["a", "b"], {"a", "b"}, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["b", "a", "a"], {"a", "b"}, 10) == pytest.approx(1.0)  # repeats gain nothing


def test_ndcg_with_no_gold_retrieved():
    assert ndcg_at_k(["x", "y", "z"], {"a", "b"}, 10) == 0.0
    assert ndcg_at_k([], {"a"}, 10) == 0.0
    assert ndcg_at_k(["a"], set(), 10) == 0.0


def test_retrieval_scores_and_first_gold_rank():
    s = measures.retrieval_scores(["x", "a"], {"a"})
    assert s == pytest.approx(
        {
            "recall@1": 0.0,
            "recall@5": 1.0,
            "recall@10": 1.0,
            "mrr@10": 0.5,
            "ndcg@10": 1 / math.log2(3),
        }
    )
    assert measures.first_gold_rank(["x", "y", "a"], {"a"}) == 3
    assert measures.first_gold_rank(["x"], {"a"}) is None


def test_bootstrap_ci_constant_list_and_determinism():
    assert stats.bootstrap_ci([0.7] * 25) == (0.7, 0.7)
    assert stats.bootstrap_ci([]) is None
    vals = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1]
    lo, hi = stats.bootstrap_ci(vals)
    assert lo <= 0.7 <= hi and 0.0 <= lo < hi <= 1.0
    assert stats.bootstrap_ci(vals) == (lo, hi)  # fixed seed
    assert stats.summarize([1.0, 1.0]) == {"value": 1.0, "ci": [1.0, 1.0], "n": 2}
    assert stats.summarize([]) == {"value": None, "ci": None, "n": 0}


def test_fact_recall_groups_and_variants():
    facts = [["AlpacaEval 2", "AlpacaEval"], ["Arena-Hard"], ["MT-Bench"]]
    answer = "ConfPO improves alpacaeval and ARENA-HARD scores [1]."
    assert measures.facts_found(answer, facts) == [True, True, False]
    assert measures.fact_recall(answer, facts) == pytest.approx(2 / 3)
    assert measures.fact_recall(answer, []) is None
    # white space folded on both sides: a fact typed with doubled spaces, an answer wrapped over lines
    assert measures.facts_found("masked\n discrete diffusion [1]", [["discrete   diffusion"]]) == [
        True
    ]


@pytest.mark.parametrize(
    "answer,fact,found",
    [
        # a newcomer's eval session: each of these had counted as found
        ("We use HMR-Scorer to build it [1].", "1", False),  # the citation marker
        ("HMR-Scorer builds it [1].", "core", False),  # inside a word
        ("1280x720, 24fps videos [1].", "1280x", False),  # a resolution, not a speed-up
        ("as in 2023 [2].", "3", False),  # inside a number
        ("from 1.885 s [1].", "1.88", False),
        ("a 3.5 point gain [1].", "3", False),
        # and this had not: emphasis markup inside the quoted words
        ("**A**ligns a **D**iffusion-based **HMR** [1].", "Aligns a Diffusion-based HMR", True),
        # endings and a symbol before a number stay free
        ("probabilities are heavy tailed [1].", "heavy tail", True),
        ("a speedup of x1.4 [1].", "1.4", True),
        ("speedups up to $\\sim2.5\\times$ [1].", "2.5", True),
        # an eval session's: a number inside a name had counted, a figure copied from an answer had not
        ("evaluated on GPT-4 and Claude-2 [1].", "4", False),
        ("on one A100 GPU [1].", "100", False),
        ("up to 6$\\times$ larger batch sizes [1].", "6×", True),
        ("3.04× higher throughput [1].", "3.04x", True),
        ("speedups up to $\\sim2.5\\times$ [1].", "2.5x", True),
        # an eval session: a fact "1%" missed an abstract's "1\\%"
        ("less than 1\\% accuracy drop [1].", "1%", True),
        ("less than 1% accuracy drop [1].", "1\\%", True),
        ("less than 11\\% accuracy drop [1].", "1%", False),
    ],
)
def test_a_fact_is_matched_as_words_or_a_number(answer, fact, found):
    assert measures.facts_found(answer, [[fact]]) == [found]


def _result(answer, sources):
    return Answer(
        "q",
        answer,
        "extractive",
        sources=[
            Source(n, pid, "", pid, "", "f.txt", n, f"{pid}:0:x", text)
            for n, (pid, text) in enumerate(sources, 1)
        ],
    )


def test_citation_scores_without_checker():
    res = _result(
        "A first claim [1]. Another claim [3]. A claim without citation.", [("p1", "text")]
    )
    s = measures.citation_scores(res, {"p1", "p2"}, None)
    assert s["sentences"] == 3
    assert s["sentence_citation_rate"] == pytest.approx(2 / 3)
    assert (s["markers"], s["out_of_range"], s["out_of_range_share"]) == (2, 1, 0.5)
    assert s["cited"] == ["p1"]
    assert s["cited_gold_share"] == 1.0 and s["gold_cited_share"] == 0.5
    assert s["citation_recall"] is None and s["citation_precision"] is None
    # an LLM answer's [7] (of 5 sources sent) is removed from its text before it is scored: it still counts
    llm = _result("A first claim [1].", [("p1", "text")])
    llm.invalid_citations = [7]
    s = measures.citation_scores(llm, {"p1"}, None)
    assert (s["markers"], s["out_of_range"], s["out_of_range_share"]) == (2, 1, 0.5)


class _Checker:
    """Supports a sentence when any of the texts says "good"."""

    available = True

    def supports(self, sentence, texts):
        return any("good" in t for t in texts)


def test_citation_recall_and_precision_alce():
    # sentence 1 cites a supporting and a redundant source; sentence 2 cites only an unsupporting one
    res = _result("Claim one [1, 2]. Claim two [2].", [("p1", "good"), ("p2", "bad")])
    s = measures.citation_scores(res, {"p1"}, _Checker())
    assert s["citation_recall"] == pytest.approx(1 / 2)  # 1 of 2 sentences supported
    assert s["citation_precision"] == pytest.approx(1 / 3)  # [1] relevant; both [2] irrelevant
    assert s["cited_gold_share"] == pytest.approx(1 / 2) and s["gold_cited_share"] == 1.0
    # two citations each needed only together: both relevant
    res = _result("Claim [1, 2].", [("p1", "go"), ("p2", "od")])

    class Joint(_Checker):
        def supports(self, sentence, texts):
            return "good" in "".join(texts)

    s = measures.citation_scores(res, set(), Joint())
    assert s["citation_recall"] == 1.0 and s["citation_precision"] == 1.0
    assert s["cited_gold_share"] is None and s["gold_cited_share"] is None


def test_follow_up_is_asked_with_its_previous_question(tmp_path):
    path = tmp_path / "set.jsonl"
    rows = [
        {
            "id": "a",
            "question": "Which paper proposes LightGTS?",
            "kind": "follow-up",
            "answerable": True,
            "gold": [{"path": "f.txt", "index": 1}],
            "facts": [],
        },
        {
            "id": "b",
            "question": "How many benchmarks?",
            "kind": "follow-up",
            "answerable": True,
            "gold": [{"path": "f.txt", "index": 1}],
            "facts": [["9", "nine"]],
            "follow_up_of": "a",
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    loaded = qs.load_questions(path)
    by_id = {q["id"]: q for q in loaded}
    assert (
        qs.asked_question(by_id["b"], by_id)
        == "Which paper proposes LightGTS? How many benchmarks?"
    )
    assert qs.asked_question(by_id["a"], by_id) == "Which paper proposes LightGTS?"
    rows[1]["follow_up_of"] = "zzz"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    with pytest.raises(PaperchatError, match=r"set.jsonl:2: follow_up_of 'zzz'"):
        qs.load_questions(path)


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("kind", 5, 'set.jsonl:1: \'kind\' must be a string such as "lookup" or "unanswerable"'),
        (
            "answerable",
            "no",
            "set.jsonl:1: 'answerable' must be true or false",
        ),  # "no" was scored as answerable
        (
            "id",
            14,
            "set.jsonl:1: 'id' must be a string, not 14",
        ),  # had said "missing or empty 'id'"
        # a break-it session: a typo was ignored (and the question counted answerable), and an over-long
        # question failed with no id or line
        ("answerble", False, "set.jsonl:1: unknown key 'answerble'; did you mean 'answerable'?"),
        (
            "question",
            "x" * 2001,
            "set.jsonl:1: question 'a' is 2001 characters long; the limit is 2000",
        ),
        # an eval-workflow session: a JSON number had crashed the run (TypeError) or passed, null crashed,
        # "" counted as found in every answer
        (
            "facts",
            [[None]],
            "set.jsonl:1: 'facts' must be a list of non-empty lists of variants (text or numbers); got null",
        ),
        (
            "facts",
            [[""]],
            "set.jsonl:1: 'facts' must be a list of non-empty lists of variants (text or numbers); got \"\"",
        ),
    ],
)
def test_a_field_of_the_wrong_type_is_named(tmp_path, field, value, message):
    path = tmp_path / "set.jsonl"
    row = {
        "id": "a",
        "question": "Which paper proposes LightGTS?",
        "gold": [{"path": "f.txt", "index": 1}],
    }
    path.write_text(json.dumps({**row, field: value}) + "\n")
    with pytest.raises(PaperchatError) as err:
        qs.load_questions(path)
    assert str(err.value) == f"{path.parent}/{message}"


def test_facts_as_numbers_a_bom_and_a_key_given_twice(tmp_path):
    path = tmp_path / "set.jsonl"
    row = {"id": "a", "question": "By how much?", "gold": [{"id": "x"}], "facts": [[121, "1.2x"]]}
    path.write_text("\ufeff" + json.dumps(row) + "\n", encoding="utf-8")  # a Windows editor's BOM
    assert qs.load_questions(path)[0]["facts"] == [["121", "1.2x"]]
    # a key given twice: JSON keeps the last ("gold": [] made the question unanswerable, silently)
    path.write_text('{"id": "a", "question": "Which?", "gold": [{"id": "x"}], "gold": []}\n')
    with pytest.raises(PaperchatError) as err:
        qs.load_questions(path)
    assert str(err.value) == f"{path}:1: key 'gold' is given twice"


def test_check_baseline_names_each_metric():
    results = {
        "overall": {
            "retrieval.mrr@10": {"value": 0.9},
            "answers.fact_recall": {"value": 0.7},
            "abstention.false_abstention_rate": {"value": 0.2},
            "citations.recall": {"value": None},
        }
    }
    baseline = {
        "min": {"retrieval.mrr@10": 0.95, "answers.fact_recall": 0.7, "citations.recall": 0.5},
        "max": {"abstention.false_abstention_rate": 0.1},
    }
    failures = er.check_baseline(results, baseline)
    assert len(failures) == 3
    assert any(f.startswith("retrieval.mrr@10 = 0.900 is below") for f in failures)
    assert any(f.startswith("citations.recall: not measured") for f in failures)
    assert any(f.startswith("abstention.false_abstention_rate = 0.200 is above") for f in failures)


def test_a_quick_run_skips_the_splits_its_sample_holds_no_question_of():
    # an eval session: `--limit 1 --check` failed "test split: citations.recall: not measured" on any set
    # with splits whose first questions are all dev
    results = {
        "config": {"limit": 1},
        "overall": {"citations.recall": {"value": 1.0}},
        "by_split": {"dev": {"overall": {"citations.recall": {"value": 1.0}}}},
        "questions": [{"id": "q1", "split": "dev", "answerable": True}],
    }
    baseline = {
        "min": {"citations.recall": 0.9},
        "splits": {"test": {"min": {"citations.recall": 0.9}}},
    }
    assert er.check_baseline(results, baseline) == []
    assert er.unmeasured(results, baseline) == ["test split: citations.recall (no question)"]
    results["config"]["limit"] = None  # a full run that measured no test question fails
    assert er.check_baseline(results, baseline) == [
        "test split: citations.recall: not measured (baseline min 0.900)"
    ]


def test_a_quick_run_skips_all_compared_cited_when_its_sample_holds_no_comparison():
    # an eval author's `--limit 3 --check` with {"min": {"answers.all_compared_cited": 0.5}} failed "not
    # measured" on a sample of lookups, though the README says a sample skips what it holds no question for
    results = {
        "config": {"limit": 3},
        "overall": {"answers.all_compared_cited": {"value": None}},
        "questions": [
            {"id": f"q{i}", "split": None, "answerable": True, "all_gold_cited": None}
            for i in range(3)
        ],
    }
    baseline = {"min": {"answers.all_compared_cited": 0.5}}
    assert er.check_baseline(results, baseline) == []
    assert er.unmeasured(results, baseline) == [
        "answers.all_compared_cited (no comparison question)"
    ]
    results["questions"][0]["all_gold_cited"] = 0.0  # a comparison in the sample is measured
    results["overall"]["answers.all_compared_cited"]["value"] = 0.0
    assert er.check_baseline(results, baseline) == [
        "answers.all_compared_cited = 0.000 is below the baseline minimum 0.500"
    ]


def test_a_baseline_that_bounds_nothing_is_refused(tmp_path):
    # a newcomer's {"answers.fact_recall": 0.99} had let `eval --check` pass at 0.900
    path = tmp_path / "baseline.json"
    path.write_text('{"answers.fact_recall": 0.99}')
    with pytest.raises(PaperchatError) as err:
        er.load_baseline(path)
    assert str(err.value) == (
        f"{path}: expected an object with 'min' and 'max' maps of metric -> value (or 'splits': "
        '{split: {min, max}}), e.g. {"min": {"answers.fact_recall": 0.8}}'
    )
    path.write_text('{"min": {"answers.fact_recall": 0.99}}')
    assert er.load_baseline(path) == {"min": {"answers.fact_recall": 0.99}}


@pytest.mark.parametrize(
    "text,message",
    [
        # checked before the run: a bad value had thrown away a whole answered eval with a ValueError
        (
            '{"min": {"answers.fact_recall": "high"}}',
            'min.answers.fact_recall must be a number, not "high"',
        ),
        ('{"max": {"abstention.false_abstention_rate": true}}', "must be a number, not true"),
        (
            '{"min": {"answers.fact_recal": 0.8}}',
            "min: unknown metric 'answers.fact_recal' (did you mean answers.fact_recall?",
        ),
        (
            '{"min": {}, "splits": {"test": {"max": {"recall@5": 1}}}}',
            "splits.test.max: unknown metric",
        ),
        ('{"min": {}, "splits": ["test"]}', "'splits' must map each split"),
        # a NaN minimum can never fail, and infinity only fails after the run
        (
            '{"min": {"answers.fact_recall": NaN}}',
            "min.answers.fact_recall must be a number, not NaN",
        ),
        ('{"max": {"answers.fact_recall": 1e999}}', "must be a number, not Infinity"),
        # an eval session's floor on a rate that should be low failed a perfect run and passed a worse one
        (
            '{"min": {"abstention.false_abstention_rate": 0.5}}',
            "min.abstention.false_abstention_rate: abstention.false_abstention_rate is better lower, so "
            "bound it with 'max', not 'min'",
        ),
        ('{"max": {"answers.fact_recall": 0.5}}', "is better higher, so bound it with 'min'"),
    ],
)
def test_a_baseline_with_a_bad_bound_is_refused_before_the_run(tmp_path, text, message):
    path = tmp_path / "baseline.json"
    path.write_text(text)
    with pytest.raises(PaperchatError) as err:
        er.load_baseline(path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_baseline_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "baseline.json"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(PaperchatError, match=r"baseline\.json: not UTF-8 JSON$"):
        er.load_baseline(path)


def test_default_set_and_baseline_exist():
    loaded = qs.load_questions(qs.default_question_set())
    assert len(loaded) == 100
    baseline = er.load_baseline(qs.default_baseline())
    assert set(baseline["min"]) | set(baseline["max"]) <= {m[0] for m in stats.METRICS}


def test_the_generalization_sets_hold_twenty_eight_splits_of_1364_questions():
    """The twenty-eight independently written sets (eval/generalization): seventeen tuned on, eleven held out."""
    from collections import Counter

    loaded = [q for path in qs.resolve_set("generalization") for q in qs.load_questions(path)]
    assert Counter(q["split"] for q in loaded) == {
        "a-tune": 48,
        "b-heldout": 48,
        "c-heldout": 48,
        "d-tune": 60,
        "e-tune": 48,
        "f-tune": 48,
        "g-heldout": 56,
        "h-tune": 48,
        "i-tune": 48,
        "j-tune": 48,
        "k-heldout": 56,
        "l-heldout": 56,
        "m-tune": 48,
        "n-tune": 48,
        "o-tune": 48,
        "p-tune": 48,
        "q-heldout": 48,
        "r-tune": 48,
        "s-heldout": 48,
        "t-tune": 48,
        "u-heldout": 48,
        "v-heldout": 48,
        "w-tune": 48,
        "x-tune": 48,
        "y-heldout": 48,
        "z-heldout": 40,
        "aa-tune": 48,
        "ab-tune": 40,
    }
    # the letters the code and `eval --help` name as tuned on and held out are the files' own splits
    assert {
        s.split("-")[0] for s in Counter(q["split"] for q in loaded) if s.endswith("-tune")
    } == set(qs.TUNED_ON)
    assert {
        s.split("-")[0] for s in Counter(q["split"] for q in loaded) if s.endswith("-heldout")
    } == set(qs.HELD_OUT)
    baseline = er.load_baseline(
        qs.resolve_set("bundled")[0].parent / "baseline_generalization.json"
    )
    assert set(baseline["splits"]) == {q["split"] for q in loaded}


def test_split_sets_report_each_split_and_its_abstention_sweep(bundled_engine, tmp_path):
    """A set whose questions carry splits (as eval/generalization's do): figures, a sweep and a report section
    per split, titled by what it is for."""
    picked = [q for q in qs.load_questions(qs.default_question_set()) if not q.get("follow_up_of")]
    rows = [{**q, "split": "a-tune"} for q in picked[:4]] + [
        {**q, "split": "c-heldout"} for q in [q for q in picked if not q["answerable"]][:2]
    ]
    path = tmp_path / "split_set.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    results = runner.run_eval(bundled_engine, path, baselines=())
    assert set(results["by_split"]) == {"a-tune", "c-heldout"}
    assert set(results["sweep"]) == {"all", "a-tune", "c-heldout"}
    first = results["sweep"]["all"][0]  # threshold 0: what the answerer itself answers
    answered = sum(not r["abstained"] for r in results["questions"]) / len(rows)
    assert first["threshold"] == 0.0 and first["answered"] == round(answered, 4)
    er.write_outputs(results, tmp_path / "out", [])
    text = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    # a user's own set: paperchat tuned on none of its splits, so no split is said to be tuned on
    assert results["config"]["shipped"] is False
    assert "### a-tune split\n" in text and "### c-heldout split\n" in text
    assert "tune paperchat" not in text and "(tuned on)" not in text
    assert "## Abstention sweep" in text
    # a shipped set's splits say what each is for
    shipped = er.render_report({**results, "config": {**results["config"], "shipped": True}})
    assert (
        "### a-tune split (tuned on)" in shipped
        and "### c-heldout split (report this one)" in shipped
    )


# -- the offline eval on the bundled set -------------------------------------------
@pytest.fixture(scope="module")
def engine(bundled_store):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(bundled_store)}))


@pytest.fixture(scope="module")
def results(engine):
    return runner.run_eval(engine)


@pytest.mark.integration  # the whole offline eval
def test_offline_eval_reproduces_the_committed_baseline(results, tmp_path):
    assert er.check_baseline(results, er.load_baseline(qs.default_baseline())) == []
    cfg = results["config"]
    assert (cfg["questions"], cfg["answerable"], cfg["top_k"], cfg["retriever"]) == (
        100,
        67,
        5,
        "hybrid",
    )
    assert cfg["set"] == "eval/questions.jsonl" and cfg["llm"] is None
    for name, stat in results["overall"].items():
        assert stat["value"] is not None, name
        assert stat["ci"][0] - 1e-9 <= stat["value"] <= stat["ci"][1] + 1e-9, name
    assert set(results["by_kind"]) == {
        "lookup",
        "paraphrase",
        "multi-paper",
        "comparison",
        "summary",
        "follow-up",
        "unanswerable",
    }
    assert set(results["baselines"]) == {"bm25", "dense", "hybrid"}
    # the hybrid baseline is the pipeline's retriever
    for m in stats.RETRIEVAL_METRICS:
        assert (
            results["baselines"]["hybrid"][f"retrieval.{m}"] == results["overall"][f"retrieval.{m}"]
        )
    follow = next(r for r in results["questions"] if r["id"] == "q063")
    assert follow["asked"].startswith("Which paper proposes a lightweight") and follow[
        "asked"
    ].endswith("settings?")
    files = er.write_outputs(results, tmp_path / "out", [])
    report = (tmp_path / "out" / "report.md").read_text()
    assert "## Overall" in report and "## Retrievers side by side" in report and "Passed." in report
    q_table = report.split("## Questions", 1)[1]
    assert q_table.index("| FAIL |") < q_table.index("| ok |")  # failures first
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert saved["overall"] == results["overall"] and saved["check"] == {
        "passed": True,
        "failures": [],
    }
    assert set(files) == {"report", "results"}


@pytest.mark.integration  # the whole offline eval
def test_results_are_deterministic(engine, results):
    again = runner.run_eval(engine, limit=12, baselines=())
    keys = (
        "id",
        "asked",
        "ranked",
        "abstained",
        "answer",
        "cited",
        "correct",
        "citation_recall",
        "fact_recall",
    )
    for a, b in zip(again["questions"], results["questions"][:12]):
        assert {k: a.get(k) for k in keys} == {k: b.get(k) for k in keys}


@pytest.fixture
def fresh_engine(bundled_store):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(bundled_store)}))


@pytest.mark.integration  # a 30-question eval run
def test_reversed_retriever_fails_the_gate(fresh_engine, monkeypatch):
    """The committed baseline catches a real regression (the pipeline's own ranking, reversed). How the gate
    reports each metric is test_check_baseline_names_each_metric's; one eval run here is enough."""
    retriever = fresh_engine.retriever
    real = retriever.retrieve

    def reversed_ranking(question, top_k=5, qvec=None, paper_ids=None):
        return list(reversed(real(question, top_k, qvec=qvec, paper_ids=paper_ids)))

    monkeypatch.setattr(retriever, "retrieve", reversed_ranking)
    broken = runner.run_eval(fresh_engine, limit=30, baselines=())
    failures = er.check_baseline(broken, er.load_baseline(qs.default_baseline()))
    failed = {f.split()[0].rstrip(":") for f in failures}
    assert {"retrieval.recall@1", "retrieval.mrr@10", "retrieval.ndcg@10"} <= failed
    assert broken["overall"]["retrieval.mrr@10"]["value"] < 0.5


# -- the command ------------------------------------------------------------------
def test_eval_command_json_and_check(bundled_store, tmp_path):
    from click.testing import CliRunner

    from paperchat.cli.eval_cmd import eval_command
    from paperchat.cli.options import AppContext

    rows = [
        json.loads(line)
        for line in qs.default_question_set().read_text().splitlines()
        if line.strip()
    ]
    small = [q for q in rows if q["id"] in ("q001", "q062", "q063", "q068")]
    set_path = tmp_path / "small.jsonl"
    set_path.write_text("\n".join(json.dumps(q) for q in small) + "\n")
    lenient = tmp_path / "lenient.json"
    lenient.write_text(json.dumps({"min": {"retrieval.recall@5": 0.5}, "max": {}}))
    strict = tmp_path / "strict.json"
    # the support checker is off (--no-verify): its figures are not measured, which fails the check
    strict.write_text(json.dumps({"min": {"citations.recall": 0.5, "citations.precision": 0.5}}))
    runner = CliRunner()
    args = ["--set", str(set_path), "--out", str(tmp_path / "out"), "--check", "-q"]

    ok = runner.invoke(
        eval_command,
        [*args, "--json", "--baseline", str(lenient)],
        obj=AppContext({"store": str(bundled_store)}),
    )
    assert ok.exit_code == 0, ok.output
    summary = json.loads(ok.stdout)
    assert summary["config"]["questions"] == 4 and summary["check"]["passed"] is True
    assert (tmp_path / "out" / "report.md").is_file() and (
        tmp_path / "out" / "results.json"
    ).is_file()

    bad = runner.invoke(
        eval_command,
        [*args, "--baseline", str(strict), "--no-verify"],
        obj=AppContext({"store": str(bundled_store)}),
    )
    assert bad.exit_code == 1
    lines = [line for line in bad.stderr.splitlines() if line.startswith("eval check failed:")]
    assert len(lines) == 2
    assert lines == [
        "eval check failed: citations.precision: not measured (baseline min 0.500)",
        "eval check failed: citations.recall: not measured (baseline min 0.500)",
    ]
    assert "metric" in bad.stdout and "retrievers" in bad.stdout


def test_eval_command_missing_set_is_a_clear_error(bundled_store, tmp_path):
    from click.testing import CliRunner

    from paperchat.cli.eval_cmd import eval_command
    from paperchat.cli.options import AppContext

    res = CliRunner().invoke(
        eval_command,
        ["--set", str(tmp_path / "nope.jsonl"), "-q"],
        obj=AppContext({"store": str(bundled_store)}),
    )
    assert res.exit_code != 0
    assert isinstance(res.exception, PaperchatError) and "cannot read the eval set" in str(
        res.exception
    )


def test_an_unknown_set_name_lists_the_shipped_sets():
    from paperchat.evaluation import questions as qs

    with pytest.raises(PaperchatError) as info:
        qs.resolve_set("general-zz")
    assert str(info.value).startswith(
        "no eval set named 'general-zz': the shipped sets are bundled, conference, conference-dev, "
    )
    assert str(info.value).endswith(
        "general-y, general-z, general-aa, general-ab; or pass --set FILE (JSONL)"
    )


def test_an_own_eval_set_on_a_mistyped_store_is_refused_and_seeds_nothing(tmp_path):
    """A user's set is about the user's papers: a new (mistyped) --store had been filled with the 38 bundled
    papers before the gold papers were found missing."""
    from cli_env import run_cli

    own = tmp_path / "mine.jsonl"
    own.write_text('{"id": "m1", "question": "Which paper?", "gold": ["x1"]}\n', encoding="utf-8")
    store = tmp_path / "stroe"
    ran = run_cli("eval", "--set", str(own), "-q", store=store)
    assert ran.returncode == 1
    assert ran.stderr == (
        f"error: no store at {store}: ingest the papers your eval set is about first "
        f"(`paperchat --store {store} ingest FILE...`), or pass --corpus FILE\n"
    )
    assert not store.exists()


def test_a_set_of_unanswerable_questions_only_is_reported(bundled_engine, tmp_path):
    # a break-it session: a set of false premises only ended in "TypeError: unsupported format string"
    path = tmp_path / "premises.jsonl"
    path.write_text(
        '{"id": "u1", "question": "What GPU did ConfPO train on?", "answerable": false}\n',
        encoding="utf-8",
    )
    results = runner.run_eval(bundled_engine, path)
    summary = er.render_summary(results)
    assert "abstention.abstention_rate                 1.000" in summary
    assert "pipeline (hybrid)             –             –" in summary
    assert "# paperchat eval report" in er.render_report(results)


def test_a_gold_id_the_store_lacks_names_its_question(bundled_engine, tmp_path):
    # an eval session: a misspelt gold id was told to ingest a corpus, naming no question
    path = tmp_path / "mine.jsonl"
    path.write_text(
        '{"id": "m1", "question": "What is ConfPO?", "gold": ["p-abe9274a3783"]}\n'
        '{"id": "m2", "question": "What is CROW?", "gold": ["p-f951bc7f7256x"]}\n',
        encoding="utf-8",
    )
    with pytest.raises(PaperchatError) as err:
        runner.run_eval(bundled_engine, path)
    assert str(err.value).startswith(
        "the store lacks 1 gold paper(s) of the eval set (e.g. p-f951bc7f7256x, gold of question m2); "
        "check the id, or ingest"
    )


def test_gold_by_position_in_a_file_whose_copy_was_merged(tmp_path):
    # a break-it session: {"path": "icml2025_abstracts.jsonl", "index": 461} (ConfPO, merged into the bundled
    # copy) was "not in the corpus", though `papers --json` lists the file in the paper's also_in
    from paperchat import Paperchat

    text = "We prune graph neural networks by edge saliency. Accuracy stays within one percent."
    other = "We learn robot grasping from tactile signals. Success rises to ninety percent."
    first, second = tmp_path / "mine.jsonl", tmp_path / "conf.jsonl"
    first.write_text(
        json.dumps({"id": "a1", "title": "Edge Saliency Pruning", "abstract": text}) + "\n"
    )
    second.write_text(
        json.dumps({"id": "b1", "title": "Tactile Grasping", "abstract": other})
        + "\n"
        + json.dumps({"id": "b2", "title": "Edge Saliency Pruning", "abstract": text})
        + "\n"
    )
    pc = Paperchat(tmp_path / "store", mode="extractive")
    pc.ingest([first, second])
    assert pc.paper("b2").paper_id == "a1"  # merged: b2 is an alias of a1
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps(
            {
                "id": "m1",
                "question": "Which paper prunes graph neural networks by edge saliency?",
                "gold": [{"path": "conf.jsonl", "index": 2}],
            }
        )
        + "\n"
    )
    results = runner.run_eval(pc.engine, questions, baselines=())
    assert results["questions"][0]["gold"] == ["a1"]


def test_gold_by_position_in_one_of_two_files_of_one_name(tmp_path):
    # an eval-workflow session: A/papers.jsonl #1 was read as B/papers.jsonl #1, silently, and a path refused
    from paperchat import Paperchat

    folders = {
        "A": ("a1", "We prune graph neural networks by edge saliency."),
        "B": ("b1", "We learn grasping."),
    }
    for folder, (pid, abstract) in folders.items():
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "papers.jsonl").write_text(
            json.dumps({"id": pid, "abstract": abstract}) + "\n"
        )
    pc = Paperchat(tmp_path / "store", mode="extractive")
    pc.ingest([tmp_path / "A" / "papers.jsonl", tmp_path / "B" / "papers.jsonl"])
    questions = tmp_path / "q.jsonl"

    def gold_of(path: str):
        row = {
            "id": "m1",
            "question": "Which paper prunes by edge saliency?",
            "gold": [{"path": path, "index": 1}],
        }
        questions.write_text(json.dumps(row) + "\n")
        return runner.run_eval(pc.engine, questions, baselines=(), check_support=False)[
            "questions"
        ][0]["gold"]

    with pytest.raises(PaperchatError) as err:
        gold_of("papers.jsonl")
    a_file = str((tmp_path / "A" / "papers.jsonl").resolve())
    assert str(err.value).startswith(
        f"question m1: gold paper papers.jsonl #1: 2 stored files are named papers.jsonl ({a_file}, "
    )
    assert gold_of("A/papers.jsonl") == ["a1"] and gold_of("B/papers.jsonl") == ["b1"]
    assert gold_of(a_file) == ["a1"]


def test_a_comparison_is_correct_only_citing_every_compared_paper():
    # an eval-workflow session: a comparison citing one of its two papers counted as correct
    row = {
        "answerable": True,
        "abstained": False,
        "kind": "compare",
        "gold": ["a", "b"],
        "cited": ["a", "z"],
        "facts": [],
        "facts_found": [],
        "all_gold_cited": 0.0,
    }
    assert not runner._correct(row)
    assert runner._failure(row) == "cites 1 of the 2 compared papers"
    assert runner._correct({**row, "cited": ["b", "a"], "all_gold_cited": 1.0})
    rows = [
        {**row, "all_gold_cited": 0.0},
        {**row, "all_gold_cited": 1.0},
        {**row, "kind": "lookup", "all_gold_cited": None},
    ]
    assert stats.aggregate(rows)["answers.all_compared_cited"]["value"] == 0.5


def test_a_comparison_is_one_in_any_case():
    assert runner.compares("Compare", {"a", "b"}) and runner.compares("comparison", {"a", "b"})
    assert not runner.compares("compare", {"a"}) and not runner.compares("versus", {"a", "b"})


def test_check_needs_a_baseline_for_a_set_without_one(tmp_path):
    # an eval-workflow session: --check on a user's own set had applied the bundled set's floors
    assert qs.default_baseline("conference").name == "baseline_conference.json"
    assert qs.default_baseline(None).name == "baseline.json"
    with pytest.raises(PaperchatError) as err:
        qs.default_baseline(str(tmp_path / "mine.jsonl"))
    assert str(err.value).startswith(
        "--check needs --baseline FILE for your own set (the shipped baselines are for bundled, "
        "conference, generalization)"
    )
    with pytest.raises(PaperchatError, match="for the set general-b "):
        qs.default_baseline("general-b")


def test_a_baseline_bound_past_a_share_or_a_split_the_set_lacks_is_refused_up_front(tmp_path):
    # an eval-workflow session: min 1.5 was accepted (never met), and a misspelt split failed after the run
    path = tmp_path / "baseline.json"
    path.write_text('{"min": {"answers.gold_cited": 1.5}}')
    with pytest.raises(PaperchatError) as err:
        er.load_baseline(path)
    assert (
        str(err.value)
        == f"{path}: min.answers.gold_cited is 1.5; every metric is a share from 0 to 1"
    )
    path.write_text('{"splits": {"tset": {"min": {"answers.fact_recall": 0.7}}}}')
    with pytest.raises(PaperchatError) as err:
        er.check_splits(er.load_baseline(path), {"dev", "test"}, path)
    assert str(err.value) == (
        f"{path}: splits: the eval set has no split 'tset' (did you mean test? its splits: dev, test)"
    )
    er.check_splits(er.load_baseline(path), {"tset"}, path)  # a split it has: fine


def test_a_quotes_heading_is_no_part_of_the_claim_the_support_checker_judges():
    # an eval session: "Oscillation-Reduced MXFP4 ... (Q-EMA): In this work, we propose ... TetraJet ...", a
    # quote word for word under its heading, was judged unsupported
    from types import SimpleNamespace

    from paperchat.evaluation.measures import _without_heading

    mx = SimpleNamespace(title="Oscillation-Reduced MXFP4 Training for Vision Transformers")
    said = "In this work, we propose a novel training method TetraJet [1]."
    assert _without_heading(f"{mx.title} (Q-EMA): {said}", [mx]) == said
    asked = SimpleNamespace(title="Does LoRA Lead to Lower Robustness? A Study")
    assert (
        _without_heading(f"Does LoRA Lead to Lower Robustness? — A Study: {said}", [asked]) == said
    )
    assert _without_heading(said, [mx]) == said
