"""What an eval report shows, prepared once from a run's results: the Markdown report
(:mod:`paperchat.evaluation.report`), the terminal summary and the HTML page
(:mod:`paperchat.evaluation.html_report`) each render this, so they show the same figures.

A *stat* is the runner's ``{"value": float | None, "ci": [lo, hi] | None, "n": int}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paperchat.evaluation.stats import METRICS, RETRIEVAL_METRICS
from paperchat.evaluation.sweep import sweep_table

#: The subset of questions each metric is taken over (``"answerable"``, ``"all"`` ...).
SUBSET_OF = {name: subset for name, subset, _f, _h in METRICS}
#: Whether a higher value of each metric is better.
HIGHER = {name: higher for name, _s, _f, higher in METRICS}
#: The figures a user sees, per split and kind (what the conference targets are set on).
SPLIT_METRICS = (
    ("R@5", "retrieval.recall@5"),
    ("gold cited", "answers.gold_cited"),
    ("first cited gold", "answers.first_cited_gold"),
    ("all compared cited", "answers.all_compared_cited"),
    ("facts", "answers.fact_recall"),
    ("abstained", "abstention.abstention_rate"),
    ("false abst.", "abstention.false_abstention_rate"),
)
#: The columns of the per-question table.
QUESTION_COLUMNS = (
    "id",
    "kind",
    "result",
    "why",
    "gold rank",
    "abstained",
    "gold cited",
    "facts",
    "supported",
    "question",
)


def split_role(split: str) -> str:
    """What a split is for, as a suffix of its title: tuned on (``dev``, ``*-tune``) or held out (``test``, ``*-heldout``)."""
    if split == "dev" or split.endswith("-tune"):
        return " (tuned on)"
    if split == "test" or split.endswith("-heldout"):
        return " (report this one)"
    return ""


@dataclass
class SplitTable:
    """One split's figures: its title, and rows ``(label, n questions, [stat per SPLIT_METRICS])``
    (``all`` first, then each kind)."""

    split: str
    title: str
    rows: list[tuple[str, int, list[dict[str, Any] | None]]]


@dataclass
class QuestionRow:
    """One question of the per-question table, its cells as text (``""`` where they do not apply),
    and the run's row (``row``: answer, citations, gold and ranked papers)."""

    row: dict[str, Any]
    correct: bool
    gold_rank: str
    cited_gold: str
    facts: str
    supported: str


@dataclass
class ReportData:
    """Everything an eval report shows, in display order (see the module docstring for a stat).

    ``overall``: ``(metric, stat, subset, higher is better)``; ``kinds``:
    ``(kind, n questions)``; ``by_kind``: ``(metric, [stat per kind])``;
    ``retrievers``: ``(label, {metric: stat})`` over :data:`RETRIEVAL_METRICS`,
    the pipeline last; ``mrr_by_kind``: ``(answerable kinds, [(retriever,
    [stat per kind])])`` or ``None``; ``sweep``: the abstention sweep table
    ``(header, rows)`` or ``None``; ``questions``: failures first, by id.
    """

    cfg: dict[str, Any]
    failures: list[str] | None
    timing: dict[str, Any] | None
    overall: list[tuple[str, dict[str, Any], str, bool]]
    kinds: list[tuple[str, int]]
    by_kind: list[tuple[str, list[dict[str, Any] | None]]]
    retrievers: list[tuple[str, dict[str, Any]]]
    mrr_by_kind: tuple[list[str], list[tuple[str, list[dict[str, Any] | None]]]] | None
    splits: list[SplitTable]
    sweep: tuple[list[str], list[list[str]]] | None
    questions: list[QuestionRow]

    @property
    def failed(self) -> int:
        """How many questions failed."""
        return sum(1 for q in self.questions if not q.correct)


def split_data(results: dict[str, Any]) -> list[SplitTable]:
    """Per split (dev: tuned on; test: reported), the user-facing figures overall and by kind."""
    out = []
    for split, part in (results.get("by_split") or {}).items():
        rows_in = [r for r in results["questions"] if r.get("split") == split]
        rows = [("all", len(rows_in), [part["overall"][m] for _, m in SPLIT_METRICS])]
        rows += [
            (
                kind,
                sum(1 for r in rows_in if r["kind"] == kind),
                [stats[m] for _, m in SPLIT_METRICS],
            )
            for kind, stats in part["by_kind"].items()
        ]
        # a user's own splits were not tuned on by paperchat: no role said
        role = split_role(split) if results["config"].get("shipped", True) else ""
        out.append(SplitTable(split, f"{split} split" + role, rows))
    return out


def question_row(r: dict[str, Any]) -> QuestionRow:
    """The per-question table's cells of one run row."""
    return QuestionRow(
        row=r,
        correct=bool(r["correct"]),
        gold_rank="" if not r["answerable"] else str(r["first_gold_rank"] or ">10"),
        cited_gold=(
            ""
            if not r["answerable"]
            else f"{len(set(r['cited']) & set(r['gold']))}/{len(r['gold'])}"
        ),
        facts="" if not r["facts"] else f"{sum(r['facts_found'])}/{len(r['facts'])}",
        supported="" if r.get("citation_recall") is None else f"{r['citation_recall']:.2f}",
    )


def prepare_report(results: dict[str, Any], failures: list[str] | None = None) -> ReportData:
    """The report data of ``results`` (what :func:`paperchat.evaluation.runner.run_eval` returns);
    ``failures`` are the baseline check's lines (``None``: no check was run)."""
    cfg = results["config"]
    kinds = list(results["by_kind"])
    retrievers = list(results["baselines"].items())
    retrievers.append(
        (
            f"pipeline ({cfg['retriever']})",
            {f"retrieval.{m}": results["overall"]["retrieval." + m] for m in RETRIEVAL_METRICS},
        )
    )
    mrr = None
    if results.get("baselines_by_kind"):
        bk = results["baselines_by_kind"]
        kinds_a = [k for k in kinds if k != "unanswerable"]
        mrr = (kinds_a, [(mode, [bk[mode][k]["retrieval.mrr@10"] for k in kinds_a]) for mode in bk])
    sweep = results.get("sweep")
    return ReportData(
        cfg=cfg,
        failures=failures,
        timing=results.get("timing"),
        overall=[
            (name, stat, SUBSET_OF.get(name, ""), HIGHER.get(name, True))
            for name, stat in results["overall"].items()
        ],
        kinds=[(k, sum(1 for r in results["questions"] if r["kind"] == k)) for k in kinds],
        by_kind=[(name, [results["by_kind"][k][name] for k in kinds]) for name, *_ in METRICS],
        retrievers=retrievers,
        mrr_by_kind=mrr,
        splits=split_data(results),
        sweep=sweep_table(sweep) if sweep and sweep.get("all") else None,
        questions=[
            question_row(r)
            for r in sorted(results["questions"], key=lambda r: (r["correct"], r["id"]))
        ],
    )
