"""Reading through a rebuild: a command that was reading the store's old generation when a rebuild in
another process switched to the new one (and dropped the old collections) reads again, once, from the new
one, whole (:mod:`paperchat.store.writer` switches generations; :class:`~paperchat.store.failures.StoreSwitched`
says it happened)."""

from __future__ import annotations

import functools
import inspect


def again_after_rebuild(method):
    """Run ``method`` again, once, from the new generation when a rebuild in another process finished while it
    read the old one (:class:`~paperchat.store.failures.StoreSwitched`): the whole read is repeated, so an
    answer never mixes two generations. An answer that already streamed tokens is not repeated."""

    signature = inspect.signature(method)

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        from paperchat.store.failures import StoreSwitched

        call = signature.bind(self, *args, **kwargs)
        streamed = []
        on_token = call.arguments.get("on_token")
        if on_token is not None:

            def counting(piece: str) -> None:
                streamed.append(1)
                on_token(piece)

            call.arguments["on_token"] = counting
        try:
            return method(*call.args, **call.kwargs)
        except StoreSwitched:
            if streamed:
                raise
            self.store.refresh()  # a new revision: caches keyed by it (filters, BM25) are read anew
            return method(*call.args, **call.kwargs)

    return run
