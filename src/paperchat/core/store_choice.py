"""One store per command: a folder (``store``) or a Chroma server (``chroma_url``), never both silently.

:func:`one_store` settles the two when both are set (:func:`paperchat.core.settings.load_settings` calls it).
"""

from __future__ import annotations

from paperchat.core.errors import PaperchatError

#: How directly a value was set, by its origin's prefix: the environment beats the config file.
_RANK = {"env": 2, "file": 1}


def one_store(values: dict, origins: dict) -> None:
    """Settle a store folder and a Chroma URL both set, in place: a ``--store`` flag beats a URL from the
    environment or the config file, as any flag would (both flags: :class:`PaperchatError`); else the one
    set more directly is used and the other's origin says it was ignored; set at the same level,
    :class:`PaperchatError` (an operator's PAPERCHAT_STORE and PAPERCHAT_CHROMA_URL had used the server
    silently, and ``config`` had listed both). ``values`` and ``origins`` map setting names to values and
    to origins (``"env:PAPERCHAT_STORE"``, ``"file:/path/config.toml"``, ``"flag"``, ``"default"``)."""
    if origins["store"] == "flag" and values["chroma_url"]:
        if origins["chroma_url"] == "flag":
            raise PaperchatError("--store and --chroma-url name two stores; give one of them")
        origins["chroma_url"] = f"ignored: --store beats {origins['chroma_url']}"
        values["chroma_url"] = None
    store, url = (origins[k].split(":", 1)[0] for k in ("store", "chroma_url"))
    if not values["chroma_url"] or store not in _RANK or url not in _RANK:
        return
    if _RANK[store] == _RANK[url]:
        where = (
            f"{origins['store'][4:]} and {origins['chroma_url'][4:]}"
            if store == "env"
            else f"store and chroma_url in {origins['store'][5:]}"
        )
        raise PaperchatError(
            f"{where} name two stores (a folder and a Chroma server); give one of them"
        )
    if _RANK[store] > _RANK[url]:
        origins["chroma_url"] = f"ignored: {origins['store']} beats {origins['chroma_url']}"
        values["chroma_url"] = None
    else:
        origins["store"] = f"ignored: {origins['chroma_url']} beats {origins['store']}"
