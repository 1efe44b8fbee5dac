"""Prompt templates: text files in the bundled ``prompts/`` folder, loaded by name.

A prompt file ``<name>.txt`` has two sections, each opened by a line of its own::

    # comment lines (only before the first section)
    [system]
    ...system message, may use {placeholders}...
    [user]
    ...user message...

Placeholders are ``{name}`` (Python ``str.format`` fields without format
specs; write ``{{`` / ``}}`` for literal braces). Each known prompt has a
fixed set of placeholders (:data:`PLACEHOLDERS`); a file with an unknown or
missing placeholder, a malformed brace or a missing section fails at load
time with a one-line :class:`~paperchat.core.errors.PaperchatError`.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path

from paperchat.core.errors import PaperchatError

#: prompt name -> the placeholders its file must use (all of them, and no others).
PLACEHOLDERS: dict[str, frozenset[str]] = {
    "answer": frozenset({"question", "sources", "n_sources", "abstention"}),
    "summarize_paper": frozenset({"title", "abstract", "abstention"}),
    "summarize_topic": frozenset({"topic", "sources", "n_sources", "abstention"}),
    "condense": frozenset({"history", "question"}),
    "verify": frozenset({"sources", "sentences", "n_sentences"}),
    "draft": frozenset({"title", "sentences", "avoid"}),
}

#: placeholders a prompt may leave out (the rest of PLACEHOLDERS[name] is required).
OPTIONAL: dict[str, frozenset[str]] = {
    "answer": frozenset({"n_sources"}),
    "summarize_topic": frozenset({"n_sources"}),
    "summarize_paper": frozenset(),
    "condense": frozenset(),
    "verify": frozenset({"n_sentences"}),
    "draft": frozenset(),
}

_SECTIONS = ("system", "user")


@dataclass(frozen=True)
class Prompt:
    """A loaded, validated prompt: a system and a user template and their placeholders."""

    name: str
    path: Path
    system: str
    user: str
    fields: frozenset[str]

    def render(self, **values: object) -> list[dict[str, str]]:
        """The chat messages ``[{"role": "system", ...}, {"role": "user", ...}]``.

        ``values`` must give every placeholder of the prompt (extra ones are
        ignored); a missing one raises :class:`PaperchatError`.
        """
        missing = sorted(self.fields - set(values))
        if missing:
            raise PaperchatError(
                f"prompt {self.name}: no value for {', '.join('{' + m + '}' for m in missing)}"
            )
        return [
            {"role": "system", "content": self.system.format_map(values).strip()},
            {"role": "user", "content": self.user.format_map(values).strip()},
        ]


def _fields(template: str, where: str) -> set[str]:
    out: set[str] = set()
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise PaperchatError(
            f"{where}: malformed placeholder ({exc}); write {{{{ and }}}} for literal braces"
        ) from None
    for _literal, field, spec, conv in parsed:
        if field is None:
            continue
        if not field.isidentifier() or spec or conv:
            shown = "{" + field + ("!" + conv if conv else "") + (":" + spec if spec else "") + "}"
            raise PaperchatError(f"{where}: placeholder {shown} is not a plain {{name}}")
        out.add(field)
    return out


def parse_prompt(name: str, text: str, path: Path) -> Prompt:
    """Parse and validate the text of prompt file ``path`` (see the module docstring)."""
    where = f"prompt file {path}"
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for lineno, line in enumerate(text.splitlines(), 1):
        header = line.strip().lower()
        if header in {f"[{s}]" for s in _SECTIONS}:
            current = header[1:-1]
            if current in sections:
                raise PaperchatError(f"{where}:{lineno}: section [{current}] appears twice")
            sections[current] = []
        elif current is None:
            if line.strip() and not line.lstrip().startswith("#"):
                raise PaperchatError(
                    f"{where}:{lineno}: text before the [system] section (start with [system])"
                )
        else:
            sections[current].append(line)
    for section in _SECTIONS:
        if section not in sections or not "\n".join(sections[section]).strip():
            raise PaperchatError(f"{where}: missing or empty [{section}] section")
    system, user = ("\n".join(sections[s]).strip() + "\n" for s in _SECTIONS)
    fields = _fields(system, where) | _fields(user, where)
    allowed = PLACEHOLDERS.get(name)
    if allowed is not None:
        unknown = sorted(fields - allowed)
        if unknown:
            raise PaperchatError(
                f"{where}: unknown placeholder {{{unknown[0]}}} (allowed: {', '.join('{' + a + '}' for a in sorted(allowed))})"
            )
        missing = sorted(allowed - OPTIONAL.get(name, frozenset()) - fields)
        if missing:
            raise PaperchatError(f"{where}: required placeholder {{{missing[0]}}} is missing")
    return Prompt(name, path, system, user, frozenset(fields))


_CACHE: dict[tuple[str, str], Prompt] = {}


def load_prompt(name: str, folder: str | Path | None = None) -> Prompt:
    """The prompt ``name`` (``answer``, ``summarize_paper``, ``summarize_topic``, ``condense``, ``verify``, ``draft``).

    Read from ``folder`` (default: the bundled ``prompts`` folder,
    :func:`paperchat.core.resources.bundled_dir`) and cached per process. Raises
    :class:`PaperchatError` for a missing, unreadable or invalid file.
    """
    if folder is None:
        from paperchat.core.resources import bundled_dir

        folder = bundled_dir("prompts")
    path = Path(folder) / f"{name}.txt"
    key = (name, str(path))
    if key in _CACHE:
        return _CACHE[key]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PaperchatError(f"prompt file {path} not found (reinstall paperchat)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PaperchatError(f"prompt file {path} cannot be read: {exc}") from None
    prompt = parse_prompt(name, text, path)
    _CACHE[key] = prompt
    return prompt
