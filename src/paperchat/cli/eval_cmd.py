"""``paperchat eval``: the eval set through the user's pipeline, a report, and a regression gate.

Only Click is imported here; the eval runner (and with it the ML stack) is
imported when the command runs, so ``paperchat --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from paperchat.cli.common import progress
from paperchat.cli.options import AppContext, setting_option
from paperchat.core.errors import PaperchatError, ReportedFailure
from paperchat.evaluation.questions import HELD_OUT, TUNED_ON


@click.group(
    "eval",
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.option(
    "--set",
    "set_path",
    default=None,
    metavar="NAME|FILE",
    help="Eval set: a JSONL file, or a shipped set: bundled (default, eval/questions.jsonl), "
    "conference (eval/conference/dev.jsonl + test.jsonl; needs --corpus with the ICML 2025 "
    "abstracts), conference-dev, conference-test, scale, generalization "
    f"({len(TUNED_ON) + len(HELD_OUT)} independently written sets: general-{', -'.join(TUNED_ON)} "
    f"tuned on, general-{', -'.join(HELD_OUT)} held out; each also by its own name; needs --corpus too).",
)
@click.option(
    "--mode",
    type=click.Choice(["extractive", "llm"]),
    default="extractive",
    show_default=True,
    help="Answer mode to evaluate: the offline extractive answerer (deterministic; what the baseline "
    "holds) or the configured LLM.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables."
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for report.md and results.json (default: ./eval-out).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Exit 1, naming each metric, when a figure falls below the baseline "
    "(with --limit, metrics the sample holds no question for are skipped, and named).",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Minimum figures for --check (default: the shipped set's, eval/baseline*.json; your own set needs one).",
)
@click.option(
    "--retriever",
    type=click.Choice(["hybrid", "dense", "bm25"]),
    default="hybrid",
    show_default=True,
    help="Retriever of the evaluated pipeline (all three are also measured side by side).",
)
@setting_option("top_k", "-k", lead="Papers given to the answerer.")
@click.option(
    "--limit",
    type=click.IntRange(1),
    default=None,
    metavar="N",
    help="Only the first N questions (a quick run; its figures are not comparable with the baseline).",
)
@click.option(
    "--no-verify", is_flag=True, help="Skip the support checker (no citation recall/precision)."
)
@click.option(
    "--corpus",
    "corpus",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Extra corpus file(s) ingested into the store before the run, e.g. the 2,732 ICML 2025 "
    "abstracts as distractors for eval/questions_scale.jsonl. Repeatable.",
)
@click.option(
    "--html",
    "html",
    is_flag=True,
    help="Also write report.html: one self-contained page with the charts and the questions (needs the "
    "report extra: pip install 'paperchat[report]').",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.pass_context
def eval_command(
    ctx: click.Context,
    set_path,
    mode,
    as_json,
    out_dir,
    check,
    baseline_path,
    retriever,
    top_k,
    limit,
    no_verify,
    corpus,
    html,
    quiet,
):
    """Run the eval set (default: eval/questions.jsonl of the repository) and report grounding.

    Each question goes through the same pipeline as `paperchat ask` (for a shipped
    set, the bundled corpus is ingested first when the store is empty; a set of
    your own needs a store holding its papers, or --corpus). Reported overall and per
    question kind, with bootstrap 95% confidence intervals:

    \b
      retrieval   Recall@1/5/10, MRR@10, nDCG@10 (and BM25 / dense / hybrid side by side)
      citations   sentences with a citation, out-of-range citations, citation
                  recall / precision (ALCE, judged by the support checker),
                  cited papers that are gold, gold papers cited
      answers     required-fact recall
      abstention  abstention rate (unanswerable), false abstentions (answerable),
                  precision and accuracy of answers

    Writes report.md and results.json to --out and prints a summary (or JSON).
    With --check, exits 1 (one line per metric) when a figure falls below
    eval/baseline.json.

    \b
    Examples:
      paperchat eval
      paperchat eval --check
      paperchat eval --retriever bm25 --json --out eval-bm25
      paperchat eval --html                       # report.html beside report.md
      paperchat eval draft --out my-questions.jsonl  # a question set for your own store
      paperchat eval compare eval-out-a eval-out-b   # what changed between two runs
    """
    if ctx.invoked_subcommand is not None:
        return
    obj: AppContext = ctx.obj
    from paperchat.evaluation import questions, report
    from paperchat.evaluation.runner import lacks_own_store, run_eval

    if html:  # before the run, not after it
        from paperchat.evaluation.html_report import require_matplotlib

        require_matplotlib()
    own = set_path is not None and str(set_path) not in questions.NAMED_SETS
    settings = obj.settings
    # a user's set is about the user's papers: never seed a mistyped store with the bundled ones
    if own and lacks_own_store(settings, corpus):
        from paperchat.core.commands import ingest_command

        raise PaperchatError(
            f"no store at {settings.store_path}: ingest the papers your eval set is about first "
            f"(`{ingest_command(settings)} FILE...`), or pass --corpus FILE"
        )
    baseline = None
    if check:
        chosen = baseline_path or questions.default_baseline(set_path)
        baseline = report.load_baseline(chosen)
        asked = [q for p in questions.resolve_set(set_path) for q in questions.load_questions(p)]
        report.check_splits(baseline, {q["split"] for q in asked if q.get("split")}, chosen)
    engine = obj.engine()
    if retriever != engine.retriever_mode:
        from paperchat.engine import Engine

        engine = Engine(obj.settings, retriever=retriever)
    report.ready_out(out_dir or questions.default_out_dir())
    results = run_eval(
        engine,
        set_path=set_path,
        top_k=top_k,
        mode=mode,
        check_support=not no_verify,
        limit=limit,
        progress=progress("eval", quiet or as_json, unit="question"),
        ingest_progress=progress("embedding the corpus", quiet or as_json),
        corpus=list(corpus),
        seed_bundled=not own,
    )
    failures = report.check_baseline(results, baseline) if baseline is not None else None
    skipped = report.unmeasured(results, baseline) if baseline is not None else []
    files = report.write_outputs(results, out_dir or questions.default_out_dir(), failures)
    if html:
        from paperchat.evaluation.html_report import write_html

        files["html"] = str(write_html(results, Path(files["results"]).parent, failures))
    else:  # an earlier run's page would describe other figures than report.md beside it
        Path(files["results"]).parent.joinpath("report.html").unlink(missing_ok=True)
    if as_json:
        summary = report.summary_json(results)
        summary["files"] = files
        if failures is not None:
            summary["check"] = {
                "passed": not failures,
                "failures": failures,
                "not_measured": skipped,
            }
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        click.echo(report.render_summary(results, failures))
        click.echo(
            f"report: {files['report']}\nresults: {files['results']}"
            + (f"\nhtml: {files['html']}" if "html" in files else "")
        )
    if skipped:
        click.echo(
            f"note: not measured by this sample of {len(results['questions'])} questions, so not checked: "
            f"{', '.join(skipped)}",
            err=True,
        )
    if failures:
        for line in failures:
            click.echo(f"eval check failed: {line}", err=True)
        raise ReportedFailure()  # the lines above say why


from paperchat.cli.eval_compare import compare_command  # noqa: E402 - subcommands of the group above
from paperchat.cli.eval_draft import draft_command  # noqa: E402

eval_command.add_command(draft_command)
eval_command.add_command(compare_command)
