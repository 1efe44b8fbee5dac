"""The grounding eval from Python (``paperchat eval`` without the command line), for a notebook that scores
paperchat on its own questions: ``evaluate(pc, "my_questions.jsonl")``."""

from __future__ import annotations

import numbers
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from paperchat.api.arguments import python_errors, top_k_arg
from paperchat.api.client import Paperchat
from paperchat.core.errors import BadArgument, StoreError


@python_errors
def evaluate(
    pc: Paperchat,
    questions: str | os.PathLike = "bundled",
    *,
    corpus: Sequence[str | os.PathLike] = (),
    top_k: int | None = None,
    mode: str = "extractive",
    limit: int | None = None,
    out: str | os.PathLike | None = None,
) -> dict[str, Any]:
    """Run an eval set through ``pc``'s store and measure it, as ``paperchat eval`` does.

    ``questions``: a shipped set's name (``bundled``, ``conference``, ``general-b``, ...) or a JSONL file of
    your own (README, "Eval"); ``corpus``: files ingested first (``--corpus``); ``top_k``: papers given to
    the answerer (default: the setting); ``mode``: ``extractive`` (offline, deterministic) or ``llm``;
    ``limit``: the first N questions; ``out``: a folder to write ``report.md`` and ``results.json`` to.

    Returns the run's results (``config``, ``overall`` and ``by_kind`` as ``{metric: {value, ci, n}}``,
    ``questions``: one row per question with its answer, citations and scores). Your own set is never
    answered from the bundled corpus put into an empty store (a shipped set's is, as the CLI does). Raises
    :class:`~paperchat.core.errors.BadArgument` (a ``ValueError`` too) for a ``top_k``, ``limit`` or ``mode``
    the CLI would refuse, and :class:`~paperchat.core.errors.PaperchatError` for a malformed set, gold
    papers the store lacks, or a store that does not exist.
    """
    from paperchat.evaluation import questions as qs
    from paperchat.evaluation.report import ready_out, write_outputs
    from paperchat.evaluation.runner import lacks_own_store, run_eval

    # a notebook may pass the store's folder, or a number for a path (raw AttributeError and TypeError before)
    if not isinstance(pc, Paperchat):
        raise BadArgument(f"pc must be a Paperchat (Paperchat(store)), not {type(pc).__name__}")
    for name, value, what in (
        ("questions", questions, "a path or a set's name"),
        ("out", out, "a path"),
    ):
        if value is not None and not isinstance(value, (str, os.PathLike)):
            raise BadArgument(f"{name} must be {what}, not {type(value).__name__}")
    if isinstance(corpus, (str, os.PathLike)) or not all(
        isinstance(c, (str, os.PathLike)) for c in corpus
    ):
        raise BadArgument(f"corpus must be a list of paths, not {corpus!r}"[:120])
    top_k = top_k_arg(top_k, None)
    # as the CLI's --limit (0 had divided by zero, -1 dropped the last question)
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, numbers.Integral) or limit < 1
    ):
        raise BadArgument(f"limit must be a whole number, 1 or more, not {limit!r}")
    if mode not in ("extractive", "llm"):
        raise BadArgument(f"mode must be 'extractive' or 'llm', not {mode!r}")
    own = str(questions) not in qs.NAMED_SETS
    if own and lacks_own_store(pc.settings, corpus):
        # as `paperchat eval --set FILE` says it, in the API's words (a mistyped store is not filled)
        raise StoreError(
            f"no store at {pc.settings.store_path}: ingest the papers your eval set is about first "
            "(pc.ingest(paths)), or pass corpus=[FILE]"
        )
    if out is not None:
        ready_out(Path(out))
    results = run_eval(
        pc.engine,
        set_path=questions,
        top_k=top_k,
        mode=mode,
        limit=limit,
        corpus=[Path(c) for c in corpus],
        seed_bundled=not own,
    )
    if out is not None:
        write_outputs(results, Path(out), None)
    return results
