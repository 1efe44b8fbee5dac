"""The answer to "Which papers introduce a benchmark (a dataset) for X?": every stored paper holding the words
of X that introduces one, each with the sentence introducing it (:mod:`paperchat.answer.introduced`)."""

from __future__ import annotations

from paperchat.answer.paper_lists import MAX_LISTED
from paperchat.cite.markers import cite_sentence
from paperchat.core.contract import EXTRACTIVE, Answer, Retrieved, Source

#: The most papers on the topic whose abstracts are read for an introduced benchmark (about 0.1 ms a paper;
#: past it the question is answered as any list is). Not tuned: set before measuring, forty-third round.
MAX_READ = 600


def introduced_list(engine, question: str, asked: str, paper_ids) -> Answer | None:
    """The list answering ``asked`` (``question`` as read) when it asks for the papers introducing a
    benchmark or a dataset on a topic (:func:`paperchat.answer.introduced.asked_contribution`) and some
    stored paper (of ``paper_ids``, the filters' papers; ``None``: all) holding every word of the topic
    introduces one: a lead line with their count, then each, most relevant first (retrieval over them),
    named with the sentence introducing it, cited; at most :data:`~paperchat.answer.paper_lists.MAX_LISTED`,
    a note saying how many more. ``None`` otherwise: the question is answered as any list is."""
    from paperchat.answer.introduced import asked_contribution, introducing_sentence
    from paperchat.answer.offline import evidence_chunk, paper_name
    from paperchat.answer.paper_counts import topic_holders

    ask = asked_contribution(asked)
    if ask is None:
        return None
    kind, topic = ask
    bm25 = engine.store.bm25()
    held, _ = topic_holders(topic, bm25)
    held &= set(paper_ids) if paper_ids is not None else held
    if not held or len(held) > MAX_READ:
        return None
    records = engine.store.papers(sorted(held))
    said = {
        pid: s
        for pid, r in records.items()
        if (s := introducing_sentence(r.abstract or "", r.title, kind))
    }
    if not said:
        return None
    ranked = [h.paper_id for h in engine.retrieve(asked, len(said), paper_ids=frozenset(said))]
    ranked += sorted(set(said) - set(ranked))
    n, s = len(ranked), "s" if len(ranked) != 1 else ""
    lines = [
        f'{n} stored paper{s} with every word of "{topic}" introduce{"" if s else "s"} a {kind}:'
    ]
    sources = []
    for i, pid in enumerate(ranked[:MAX_LISTED], 1):
        record = records[pid]
        lines.append(f"{paper_name(record)}: {cite_sentence(said[pid], i)}")
        chunk_id, text = evidence_chunk(record, [said[pid]], [], engine.store.chunk_texts)
        sources.append(Source.from_record(i, record, chunk_id, text))
    notes = [
        f'read as the papers holding every word of "{topic}" whose abstracts say they introduce a {kind}'
    ]
    if n > MAX_LISTED:
        notes.append(f"{n - MAX_LISTED} more not listed")
    return Answer(
        question,
        "\n".join(lines),
        EXTRACTIVE,
        sources=sources,
        retrieved=[Retrieved(pid, "", 1.0) for pid in ranked],
        notes=notes,
        count=n,
    )
