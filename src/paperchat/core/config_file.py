"""The TOML config file: where it is (``$PAPERCHAT_CONFIG`` or the user config folder) and its keys, read
flat and checked against the settings table's (:mod:`paperchat.core.settings` resolves the values); and
the per-user cache folder."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError

APP = "paperchat"


def config_file_path() -> Path:
    """The config file location: ``$PAPERCHAT_CONFIG`` or the user config folder."""
    env = os.environ.get("PAPERCHAT_CONFIG")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False)) / "config.toml"


def user_data_dir() -> Path:
    """The per-user data folder (``platformdirs.user_data_dir("paperchat")``): the default store."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def user_cache_dir() -> Path:
    """The per-user cache folder (``platformdirs.user_cache_dir("paperchat")``): the vector cache, the LLM
    verifier's verdicts, Chroma server clients' local state, the scale bench's base stores."""
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP, appauthor=False))


def read_config_file(path: Path, known: set[str]) -> dict[str, Any]:
    """The flat ``{key: value}`` of the TOML config file at ``path`` (``{}`` when there is none); ``llm.model``
    is ``model`` under ``[llm]``; a relative ``store`` path is relative to the file's folder. Raises
    :class:`PaperchatError` when it is not valid TOML, holds a key not in ``known``, or ``$PAPERCHAT_CONFIG``
    names a file that does not exist."""
    if not path.exists():
        if os.environ.get("PAPERCHAT_CONFIG"):
            raise PaperchatError(f"PAPERCHAT_CONFIG names {path}, which does not exist")
        return {}
    if path.is_dir():
        raise PaperchatError(f"config file {path} is a folder; name a TOML file")
    try:
        # a byte-order mark (Windows Notepad writes one) is no key
        raw = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PaperchatError(f"config file {path} is not valid TOML: {exc}") from exc
    flat: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, dict):
            for sub, subval in value.items():
                flat[f"{key}.{sub}"] = subval
        else:
            flat[key] = value
    # a relative store is the file's folder's, not the folder a command runs in
    if isinstance(flat.get("store"), str) and flat["store"].strip():
        flat["store"] = str(path.parent / Path(flat["store"]).expanduser())
    unknown = sorted(set(flat) - known)
    if unknown:
        raise PaperchatError(
            f"config file {path}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})"
        )
    return flat
