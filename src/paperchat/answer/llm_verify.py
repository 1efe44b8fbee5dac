"""An optional second opinion on citations: the LLM judges whether each sentence's cited sources support it.

With ``verify_llm`` on (``--verify-llm``, ``PAPERCHAT_VERIFY_LLM=1`` or
``verify = true`` under ``[llm]``), an LLM answer gets one more request
(``prompts/verify.txt``): every checked sentence with the text of the
sources it cites, and a reply of one ``S<n>: yes|no`` line per sentence.
The verdict is combined with the offline checker's (:mod:`paperchat.cite.checker`):
a sentence stays supported only when both say so, so the LLM can add flags
but never remove one. Lines the reply lacks or garbles leave the offline
verdict alone.

Verdicts are cached on disk by a hash of the model, endpoint, prompt, sources
and sentences (``<user cache>/paperchat/verify/<sha256>.json``), so an eval
run twice, or a chat that cites the same sentence again, asks once.

The judge is only as good as the model: a small local model's verdicts are
close to noise (``eval/calibrate_checker.py --llm`` measures them on the
labelled claims).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from pathlib import Path

from paperchat.answer.llm_client import get_client
from paperchat.answer.prompts import load_prompt
from paperchat.core.contract import SentenceCheck

_VERDICT = re.compile(
    r"^\W*S?\s*(\d+)\s*[:.)\-]\s*\**\s*(yes|no|supported|unsupported|true|false)\b", re.I | re.M
)
LLM_FLAG = "the LLM verifier finds it unsupported by the cited source"


def cache_dir() -> Path:
    """Where verdicts are cached: ``<user cache>/paperchat/verify``."""
    from paperchat.core.config_file import user_cache_dir

    return user_cache_dir() / "verify"


def parse_verdicts(text: str, n: int) -> dict[int, bool]:
    """``{sentence number: supported}`` from a reply of ``S<k>: yes|no`` lines (first verdict per number wins)."""
    out: dict[int, bool] = {}
    for m in _VERDICT.finditer(text):
        k = int(m.group(1))
        if 1 <= k <= n and k not in out:
            out[k] = m.group(2).lower() in ("yes", "supported", "true")
    return out


def _request(checks: list[SentenceCheck], sources: dict[int, str]) -> tuple[str, str]:
    used = sorted({c for check in checks for c in check.citations if c in sources})
    source_block = "\n\n".join(f"[{n}] {' '.join(sources[n].split())}" for n in used)
    sentence_block = "\n".join(
        f"S{i}: {check.text} (cites {', '.join(f'[{c}]' for c in check.citations if c in sources)})"
        for i, check in enumerate(checks, 1)
    )
    return source_block, sentence_block


def llm_verdicts(
    checks: list[SentenceCheck], sources: dict[int, str], settings, folder: Path | None = None
) -> tuple[list[int], dict[int, bool], bool]:
    """Ask the LLM about the sentences of ``checks`` that cite a known source (one request, or the cache).

    Returns the indices of those sentences in ``checks``, the verdicts by
    1-based position among them (``True``: supported; a position the reply
    lacks is absent), and whether the verdicts came from the cache. Raises
    the :class:`~paperchat.core.errors.LLMError` of a failed request.
    """
    judged = [i for i, c in enumerate(checks) if any(n in sources for n in c.citations)]
    if not judged:
        return [], {}, False
    prompt = load_prompt("verify")
    source_block, sentence_block = _request([checks[i] for i in judged], sources)
    messages = prompt.render(
        sources=source_block, sentences=sentence_block, n_sentences=len(judged)
    )
    key = hashlib.sha256(
        json.dumps([settings.llm_model, settings.llm_base_url, messages], sort_keys=True).encode(
            "utf-8"
        )
    ).hexdigest()
    path = (folder or cache_dir()) / f"{key}.json"
    if path.is_file():
        try:
            return (
                judged,
                {int(k): bool(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()},
                True,
            )
        except (OSError, ValueError, AttributeError):
            pass  # a damaged cache entry: ask again
    reply = get_client(settings).stream(messages, None, max_tokens=16 * len(judged) + 32)
    verdicts = parse_verdicts(reply.text, len(judged))
    if len(verdicts) == len(judged):  # a reply lacking verdicts is asked again next time, not kept
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(verdicts), encoding="utf-8")
        except OSError:
            pass  # a cache that cannot be written only costs a request next time
    return judged, verdicts, False


def verify_with_llm(
    checks: list[SentenceCheck], sources: dict[int, str], settings, folder: Path | None = None
) -> tuple[list[SentenceCheck], str]:
    """``checks`` with the LLM's verdicts combined in, and a one-line note on what it did.

    ``sources`` maps a citation number to the text the answer's sources hold.
    Only sentences with a known citation are sent; the rest stay unsupported.
    Raises the :class:`~paperchat.core.errors.LLMError` of a failed request.
    """
    judged, verdicts, cached = llm_verdicts(checks, sources, settings, folder)
    if not judged:
        return checks, "no sentence cites a source: nothing for the LLM verifier to judge"
    out = list(checks)
    flagged = 0
    for k, i in enumerate(judged, 1):
        # an exact quote of its source (score 1.0) is supported whatever a model says (a small model's
        # "S1: no" had flagged one)
        if verdicts.get(k) is False and out[i].supported and out[i].score < 1.0:
            out[i] = replace(out[i], supported=False, conflict=LLM_FLAG)
            flagged += 1
    missing = len(judged) - len(verdicts)
    note = (
        f"LLM verifier{' (cached)' if cached else ''}: judged {len(verdicts)} of {len(judged)} sentence(s), "
        f"flagged {flagged} the offline check had passed"
    )
    if missing:
        note += f"; {missing} verdict(s) missing from its reply (the offline verdict stands)"
    return out, note
