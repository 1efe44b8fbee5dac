"""``paperchat eval compare RUN_A RUN_B``: what changed between two eval runs.

Only Click is imported here; the comparison (numpy) is imported when the
command runs, so ``paperchat --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from paperchat.core.errors import ReportedFailure


@click.command(
    "compare", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}
)
@click.argument("run_a", metavar="RUN_A", type=click.Path(path_type=Path))
@click.argument("run_b", metavar="RUN_B", type=click.Path(path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the comparison as JSON instead of a table."
)
@click.option(
    "--fail-on-regression",
    is_flag=True,
    help="Exit 1, naming each metric on stderr, when a metric got significantly worse in RUN_B.",
)
def compare_command(run_a: Path, run_b: Path, as_json: bool, fail_on_regression: bool):
    """Compare two eval runs: RUN_A (the reference) and RUN_B, two `paperchat eval --out` folders.

    Questions are paired by id. For every metric: its mean in A and in B over
    the questions both runs measured, the difference Δ = B − A and a paired
    bootstrap 95% confidence interval of Δ (1000 resamples of the questions,
    fixed seed). A change whose interval excludes 0 is marked ▼ worse or
    ▲ better (by whether the metric is better higher or lower). Then the
    questions newly failing in B (with B's reason) and newly passing, and the
    settings that differ between the runs.

    RUN_A and RUN_B are folders holding results.json (or the results.json
    files themselves).

    \b
    Examples:
      paperchat eval --out eval-hybrid
      paperchat eval --retriever bm25 --out eval-bm25
      paperchat eval compare eval-hybrid eval-bm25
      paperchat eval compare eval-hybrid eval-bm25 --json
      paperchat eval compare eval-out-main eval-out --fail-on-regression   # a gate in CI
    """
    from paperchat.evaluation.compare import compare_runs, load_run, render_comparison

    cmp = compare_runs(load_run(run_a), load_run(run_b))
    if as_json:
        cmp["paths"] = {"a": str(run_a), "b": str(run_b)}
        click.echo(json.dumps(cmp, ensure_ascii=False, indent=2))
    else:
        click.echo(render_comparison(cmp, str(run_a), str(run_b)))
    if fail_on_regression and cmp["regressions"]:
        for name in cmp["regressions"]:
            m = cmp["metrics"][name]
            click.echo(
                f"eval compare: {name} regressed: {m['a']:.3f} → {m['b']:.3f} (Δ {m['diff']:+.3f}, "
                f"95% CI [{m['ci'][0]:+.3f}, {m['ci'][1]:+.3f}], n {m['n']})",
                err=True,
            )
        raise ReportedFailure()  # the lines above say why
