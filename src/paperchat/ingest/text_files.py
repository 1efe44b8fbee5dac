"""Reading a corpus or metadata file as text: UTF-8 by default, an encoding the user names, UTF-16 and
UTF-32 by their byte-order marks, and one-line errors for a missing, empty, binary or undecodable file."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from paperchat.core.errors import PaperchatError

#: A byte Windows-1252 reads as a quote, a dash or a letter and Latin-1 as a control character.
_C1 = re.compile(rb"[\x80-\x9f]")


class EmptyFile(PaperchatError):
    """A corpus or metadata file with nothing but white space in it (``--on-error skip`` passes over one
    among several files: :func:`paperchat.engine.ingesting.ingest`)."""


class NothingReadable(PaperchatError):
    """A corpus file none of whose lines could be read (every one malformed, under ``--on-error skip``, or
    text not in its encoding, or a binary file);
    ``--on-error skip`` passes over one among several files, as over an :class:`EmptyFile`."""


def _wide_bom(raw: bytes) -> str | None:
    """``"utf-32"`` or ``"utf-16"`` when ``raw`` opens with that encoding's byte-order mark, else ``None``."""
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


def _wide_guess(head: bytes) -> str | None:
    """The UTF-16/32 byte order that ``head`` (a file's first bytes, no byte-order mark) looks written in, from
    where its zero bytes fall (ASCII text in UTF-16-LE: every odd byte is zero), else ``None``."""
    n = len(head) - len(head) % 4
    if n < 8:
        return None
    zero = [sum(head[i] == 0 for i in range(k, n, 4)) / (n // 4) for k in range(4)]
    for name, pattern in (
        ("utf-32-le", (0, 1, 1, 1)),
        ("utf-32-be", (1, 1, 1, 0)),
        ("utf-16-le", (0, 1, 0, 1)),
        ("utf-16-be", (1, 0, 1, 0)),
    ):
        if all((z > 0.9) if want else (z < 0.1) for z, want in zip(zero, pattern)):
            return name
    return None


def read_text(path: Path, encoding: str | None = None) -> str:
    """The text of a corpus or metadata file: UTF-8 unless ``encoding`` is given (an 8-bit ``encoding`` is
    for files that are not valid UTF-8) or the file opens with a UTF-16 or UTF-32 byte-order mark (as
    Windows tools write it); a missing file, a folder or undecodable bytes raise :class:`PaperchatError`
    with a one-line reason."""
    if not path.exists():
        raise PaperchatError(f"{path}: no such file")
    if path.is_dir():
        raise PaperchatError(f"{path}: is a folder, not a corpus file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PaperchatError(f"{path}: cannot read ({exc.strerror})") from exc
    if not raw.strip():
        raise EmptyFile(f"{path}: file is empty")
    encoding = encoding or _wide_bom(raw)
    try:
        wide = bool(encoding) and codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))
    except LookupError:
        raise PaperchatError(
            f"unknown encoding {encoding!r}; try utf-8, latin-1 or cp1252"
        ) from None
    if b"\x00" in raw[:8192] and not wide:  # UTF-16 and UTF-32 text is full of zero bytes
        hint = _wide_guess(raw[:8192])
        # skippable among a folder's files under --on-error skip (a gzip named .csv had stopped the run)
        raise NothingReadable(
            f"{path}: looks like a binary file, not text (JSONL, CSV or seed text expected)"
            + (
                f"; if it is {hint} text without a byte-order mark, pass --encoding {hint}"
                if hint
                else ""
            )
        )
    if encoding and not wide and not raw.isascii():
        # --encoding names the files that are not UTF-8: in a folder of mixed files, a UTF-8 one read as
        # Latin-1 (which decodes any bytes) was stored garbled ("RÃ©sumÃ©"); text in another 8-bit
        # encoding is almost never valid UTF-8 as well
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
    if encoding and codecs.lookup(encoding).name == "iso8859-1" and (byte := _C1.search(raw)):
        raise NothingReadable(
            f"{path}: byte {byte.start()} is 0x{byte.group().hex()}, a control character in {encoding} but a "
            "quote or dash in Windows' encoding; pass --encoding cp1252"
        )
    try:
        return raw.decode(encoding or "utf-8-sig").removeprefix(
            "\ufeff"
        )  # a byte-order mark is no text
    except UnicodeDecodeError as exc:
        bad = raw[exc.start : exc.start + 1].hex()
        if encoding:
            raise NothingReadable(
                f"{path}: not {encoding} text (byte {exc.start} is 0x{bad})"
            ) from None
        # 0x80-0x9f are Windows-1252's curly quotes and dashes, which latin-1 reads as control characters,
        # wherever in the file they are (Excel's "ß" before its first dash had been told latin-1)
        guess = "cp1252" if _C1.search(raw) else "latin-1"
        raise NothingReadable(
            f"{path}: not UTF-8 text (byte {exc.start} is 0x{bad}); if the file is in another "
            f"encoding, say which with --encoding, e.g. --encoding {guess}"
        ) from None
