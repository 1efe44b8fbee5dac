"""Eval sets: reading and checking a question file, and mapping gold papers to stored paper ids.

A question set is JSONL, one question a line::

    {"id": "q001", "question": "...", "kind": "lookup", "answerable": true,
     "gold": [{"path": "000_215d12c2ee2986f8.txt", "index": 3}],
     "facts": [["confidence"], ["policy"]], "follow_up_of": null, "note": "..."}

``gold`` names papers by origin (``{path, index}``: a corpus file's name and
the 1-based position in it) or by id (``{"id": ...}`` or a plain string: a
JSONL record's own id, or the stable ``p-…`` id). ``facts`` are groups of
accepted variants (:func:`paperchat.evaluation.measures.facts_found`).
Optional ``split`` (``dev`` / ``test``) marks a question as one to tune on or
one only to report.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.core.resources import bundled_dir, checkout_root
from paperchat.core.text import MAX_QUESTION_CHARS

#: The generalization sets (eval/generalization/README.md) tuned on and held out, by letter: decided when each
#: set arrived, before any change was made against it.
#: A set's name is its file's prefix (``aa`` after ``z``).
TUNED_ON = (*"adefhijmnoprtwx", "aa", "ab")
HELD_OUT = tuple("bcgklqsuvyz")

#: The keys a question of an eval set may have (a key spelled like one of them is refused as a typo; others,
#: your own, are kept and ignored).
QUESTION_KEYS = (
    "id",
    "question",
    "kind",
    "answerable",
    "gold",
    "facts",
    "split",
    "note",
    "follow_up_of",
    "drafted_by",
    "template",
    "source",
)

#: The eval sets that ship with paperchat, by name (files under ``eval/``).
NAMED_SETS = {
    "bundled": ("questions.jsonl",),
    "conference": ("conference/dev.jsonl", "conference/test.jsonl"),
    "conference-dev": ("conference/dev.jsonl",),
    "conference-test": ("conference/test.jsonl",),
    "scale": ("questions_scale.jsonl",),
    # Sets written independently (eval/generalization/README.md): TUNED_ON and HELD_OUT say which are which.
    "generalization": (
        "generalization/a_researcher.jsonl",
        "generalization/b_search.jsonl",
        "generalization/c_reviewer.jsonl",
        "generalization/d_reading_group.jsonl",
        "generalization/e_newsletter.jsonl",
        "generalization/f_phone.jsonl",
        "generalization/g_committee.jsonl",
        "generalization/h_thesis.jsonl",
        "generalization/i_explainer.jsonl",
        "generalization/j_survey.jsonl",
        "generalization/k_teamlead.jsonl",
        "generalization/l_student.jsonl",
        "generalization/m_infra.jsonl",
        "generalization/n_journalist.jsonl",
        "generalization/o_postdoc.jsonl",
        "generalization/p_cto.jsonl",
        "generalization/q_hobbyist.jsonl",
        "generalization/r_teacher.jsonl",
        "generalization/s_examiner.jsonl",
        "generalization/t_panel.jsonl",
        "generalization/u_scientist.jsonl",
        "generalization/v_podcast.jsonl",
        "generalization/w_dictation.jsonl",
        "generalization/x_replication.jsonl",
        "generalization/y_chair.jsonl",
        "generalization/z_librarian.jsonl",
        "generalization/aa_factchecker.jsonl",
        "generalization/ab_lists.jsonl",
    ),
    "general-a": ("generalization/a_researcher.jsonl",),
    "general-b": ("generalization/b_search.jsonl",),
    "general-c": ("generalization/c_reviewer.jsonl",),
    "general-d": ("generalization/d_reading_group.jsonl",),
    "general-e": ("generalization/e_newsletter.jsonl",),
    "general-f": ("generalization/f_phone.jsonl",),
    "general-g": ("generalization/g_committee.jsonl",),
    "general-h": ("generalization/h_thesis.jsonl",),
    "general-i": ("generalization/i_explainer.jsonl",),
    "general-j": ("generalization/j_survey.jsonl",),
    "general-k": ("generalization/k_teamlead.jsonl",),
    "general-l": ("generalization/l_student.jsonl",),
    "general-m": ("generalization/m_infra.jsonl",),
    "general-n": ("generalization/n_journalist.jsonl",),
    "general-o": ("generalization/o_postdoc.jsonl",),
    "general-p": ("generalization/p_cto.jsonl",),
    "general-q": ("generalization/q_hobbyist.jsonl",),
    "general-r": ("generalization/r_teacher.jsonl",),
    "general-s": ("generalization/s_examiner.jsonl",),
    "general-t": ("generalization/t_panel.jsonl",),
    "general-u": ("generalization/u_scientist.jsonl",),
    "general-v": ("generalization/v_podcast.jsonl",),
    "general-w": ("generalization/w_dictation.jsonl",),
    "general-x": ("generalization/x_replication.jsonl",),
    "general-y": ("generalization/y_chair.jsonl",),
    "general-z": ("generalization/z_librarian.jsonl",),
    "general-aa": ("generalization/aa_factchecker.jsonl",),
    "general-ab": ("generalization/ab_lists.jsonl",),
}


def resolve_set(name_or_path: str | Path | None) -> list[Path]:
    """The question files of a named set (:data:`NAMED_SETS`; default ``bundled``) or of a path.

    Raises :class:`PaperchatError` when a named set's file is missing, or for a bare name (no folder, no
    suffix) that is neither a shipped set nor a file, listing the shipped sets.
    """
    if name_or_path is None or str(name_or_path) in NAMED_SETS:
        paths = [bundled_dir("eval") / rel for rel in NAMED_SETS[str(name_or_path or "bundled")]]
        for path in paths:
            if not path.is_file():
                raise PaperchatError(
                    f"eval set not found at {path}; reinstall paperchat or pass --set FILE"
                )
        return paths
    path = Path(name_or_path)
    if not path.exists() and path.suffix == "" and "/" not in str(name_or_path):
        raise PaperchatError(
            f"no eval set named {name_or_path!r}: the shipped sets are {', '.join(NAMED_SETS)}; "
            "or pass --set FILE (JSONL)"
        )
    return [path]


def default_question_set() -> Path:
    """``eval/questions.jsonl`` (the checkout's, else the copy installed with the package)."""
    return resolve_set(None)[0]


#: Each shipped set's committed minimum figures (``eval/``), what ``--check`` compares with by default.
BASELINES = {
    "bundled": "baseline.json",
    "conference": "baseline_conference.json",
    "generalization": "baseline_generalization.json",
}


def default_baseline(set_name: str | None = None) -> Path:
    """The committed minimum figures of the shipped set ``set_name`` (default ``bundled``:
    ``eval/baseline.json``). Raises :class:`PaperchatError` for a set that has none (a user's own set, a
    shipped set's part): the bundled set's floors say nothing about it."""
    name = str(set_name or "bundled")
    if name not in BASELINES:
        what = "your own set" if name not in NAMED_SETS else f"the set {name}"
        raise PaperchatError(
            f"--check needs --baseline FILE for {what} (the shipped baselines are for "
            f'{", ".join(BASELINES)}); a baseline is {{"min": {{metric: value}}}}'
        )
    return bundled_dir("eval") / BASELINES[name]


def is_shipped(paths: Iterable[Path]) -> bool:
    """Whether every one of ``paths`` is a shipped set's file (its ``split`` fields then say which parts were
    tuned on and which held out; a user's own splits say nothing of the kind)."""
    root = bundled_dir("eval").resolve()
    return all(Path(p).resolve().is_relative_to(root) for p in paths)


def default_out_dir() -> Path:
    """Where ``paperchat eval`` writes its report without ``--out``: ``eval-out/`` in the current folder."""
    return Path("eval-out")


def display_path(path: Path) -> str:
    """``path`` relative to the checkout when inside it (so results do not depend on the clone's folder)."""
    root = checkout_root()
    try:
        return str(path.resolve().relative_to(root)) if root else str(path)
    except ValueError:
        return str(path)


def _gold_entry(g: Any) -> dict[str, Any] | None:
    """A gold entry in its canonical form (``{"path", "index"}`` or ``{"id"}``), or ``None`` when malformed."""
    if isinstance(g, str) and g.strip():
        return {"id": g.strip()}
    if isinstance(g, dict):
        if isinstance(g.get("id"), str) and g["id"].strip() and "path" not in g:
            return {"id": g["id"].strip()}
        if "path" in g and "index" in g:
            try:
                return {**g, "path": str(g["path"]), "index": int(g["index"])}
            except (TypeError, ValueError):
                return None
    return None


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; :class:`ValueError` for a key given twice (``"gold": [...], "gold": []``
    had made an answerable question unanswerable, silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {key!r} is given twice")
        out[key] = value
    return out


def _facts(facts: Any, where: str) -> list[list[str]]:
    """``facts`` as groups of non-empty text variants; a number is its text (``[[121]]``: "121"). Raises
    :class:`PaperchatError` naming ``where`` for anything else (``null``, ``""``, ``true``, a bare string)."""
    shape = f"{where}: 'facts' must be a list of non-empty lists of variants (text or numbers)"
    if not isinstance(facts, list) or any(not isinstance(g, list) or not g for g in facts):
        raise PaperchatError(shape)
    out = []
    for group in facts:
        variants = []
        for v in group:
            if isinstance(v, bool) or not isinstance(v, (str, int, float)) or not str(v).strip():
                raise PaperchatError(f"{shape}; got {json.dumps(v)}")
            variants.append(str(v).strip())
        out.append(variants)
    return out


def load_questions(path: str | Path) -> list[dict[str, Any]]:
    """Read an eval set (see the module docstring) and check it.

    Raises :class:`PaperchatError` naming ``file:line`` for a malformed line
    (a field of the wrong type included), a duplicate id or a ``follow_up_of``
    that names no earlier question.
    """
    path = Path(path)
    try:
        # a BOM (Windows editors) is read past
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except OSError as exc:
        raise PaperchatError(f"cannot read the eval set {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PaperchatError(f"the eval set {path} is not UTF-8 text (JSONL expected)") from None
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            q = json.loads(line, object_pairs_hook=_no_repeated_keys)
        except json.JSONDecodeError as exc:
            raise PaperchatError(f"{where}: not JSON ({exc.msg})") from None
        except ValueError as exc:  # a key given twice: JSON keeps the last, silently
            raise PaperchatError(f"{where}: {exc}") from None
        if not isinstance(q, dict):
            raise PaperchatError(f"{where}: not a JSON object")
        for key in ("id", "question"):
            if key in q and not isinstance(q[key], str):  # "id": 14 is there, but no string
                raise PaperchatError(f"{where}: {key!r} must be a string, not {json.dumps(q[key])}")
            if not isinstance(q.get(key), str) or not q[key].strip():
                raise PaperchatError(f"{where}: missing or empty {key!r}")
        if q["id"] in seen:
            raise PaperchatError(f"{where}: duplicate id {q['id']!r}")
        for key in q:  # "answerble": a typo would be ignored, and the question counted answerable
            close = difflib.get_close_matches(key, QUESTION_KEYS, n=1, cutoff=0.8)
            if key not in QUESTION_KEYS and close:
                raise PaperchatError(f"{where}: unknown key {key!r}; did you mean {close[0]!r}?")
        if len(q["question"]) > MAX_QUESTION_CHARS:
            raise PaperchatError(
                f"{where}: question {q['id']!r} is {len(q['question'])} characters long; "
                f"the limit is {MAX_QUESTION_CHARS}"
            )
        q.setdefault("kind", "lookup")
        if not isinstance(q["kind"], str) or not q["kind"].strip():
            raise PaperchatError(
                f'{where}: \'kind\' must be a string such as "lookup" or "unanswerable"'
            )
        if not isinstance(q.get("answerable", True), bool):  # "no" would count as true
            raise PaperchatError(f"{where}: 'answerable' must be true or false")
        q["answerable"] = bool(q.get("answerable", bool(q.get("gold"))))
        gold = q.get("gold", [])
        entries = [_gold_entry(g) for g in gold] if isinstance(gold, list) else [None]
        if any(e is None for e in entries):
            raise PaperchatError(
                f"{where}: 'gold' must be a list of paper ids or {{path, index}} origins"
            )
        q["gold"] = entries
        if q["answerable"] and not entries:
            raise PaperchatError(f"{where}: an answerable question needs gold papers")
        q["facts"] = _facts(q.get("facts", []), where)
        prev = q.get("follow_up_of")
        if prev is not None and prev not in seen:
            raise PaperchatError(f"{where}: follow_up_of {prev!r} names no earlier question")
        seen.add(q["id"])
        out.append(q)
    if not out:
        raise PaperchatError(f"the eval set {path} holds no questions")
    return out


def origin_map(files: Iterable[Path] | None = None) -> dict[tuple[str, int], str]:
    """Paper ids by ``(corpus file name, 1-based position)`` in ``files`` (default: the bundled corpus)."""
    from paperchat.ingest.corpus import bundled_corpus_files, load_file

    ids: dict[tuple[str, int], str] = {}
    for f in files if files is not None else bundled_corpus_files():
        for p in load_file(f)[0]:
            ids[(p.source_path, p.source_index)] = p.paper_id
    return ids


def gold_ids(
    question: dict[str, Any], origins: dict[tuple[str, int], str], aliases: dict[str, str]
) -> list[str]:
    """The question's gold paper ids as stored (merged duplicates under the kept copy's id), in the order given.

    Raises :class:`PaperchatError` for an origin that no corpus file holds, or a file name ``origins`` refuses
    (two stored files share it).
    """
    out = []
    for g in question.get("gold", []):
        if "id" in g:
            pid = g["id"]
        else:
            key = (g["path"], g["index"])
            # a mapping may look it up on a miss (the runner's merged copies)
            try:
                pid = origins[key]
            except KeyError:
                raise PaperchatError(
                    f"question {question['id']}: gold paper {key[0]} #{key[1]} is not in the corpus"
                ) from None
            except PaperchatError as exc:  # a file name two stored files share
                raise PaperchatError(f"question {question['id']}: {exc}") from None
        pid = aliases.get(pid, pid)
        if pid not in out:
            out.append(pid)
    return out


def asked_question(question: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> str:
    """The text actually asked: a follow-up is prefixed with the question it follows (recursively)."""
    parts = [question["question"].strip()]
    seen = {question["id"]}
    prev = question.get("follow_up_of")
    while prev and prev in by_id and prev not in seen:
        seen.add(prev)
        parts.insert(0, by_id[prev]["question"].strip())
        prev = by_id[prev].get("follow_up_of")
    return " ".join(parts)
