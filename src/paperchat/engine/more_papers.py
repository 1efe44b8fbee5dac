"""More papers after an answer: like the ones shown, like one paper, or by the same authors.

The chat asks these (:mod:`paperchat.chat.more`) when a follow-up wants papers the answer did not show
("any others like that?", "more like the second one", "any others by the same authors?"); each
leaves out the papers already shown (``shown``, paper ids) and keeps to those ``filters`` lets through.

* :func:`more_on_topic` asks the earlier list question again over the papers not shown yet, so the
  same list rules decide which fit (the abstention, with a note, when none does);
* :func:`like_paper` ranks the papers nearest one paper (its title and opening sentences as the
  query: dense and BM25 fused as for any question) and quotes from each the sentence nearest that
  paper's abstract (cosine of the sentence vectors stored at ingest), cited; a ranking by
  similarity, which the note says, not a claim that they share its topic;
* papers by the same authors are listed by :func:`paperchat.engine.shared_authors.same_authors`, from
  the stored metadata (the shared author named in each line).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from paperchat.answer.offline import paper_name
from paperchat.cite.markers import cite_sentence
from paperchat.core.contract import EXTRACTIVE, Answer, Source
from paperchat.core.sentences import split_sentences
from paperchat.engine.asking import PLURAL_TOP_K
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.filters import Filters

OnToken = Callable[[str], None]

#: Opening sentences of a paper's abstract that, with its title, make the query for papers like it.
SEED_SENTENCES = 2


def _allowed(engine, filters: Filters | None, shown: set[str]) -> frozenset[str] | None:
    """The ids retrieval may return: those ``filters`` lets through, without ``shown``."""
    ids = engine.paper_ids(filters)
    return frozenset((ids if ids is not None else frozenset(engine.catalog())) - shown)


def more_on_topic(
    engine,
    question: str,
    shown: set[str],
    mode: str,
    top_k: int | None = None,
    fallback: bool = False,
    on_token: OnToken | None = None,
    filters: Filters | None = None,
) -> Answer:
    """The answer to the list ``question`` asked again over the papers not in ``shown`` (see the module
    docstring). ``mode``/``fallback``/``on_token`` as :meth:`paperchat.engine.Engine.answer_from_hits`.
    The abstention, with a note naming how many were shown, when no other paper fits."""
    from paperchat.answer.paper_counts import listed_topic, topic_papers

    k = top_k or max(engine.settings.top_k, PLURAL_TOP_K)
    allowed = _allowed(engine, filters, shown)
    # the papers writing the list's topic come first, as its count counts them ("any others?" after "Which
    # papers are about KV cache?" had listed diffusion feature caches and left out two of the 13; a survey)
    topic = listed_topic(question)
    if topic:
        held, phrased, _ = topic_papers(topic, engine.store.bm25(), engine.store.papers, allowed)
        if phrased or held:
            allowed = frozenset(phrased or held)
    hits = engine.retrieve(question, k, paper_ids=allowed)
    answer = engine.answer_from_hits(
        question, hits, mode=mode, on_token=on_token, fallback=fallback
    )
    answer.notes.append(
        f'no stored paper beyond the {len(shown)} shown fits "{question}"'
        if answer.abstained
        else f'more papers for "{question}", the {len(shown)} shown before left out'
    )
    return answer


def like_paper(
    engine,
    question: str,
    seed: PaperRecord,
    shown: set[str],
    top_k: int | None = None,
    filters: Filters | None = None,
) -> Answer:
    """Papers like ``seed`` (a record with its abstract), best first, without ``shown`` and ``seed``: one
    line each, '<title> (<label>): <its sentence nearest the seed> [n].' (see the module docstring).
    The abstention when no other paper passes the filters."""
    k = top_k or engine.settings.top_k
    opening = " ".join(split_sentences(seed.abstract)[:SEED_SENTENCES])
    topic = seed.title.split(": ", 1)[-1] if seed.title else seed.name
    qvec = engine.embedder.embed_one(f"{topic}. {opening}")
    allowed = _allowed(engine, filters, shown | {seed.paper_id})
    hits = engine.retriever.retrieve(topic, k, qvec=qvec, paper_ids=allowed)
    if not hits:
        return Answer.abstention(
            question, EXTRACTIVE, notes=["no other stored paper passes the filters"]
        )
    records = engine.store.papers([h.paper_id for h in hits])
    seeds = engine.sentences.get([(seed.paper_id, seed.abstract)]).get(seed.paper_id)
    centre = seeds[1].mean(axis=0) if seeds and len(seeds[1]) else qvec
    found = engine.sentences.get([(pid, r.abstract) for pid, r in records.items()])
    lines, sources = [], []
    for hit in hits:
        record = records.get(hit.paper_id)
        sents, vecs = found.get(hit.paper_id, ([], None))
        if record is None or not sents:
            continue
        best = sents[int(np.argmax(vecs @ centre))]
        n = len(sources) + 1
        lines.append(f"{paper_name(record)}: {cite_sentence(best, n)}")
        sources.append(Source.from_record(n, record, hit.chunk_id, best))
    return Answer(
        question,
        "\n".join(lines),
        EXTRACTIVE,
        sources=sources,
        retrieved=[h.retrieved() for h in hits],
        notes=[
            f"the papers retrieval ranks nearest '{seed.name}' (its title and opening sentences as the "
            f"query), {len(shown | {seed.paper_id})} shown before left out; each quotes its sentence "
            "nearest that abstract"
        ],
    )
