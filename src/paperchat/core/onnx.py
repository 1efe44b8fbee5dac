"""onnxruntime session options shared by paperchat's models: the embedder, its question encoder and the
citation verifier.

``PAPERCHAT_THREADS`` caps onnxruntime's intra-op threads per session (unset or ``0``: onnxruntime's
default, one per physical core). Where several paperchat processes share a machine's cores (the test
suite's two workers, a batch of jobs), ``1`` spends less CPU time on the same vectors: on 2 cores,
embedding 1,815 abstract sentences took 34.7 s of CPU in one thread against 42.8 s in two (21.7 s wall
against 34.7 s). The vectors are identical whatever the count.
"""

from __future__ import annotations

import os

from paperchat.core.errors import PaperchatError

THREADS_ENV = "PAPERCHAT_THREADS"


def model_threads() -> int | None:
    """Intra-op threads from ``PAPERCHAT_THREADS`` (``None``: onnxruntime's default).

    Raises :class:`PaperchatError` when the variable is not a whole number from 0 to 256.
    """
    raw = os.environ.get(THREADS_ENV, "").strip()
    if not raw:
        return None
    try:
        threads = int(raw)
    except ValueError:
        threads = -1
    if not 0 <= threads <= 256:
        raise PaperchatError(f"{THREADS_ENV}={raw!r}: give a whole number of threads from 0 to 256")
    return threads or None


def session_options(threads: int | None = None):
    """``onnxruntime.SessionOptions`` for a paperchat model: every graph optimisation, warnings off, and
    ``threads`` intra-op threads (``None``: :func:`model_threads`)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    threads = threads or model_threads()
    if threads:
        options.intra_op_num_threads = threads
    return options
