"""Chat follow-ups that ask for more papers than the answer showed.

:func:`more_ask` reads three kinds, each a whole short question (a longer one that also asks
something else is left to :mod:`paperchat.chat.followup`):

* ``topic``: more of the list just shown ("any others?", "any more like these?", "more papers",
  "anything else?", "show me more");
* ``paper``: papers like one paper ("more like the second one", "papers similar to [2]", "anything
  like it?", "similar papers to this one"); "any others like that?" after an answer about one paper
  is this too;
* ``authors``: papers by the same authors ("any others by the same authors?", "what else have they
  published?", "more from these authors", "other papers by the authors of the first one").

:func:`answer_more` answers them with :mod:`paperchat.engine.more_papers` (the authors' with
:mod:`paperchat.engine.shared_authors`), leaving out the papers the
conversation already showed for that list. No model, no network.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperchat.chat.followup import find_reference
from paperchat.chat.ordinals import places

_ANY = r"(?:(?:are\s+there|is\s+there|(?:can\s+you\s+)?show(?:\s+me)?|find(?:\s+me)?|give\s+me|list|got|pls|please)\s+)?(?:any\s+)?"
_MORE = r"(?:more|others?|other\s+(?:papers|ones|works)|anything\s+else|something\s+else|more\s+(?:papers|ones|results|works?|research)|additional\s+(?:papers|ones))"
_LIKE = r"(?:like|similar\s+to|related\s+to|close\s+to)"
_REF = r"(?P<ref>that|this|these|those|them|it|this\s+one|that\s+one|(?:this|that)\s+paper|the\s+[\w\s]{1,25}?|\[\d{1,2}\]|#\d{1,2}|(?:paper|source|number)\s*#?\d{1,2})"
_END = r"\s*(?:pls|please|too)?\s*[?.!]*\s*$"
_TOPIC = re.compile(
    rf"^{_ANY}{_MORE}(?:\s+(?:like|similar\s+to)\s+(?:that|this|these|those|them))?(?:\s+(?:on|about)\s+(?:(?:this|that|the\s+same)\s+(?:topic|subject|idea)|that|this|it))?{_END}",
    re.I,
)
_PAPER = (
    re.compile(
        rf"^{_ANY}(?:{_MORE}|papers?|ones|anything|something|works?|similar\s+(?:papers|ones|works))\s+{_LIKE}\s+{_REF}{_END}",
        re.I,
    ),
    re.compile(rf"^{_ANY}similar\s+(?:papers|ones|works)\s+to\s+{_REF}{_END}", re.I),
    re.compile(rf"^{_ANY}(?:anything|something|papers?|any)\s+similar{_END}", re.I),
)
_AUTHORS = (
    re.compile(
        rf"^{_ANY}(?:{_MORE}|papers?|works?)?\s*(?:by|from)\s+(?:the\s+same\s+(?:authors?|people|team|group)"
        rf"|these\s+authors|those\s+authors|them|the\s+authors(?:\s+of\s+{_REF})?){_END}",
        re.I,
    ),
    re.compile(
        r"^(?:what|which\s+papers)\s+else\s+(?:have|did|do|has)\s+(?:they|the\s+authors|these\s+authors)\s+"
        rf"(?:publish(?:ed)?|write|written|wrote|done|do)(?:\s+at\s+icml(?:\s+2025)?)?{_END}",
        re.I,
    ),
    re.compile(rf"^(?:same\s+authors?|by\s+the\s+same\s+authors?){_END}", re.I),
)


@dataclass(frozen=True)
class MoreAsk:
    """A request for more papers: ``kind`` ``topic``, ``paper`` or ``authors``; ``ordinals`` the 1-based
    places (``-1`` the last) a reference in it names ("the second one"), empty when it names none."""

    kind: str
    ordinals: tuple[int, ...] = ()


def more_ask(question: str) -> MoreAsk | None:
    """The :class:`MoreAsk` ``question`` is, or ``None`` (see the module docstring)."""
    text = " ".join((question or "").split())
    for kind, patterns in (("authors", _AUTHORS), ("topic", (_TOPIC,)), ("paper", _PAPER)):
        m = next((m for p in patterns if (m := p.match(text))), None)
        if not m:
            continue
        ref = m.groupdict().get("ref")
        found = find_reference(ref) if ref else None
        if ref and ref.lower().startswith("the ") and (found is None or found[0] != "ordinal"):
            return None  # "more like the diffusion ones": a topic of its own, a new question
        return MoreAsk(kind, found[2] if found and found[0] == "ordinal" else ())
    return None


def _chain(turns) -> tuple[object | None, set[str]]:
    """The turn a run of "more" turns started from (the last other turn that cited papers) and the ids of
    every paper that run and that turn showed."""
    shown: set[str] = set()
    for turn in reversed(turns):
        shown |= {s.paper_id for s in turn.sources}
        if turn.kind != "more" and turn.sources:
            return turn, shown
    return None, shown


def answer_more(session, ask: MoreAsk, question: str):
    """The :class:`~paperchat.chat.turns.Reply` to ``ask`` in ``session`` (a
    :class:`~paperchat.chat.session.Session`), its turn remembered (kind ``more``): ordinals count the
    list shown (:attr:`~paperchat.chat.session.Session.list_turn`); without one, "more" after an answer
    citing several papers is more of that list and after one paper is papers like it. A reference that
    cannot be resolved is said in the reply, nothing answered."""
    import time

    from paperchat.chat.turns import Reply, Turn
    from paperchat.core.resolution import Resolution
    from paperchat.engine import more_papers, shared_authors
    from paperchat.engine.followups import retrieved_rows

    t0 = time.perf_counter()
    engine = session.engine
    if ask.ordinals:
        listed = session.list_turn.sources if session.list_turn else []
        numbers = places(ask.ordinals, len(listed))
        if not all(1 <= n <= len(listed) for n in numbers):
            shows = (
                f"the last list shows {len(listed)} paper{'s' if len(listed) != 1 else ''}"
                if listed
                else "no answer showed papers yet"
            )
            return Reply(text=f"Cannot tell which paper you mean: {shows}. See /sources.")
        seeds = [listed[n - 1] for n in numbers]
    else:
        seeds = list(session.context)
    if not seeds:
        return Reply(text="More of what? No earlier answer showed papers; ask a question first.")
    start, shown = _chain(session.turns)
    ids = [s.paper_id for s in seeds]
    if ask.kind == "authors":
        if len(seeds) > 2:
            return Reply(
                text=f'Whose authors? The last answer cited {len(seeds)} papers; say "by the authors of the '
                'first one" (or its number).'
            )
        records = engine.store.papers(ids, abstracts=False)
        answer = shared_authors.same_authors(
            engine, question, [records[i] for i in ids if i in records], shown, session.filters
        )
        note = f"papers sharing an author with {'; '.join(s.name for s in seeds)}, from the stored metadata"
    elif len(seeds) >= 2 and not ask.ordinals:
        origin = start
        if start is not None and start.resolution.is_followup:
            # "any others?" after "compare them": more of the list the follow-ups were about, not of the
            # comparison's rewrite (a literature-review session: "no stored paper beyond the 8 shown fits
            # 'compare An End-to-End Model ..., StealthInk, ...'" where the list had more)
            origin = next(
                (
                    t
                    for t in reversed(session.turns)
                    if t.sources and not t.resolution.is_followup and t.kind != "more"
                ),
                start,
            )
            shown |= {s.paper_id for s in origin.sources}
        asked = origin.resolution.query if origin is not None else seeds[0].name
        answer = more_papers.more_on_topic(
            engine,
            asked,
            shown,
            session.mode,
            session.top_k,
            session.fallback,
            None,
            session.filters,
        )
        note = f'more for "{asked}": retrieval over all papers but the {len(shown)} shown'
    else:
        seed = engine.store.papers(ids[:1])[ids[0]]
        answer = more_papers.like_paper(
            engine, question, seed, shown, session.top_k, session.filters
        )
        note = f"papers like {seed.name}: retrieval by its title and opening sentences, the {len(shown)} shown left out"
    answer.question = question
    answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
    res = Resolution(
        question, question, target_ids=ids, target_labels=[s.name for s in seeds], note=note
    )
    turn = Turn(
        session.turn_count + 1,
        question,
        res,
        answer,
        retrieved_rows(engine, answer.retrieved),
        kind="more",
    )
    turn.timings = {
        "first_output_s": answer.timings["total_s"],
        "total_s": answer.timings["total_s"],
    }
    turn.context = turn.sources or list(session.context)
    reply = Reply(answer=answer, stderr=[f"note: {n}" for n in answer.notes])
    reply.stderr += session.commit(turn)
    return reply
