"""Reporting an eval run (:mod:`paperchat.evaluation.runner`): the summary table, the Markdown report,
results.json. Both render :func:`paperchat.evaluation.report_data.prepare_report`'s data; the baseline
gate is :mod:`paperchat.evaluation.baseline`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.evaluation.baseline import check_baseline, check_splits, load_baseline, unmeasured
from paperchat.evaluation.failed_answers import failure_line
from paperchat.evaluation.report_data import (
    QUESTION_COLUMNS,
    SPLIT_METRICS,
    SUBSET_OF,
    ReportData,
    SplitTable,
    prepare_report,
    split_data,
)
from paperchat.evaluation.stats import RETRIEVAL_METRICS

__all__ = [
    "check_baseline",
    "check_splits",
    "load_baseline",
    "render_report",
    "render_summary",
    "summary_json",
    "unmeasured",
    "write_outputs",
]


def _fmt(stat: dict[str, Any] | None, ci: bool = True) -> str:
    if not stat or stat.get("value") is None:
        return "–"
    if not ci:
        return f"{stat['value']:.3f}"
    lo, hi = stat["ci"]
    return f"{stat['value']:.3f} [{lo:.3f}, {hi:.3f}]"


_SUMMARY_KIND_METRICS = (
    "retrieval.recall@1",
    "retrieval.mrr@10",
    "citations.recall",
    "citations.cited_gold_share",
    "answers.fact_recall",
    "abstention.accuracy",
)


def _cell(stat: dict[str, Any] | None) -> str:
    """A figure to three places; "–" where there is none (no answerable question to score it on)."""
    return "–" if not stat or stat.get("value") is None else f"{stat['value']:.3f}"


def split_tables(splits: list[SplitTable], markdown: bool = False) -> list[str]:
    """The per-split tables (:func:`~paperchat.evaluation.report_data.split_data`) as lines: Markdown, or
    fixed-width columns for the terminal."""
    out: list[str] = []
    header = ["questions", "n", *[label for label, _ in SPLIT_METRICS]]
    for table in splits:
        rows = [[label, n, *[_cell(s) for s in stats]] for label, n, stats in table.rows]
        if markdown:
            out += [f"### {table.title}", "", *_table(header, rows), ""]
        else:
            # each column as wide as its label ("all compared cited" had run into the one before it)
            wide = [18] + [max(11, len(h)) for h in header[1:]]
            out += ["", table.title]
            out += [
                (f"{row[0]!s:18s}" + "  ".join(f"{c!s:>{w}s}" for c, w in zip(row[1:], wide[1:])))
                for row in [header, *rows]
            ]
    return out


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += [
        "| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in row) + " |"
        for row in rows
    ]
    return out


def render_summary(results: dict[str, Any], failures: list[str] | None = None) -> str:
    """A plain-text summary table for the terminal: overall figures, per kind, baselines."""
    cfg = results["config"]
    lines = [
        f"eval: {cfg['questions']} questions ({cfg['answerable']} answerable) from {cfg['set']}; "
        f"retriever {cfg['retriever']}, top-k {cfg['top_k']}, mode {cfg['mode']}",
        *(
            [
                f"(--limit {cfg['limit']}: only the first {cfg['limit']} questions; not comparable with the baseline)"
            ]
            if cfg.get("limit")
            else []
        ),
        *(
            [failure_line(results["failed"], cfg["questions"] + len(results["failed"]))]
            if results.get("failed")
            else []
        ),
        "",
        f"{'metric':40s} {'value':>7s}  {'95% CI':17s} {'n':>4s}  over",
    ]
    for name, stat in results["overall"].items():
        if stat["value"] is None:
            lines.append(f"{name:40s} {'–':>7s}  {'':17s} {0:4d}  {SUBSET_OF.get(name, '')}")
            continue
        lo, hi = stat["ci"]
        lines.append(
            f"{name:40s} {stat['value']:7.3f}  [{lo:.3f}, {hi:.3f}]   {stat['n']:4d}  {SUBSET_OF.get(name, '')}"
        )
    labels = ("R@1", "MRR@10", "cite recall", "cited gold", "fact recall", "accuracy")
    lines += ["", "by kind".ljust(18) + " ".join(f"{label:>13s}" for label in labels)]
    for kind, stats in results["by_kind"].items():
        lines.append(
            f"{kind:18s}" + " ".join(f"{_cell(stats[m]):>13s}" for m in _SUMMARY_KIND_METRICS)
        )
    lines += ["", "retrievers".ljust(18) + " ".join(f"{m:>13s}" for m in RETRIEVAL_METRICS)]
    for mode, stats in results["baselines"].items():
        lines.append(
            f"{mode:18s}"
            + " ".join(f"{_cell(stats['retrieval.' + m]):>13s}" for m in RETRIEVAL_METRICS)
        )
    lines.append(
        f"{'pipeline (' + cfg['retriever'] + ')':18s}"
        + " ".join(f"{_cell(results['overall']['retrieval.' + m]):>13s}" for m in RETRIEVAL_METRICS)
    )
    lines += split_tables(split_data(results))
    if "timing" in results:
        lines += ["", f"wall time {results['timing']['wall_s']:.1f} s"]
    if failures is not None:
        lines.append(
            "check: passed"
            if not failures
            else f"check: {len(failures)} metric(s) fell outside the baseline"
        )
    return "\n".join(lines)


def render_report(results: dict[str, Any], failures: list[str] | None = None) -> str:
    """The Markdown report: configuration, overall figures with CIs, per kind, baselines, per question (failures first)."""
    return render_markdown(prepare_report(results, failures))


def render_markdown(data: ReportData) -> str:
    """The Markdown report of prepared report data (:func:`render_report` prepares it from results)."""
    cfg, failures = data.cfg, data.failures
    out = [
        "# paperchat eval report",
        "",
        f"Set `{cfg['set']}`: {cfg['questions']} questions, {cfg['answerable']} answerable. Pipeline: "
        f"{cfg['mode']} answers, {cfg['retriever']} retrieval ({cfg['fusion']} fusion), top-k {cfg['top_k']} papers "
        f"to the answerer, rankings scored at {cfg['retrieval_k']}; embedding model `{cfg['embed_model']}`; "
        f"store of {cfg['store_papers']} papers ({cfg['extra_papers']} outside the bundled corpus). "
        f"Support checker: {cfg['support_checker'] or 'not available (citation recall/precision not measured)'}. "
        f"95% CIs: percentile bootstrap over questions, {cfg['bootstrap']['resamples']} resamples, "
        f'seed {cfg["bootstrap"]["seed"]}. Follow-ups are asked as "<previous question> <follow-up>".',
        "",
    ]
    if cfg.get("limit"):
        out += [
            f"A quick run (`--limit {cfg['limit']}`): only the first {cfg['limit']} questions of the set, so its "
            "figures are not comparable with the baseline.",
            "",
        ]
    if cfg.get("failed"):
        out += [
            f"{cfg['failed']} questions got no LLM answer (a timeout, a server error, an empty reply) and are "
            "left out of every figure; results.json lists them under `failed`.",
            "",
        ]
    if failures is not None:
        out += ["## Baseline check", ""]
        out += ["Passed."] if not failures else [f"- {f}" for f in failures]
        out.append("")
    out += ["## Overall", ""]
    out += _table(
        ["metric", "value", "95% CI", "n", "over"],
        [
            [
                name,
                _fmt(stat, ci=False),
                f"[{stat['ci'][0]:.3f}, {stat['ci'][1]:.3f}]" if stat["ci"] else "–",
                stat["n"],
                subset,
            ]
            for name, stat, subset, _higher in data.overall
        ],
    )
    if data.splits:
        out += ["## By split", ""]
        if data.cfg.get("shipped", True):  # a user's own splits were not tuned on by paperchat
            out += [
                "Tuning splits (dev, *-tune) were used to tune paperchat; held-out splits (test, "
                "*-heldout) only to report.",
                "",
            ]
        out += split_tables(data.splits, markdown=True)
    if data.sweep:
        out += [
            "",
            "## Abstention sweep",
            "",
            "Share of questions answered, and share of those answered right, when answers whose evidence score is "
            "below the threshold abstain (`paperchat.evaluation.sweep`).",
            "",
        ]
        out += _table(*data.sweep)
    out += [
        "",
        "## By kind",
        "",
        "Value and 95% CI; – where the kind has no question the metric is taken over.",
        "",
    ]
    out += _table(
        ["metric", *[f"{k} (n={n})" for k, n in data.kinds]],
        [[name, *[_fmt(s) for s in stats]] for name, stats in data.by_kind],
    )
    out += [
        "",
        "## Retrievers side by side",
        "",
        "Answerable questions; the pipeline row is the retriever `ask` uses.",
        "",
    ]
    rows = [
        [label, *[_fmt(stats["retrieval." + m]) for m in RETRIEVAL_METRICS]]
        for label, stats in data.retrievers
    ]
    out += _table(["retriever", *RETRIEVAL_METRICS], rows)
    if data.mrr_by_kind:
        kinds_a, mrr_rows = data.mrr_by_kind
        out += ["", "MRR@10 by kind:", ""]
        out += _table(
            ["retriever", *kinds_a],
            [[mode, *[_fmt(s, ci=False) for s in stats]] for mode, stats in mrr_rows],
        )
    out += [
        "",
        "## Questions",
        "",
        "Failures first (a correct answer cites a gold paper, every gold paper for a `compare` question, and "
        "holds all its facts; an unanswerable question is correct when it abstains: README, Eval).",
        "",
    ]
    table = [
        [
            q.row["id"],
            q.row["kind"],
            "ok" if q.correct else "FAIL",
            q.row["failure"],
            q.gold_rank,
            "yes" if q.row["abstained"] else "no",
            q.cited_gold,
            q.facts,
            q.supported,
            _short(q.row["asked"], 90),
            _short(q.row["answer"], 160),
        ]
        for q in data.questions
    ]
    out += _table([*QUESTION_COLUMNS, "answer"], table)
    out.append("")
    return "\n".join(out)


def _short(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def summary_json(results: dict[str, Any]) -> dict[str, Any]:
    """The results without the per-question rows (what ``eval --json`` prints)."""
    return {k: v for k, v in results.items() if k != "questions"}


def _unwritable(out_dir: str | Path, exc: OSError) -> PaperchatError:
    return PaperchatError(f"cannot write the eval outputs to {out_dir}: {exc.strerror or exc}")


def ready_out(out_dir: str | Path) -> None:
    """Create ``out_dir`` before an eval runs, or raise :class:`PaperchatError` (the message
    :func:`write_outputs` gives): a folder under a file had failed only after every question was answered."""
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unwritable(out_dir, exc) from None


def write_outputs(
    results: dict[str, Any], out_dir: str | Path, failures: list[str] | None = None
) -> dict[str, str]:
    """Write ``report.md`` and ``results.json`` into ``out_dir`` (created); returns their paths."""
    out_dir = Path(out_dir)
    ready_out(out_dir)
    try:
        report = out_dir / "report.md"
        data = out_dir / "results.json"
        payload = dict(results)
        if failures is not None:
            payload["check"] = {"passed": not failures, "failures": failures}
        report.write_text(render_report(results, failures), encoding="utf-8")
        data.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise _unwritable(out_dir, exc) from None
    return {"report": str(report), "results": str(data)}
