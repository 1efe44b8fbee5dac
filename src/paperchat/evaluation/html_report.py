"""The eval's HTML report: one self-contained ``report.html`` (``paperchat eval --html``).

What :mod:`paperchat.evaluation.report` puts in ``report.md`` (the same
:func:`~paperchat.evaluation.report_data.prepare_report` data), as a page that
needs no network and no JavaScript: the run's configuration, the overall
figures with their 95% intervals, the charts (:mod:`paperchat.evaluation.html_charts`,
inline SVG drawn by matplotlib: key metrics per kind, recall@k of the three
retrievers, the abstention 2×2, the citation checker's picture), per-split
tables, the baseline check, and every question (failures first) with its
answer, citations, unsupported sentences, gold and ranked papers in a
``<details>``. The page is rendered from Jinja2 templates (``templates/``) with
autoescape on, so every text from the run is escaped. matplotlib and Jinja2 (the
``report`` extra) are imported only when a report is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperchat.cite.markers import MARKER
from paperchat.core.errors import PaperchatError
from paperchat.evaluation import html_charts
from paperchat.evaluation.report_data import QUESTION_COLUMNS, SPLIT_METRICS, prepare_report
from paperchat.evaluation.stats import RETRIEVAL_METRICS

NEEDS_MATPLOTLIB = (
    "the HTML report needs matplotlib: install the report extra "
    "(pip install 'paperchat[report]', or pip install '.[report]' in a paperchat checkout)"
)
TEMPLATES = Path(__file__).parent / "templates"


def _num(stat: dict[str, Any] | None) -> str:
    return "–" if not stat or stat.get("value") is None else f"{stat['value']:.3f}"


def _ci(stat: dict[str, Any] | None) -> str:
    return "–" if not stat or not stat.get("ci") else f"[{stat['ci'][0]:.3f}, {stat['ci'][1]:.3f}]"


def _bar(stat: dict[str, Any] | None):
    """A CSS interval bar on [0, 1]: the 95% interval shaded, the value a tick (markup)."""
    from markupsafe import Markup

    if not stat or stat.get("value") is None:
        return ""
    lo, hi = stat.get("ci") or (stat["value"], stat["value"])
    pct = [min(100.0, max(0.0, 100 * v)) for v in (lo, hi, stat["value"])]
    return Markup(
        '<span class="bar" title="{}"><span class="ci" style="left:{:.1f}%;width:{:.1f}%"></span>'
        '<span class="val" style="left:{:.1f}%"></span></span>'
    ).format(_ci(stat), pct[0], max(pct[1] - pct[0], 0.6), pct[2])


def _answer_html(row: dict[str, Any]):
    """The answer text, escaped, with its unsupported sentences marked and its citation markers highlighted."""
    from markupsafe import Markup, escape

    def markers(text: str) -> Markup:
        return Markup(
            MARKER.sub(lambda m: f'<span class="marker">{m.group(0)}</span>', escape(text))
        )

    text = row["answer"] or ""
    if row["abstained"]:
        return Markup('<span class="abstained">{}</span>').format(text)
    spans: list[tuple[int, int]] = []
    for sent in row.get("unsupported") or []:
        at = text.find(sent)
        if at >= 0 and not any(a < at + len(sent) and at < b for a, b in spans):
            spans.append((at, at + len(sent)))
    out, pos = Markup(), 0
    for a, b in sorted(spans):
        out += markers(text[pos:a]) + Markup(
            '<mark class="unsupported" title="not supported by its cited sources">{}</mark>'
        ).format(markers(text[a:b]))
        pos = b
    return out + markers(text[pos:])


def _gold_ranks(row: dict[str, Any]) -> dict[str, str]:
    ranks = {pid: i for i, pid in enumerate(row.get("ranked") or [], 1)}
    return {p: f" (rank {ranks[p]})" if p in ranks else " (not in the top 10)" for p in row["gold"]}


def _config_items(results: dict[str, Any]) -> list[tuple[str, str]]:
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
    return items


def _environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(
        num=_num,
        ci=_ci,
        bar=_bar,
        num_ci=lambda stat: f"{_num(stat)} {_ci(stat)}",
        answer_html=_answer_html,
    )
    env.globals.update(
        zip=zip,
        gold_ranks=_gold_ranks,
        given_marks=lambda row: {p: " †" for p in row.get("answer_retrieved") or []},
    )
    return env


def require_matplotlib() -> None:
    """Raise :class:`PaperchatError` with the install hint when matplotlib or Jinja2 is missing (call before a long eval)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise PaperchatError(NEEDS_MATPLOTLIB)
    if importlib.util.find_spec("jinja2") is None:
        raise PaperchatError(NEEDS_MATPLOTLIB.replace("matplotlib", "jinja2", 1))


def render_html(results: dict[str, Any], failures: list[str] | None = None) -> str:
    """The whole report page as one HTML string (charts inline as SVG; needs matplotlib and Jinja2)."""
    require_matplotlib()
    charts = html_charts.all_charts(results)
    data = prepare_report(results, failures)
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
    if not data.splits:
        sections.remove(("splits", "By split"))
    checked = [r for r in results["questions"] if r.get("citation_recall") is not None]
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            data=data,
            cfg=data.cfg,
            overall=results["overall"],
            charts=charts,
            sections=sections,
            config_items=_config_items(results),
            kind_labels=", ".join(label for label, _ in html_charts.KIND_METRICS),
            kind_headers=[f"{k} (n={n})" for k, n in data.kinds],
            retrieval_metrics=list(RETRIEVAL_METRICS),
            split_labels=[label for label, _ in SPLIT_METRICS],
            question_columns=list(QUESTION_COLUMNS),
            abstention_counts=html_charts.abstention_counts(results["questions"]),
            unsupported=sum(len(r["unsupported"]) for r in checked),
            checked_sentences=sum(r.get("sentences") or 0 for r in checked),
        )
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
