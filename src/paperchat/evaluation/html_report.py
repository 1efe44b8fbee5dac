"""The eval's HTML report: one self-contained ``report.html`` (``paperchat eval --html``).

What :mod:`paperchat.evaluation.report` puts in ``report.md``, as a page that
needs no network and no JavaScript: the run's configuration, the overall
figures with their 95% intervals, the charts (:mod:`paperchat.evaluation.html_charts`,
inline SVG drawn by matplotlib: key metrics per kind, recall@k of the three
retrievers, the abstention 2×2, the citation checker's picture), per-split
tables, the baseline check, and every question (failures first) with its
answer, citations, unsupported sentences, gold and ranked papers in a
``<details>``. Every text from the run is escaped with :func:`html.escape`.
matplotlib (the ``report`` extra) is imported only when a report is written.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from paperchat.cite.markers import MARKER
from paperchat.core.errors import PaperchatError
from paperchat.evaluation import html_charts
from paperchat.evaluation.report import SPLIT_METRICS, split_role
from paperchat.evaluation.stats import METRICS, RETRIEVAL_METRICS

NEEDS_MATPLOTLIB = (
    "the HTML report needs matplotlib: install the report extra "
    "(pip install 'paperchat[report]', or pip install '.[report]' in a paperchat checkout)"
)
_SUBSET_OF = {name: subset for name, subset, _f, _h in METRICS}
_HIGHER = {name: higher for name, _s, _f, higher in METRICS}

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans","Liberation Sans",Arial,sans-serif;
 color:#1f2328;background:#fff;margin:0 auto;max-width:1180px;padding:1.2rem 1.5rem 3rem;line-height:1.45;font-size:15px}
h1{font-size:1.6rem;margin:.2rem 0 .3rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;padding-bottom:.25rem;
 border-bottom:1px solid #d8dee4}h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
nav{font-size:.9rem;margin:.4rem 0 1rem}nav a{margin-right:.9rem}a{color:#0969da}
table{border-collapse:collapse;margin:.4rem 0 1rem;font-size:.88rem}
th,td{border:1px solid #d8dee4;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
dl.config{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;font-size:.9rem}
dl.config dt{font-weight:600}dl.config dd{margin:0}
.note{background:#fff8c5;border:1px solid #d4a72c;padding:.4rem .7rem;border-radius:4px;font-size:.9rem}
.pass{color:#1a7f37;font-weight:600}.fail{color:#cf222e;font-weight:600}
.check{border:1px solid #d8dee4;border-radius:4px;padding:.4rem .8rem}.check.failed{border-color:#cf222e;background:#ffebe9}
.check.passed{border-color:#1a7f37;background:#dafbe1}
svg.chart{max-width:100%;height:auto;display:block;margin:.3rem 0 .4rem}
figure{margin:0 0 1rem}figcaption{font-size:.85rem;color:#57606a;max-width:60rem}
.bar{position:relative;display:inline-block;width:130px;height:10px;background:#eef1f4;border-radius:2px}
.bar .ci{position:absolute;top:2px;height:6px;background:#8cb6e3;border-radius:2px}
.bar .val{position:absolute;top:0;width:2px;height:10px;background:#0a3069}
tr.row-fail td:first-child{border-left:4px solid #cf222e}tr.row-pass td:first-child{border-left:4px solid #1a7f37}
table.questions{width:100%}table.questions td.q{width:56%}
details summary{cursor:pointer}details .answer{background:#f6f8fa;padding:.45rem .6rem;border-radius:4px;margin:.3rem 0}
mark.unsupported{background:#ffd8d3;text-decoration:underline wavy #cf222e}
.marker{color:#0969da;font-weight:600}.abstained{font-style:italic;color:#57606a}
.ids{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.82rem}
li.gold{font-weight:600}.star{color:#bf8700}
ol.ranked{columns:2;margin:.2rem 0}.muted{color:#57606a;font-size:.85rem}
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(stat: dict[str, Any] | None) -> str:
    return "–" if not stat or stat.get("value") is None else f"{stat['value']:.3f}"


def _ci(stat: dict[str, Any] | None) -> str:
    return "–" if not stat or not stat.get("ci") else f"[{stat['ci'][0]:.3f}, {stat['ci'][1]:.3f}]"


def _table(
    header: list[str], rows: list[list[Any]], cls: str = "", text_cols: tuple[int, ...] = (0,)
) -> str:
    """An HTML table; cells are escaped unless given as ``("html", markup)``; all but ``text_cols`` right-aligned."""

    def cell(i: int, c: Any) -> str:
        body = c[1] if isinstance(c, tuple) and c and c[0] == "html" else _e(c)
        return f"<td>{body}</td>" if i in text_cols else f'<td class="num">{body}</td>'

    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "\n".join(
        "<tr>" + "".join(cell(i, c) for i, c in enumerate(row)) + "</tr>" for row in rows
    )
    return (
        f'<table class="{_e(cls)}"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>'
    )


def _bar(stat: dict[str, Any] | None) -> tuple[str, str]:
    """A CSS interval bar on [0, 1]: the 95% interval shaded, the value a tick."""
    if not stat or stat.get("value") is None:
        return ("html", "")
    lo, hi = stat.get("ci") or (stat["value"], stat["value"])
    pct = [min(100.0, max(0.0, 100 * v)) for v in (lo, hi, stat["value"])]
    return (
        "html",
        f'<span class="bar" title="{_e(_ci(stat))}"><span class="ci" style="left:{pct[0]:.1f}%;'
        f'width:{max(pct[1] - pct[0], 0.6):.1f}%"></span><span class="val" style="left:{pct[2]:.1f}%">'
        "</span></span>",
    )


def _figure(svg: str | None, caption: str, missing: str) -> str:
    if svg is None:
        return f'<p class="note">{_e(missing)}</p>'
    return f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>"


# -- sections ----------------------------------------------------------------
def _config(results: dict[str, Any], failures: list[str] | None) -> str:
    cfg = results["config"]
    boot = cfg.get("bootstrap") or {}
    items = [
        ("question set", cfg["set"]),
        ("questions", f"{cfg['questions']} ({cfg['answerable']} answerable)"),
        ("answers", cfg["mode"]),
        (
            "retrieval",
            f"{cfg['retriever']} ({cfg['fusion']} fusion); top-k {cfg['top_k']} papers to the answerer; "
            f"rankings scored at {cfg['retrieval_k']}",
        ),
        ("embedding model", cfg["embed_model"]),
        (
            "store",
            f"{cfg['store_papers']} papers ({cfg['extra_papers']} outside the bundled corpus)",
        ),
        (
            "support checker",
            cfg["support_checker"] or "not available (citation recall/precision not measured)",
        ),
        (
            "95% intervals",
            f"percentile bootstrap over questions, {boot.get('resamples')} resamples, seed {boot.get('seed')}",
        ),
        ("follow-ups", cfg.get("follow_ups") or "asked as '<previous question> <follow-up>'"),
    ]
    if "timing" in results:
        items.append(
            (
                "wall time",
                f"{results['timing']['wall_s']:.1f} s ({results['timing']['per_question_s']:.3f} s "
                "per question)",
            )
        )
    out = ['<h2 id="config">Run configuration</h2>', '<dl class="config">']
    out += [f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in items]
    out.append("</dl>")
    if cfg.get("limit"):
        out.append(
            f'<p class="note">A quick run (<code>--limit {_e(cfg["limit"])}</code>): only the first '
            f"{_e(cfg['limit'])} questions of the set, so its figures are not comparable with the baseline.</p>"
        )
    if failures is not None:
        out.append('<h2 id="check">Baseline check</h2>')
        if not failures:
            out.append(
                '<p class="check passed"><span class="pass">Passed:</span> every figure is within the baseline.</p>'
            )
        else:
            out.append(
                f'<div class="check failed"><p><span class="fail">Failed:</span> {len(failures)} figure(s) '
                "fell outside the baseline.</p><ul>"
                + "".join(f"<li>{_e(f)}</li>" for f in failures)
                + "</ul></div>"
            )
    return "\n".join(out)


def _overall(results: dict[str, Any]) -> str:
    rows = [
        [
            name,
            _num(stat),
            _ci(stat),
            _bar(stat),
            stat["n"],
            _SUBSET_OF.get(name, ""),
            "higher" if _HIGHER.get(name, True) else "lower",
        ]
        for name, stat in results["overall"].items()
    ]
    return "\n".join(
        [
            '<h2 id="overall">Overall</h2>',
            '<p class="muted">Means over the questions each metric is taken over, with percentile bootstrap '
            "95% intervals (the bar: interval shaded, value marked, on 0–1).</p>",
            _table(
                ["metric", "value", "95% CI", "0 – 1", "n", "over", "better"],
                rows,
                "overall",
                text_cols=(0, 5, 6),
            ),
        ]
    )


def _by_kind(results: dict[str, Any], charts: dict[str, str | None]) -> str:
    kinds = list(results["by_kind"])
    counts = {k: sum(1 for r in results["questions"] if r["kind"] == k) for k in kinds}
    labels = ", ".join(label for label, _ in html_charts.KIND_METRICS)
    rows = [
        [
            name,
            *[
                (
                    "html",
                    f'{_e(_num(results["by_kind"][k][name]))}<br><span class="muted">'
                    f"{_e(_ci(results['by_kind'][k][name]))}</span>",
                )
                for k in kinds
            ],
        ]
        for name, *_ in METRICS
    ]
    return "\n".join(
        [
            '<h2 id="kinds">By question kind</h2>',
            _figure(
                charts["kinds"],
                f"{labels}: overall and per kind; error bars are 95% intervals; – where the kind has "
                "no question the metric is taken over.",
                "No questions.",
            ),
            "<details><summary>Every metric by kind (value, 95% CI)</summary>",
            _table(["metric", *[f"{k} (n={counts[k]})" for k in kinds]], rows, "by-kind"),
            "</details>",
        ]
    )


def _retrievers(results: dict[str, Any], charts: dict[str, str | None]) -> str:
    cfg = results["config"]
    rows = [
        [
            mode,
            *[
                (
                    "html",
                    f'{_e(_num(stats["retrieval." + m]))} <span class="muted">{_e(_ci(stats["retrieval." + m]))}'
                    "</span>",
                )
                for m in RETRIEVAL_METRICS
            ],
        ]
        for mode, stats in results["baselines"].items()
    ]
    rows.append(
        [
            f"pipeline ({cfg['retriever']})",
            *[
                (
                    "html",
                    f'{_e(_num(results["overall"]["retrieval." + m]))} <span class="muted">'
                    f"{_e(_ci(results['overall']['retrieval.' + m]))}</span>",
                )
                for m in RETRIEVAL_METRICS
            ],
        ]
    )
    return "\n".join(
        [
            '<h2 id="retrievers">Retrievers side by side</h2>',
            _figure(
                charts["recall"],
                "Recall@k at k = 1, 5, 10 over answerable questions, all and per kind; shaded: "
                "95% intervals.",
                "No retriever was measured side by side.",
            ),
            _table(["retriever", *RETRIEVAL_METRICS], rows, "retrievers"),
        ]
    )


def _abstention(results: dict[str, Any], charts: dict[str, str | None]) -> str:
    o = results["overall"]
    counts = html_charts.abstention_counts(results["questions"])
    text = (
        f"Abstention rate on unanswerable questions {_num(o.get('abstention.abstention_rate'))} "
        f"{_ci(o.get('abstention.abstention_rate'))}; false abstentions on answerable ones "
        f"{_num(o.get('abstention.false_abstention_rate'))} {_ci(o.get('abstention.false_abstention_rate'))}; "
        f"{counts[(False, False)]} unanswerable question(s) answered, {counts[(True, True)]} answerable "
        "question(s) abstained on."
    )
    return "\n".join(
        [
            '<h2 id="abstention">Abstention</h2>',
            _figure(
                charts["abstention"],
                "Green: the right call (answer the answerable, abstain on the "
                "unanswerable); red: the wrong one. " + text,
                "No questions.",
            ),
        ]
    )


def _citations(results: dict[str, Any], charts: dict[str, str | None]) -> str:
    o = results["overall"]
    unsupported = sum(
        len(r["unsupported"]) for r in results["questions"] if r.get("citation_recall") is not None
    )
    sentences = sum(
        r.get("sentences") or 0
        for r in results["questions"]
        if r.get("citation_recall") is not None
    )
    caption = (
        f"Left: answer sentences of answered questions by kind, supported by their cited sources or not "
        f"({unsupported} of {sentences} not supported). Right: answered questions by their own citation recall "
        f"and precision (ALCE). Overall citation recall {_num(o.get('citations.recall'))} "
        f"{_ci(o.get('citations.recall'))}, precision {_num(o.get('citations.precision'))} "
        f"{_ci(o.get('citations.precision'))}."
    )
    return "\n".join(
        [
            '<h2 id="citations">Citation support</h2>',
            _figure(
                charts["citations"],
                caption,
                "Not measured: the run had no support checker "
                "(--no-verify), or no question was answered.",
            ),
        ]
    )


def _splits(results: dict[str, Any]) -> str:
    if not results.get("by_split"):
        return ""
    out = [
        '<h2 id="splits">By split</h2>',
        '<p class="muted">Dev questions were used to tune paperchat; test questions '
        "only to report.</p>",
    ]
    for split, part in results["by_split"].items():
        rows_in = [r for r in results["questions"] if r.get("split") == split]
        rows = [["all", len(rows_in), *[_num(part["overall"][m]) for _, m in SPLIT_METRICS]]]
        rows += [
            [
                kind,
                sum(1 for r in rows_in if r["kind"] == kind),
                *[_num(stats[m]) for _, m in SPLIT_METRICS],
            ]
            for kind, stats in part["by_kind"].items()
        ]
        title = f"{split} split" + split_role(split)
        out += [
            f"<h3>{_e(title)}</h3>",
            _table(["questions", "n", *[label for label, _ in SPLIT_METRICS]], rows, "split"),
        ]
    return "\n".join(out)


# -- questions ---------------------------------------------------------------
def _answer_html(row: dict[str, Any]) -> str:
    """The answer text, escaped, with its unsupported sentences marked and its citation markers highlighted."""
    text = row["answer"] or ""
    if row["abstained"]:
        return f'<span class="abstained">{_e(text)}</span>'
    spans: list[tuple[int, int]] = []
    for sent in row.get("unsupported") or []:
        at = text.find(sent)
        if at >= 0 and not any(a < at + len(sent) and at < b for a, b in spans):
            spans.append((at, at + len(sent)))
    out, pos = [], 0
    for a, b in sorted(spans):
        out += [
            _markers(text[pos:a]),
            f'<mark class="unsupported" title="not supported by its cited sources">'
            f"{_markers(text[a:b])}</mark>",
        ]
        pos = b
    out.append(_markers(text[pos:]))
    return "".join(out)


def _markers(text: str) -> str:
    escaped = _e(text)
    return MARKER.sub(lambda m: f'<span class="marker">{m.group(0)}</span>', escaped)


def _paper_list(
    ids: list[str], gold: set[str], tag: str = "ul", extra: dict[str, str] | None = None
) -> str:
    if not ids:
        return '<p class="muted">none</p>'
    items = "".join(
        (
            f'<li class="gold">{_e(pid)} <span class="star">★</span>'
            if pid in gold
            else f"<li>{_e(pid)}"
        )
        + f"{_e((extra or {}).get(pid, ''))}</li>"
        for pid in ids
    )
    return f'<{tag} class="ids{" ranked" if tag == "ol" else ""}">{items}</{tag}>'


def _details(row: dict[str, Any]) -> str:
    gold = set(row["gold"])
    parts = [f"<details><summary>{_e(row['question'])}</summary>"]
    if row.get("asked") and row["asked"] != row["question"]:
        parts.append(f'<p class="muted">asked as: {_e(row["asked"])}</p>')
    parts.append(f'<div class="answer">{_answer_html(row)}</div>')
    if row.get("unsupported"):
        parts.append(
            f"<p><b>Unsupported sentences ({len(row['unsupported'])})</b></p><ul>"
            + "".join(
                f'<li><mark class="unsupported">{_e(s)}</mark></li>' for s in row["unsupported"]
            )
            + "</ul>"
        )
    if row.get("facts"):
        facts = "".join(
            f"<li>{'✓' if ok else '✗'} {_e(' / '.join(map(str, group)))}</li>"
            for group, ok in zip(row["facts"], row.get("facts_found") or [])
        )
        parts.append(f"<p><b>Required facts</b></p><ul>{facts}</ul>")
    ranks = {pid: i for i, pid in enumerate(row.get("ranked") or [], 1)}
    given = set(row.get("answer_retrieved") or [])
    parts += [
        "<p><b>Cited papers</b> (★ gold)</p>",
        _paper_list(row.get("cited") or [], gold),
        "<p><b>Gold papers</b></p>",
        _paper_list(
            row["gold"],
            set(),
            extra={
                p: f" (rank {ranks[p]})" if p in ranks else " (not in the top 10)"
                for p in row["gold"]
            },
        )
        if row["gold"]
        else '<p class="muted">none: the question is unanswerable</p>',
        "<p><b>Ranked papers</b> (★ gold; † given to the answerer)</p>",
        _paper_list(row.get("ranked") or [], gold, "ol", {p: " †" for p in given}),
        "</details>",
    ]
    return "".join(parts)


def _questions(results: dict[str, Any]) -> str:
    rows = sorted(results["questions"], key=lambda r: (r["correct"], r["id"]))
    n_fail = sum(1 for r in rows if not r["correct"])
    head = [
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
    ]
    body = []
    for r in rows:
        cited_gold = (
            ""
            if not r["answerable"]
            else f"{len(set(r['cited']) & set(r['gold']))}/{len(r['gold'])}"
        )
        facts = "" if not r["facts"] else f"{sum(r['facts_found'])}/{len(r['facts'])}"
        sup = "" if r.get("citation_recall") is None else f"{r['citation_recall']:.2f}"
        rank = "" if not r["answerable"] else (r["first_gold_rank"] or ">10")
        result = (
            '<span class="pass">ok</span>' if r["correct"] else '<span class="fail">FAIL</span>'
        )
        cells = [
            f'<td class="ids">{_e(r["id"])}</td>',
            f"<td>{_e(r['kind'])}</td>",
            f"<td>{result}</td>",
            f"<td>{_e(r['failure'])}</td>",
            f'<td class="num">{_e(rank)}</td>',
            f"<td>{'yes' if r['abstained'] else 'no'}</td>",
            f'<td class="num">{_e(cited_gold)}</td>',
            f'<td class="num">{_e(facts)}</td>',
            f'<td class="num">{_e(sup)}</td>',
            f'<td class="q">{_details(r)}</td>',
        ]
        body.append(
            f'<tr id="q-{_e(r["id"])}" class="row-{"pass" if r["correct"] else "fail"}">{"".join(cells)}</tr>'
        )
    return "\n".join(
        [
            '<h2 id="questions">Questions</h2>',
            f'<p class="muted">{n_fail} failure(s) first, then {len(rows) - n_fail} pass(es). A question passes when an '
            "answerable one is answered citing a gold paper with every required fact, and an unanswerable one is "
            "abstained on. Open a question for its answer (unsupported sentences marked), citations, gold and ranked "
            "papers.</p>",
            '<table class="questions"><thead><tr>'
            + "".join(f"<th>{_e(h)}</th>" for h in head)
            + "</tr></thead><tbody>",
            *body,
            "</tbody></table>",
        ]
    )


def require_matplotlib() -> None:
    """Raise :class:`PaperchatError` with the install hint when matplotlib is missing (call before a long eval)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise PaperchatError(NEEDS_MATPLOTLIB)


def render_html(results: dict[str, Any], failures: list[str] | None = None) -> str:
    """The whole report page as one HTML string (charts inline as SVG; needs matplotlib)."""
    require_matplotlib()
    charts = html_charts.all_charts(results)
    cfg = results["config"]
    sections = [
        ("config", "Configuration"),
        ("overall", "Overall"),
        ("kinds", "By kind"),
        ("retrievers", "Retrievers"),
        ("abstention", "Abstention"),
        ("citations", "Citations"),
        ("splits", "By split"),
        ("questions", "Questions"),
    ]
    if failures is not None:
        sections.insert(1, ("check", "Baseline check"))
    if not results.get("by_split"):
        sections.remove(("splits", "By split"))
    nav = "".join(f'<a href="#{key}">{_e(label)}</a>' for key, label in sections)
    title = f"paperchat eval report: {cfg['set']}"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title>",
            f"<style>{_CSS}</style></head><body>",
            "<h1>paperchat eval report</h1>",
            f'<p class="muted">{_e(cfg["set"])}: {_e(cfg["questions"])} questions, {_e(cfg["mode"])} answers, '
            f"{_e(cfg['retriever'])} retrieval.</p>",
            f"<nav>{nav}</nav>",
            _config(results, failures),
            _overall(results),
            _by_kind(results, charts),
            _retrievers(results, charts),
            _abstention(results, charts),
            _citations(results, charts),
            _splits(results),
            _questions(results),
            "</body></html>",
            "",
        ]
    )


def write_html(results: dict[str, Any], out_dir: Path, failures: list[str] | None = None) -> Path:
    """Write ``out_dir/report.html`` (created with its folder) and return its path.

    ``results`` is what :func:`paperchat.evaluation.runner.run_eval` returns;
    ``failures`` the baseline check's lines (``None``: no check was run).
    Raises :class:`PaperchatError` when matplotlib is missing or the file
    cannot be written.
    """
    page = render_html(results, failures)
    out_dir = Path(out_dir)
    path = out_dir / "report.html"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise PaperchatError(
            f"cannot write the HTML report to {out_dir}: {exc.strerror or exc}"
        ) from None
    return path
