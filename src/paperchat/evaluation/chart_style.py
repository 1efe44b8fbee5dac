"""The look of the HTML report's charts: palette, retriever styles, matplotlib settings, and figures written as
inline SVG (matplotlib is imported only when a chart is drawn)."""

from __future__ import annotations

import functools
import html
import io
import re
from typing import Any

# Okabe & Ito's colour-blind-safe palette.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


#: Per retriever: colour, line style, marker, line width (the curves often coincide; each stays visible).
RETRIEVER_STYLES = {
    "bm25": ("#E69F00", "-", "s", 3.2),
    "dense": ("#56B4E9", "--", "^", 2.2),
    "hybrid": ("#009E73", ":", "o", 1.6),
}


RC = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "legend.frameon": False,
}


def styled(name: str):
    """Build and save the decorated chart inside the report's rc settings (hash salt ``name``: reproducible ids)."""

    def wrap(fn):
        @functools.wraps(fn)
        def inner(results: dict[str, Any]) -> str | None:
            import matplotlib

            with matplotlib.rc_context({**RC, "svg.hashsalt": f"paperchat-{name}"}):
                return fn(results)

        return inner

    return wrap


def figure(**kwargs):
    """A figure on an Agg canvas (pyplot is never used: no GUI, no global figure list)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(**kwargs)
    FigureCanvasAgg(fig)
    return fig


def svg(fig, name: str, label: str) -> str:
    """The figure as one inline ``<svg>``: no XML prolog or metadata, ids prefixed with ``name`` (unique in the page)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight", pad_inches=0.08)
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    text = re.sub(r'\bid="', f'id="{name}-', text)
    text = text.replace("url(#", f"url(#{name}-").replace('href="#', f'href="#{name}-')
    return text.replace(
        "<svg ", f'<svg class="chart" role="img" aria-label="{html.escape(label)}" ', 1
    ).strip()
