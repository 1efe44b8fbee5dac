"""PAPERCHAT_THREADS caps onnxruntime's threads per model session (paperchat.core.onnx)."""

from __future__ import annotations

import pytest

from paperchat.core.errors import PaperchatError
from paperchat.core.onnx import model_threads, session_options


@pytest.mark.parametrize("raw, threads", [("", None), ("0", None), ("1", 1), (" 4 ", 4)])
def test_the_thread_count_is_read_from_the_environment(monkeypatch, raw, threads):
    monkeypatch.setenv("PAPERCHAT_THREADS", raw)
    assert model_threads() == threads
    assert session_options().intra_op_num_threads == (threads or 0)  # 0: onnxruntime's default


@pytest.mark.parametrize("raw", ["two", "-1", "1.5", "999"])
def test_a_bad_thread_count_is_a_one_line_error(monkeypatch, raw):
    monkeypatch.setenv("PAPERCHAT_THREADS", raw)
    with pytest.raises(
        PaperchatError, match=r"PAPERCHAT_THREADS=.*whole number of threads from 0 to 256"
    ):
        model_threads()


def test_an_explicit_count_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("PAPERCHAT_THREADS", "1")
    assert session_options(3).intra_op_num_threads == 3
