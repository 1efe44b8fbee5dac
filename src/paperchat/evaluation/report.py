"""Reporting an eval run (:mod:`paperchat.evaluation.runner`): the baseline gate, the summary table, the Markdown report, results.json.

``check_baseline`` compares a run's figures with ``eval/baseline.json``
(``{"min": {metric: value}, "max": {metric: value}}``) and returns one line
per metric that fell outside; the CLI exits 1 when there are any.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.evaluation.stats import METRICS, RETRIEVAL_METRICS, in_subset
from paperchat.evaluation.sweep import sweep_table


def load_baseline(path: str | Path) -> dict[str, Any]:
    """Read a baseline file: ``{"min": {metric: value}, "max": {metric: value}, ...}``."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PaperchatError(f"cannot read the baseline {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise PaperchatError(f"{path}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not (
        isinstance(data.get("min", {}), dict) and isinstance(data.get("max", {}), dict)
    ):
        raise PaperchatError(
            f"{path}: expected an object with 'min' and 'max' maps of metric -> value"
        )
    return data


def _check(
    stats: dict[str, Any], bounds: dict[str, Any], where: str, skip: frozenset[str] = frozenset()
) -> list[str]:
    failures = []
    for bound, sign in (("min", 1), ("max", -1)):
        for name, limit in sorted(bounds.get(bound, {}).items()):
            got = stats.get(name, {}).get("value")
            if got is None and name in skip:
                continue
            if got is None:
                failures.append(f"{where}{name}: not measured (baseline {bound} {limit:.3f})")
            elif sign * (got - float(limit)) < -1e-9:
                word = (
                    "below the baseline minimum" if bound == "min" else "above the baseline maximum"
                )
                failures.append(f"{where}{name} = {got:.3f} is {word} {float(limit):.3f}")
    return failures


#: what a sample lacks when a metric's subset of questions (:data:`paperchat.evaluation.stats.METRICS`) is empty;
#: only subsets the questions decide: no answered question is the answerer's doing, and still fails the check
_NONE_OF = {
    "answerable": "no answerable question",
    "unanswerable": "no unanswerable question",
    "answerable with facts": "no answerable question with required facts",
    "all": "no question",
}


def _scopes(
    results: dict[str, Any], baseline: dict[str, Any]
) -> list[tuple[str, dict[str, Any], list, dict]]:
    """``(prefix, stats, question rows, bounds)`` for the overall figures and each split the baseline bounds."""
    rows = results.get("questions") or []
    return [("", results["overall"], rows, baseline)] + [
        (
            f"{split} split: ",
            (results.get("by_split") or {}).get(split, {}).get("overall", {}),
            [r for r in rows if r.get("split") == split],
            bounds,
        )
        for split, bounds in (baseline.get("splits") or {}).items()
    ]


def _not_in_sample(results: dict[str, Any], rows: list, bounds: dict[str, Any]) -> dict[str, str]:
    """In a quick run on a sample (``--limit``): the bounded metrics whose questions the sample lacks, and what it lacks."""
    if not (results.get("config") or {}).get("limit"):
        return {}
    subsets = {name: subset for name, subset, _field, _higher in METRICS}
    return {
        name: _NONE_OF[subsets[name]]
        for name in sorted({**bounds.get("min", {}), **bounds.get("max", {})})
        if subsets.get(name) in _NONE_OF and not any(in_subset(r, subsets[name]) for r in rows)
    }


def check_baseline(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """One line per metric below its ``min`` (or above its ``max``); empty when all pass.

    ``min`` / ``max`` bound the overall figures; ``splits`` (``{split: {min, max}}``)
    bound a split's figures. A metric the results lack (e.g. citation
    precision without the checker, or a split the set does not have) fails
    too, so a gate cannot pass by measuring less; except in a quick run on a
    sample (``--limit``), where a metric the sample holds no question for
    (:func:`unmeasured`: no unanswerable question, say) is skipped.
    """
    failures = []
    for where, stats, rows, bounds in _scopes(results, baseline):
        failures += _check(stats, bounds, where, frozenset(_not_in_sample(results, rows, bounds)))
    return failures


def unmeasured(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """The bounded metrics a quick run's sample (``--limit``) holds no question for, each with what it lacks
    (``abstention.abstention_rate (no unanswerable question)``); empty for a full run."""
    return [
        f"{where}{name} ({lack})"
        for where, _stats, rows, bounds in _scopes(results, baseline)
        for name, lack in _not_in_sample(results, rows, bounds).items()
    ]


# -- output ------------------------------------------------------------------
def _fmt(stat: dict[str, Any] | None, ci: bool = True) -> str:
    if not stat or stat.get("value") is None:
        return "–"
    if not ci:
        return f"{stat['value']:.3f}"
    lo, hi = stat["ci"]
    return f"{stat['value']:.3f} [{lo:.3f}, {hi:.3f}]"


_SUBSET_OF = {name: subset for name, subset, _f, _h in METRICS}
_SUMMARY_KIND_METRICS = (
    "retrieval.recall@1",
    "retrieval.mrr@10",
    "citations.recall",
    "citations.cited_gold_share",
    "answers.fact_recall",
    "abstention.accuracy",
)
#: The figures a user sees, per split and kind (what the conference targets are set on).
SPLIT_METRICS = (
    ("R@5", "retrieval.recall@5"),
    ("gold cited", "answers.gold_cited"),
    ("first cited gold", "answers.first_cited_gold"),
    ("facts", "answers.fact_recall"),
    ("abstained", "abstention.abstention_rate"),
    ("false abst.", "abstention.false_abstention_rate"),
)


def _cell(stat: dict[str, Any] | None) -> str:
    return "–" if not stat or stat.get("value") is None else f"{stat['value']:.3f}"


def split_role(split: str) -> str:
    """What a split is for, as a suffix of its title: tuned on (``dev``, ``*-tune``) or held out (``test``, ``*-heldout``)."""
    if split == "dev" or split.endswith("-tune"):
        return " (tuned on)"
    if split == "test" or split.endswith("-heldout"):
        return " (report this one)"
    return ""


def split_tables(results: dict[str, Any], markdown: bool = False) -> list[str]:
    """Per split (dev: tuned on; test: reported), the user-facing figures overall and by kind."""
    out: list[str] = []
    for split, part in (results.get("by_split") or {}).items():
        header = ["questions", "n", *[label for label, _ in SPLIT_METRICS]]
        rows = [
            [
                "all",
                sum(1 for r in results["questions"] if r.get("split") == split),
                *[_cell(part["overall"][m]) for _, m in SPLIT_METRICS],
            ]
        ]
        for kind, stats in part["by_kind"].items():
            n = sum(
                1 for r in results["questions"] if r.get("split") == split and r["kind"] == kind
            )
            rows.append([kind, n, *[_cell(stats[m]) for _, m in SPLIT_METRICS]])
        title = f"{split} split" + split_role(split)
        if markdown:
            out += [f"### {title}", "", *_table(header, rows), ""]
        else:
            out += [
                "",
                title,
                "".join(f"{h:>17s}" if i else f"{h:18s}" for i, h in enumerate(header)),
            ]
            out += [
                "".join(f"{str(c):>17s}" if i else f"{str(c):18s}" for i, c in enumerate(row))
                for row in rows
            ]
    return out


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
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
        "",
        f"{'metric':40s} {'value':>7s}  {'95% CI':17s} {'n':>4s}  over",
    ]
    for name, stat in results["overall"].items():
        if stat["value"] is None:
            lines.append(f"{name:40s} {'–':>7s}  {'':17s} {0:4d}  {_SUBSET_OF.get(name, '')}")
            continue
        lo, hi = stat["ci"]
        lines.append(
            f"{name:40s} {stat['value']:7.3f}  [{lo:.3f}, {hi:.3f}]   {stat['n']:4d}  {_SUBSET_OF.get(name, '')}"
        )
    labels = ("R@1", "MRR@10", "cite recall", "cited gold", "fact recall", "accuracy")
    lines += ["", "by kind".ljust(18) + " ".join(f"{label:>13s}" for label in labels)]
    for kind, stats in results["by_kind"].items():
        vals = [
            f"{stats[m]['value']:13.3f}" if stats[m]["value"] is not None else f"{'–':>13s}"
            for m in _SUMMARY_KIND_METRICS
        ]
        lines.append(f"{kind:18s}" + " ".join(vals))
    lines += ["", "retrievers".ljust(18) + " ".join(f"{m:>13s}" for m in RETRIEVAL_METRICS)]
    for mode, stats in results["baselines"].items():
        lines.append(
            f"{mode:18s}"
            + " ".join(f"{stats['retrieval.' + m]['value']:13.3f}" for m in RETRIEVAL_METRICS)
        )
    lines.append(
        f"{'pipeline (' + cfg['retriever'] + ')':18s}"
        + " ".join(
            f"{results['overall']['retrieval.' + m]['value']:13.3f}" for m in RETRIEVAL_METRICS
        )
    )
    lines += split_tables(results)
    if "timing" in results:
        lines += ["", f"wall time {results['timing']['wall_s']:.1f} s"]
    if failures is not None:
        lines.append(
            "check: passed"
            if not failures
            else f"check: {len(failures)} metric(s) fell below the baseline"
        )
    return "\n".join(lines)


def render_report(results: dict[str, Any], failures: list[str] | None = None) -> str:
    """The Markdown report: configuration, overall figures with CIs, per kind, baselines, per question (failures first)."""
    cfg = results["config"]
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
                _SUBSET_OF.get(name, ""),
            ]
            for name, stat in results["overall"].items()
        ],
    )
    if results.get("by_split"):
        out += [
            "## By split",
            "",
            "Tuning splits (dev, *-tune) were used to tune paperchat; held-out splits (test, "
            "*-heldout) only to report.",
            "",
        ]
        out += split_tables(results, markdown=True)
    if results.get("sweep") and results["sweep"].get("all"):
        out += [
            "",
            "## Abstention sweep",
            "",
            "Share of questions answered, and share of those answered right, when answers whose evidence score is "
            "below the threshold abstain (`paperchat.evaluation.sweep`).",
            "",
        ]
        out += _table(*sweep_table(results["sweep"]))
    out += [
        "",
        "## By kind",
        "",
        "Value and 95% CI; – where the kind has no question the metric is taken over.",
        "",
    ]
    kinds = list(results["by_kind"])
    out += _table(
        [
            "metric",
            *[f"{k} (n={sum(1 for r in results['questions'] if r['kind'] == k)})" for k in kinds],
        ],
        [[name, *[_fmt(results["by_kind"][k][name]) for k in kinds]] for name, *_ in METRICS],
    )
    out += [
        "",
        "## Retrievers side by side",
        "",
        "Answerable questions; the pipeline row is the retriever `ask` uses.",
        "",
    ]
    rows = [
        [mode, *[_fmt(stats["retrieval." + m]) for m in RETRIEVAL_METRICS]]
        for mode, stats in results["baselines"].items()
    ]
    rows.append(
        [
            f"pipeline ({cfg['retriever']})",
            *[_fmt(results["overall"]["retrieval." + m]) for m in RETRIEVAL_METRICS],
        ]
    )
    out += _table(["retriever", *RETRIEVAL_METRICS], rows)
    if results.get("baselines_by_kind"):
        out += ["", "MRR@10 by kind:", ""]
        bk = results["baselines_by_kind"]
        kinds_a = [k for k in kinds if k != "unanswerable"]
        out += _table(
            ["retriever", *kinds_a],
            [
                [mode, *[_fmt(bk[mode][k]["retrieval.mrr@10"], ci=False) for k in kinds_a]]
                for mode in bk
            ],
        )
    out += [
        "",
        "## Questions",
        "",
        "Failures first (see the definition of a correct answer in `paperchat.evaluation.runner`).",
        "",
    ]
    qrows = sorted(results["questions"], key=lambda r: (r["correct"], r["id"]))
    table = []
    for r in qrows:
        cited_gold = (
            ""
            if not r["answerable"]
            else f"{len(set(r['cited']) & set(r['gold']))}/{len(r['gold'])}"
        )
        facts = "" if not r["facts"] else f"{sum(r['facts_found'])}/{len(r['facts'])}"
        sup = "" if r.get("citation_recall") is None else f"{r['citation_recall']:.2f}"
        table.append(
            [
                r["id"],
                r["kind"],
                "ok" if r["correct"] else "FAIL",
                r["failure"],
                "" if not r["answerable"] else (r["first_gold_rank"] or ">10"),
                "yes" if r["abstained"] else "no",
                cited_gold,
                facts,
                sup,
                _short(r["asked"], 90),
                _short(r["answer"], 160),
            ]
        )
    out += _table(
        [
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
            "answer",
        ],
        table,
    )
    out.append("")
    return "\n".join(out)


def _short(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def summary_json(results: dict[str, Any]) -> dict[str, Any]:
    """The results without the per-question rows (what ``eval --json`` prints)."""
    return {k: v for k, v in results.items() if k != "questions"}


def write_outputs(
    results: dict[str, Any], out_dir: str | Path, failures: list[str] | None = None
) -> dict[str, str]:
    """Write ``report.md`` and ``results.json`` into ``out_dir`` (created); returns their paths."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        report = out_dir / "report.md"
        data = out_dir / "results.json"
        payload = dict(results)
        if failures is not None:
            payload["check"] = {"passed": not failures, "failures": failures}
        report.write_text(render_report(results, failures), encoding="utf-8")
        data.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise PaperchatError(
            f"cannot write the eval outputs to {out_dir}: {exc.strerror or exc}"
        ) from None
    return {"report": str(report), "results": str(data)}
