"""``paperchat eval draft``: draft a question set from the papers in the store, for the user to edit and run.

Only Click is imported here; the drafting code (and the store) is imported when the command runs, so
``paperchat --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path

import click

from paperchat.cli.options import setting_option


@click.command(
    "draft", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}
)
@click.option(
    "--corpus",
    "corpus",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Corpus file(s) ingested into the store first (as `paperchat eval --corpus`). Repeatable.",
)
@click.option(
    "-n",
    "--n",
    "n",
    type=click.IntRange(1, 100000),
    default=100,
    show_default=True,
    help="At most this many questions.",
)
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path),
    default=Path("eval-draft.jsonl"),
    show_default=True,
    help="The JSONL file to write.",
)
@click.option("--force", is_flag=True, help="Overwrite --out when it exists.")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed of every random choice (default: a fixed one, so the same store gives the same file).",
)
@click.option(
    "--mode",
    type=click.Choice(["offline", "llm", "auto"]),
    default="auto",
    show_default=True,
    help="offline: templates only; llm: also paraphrase and summary questions from the LLM; auto: llm "
    "when an LLM is configured (the answer mode setting).",
)
@setting_option("llm_model", lead="LLM model (as `paperchat ask --model`).")
@setting_option("llm_base_url", lead="OpenAI-compatible server (as `paperchat ask --base-url`).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.pass_obj
def draft_command(obj, corpus, n, out, force, seed, mode, llm_model, llm_base_url, as_json, quiet):
    """Draft a question set (JSONL, the format of eval/) from the papers in the store.

    Offline, questions come from what the abstracts state: which paper introduces
    a method (asked by its description, and "What does X do?"), what a method
    reports (the number as written), which papers share a rare term (all of
    them gold), and unanswerable ones (near-miss names that no abstract holds,
    figures an abstract does not give). With an LLM, also paraphrased and
    summary questions (prompts/draft.txt). Every question is checked: gold
    papers exist, facts occur in the gold abstract, no abstract sentence (or 8
    words of one) is copied, no near-duplicates. Prints how many were kept by
    kind and why the rest were dropped.

    \b
    Examples:
      paperchat eval draft                                   # ./eval-draft.jsonl from the store
      paperchat eval draft --corpus papers.jsonl --n 60 --out my-set.jsonl
      paperchat eval draft --mode offline --seed 7 --json
      paperchat eval --set my-set.jsonl                      # run it after reading and editing it
    """
    import json

    from paperchat.cli.common import progress, refuse_no_store
    from paperchat.core.errors import PaperchatError
    from paperchat.evaluation.authoring.draft import draft_questions, wants_llm

    check_out(out, force)  # a file that cannot be written fails before any work
    obj.take({"llm_model": llm_model, "llm_base_url": llm_base_url})
    if not corpus and obj.settings.origins.get("store") != "default":
        # a mistyped --store: no papers of yours to draft about (it had been filled with the bundled corpus)
        refuse_no_store(obj.settings, "no papers to draft questions about")
    engine = obj.engine()
    wants_llm(engine.settings, mode)  # so does an LLM that is asked for but not configured
    engine.ensure_corpus(progress=progress("embedding the corpus", quiet or as_json))
    if corpus:
        engine.ingest(list(corpus), progress=progress("embedding the corpus", quiet or as_json))
    draft = draft_questions(
        engine,
        n=n,
        seed=seed,
        mode=mode,
        progress=progress("drafting with the LLM", quiet or as_json, unit="paper"),
    )
    if not draft.questions:
        raise PaperchatError(
            "no question could be drafted from the stored abstracts "
            f"(dropped: {', '.join(f'{r} {c}' for r, c in draft.dropped.items()) or 'none'})"
        )
    write_draft(draft.questions, out, force)
    if as_json:
        click.echo(json.dumps({**draft.summary(), "out": str(out)}, ensure_ascii=False, indent=2))
    else:
        click.echo(render_summary(draft, out))


def check_out(path: Path, force: bool = False) -> Path:
    """``path`` if a draft may be written there.

    Raises :class:`~paperchat.core.errors.PaperchatError` for a folder, a missing parent folder, or an
    existing file without ``force``.
    """
    from paperchat.core.errors import PaperchatError

    if path.is_dir():
        raise PaperchatError(
            f"{path} is a folder; give a file name for the draft, e.g. {path / 'eval-draft.jsonl'}"
        )
    if path.exists() and not force:
        raise PaperchatError(
            f"{path} already exists; pass --force to overwrite it, or --out another file"
        )
    if not path.parent.is_dir():
        raise PaperchatError(
            f"cannot write the draft to {path}: the folder {path.parent} does not exist"
        )
    return path


def write_draft(questions: list[dict], path: Path, force: bool = False) -> Path:
    """Write ``questions`` (eval-set dicts) as JSONL to ``path``; returns the path.

    Raises :class:`~paperchat.core.errors.PaperchatError` as :func:`check_out`, or when the file cannot be written.
    """
    import json

    from paperchat.core.errors import PaperchatError

    check_out(path, force)
    try:
        path.write_text(
            "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in questions), encoding="utf-8"
        )
    except OSError as exc:
        raise PaperchatError(f"cannot write the draft to {path}: {exc.strerror or exc}") from None
    return path


def render_summary(draft, path: Path) -> str:
    """The plain-text report of a :class:`~paperchat.evaluation.authoring.draft.Draft`: questions kept by kind, dropped by
    reason, and what to do next."""
    kept = (
        ", ".join(f"{k} {v}" for k, v in sorted(draft.kept.items(), key=lambda kv: -kv[1]))
        or "none"
    )
    dropped = sum(draft.dropped.values())
    return "\n".join(
        [
            f"drafted {len(draft.questions)} questions from {draft.papers} papers into {path} "
            f"({' + '.join(draft.drafted_by)}, seed {draft.seed}, {draft.seconds:.1f} s)",
            f"kept by kind: {kept}",
            f"dropped {dropped}"
            + (": " + ", ".join(f"{r} {c}" for r, c in draft.dropped.items()) if dropped else ""),
            f"next: read and edit it, then run `paperchat eval --set {path}`",
        ]
    )
