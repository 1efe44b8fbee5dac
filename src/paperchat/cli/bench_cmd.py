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
@click.option(
    "--scale",
    "scale",
    multiple=True,
    type=click.IntRange(0, 10_000_000),
    is_flag=False,
    flag_value=20_000,
    metavar="[N]",
    help="Measure a store grown to N papers (default 20000) with replicas of a real store's papers "
    "instead. Repeatable; N at or below the base's count measures the base.",
)
@click.option(
    "--base-store",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="With --scale: the real store to grow (copied, never written), built from the --corpus files "
    "(default: one built once in the user cache folder).",
)
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="With --scale: leave each grown store in DIR/<N> to try it afterwards; a DIR/<N> an earlier run "
    "left is measured again instead of grown anew.",
)
def bench(corpus, repeat, out, as_json, no_baseline, scale, base_store, keep):
    """Measure ingest, retrieval and answer speed and memory on this machine.

    Builds a fresh temporary store (your store is not touched), so on a large
    corpus this takes as long as an ingest, and then as long again for the
    LlamaIndex baseline it is compared with (unless --no-baseline).

    \b
    Examples:
      paperchat bench
      paperchat bench --corpus ../shared/data/icml2025_abstracts.jsonl --out bench-2.7k.json
      paperchat bench --scale 2740 --scale 20000 --scale 50000 --base-store ~/icml-store --out scale.json

    With --scale, each size is a copy of a real store of the conference
    (--corpus, default ../shared/data/icml2025_abstracts.jsonl) grown with
    replicas of its papers (their real vectors, perturbed slightly; nothing is
    embedded), measured as fresh processes: ask, papers --json, an unchanged
    re-ingest, peak memory, disk size and warm retrieval.
    """
    if scale:
        figures = _scale(scale, list(corpus), base_store, repeat, keep)
    else:
        from paperchat.evaluation.bench.speed import format_table, run_bench

        figures = run_bench(list(corpus) or None, repeat=repeat, baseline=not no_baseline)
    if out:
        out.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    if as_json:
        echo_json(figures)
    elif scale:
        from paperchat.evaluation.bench.scale import format_scale

        click.echo(format_scale(figures))
    else:
        click.echo(format_table(figures))


def _scale(
    sizes, corpus: list[Path], base_store: Path | None, repeat: int, keep: Path | None
) -> dict:
    """``bench --scale``: the figures of :func:`paperchat.evaluation.bench.scale.run_scale`."""
    from paperchat.cli.progress import progress_bar
    from paperchat.core.errors import PaperchatError
    from paperchat.evaluation.bench.scale import find_conference, run_scale

    if not corpus:
        found = find_conference()
        if found is None:
            raise PaperchatError(
                "--scale needs the conference file the base store is built from: pass --corpus "
                "../shared/data/icml2025_abstracts.jsonl"
            )
        corpus = [found]
    return run_scale(
        list(sizes),
        corpus,
        base_store,
        repeat=repeat,
        note=lambda line: click.echo(f"note: {line}", err=True),
        progress_for=lambda size: progress_bar(f"growing to {size:,} papers", unit="paper"),
        keep=keep,
    )
