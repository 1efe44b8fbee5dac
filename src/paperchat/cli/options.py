"""Click options made from the settings table (:data:`paperchat.core.settings.SETTINGS`), and the context object.

Each setting's flag, type, range, unit, environment variable and default
come from its row, so help text and validation never restate them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from paperchat.core.settings import BY_NAME, Setting, Settings, load_settings

#: The answer settings every answering command (ask, summarize, chat, config) takes.
ANSWER_SETTINGS = (
    "mode",
    "llm_model",
    "llm_base_url",
    "temperature",
    "timeout",
    "max_retries",
    "context_window",
    "verify_llm",
)


def _click_type(s: Setting):
    if s.choices:
        return click.Choice(list(s.choices), case_sensitive=False)
    if s.kind is int and s.low is not None:
        return click.IntRange(int(s.low), int(s.high))
    if s.kind is float and s.low is not None:
        return click.FloatRange(s.low, s.high)
    return s.kind


def option_help(s: Setting, lead: str | None = None) -> str:
    """The help text of a setting's flag: what it does (``lead``, else the table's text), its env var and default."""
    return f"{lead or s.help} Env {s.env}; default {s.describe_default()}."


def setting_option(
    name: str, *extra_decls: str, lead: str | None = None, **overrides: Any
) -> Callable:
    """The Click option for setting ``name`` (its flag, plus ``extra_decls`` such as ``-k``); value ``None`` when not given.

    ``lead`` replaces the table's help sentence for one command (the env var and default are still added).
    """
    s = BY_NAME[name]
    metavar = {
        "store": "DIR",
        "chroma_url": "URL",
        "embed_model": "ID",
        "llm_base_url": "URL",
        "llm_model": "NAME",
    }
    kwargs = {
        "type": _click_type(s),
        "default": None,
        "help": option_help(s, lead),
        "metavar": metavar.get(name),
    }
    kwargs.update(overrides)
    return click.option(
        *extra_decls,
        s.flag,
        name,
        **{k: v for k, v in kwargs.items() if v is not None or k == "default"},
    )


def answer_options(func: Callable) -> Callable:
    """The answer settings (:data:`ANSWER_SETTINGS`) as options of one command."""
    for name in reversed(ANSWER_SETTINGS):
        func = setting_option(name)(func)
    return func


def filter_options(func: Callable) -> Callable:
    """``--author``, ``--venue``, ``--year``, ``--paper ID`` (repeatable): which papers a command may use."""
    for decl, kwargs in reversed(
        [
            (
                ("--author",),
                {
                    "metavar": "TEXT",
                    "help": "Only papers with an author whose name has the words of TEXT (any case, order and accents: --author hinton).",
                },
            ),
            (
                ("--venue",),
                {
                    "metavar": "TEXT",
                    "help": "Only papers of this venue (whole words, any case), e.g. ICML.",
                },
            ),
            (
                ("--year",),
                {
                    "metavar": "N",
                    "type": click.IntRange(1000, 2999),
                    "help": "Only papers of this year.",
                },
            ),
            (
                ("--paper", "paper_ids"),
                {
                    "metavar": "ID",
                    "multiple": True,
                    "help": "Only this paper (repeat it for several: any of them).",
                },
            ),
        ]
    ):
        func = click.option(*decl, default=None, **kwargs)(func)
    return func


def take_filters(kwargs: dict[str, Any]):
    """Move the :func:`filter_options` values out of ``kwargs`` into a :class:`~paperchat.retrieve.filters.Filters`."""
    from paperchat.core.errors import PaperchatError
    from paperchat.retrieve.filters import Filters, unusable_value

    # an empty value given on the command line (an unset shell variable, say) would quietly filter nothing
    for flag, value in (("--author", kwargs.get("author")), ("--venue", kwargs.get("venue"))):
        if value is not None and (why := unusable_value(flag, value, f"{flag} {value!r}")):
            raise PaperchatError(why)
    if any(not p.strip() for p in kwargs.get("paper_ids") or ()):
        raise PaperchatError("--paper is empty; give a paper id (`paperchat papers` lists them)")
    return Filters.of(
        kwargs.pop("author", None),
        kwargs.pop("venue", None),
        kwargs.pop("year", None),
        kwargs.pop("paper_ids", None),
    )


def bibtex_option(help_text: str) -> Callable:
    """``--bibtex FILE``: also write papers as BibTeX entries to FILE (replaced)."""
    from pathlib import Path

    def folder_exists(_ctx, _param, value: Path | None) -> Path | None:
        # checked before the answer, which would otherwise be printed and then fail to save
        if value is not None and not value.expanduser().parent.is_dir():
            raise click.BadParameter(
                f"{value}: its folder {value.expanduser().parent} does not exist"
            )
        return value

    return click.option(
        "--bibtex",
        "bibtex_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        metavar="FILE",
        callback=folder_exists,
        help=help_text,
    )


class AppContext:
    """The CLI's context object: setting flags given on the command line, the settings and the engine (made once)."""

    def __init__(self, flags: dict[str, Any]):
        self.flags = {k: v for k, v in flags.items() if v is not None}
        self._settings: Settings | None = None
        self._engine = None

    def take(self, kwargs: dict[str, Any]) -> None:
        """Move the setting flags a command was given out of ``kwargs`` into the settings (flag > env > file)."""
        for name in list(kwargs):
            if name in BY_NAME:
                value = kwargs.pop(name)
                if value is not None:
                    self.flags[name] = value
                    self._settings = self._engine = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.flags)
        return self._settings

    def engine(self):
        """The :class:`paperchat.engine.Engine` for these settings."""
        if self._engine is None:
            from paperchat.engine import Engine

            self._engine = Engine(self.settings)
        return self._engine
