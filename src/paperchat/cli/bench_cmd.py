"""``paperchat bench``: speed and memory figures on this machine (a command, never a test)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from paperchat.cli.common import echo_json


@click.command()
@click.option(
    "--corpus",
    "corpus",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Corpus file(s) to measure on (default: the bundled corpus). Repeatable.",
)
@click.option(
    "--repeat",
    type=click.IntRange(1, 50),
    default=5,
    show_default=True,
    help="Runs of each cold command (median reported).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the figures as JSON here.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option(
    "--no-baseline",
    is_flag=True,
    help="Skip the plain LlamaIndex baseline (about 8 minutes of the run at 2.7k papers).",
)
def bench(corpus, repeat, out, as_json, no_baseline):
    """Measure ingest, retrieval and answer speed and memory on this machine.

    Builds a fresh temporary store (your store is not touched), so on a large
    corpus this takes as long as an ingest, and then as long again for the
    LlamaIndex baseline it is compared with (unless --no-baseline).

    \b
    Examples:
      paperchat bench
      paperchat bench --corpus ../shared/data/icml2025_abstracts.jsonl --out bench-2.7k.json
    """
    from paperchat.evaluation.bench.speed import format_table, run_bench

    figures = run_bench(list(corpus) or None, repeat=repeat, baseline=not no_baseline)
    if out:
        out.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    if as_json:
        echo_json(figures)
    else:
        click.echo(format_table(figures))
