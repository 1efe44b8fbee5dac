"""Files that ship with paperchat: the bundled corpus (``data/``), the prompts and the eval sets.

In an installed wheel they live inside the package, in ``paperchat/_bundled/<kind>``
(``pyproject.toml`` force-includes them); in a source checkout (an editable
install, the tests) they are the repository's own ``data/``, ``prompts/`` and
``eval/`` folders. :func:`bundled_dir` is the one place that knows this.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from paperchat.core.errors import PaperchatError

KINDS = ("data", "prompts", "eval")


def checkout_root() -> Path | None:
    """The repository folder paperchat runs from (an editable install), or ``None`` for an installed wheel."""
    root = Path(__file__).resolve().parents[3]
    return (
        root
        if (root / "pyproject.toml").is_file() and (root / "src" / "paperchat").is_dir()
        else None
    )


def bundled_dir(kind: str) -> Path:
    """The folder of bundled files of ``kind`` (``"data"``, ``"prompts"`` or ``"eval"``).

    Raises :class:`PaperchatError` when neither the packaged copy nor the
    checkout's folder exists (a broken install).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind of bundled files {kind!r}")
    packaged = Path(str(importlib.resources.files("paperchat"))) / "_bundled" / kind
    if packaged.is_dir():
        return packaged
    root = checkout_root()
    if root is not None and (root / kind).is_dir():
        return root / kind
    raise PaperchatError(
        f"bundled {kind} folder not found (looked in {packaged}); reinstall paperchat"
    )


def bundled_file(kind: str, name: str) -> Path:
    """One bundled file; :class:`PaperchatError` when it is missing."""
    path = bundled_dir(kind) / name
    if not path.is_file():
        raise PaperchatError(f"bundled file {path} not found; reinstall paperchat")
    return path
