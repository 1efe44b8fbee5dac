"""The charts of the eval's HTML report (:mod:`paperchat.evaluation.html_report`): matplotlib figures as inline SVG.

Each chart function takes an eval run's results (:func:`paperchat.evaluation.runner.run_eval`)
and returns the text of one ``<svg>`` element, or ``None`` when the run holds
nothing to draw. Figures are built on matplotlib's Agg canvas without pyplot
(no GUI, no global figure state), saved as SVG with text kept as text
(``svg.fonttype = "none"``: the viewer's own sans-serif font, no embedded or
web fonts) and made reproducible (fixed hash salt, no date). matplotlib is
imported inside the functions, so importing this module stays cheap.
"""

from __future__ import annotations

from typing import Any

from paperchat.evaluation.chart_style import PALETTE, RETRIEVER_STYLES, figure, styled, svg

#: The per-kind bars: (label, metric).
KIND_METRICS = (
    ("R@5", "retrieval.recall@5"),
    ("MRR@10", "retrieval.mrr@10"),
    ("gold cited", "answers.gold_cited"),
    ("fact recall", "answers.fact_recall"),
    ("accuracy", "abstention.accuracy"),
)
RECALL_KS = (1, 5, 10)
_GOOD, _BAD, _MID = "#009E73", "#D55E00", "#999999"


def _value(stat: dict[str, Any] | None) -> float | None:
    return None if not stat else stat.get("value")


def _kind_counts(results: dict[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in results["questions"]:
        counts[row["kind"]] = counts.get(row["kind"], 0) + 1
    return counts


@styled("kinds")
def kind_bars(results: dict[str, Any]) -> str | None:
    """Grouped bars: a few key metrics overall and per question kind, with 95% interval error bars."""
    if not results["questions"]:
        return None
    counts = _kind_counts(results)
    groups = [("all", len(results["questions"]), results["overall"])]
    groups += [(kind, counts.get(kind, 0), stats) for kind, stats in results["by_kind"].items()]
    fig = figure(figsize=(max(7.0, 1.25 * len(groups) + 1.5), 3.4))
    ax = fig.add_subplot()
    width = 0.8 / len(KIND_METRICS)
    for j, (label, metric) in enumerate(KIND_METRICS):
        xs, ys, lo, hi = [], [], [], []
        for i, (_kind, _n, stats) in enumerate(groups):
            stat = stats.get(metric)
            if _value(stat) is None:
                continue
            x = i - 0.4 + width * (j + 0.5)
            xs.append(x)
            ys.append(stat["value"])
            ci = stat.get("ci") or [stat["value"], stat["value"]]
            lo.append(max(0.0, stat["value"] - ci[0]))
            hi.append(max(0.0, ci[1] - stat["value"]))
        ax.bar(
            xs,
            ys,
            width * 0.92,
            color=PALETTE[j % len(PALETTE)],
            label=label,
            yerr=[lo, hi],
            error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "#333333"},
        )
        for i, (_kind, _n, stats) in enumerate(
            groups
        ):  # a dash where the kind has no question for the metric
            if _value(stats.get(metric)) is None:
                ax.text(
                    i - 0.4 + width * (j + 0.5),
                    0.02,
                    "–",
                    ha="center",
                    va="bottom",
                    color="#888888",
                    fontsize=8,
                )
    ax.set_xticks(range(len(groups)), [f"{kind}\n(n={n})" for kind, n, _ in groups])
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("mean (95% CI)")
    ax.axvline(0.5, color="#bbbbbb", linewidth=0.8)
    ax.legend(ncols=len(KIND_METRICS), loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=8)
    return svg(fig, "kinds", "key metrics by question kind with 95% intervals")


@styled("recall")
def recall_curves(results: dict[str, Any]) -> str | None:
    """Recall@k (k = 1, 5, 10) of the BM25, dense and hybrid retrievers: all answerable questions, then per kind."""
    baselines = results.get("baselines") or {}
    if not baselines:
        return None
    panels = [("all answerable", baselines)]
    by_kind = results.get("baselines_by_kind") or {}
    kinds = list(dict.fromkeys(k for per in by_kind.values() for k in per))
    panels += [
        (kind, {m: by_kind[m][kind] for m in by_kind if kind in by_kind[m]}) for kind in kinds
    ]
    panels = [
        (title, per)
        for title, per in panels
        if any(
            _value(stats.get(f"retrieval.recall@{k}")) is not None
            for stats in per.values()
            for k in RECALL_KS
        )
    ]
    if not panels:
        return None
    ncols = min(4, len(panels))
    nrows = -(-len(panels) // ncols)
    fig = figure(figsize=(2.55 * ncols, 2.3 * nrows + 0.4))
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False)
    for idx, ax in enumerate(axes.flat):
        if idx >= len(panels):
            ax.set_visible(False)
            continue
        title, per = panels[idx]
        n = 0
        for j, (mode, stats) in enumerate(per.items()):
            pts = [(k, stats.get(f"retrieval.recall@{k}")) for k in RECALL_KS]
            pts = [(k, s) for k, s in pts if _value(s) is not None]
            if not pts:
                continue
            n = max(n, max(s["n"] for _, s in pts))
            colour, style, marker, width = RETRIEVER_STYLES.get(
                mode, (PALETTE[j % len(PALETTE)], "-", "o", 1.5)
            )
            ks = [k for k, _ in pts]
            ax.fill_between(
                ks,
                [s["ci"][0] for _, s in pts],
                [s["ci"][1] for _, s in pts],
                color=colour,
                alpha=0.13,
                linewidth=0,
            )
            ax.plot(
                ks,
                [s["value"] for _, s in pts],
                marker=marker,
                markersize=1.6 + 1.4 * width,
                linewidth=width,
                linestyle=style,
                color=colour,
                label=mode,
                zorder=3 + j,
            )
        ax.set_title(f"{title} (n={n})", fontsize=9)
        ax.set_xticks(RECALL_KS)
        ax.set_ylim(0, 1.04)
        ax.grid(True, axis="both")
        if idx % ncols == 0:
            ax.set_ylabel("recall@k")
        if idx >= len(panels) - ncols:
            ax.set_xlabel("k")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        ncols=len(labels),
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        fontsize=8,
    )
    fig.tight_layout()
    return svg(fig, "recall", "recall at 1, 5 and 10 of the BM25, dense and hybrid retrievers")


def abstention_counts(rows: list[dict[str, Any]]) -> dict[tuple[bool, bool], int]:
    """``{(answerable, abstained): questions}`` for the four cells of the abstention table."""
    out = {(a, b): 0 for a in (True, False) for b in (False, True)}
    for row in rows:
        out[(bool(row["answerable"]), bool(row["abstained"]))] += 1
    return out


@styled("abstention")
def abstention_matrix(results: dict[str, Any]) -> str | None:
    """A 2×2: answerable / unanswerable questions against answered / abstained (count and row share)."""
    rows = results["questions"]
    if not rows:
        return None
    from matplotlib.patches import Rectangle

    counts = abstention_counts(rows)
    fig = figure(figsize=(4.6, 2.6))
    ax = fig.add_subplot()
    for y, answerable in enumerate((True, False)):
        total = counts[(answerable, False)] + counts[(answerable, True)]
        for x, abstained in enumerate((False, True)):
            n = counts[(answerable, abstained)]
            share = n / total if total else 0.0
            good = answerable != abstained
            colour = _GOOD if good else _BAD
            ax.add_patch(
                Rectangle(
                    (x, 1 - y),
                    1,
                    1,
                    facecolor=colour,
                    alpha=0.12 + 0.6 * share,
                    edgecolor="white",
                    linewidth=2,
                )
            )
            ax.text(
                x + 0.5,
                1.5 - y + 0.08,
                str(n),
                ha="center",
                va="center",
                fontsize=15,
                fontweight="bold",
            )
            ax.text(
                x + 0.5,
                1.5 - y - 0.2,
                f"{share:.0%} of row" if total else "–",
                ha="center",
                va="center",
                fontsize=8,
            )
    ax.set_xlim(0, 2)
    ax.set_ylim(0, 2)
    ax.set_xticks([0.5, 1.5], ["answered", "abstained"])
    ax.set_yticks(
        [1.5, 0.5],
        [
            f"answerable\n(n={counts[(True, False)] + counts[(True, True)]})",
            f"unanswerable\n(n={counts[(False, False)] + counts[(False, True)]})",
        ],
    )
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    ax.grid(False)
    for side in ax.spines.values():
        side.set_visible(False)
    return svg(
        fig, "abstention", "answered and abstained against answerable and unanswerable questions"
    )


def sentence_counts(rows: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Per kind, the answered questions' sentences: ``[supported, cited but unsupported, uncited]``.

    Only rows the support checker judged (``citation_recall`` set). A sentence
    without a citation is always unsupported; out-of-range citations count as
    cited.
    """
    out: dict[str, list[int]] = {}
    for row in rows:
        if row.get("citation_recall") is None or not row.get("sentences"):
            continue
        n = row["sentences"]
        uncited = n - round(row.get("sentence_citation_rate", 1.0) * n)
        unsupported = len(row["unsupported"])
        cell = out.setdefault(row["kind"], [0, 0, 0])
        cell[0] += n - unsupported
        cell[1] += max(0, unsupported - uncited)
        cell[2] += uncited
    return out


_BUCKETS = (
    ("0", lambda v: v == 0),
    ("(0, 0.5)", lambda v: 0 < v < 0.5),
    ("[0.5, 1)", lambda v: 0.5 <= v < 1),
    ("1", lambda v: v == 1),
)


@styled("citations")
def citation_support(results: dict[str, Any]) -> str | None:
    """The support checker's picture: cited sentences supported or not per kind, and per-question recall / precision."""
    rows = results["questions"]
    counts = sentence_counts(rows)
    if not counts:
        return None
    fig = figure(figsize=(9.5, 0.42 * len(counts) + 1.9))
    left, right = fig.subplots(1, 2, width_ratios=[1.5, 1])
    kinds = list(counts)[::-1]
    parts = (("supported", _GOOD), ("cited, not supported", _BAD), ("no citation", _MID))
    start = [0] * len(kinds)
    for i, (label, colour) in enumerate(parts):
        vals = [counts[k][i] for k in kinds]
        left.barh(kinds, vals, left=start, color=colour, label=label, height=0.6)
        start = [s + v for s, v in zip(start, vals)]
    for y, total in enumerate(start):
        left.text(total, y, f" {total}", va="center", fontsize=8)
    left.set_xlabel("answer sentences (answered questions)")
    left.grid(True, axis="x")
    left.grid(False, axis="y")
    left.set_xlim(0, max(start) * 1.12 + 1)
    left.legend(ncols=3, loc="lower left", bbox_to_anchor=(0.0, 1.0), fontsize=8)
    judged = [r for r in rows if r.get("citation_recall") is not None]
    width = 0.38
    for j, (field, label, colour) in enumerate(
        (
            ("citation_recall", "citation recall", PALETTE[0]),
            ("citation_precision", "citation precision", PALETTE[1]),
        )
    ):
        vals = [
            sum(1 for r in judged if r.get(field) is not None and test(r[field]))
            for _, test in _BUCKETS
        ]
        xs = [i - width / 2 + j * width for i in range(len(_BUCKETS))]
        right.bar(xs, vals, width * 0.95, color=colour, label=label)
        for x, v in zip(xs, vals):
            right.text(x, v, str(v), ha="center", va="bottom", fontsize=7)
    right.set_xticks(range(len(_BUCKETS)), [name for name, _ in _BUCKETS])
    right.set_xlabel("per-question value")
    right.set_ylabel("answered questions")
    right.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    return svg(
        fig,
        "citations",
        "supported and unsupported answer sentences, and citation recall and precision",
    )


def all_charts(results: dict[str, Any]) -> dict[str, str | None]:
    """Every chart of the report by name (``kinds``, ``recall``, ``abstention``, ``citations``); ``None`` when empty."""
    return {
        "kinds": kind_bars(results),
        "recall": recall_curves(results),
        "abstention": abstention_matrix(results),
        "citations": citation_support(results),
    }
