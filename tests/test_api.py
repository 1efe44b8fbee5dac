"""The Python API (``from paperchat import Paperchat``): the README's example runs, errors are exceptions."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT
from pybtex.database import parse_file

CONFPO = "p-abe9274a3783"
CROW = "p-f951bc7f7256"


def readme_example() -> str:
    """The Python block of the README's "Use it from Python" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Use it from Python", 1)[1].split("\n### ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_example_runs(bundled_store, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERCHAT_STORE", str(bundled_store))  # the example's default store
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(readme_example(), "README.md", "exec"), namespace)
    answer = namespace["answer"]
    assert [s.paper_id for s in answer.sources] == [CONFPO] and not answer.abstained
    assert answer.answer.startswith("We introduce ConfPO, a method for preference learning")
    assert [s.paper_id for s in namespace["summary"].sources] == [CROW]
    assert [p.paper_id for p in namespace["papers"]] == [CONFPO]
    assert [e for e in parse_file(str(tmp_path / "refs.bib"), "bibtex").entries] == [
        "yoon2025confpo"
    ]
    printed = capsys.readouterr().out
    assert printed.startswith(answer.answer + "\n" + str([(1, CONFPO, answer.sources[0].title)]))
    assert "Backdoor Attacks in Token Selection of Attention Mechanism" in printed  # a search hit
    nodes = namespace["retriever"].retrieve("preference-critical tokens")
    assert nodes[0].node.metadata["paper_id"] == CONFPO


def test_answer_renders_as_markdown_with_linked_citations_and_flags():
    from paperchat.api import Answer
    from paperchat.core.contract import Answer as Plain
    from paperchat.core.contract import SentenceCheck, Source

    src = Source(
        1,
        CONFPO,
        "ConfPO: Exploiting [Policy] Confidence",
        "ConfPO",
        "https://openreview.net/forum?id=ZG7bkp6ScT",
        "000_215d12c2ee2986f8.txt",
        3,
        f"{CONFPO}:0:aaaa",
        "text",
    )
    plain = Plain(
        "q",
        "ConfPO uses the policy's confidence [1]. It is 5x faster [1].",
        "llm",
        sources=[src],
        sentences=[
            SentenceCheck("ConfPO uses the policy's confidence [1].", [1], True, 0.9),
            SentenceCheck("It is 5x faster [1].", [1], False, 0.31, missing=["5x"]),
        ],
    )
    # print(answer) flags it too, as `paperchat ask` does (a notebook session printed it unflagged)
    assert str(Answer.of(plain)).split("\n\n")[1] == (
        "Citation checks:\n"
        "  ⚠ sentence 2 ([1], support 0.31; not in the cited source: 5x): It is 5x faster [1]."
    )
    md = Answer.of(plain)._repr_markdown_()
    assert md == (
        "ConfPO uses the policy's confidence [[1](https://openreview.net/forum?id=ZG7bkp6ScT)]. "
        "It is 5x faster [[1](https://openreview.net/forum?id=ZG7bkp6ScT)].\n\n"
        "**Citation checks**\n\n"
        "- ⚠ sentence 2 ([1], support 0.31; not in the cited source: 5x): It is 5x faster [1].\n\n"
        "**Sources**\n\n"
        f"1. [ConfPO: Exploiting \\[Policy\\] Confidence](https://openreview.net/forum?id=ZG7bkp6ScT) · `{CONFPO}`"
    )
    assert Answer.of(Plain.abstention("q", "extractive"))._repr_markdown_() == (
        "*The indexed abstracts do not contain an answer to this question.*"
    )


def test_a_list_answer_renders_a_paragraph_per_paper():
    # a notebook user's author listing had rendered as one run-on paragraph; a url with a space broke its
    # link; LaTeX emphasis showed raw
    from paperchat.api import Answer
    from paperchat.core.contract import Answer as Plain
    from paperchat.core.contract import Source

    sources = [
        Source(1, "a", "Paper A", "", "https://x.org/a b", "f.jsonl", 1, "", ""),
        Source(2, "b", "Paper B", "", "", "f.jsonl", 2, "", ""),
    ]
    plain = Plain(
        "q",
        '"Paper A" is by X [1].\n"Paper B" is \\emph{by} Y [2].',
        "extractive",
        sources=sources,
        notes=["two notes", "each quoted"],
    )
    assert Answer.of(plain)._repr_markdown_() == (
        '"Paper A" is by X [[1](<https://x.org/a b>)].\n\n"Paper B" is *by* Y [2].\n\n'
        "**Sources**\n\n1. [Paper A](<https://x.org/a b>) · `a`\n2. Paper B · `b`\n\n"
        "> note: two notes\n\n> note: each quoted"
    )


def test_errors_are_exceptions_with_one_line_messages(bundled_store, tmp_path):
    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError, StoreError

    with pytest.raises(
        StoreError,
        # the command to run names the store, so it fills this one and not the default
        # (a Python caller is pointed at .ingest, not at the command line: an eval-workflow session)
        match=rf"^no store at {re.escape(str(tmp_path / 'x'))}; call \.ingest\(paths\) first "
        r"\(no paths: the bundled corpus\)$",
    ):
        Paperchat(tmp_path / "x").ask("What is ConfPO?")
    assert not (tmp_path / "x").exists()
    with pytest.raises(PaperchatError, match=r"^unknown setting\(s\) colour "):
        Paperchat(bundled_store, colour="red")
    pc = Paperchat(bundled_store)
    assert repr(pc) == f"Paperchat(store={str(bundled_store)!r}, mode='auto')"
    with pytest.raises(
        PaperchatError, match=r"^no paper matches venue=\"NeurIPS\" \(stored venues: ICML\)$"
    ):
        pc.search("backdoors", venue="NeurIPS")
    with pytest.raises(PaperchatError, match="^no paper with id p-000000000000 in the store"):
        pc.paper("p-000000000000")
    with pytest.raises(PaperchatError, match="question is empty"):
        pc.ask("   ")
    assert pc.paper(CONFPO).abstract.startswith("We introduce ConfPO")
    # evaluate()'s arguments of the wrong type (a notebook session: raw AttributeError and TypeError)
    from paperchat import evaluate
    from paperchat.core.errors import BadArgument

    for args, kwargs, message in (
        ((str(bundled_store), "q.jsonl"), {}, "pc must be a Paperchat (Paperchat(store)), not str"),
        ((pc, "bundled"), {"out": 123}, "out must be a path, not int"),
        ((pc, "bundled"), {"corpus": "a.jsonl"}, "corpus must be a list of paths, not 'a.jsonl'"),
    ):
        with pytest.raises(BadArgument, match=f"^{re.escape(message)}$"):
            evaluate(*args, **kwargs)
    # an emptied store's message names .ingest, not the command line
    from paperchat.api.arguments import for_python

    assert (
        for_python(
            "the store at /s holds no papers; run `paperchat --store /s ingest` (the bundled corpus) or "
            "`paperchat --store /s ingest FILE` first"
        )
        == "the store at /s holds no papers; call .ingest(paths) first (no paths: the bundled corpus)"
    )
    # an ingest's hints name the keywords (a lab's corpus: "pass --on-error skip" from .ingest)
    assert for_python(
        "a.jsonl:1: malformed record (no abstract); fix it or pass --on-error skip"
    ) == ('a.jsonl:1: malformed record (no abstract); fix it or pass on_error="skip"')
    assert for_python("not UTF-8 (try --encoding cp1252)") == 'not UTF-8 (try encoding="cp1252")'
    # an id in another case is that paper, as `summarize` and the README say (get_paper and paper:// too)
    assert pc.paper(CONFPO.upper()).paper_id == CONFPO


def test_ingest_creates_a_store(tmp_path):
    from paperchat import Paperchat

    corpus = tmp_path / "mine.jsonl"
    corpus.write_text(
        '{"id": "m1", "title": "Quokka Counting", "authors": ["Ada Lovelace"], "year": 2023, '
        '"venue": "UAI", "abstract": "We count quokkas from drone images with a small detector."}\n',
        encoding="utf-8",
    )
    pc = Paperchat(tmp_path / "store")
    report = pc.ingest(corpus)
    assert (report.papers_added, report.total_papers) == (1, 1)
    assert [(p.paper_id, p.venue, p.year) for p in pc.papers(venue="uai")] == [("m1", "UAI", 2023)]
    assert pc.bibtex(["m1"]).startswith("@inproceedings{lovelace2023quokka,")


def test_a_rebuild_without_files_keeps_the_users_papers(tmp_path):
    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError

    corpus = tmp_path / "mine.jsonl"
    corpus.write_text(
        '{"id": "m1", "title": "Quokka Counting", "abstract": "We count quokkas from drone images."}\n',
        encoding="utf-8",
    )
    pc = Paperchat(tmp_path / "store")
    pc.ingest(corpus)
    with pytest.raises(PaperchatError) as err:
        pc.ingest(rebuild=True)  # the bundled corpus alone would replace mine.jsonl's paper
    assert str(err.value) == (
        "`ingest --rebuild` without files would leave only the bundled corpus and drop 1 paper of "
        "mine.jsonl; name the files to keep: "
        f"`paperchat --store {(tmp_path / 'store').resolve()} ingest --rebuild FILES`"
    )
    assert [p.paper_id for p in pc.papers()] == ["m1"]


def test_import_paperchat_is_cheap_and_llamaindex_waits_for_as_retriever(bundled_store):
    heavy = ("chromadb", "llama_index", "onnxruntime", "mcp", "pybtex", "numpy")
    probe = f"""
import sys
heavy = {heavy!r}
loaded = lambda: sorted({{m.split(".")[0] for m in sys.modules}} & set(heavy))
import paperchat
print(loaded())
from paperchat import Paperchat
print(loaded())
pc = Paperchat({str(bundled_store)!r})
pc.papers()
print("llama_index" in loaded())
pc.as_retriever()
print("llama_index" in loaded())
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.stdout.splitlines() == ["[]", "[]", "False", "True"], out.stderr


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda pc: pc.ask("What is ConfPO?", top_k=0),
            "top_k must be a whole number from 1 to 100, not 0",
        ),
        (
            lambda pc: pc.ask("What is ConfPO?", top_k="3"),
            "top_k must be a whole number from 1 to 100, not '3'",
        ),
        (
            lambda pc: pc.summarize("ConfPO", top_k=2.5),
            "top_k must be a whole number from 1 to 100, not 2.5",
        ),
        (lambda pc: pc.ask(123), "the question must be a string, not int"),
        (lambda pc: pc.paper(123), "the paper id must be a string, not int"),
        (
            lambda pc: pc.search("tokens", author=""),
            "author is empty; leave it out to search every paper",
        ),
        (lambda pc: pc.papers(papers=[]), "papers is empty; leave it out to search every paper"),
        (
            lambda pc: pc.papers(papers=123),
            "papers must be a paper id or a list of paper ids (strings)",
        ),
        (lambda pc: pc.papers(year="x"), "year must be a whole number such as 2025, not 'x'"),
        (  # a glob that matched nothing had added the bundled corpus in its place
            lambda pc: pc.ingest([]),
            "no files given (an empty list); pass none to ingest the bundled corpus",
        ),
        (lambda pc: pc.ingest(5), "paths must be a path or a list of paths, not int"),
        # a notebook session: rebuild="False" had rebuilt the store; the others raised internal errors
        (
            lambda pc: pc.ingest("x.jsonl", rebuild="False"),
            "rebuild must be True or False, not 'False'",
        ),
        (lambda pc: pc.ingest("x.jsonl", metadata=5), "metadata must be a path, not int"),
        (
            lambda pc: pc.ingest("x.jsonl", encoding=5),
            "encoding must be a codec name such as 'latin-1', not 5",
        ),
        (
            lambda pc: pc.ingest("x.jsonl", progress=5),
            "progress must be a function of (done, total), not int",
        ),
        (
            lambda pc: pc.search("tokens", author="..."),
            "author='...' holds no letter or digit; give a name, or leave it out",
        ),
        (
            lambda pc: pc.search("tokens", venue="x" * 60_000),
            "venue is 60,000 characters long; a name has at most 300",
        ),
        (
            lambda pc: pc.summarize("?"),
            "the summary target '?' holds no letter or digit; give a paper id, label, title or topic",
        ),
        (
            lambda pc: pc.bibtex(["p-nope"]),
            "no paper with id p-nope in the store; Paperchat.papers() lists them",
        ),
        (  # an agent's 100,000-character id is not echoed whole
            lambda pc: pc.paper("x" * 100_000),
            f"no paper with id {'x' * 79}… in the store; Paperchat.papers() lists them",
        ),
    ],
)
def test_wrong_arguments_are_one_line_errors_as_on_the_cli(bundled_store, call, message):
    # each had been a TypeError from deep inside, or silently meant something else (top_k=0 meant 5,
    # author="" every paper, a bibtex of an unknown id an empty string)
    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError

    with pytest.raises(PaperchatError) as err:
        call(Paperchat(bundled_store))
    assert str(err.value) == message


def test_an_empty_store_argument_is_refused_not_the_current_folder(tmp_path, monkeypatch):
    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(
        PaperchatError, match="^store is empty; leave it out to use the default store$"
    ):
        Paperchat("")
    assert list(tmp_path.iterdir()) == []


def test_bibtex_takes_one_id_papers_and_search_hits_and_keeps_a_file_when_nothing_is_cited(
    bundled_store, tmp_path
):
    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError

    pc = Paperchat(bundled_store)
    one = pc.bibtex(CONFPO)  # one id, not its characters
    assert one.startswith("@inproceedings{yoon2025confpo,")
    assert pc.bibtex(CONFPO.upper()) == one  # an id in another case, as paper() takes it
    with pytest.raises(PaperchatError, match="^papers must be an answer, a paper id or a list"):
        pc.bibtex({CONFPO: 1})  # a dict is not a list of its keys
    assert pc.bibtex(pc.papers(papers=CONFPO)) == one
    hits = pc.search("preference-critical tokens", top_k=1)
    assert [h.paper_id for h in hits] == [CONFPO] and pc.bibtex(hits) == one
    refs = tmp_path / "refs.bib"
    refs.write_text(one, encoding="utf-8")
    abstained = pc.ask("What is the boiling point of ethanol?")
    assert abstained.abstained and pc.write_bibtex(refs, abstained) == 0
    assert refs.read_text(encoding="utf-8") == one  # left as it was, as `ask --bibtex` does


def test_search_and_summarize_use_the_top_k_setting(bundled_store):
    from paperchat import Paperchat

    pc = Paperchat(bundled_store, top_k=2)
    assert len(pc.search("language models")) == 2
    # a topic summary cites the papers of the top-k it is given: of the five that write "reinforcement
    # learning" or "RL", the four above the relevance bar here
    assert len(Paperchat(bundled_store).summarize("reinforcement learning").sources) == 4
    assert len(pc.summarize("reinforcement learning").sources) <= 2
    # top_k=5 given is a top-k chosen, though it is the setting's value: a notebook's top_k=5 had listed
    # up to ten papers, as a "which papers" question given none does
    default = Paperchat(bundled_store)
    question = "Which papers study large language models?"
    assert len(default.ask(question).sources) == 6
    assert len(default.ask(question, top_k=5).sources) == 2


def test_the_first_use_ingest_says_what_it_is_doing_on_stderr(tmp_path, capsys):
    """The default store's first question embeds the bundled corpus (10-20 s): a notebook sees why it waits."""
    from paperchat.api.arguments import FirstRun

    progress = FirstRun(tmp_path / "store")
    for done in (0, 40, 97):
        progress(done, 97)
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == (
        f"paperchat: first use: embedding the bundled corpus into {tmp_path / 'store'} ... done (97 chunks)\n"
    )


def test_a_numpy_year_is_a_year(bundled_store):
    # a notebook's df["year"] value (numpy.int64) had been refused as not a whole number
    import numpy as np

    from paperchat import Paperchat

    pc = Paperchat(bundled_store)
    assert [p.paper_id for p in pc.papers(year=np.int64(2025))] == [
        p.paper_id for p in pc.papers(year=2025)
    ]
    assert len(pc.papers(year=np.int64(2025))) == 38


def test_messages_name_the_arguments_and_bad_arguments_are_value_errors(bundled_store):
    # an eval-workflow session: the API's messages named the CLI's flags (--year, --paper, "from flag"),
    # numpy's int64 was refused as top_k, and `except ValueError` caught no bad argument
    import numpy as np

    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError

    pc = Paperchat(bundled_store, mode="extractive")
    for call, message in (
        (lambda: pc.ask("x", year=2019), "no paper matches year=2019 (stored years: 2025)"),
        (lambda: pc.ask("x", author="zzzqqq"), 'no paper matches author="zzzqqq"'),
        (
            lambda: pc.ask("x", papers=["nope"]),
            "no paper with id nope in the store (given in papers=); Paperchat.papers() lists them",
        ),
        (lambda: Paperchat(bundled_store, top_k=0), "top_k=0 is outside 1..100"),
        # a notebook session: a negative year, and a conversation's filters, still named the CLI's flag
        (lambda: pc.ask("x", year=-1), "no paper matches year=-1 (stored years: 2025)"),
        (
            lambda: pc.chat(year=2019).ask("x"),
            "no paper matches year=2019 (stored years: 2025)",
        ),
        (lambda: pc.write_bibtex(None, ["p-abe9274a3783"]), "path must be a file path, not None"),
    ):
        with pytest.raises(PaperchatError) as err:
            call()
        assert str(err.value) == message
    with pytest.raises(ValueError, match="top_k must be a whole number"):
        pc.ask("What is ConfPO?", top_k=0)
    answer = pc.ask("What does ConfPO use to pick preference-critical tokens?", top_k=np.int64(3))
    assert answer.sources[0].paper_id == "p-abe9274a3783"
    # an answer's notes name the API's methods, not the CLI's commands
    assert pc.summarize("reinforcement learning").notes == [
        '5 stored papers write "reinforcement learning" or "RL": the summary keeps to them and cites the 4 '
        'retrieval ranks first; Paperchat.ask("How many papers are about reinforcement learning?") lists '
        'those writing "reinforcement learning"'
    ]
    # print(answer) had printed every field, cited chunks and all
    assert str(answer).startswith(
        answer.answer + "\n\nSources:\n  [1] ConfPO: Exploiting Policy Model"
    )
    # each source as the terminal's Sources show it, with its origin and url (a notebook session)
    assert " — p-abe9274a3783 — 000_215d12c2ee2986f8.txt #3" in str(answer).splitlines()[3]
    assert str(answer).splitlines()[3].endswith("https://openreview.net/forum?id=ZG7bkp6ScT")
    # a notebook session: these were PaperchatErrors only, and evaluate() checked none of its arguments
    # (limit=0 divided by zero, limit=-1 dropped the last question)
    from paperchat.api.evaluating import evaluate

    for call, message in (
        (lambda: pc.ask("x", year="2025"), "year must be a whole number such as 2025, not '2025'"),
        (lambda: pc.ask("x", author=["hinton"]), "author must be a string, not list"),
        (lambda: pc.ask("x", mode="bogus"), "unknown mode 'bogus': use auto, llm or extractive"),
        (lambda: pc.bibtex(3), "papers must be an answer, a paper id or a list of them, not int"),
        (lambda: Paperchat(3), "store must be a folder path, not int"),
        (lambda: evaluate(pc, limit=0), "limit must be a whole number, 1 or more, not 0"),
        (lambda: evaluate(pc, top_k=1000), "top_k must be a whole number from 1 to 100, not 1000"),
        (lambda: evaluate(pc, mode="auto"), "mode must be 'extractive' or 'llm', not 'auto'"),
    ):
        with pytest.raises(ValueError) as err:
            call()
        assert str(err.value) == message


def test_evaluate_runs_an_own_set_from_python(bundled_store, tmp_path):
    # an eval-workflow session: no documented way to run an eval from a notebook; the internal runner had
    # filled a new store with the bundled corpus before failing on the set's gold papers
    from paperchat import Paperchat, evaluate
    from paperchat.core.errors import StoreError

    mine = tmp_path / "mine.jsonl"
    rows = [
        {
            "id": "m1",
            "question": "What does ConfPO use to pick preference-critical tokens?",
            "gold": ["p-abe9274a3783"],
            "facts": [["confidence"]],
        },
        {"id": "m2", "question": "What GPU did ConfPO train on?", "answerable": False},
    ]
    mine.write_text("".join(json.dumps(r) + "\n" for r in rows))
    results = evaluate(Paperchat(bundled_store), mine, out=tmp_path / "run")
    by_id = {r["id"]: r for r in results["questions"]}
    assert by_id["m1"]["cited"][0] == "p-abe9274a3783" and by_id["m1"]["facts_found"] == [True]
    assert by_id["m2"]["abstained"] is True
    assert results["overall"]["abstention.accuracy"]["value"] == 1.0
    assert (tmp_path / "run" / "report.md").is_file()
    with pytest.raises(
        StoreError, match="^no store at .*: ingest the papers your eval set is about"
    ):
        evaluate(Paperchat(tmp_path / "new"), mine)
    assert not (tmp_path / "new").exists()


def test_ingest_reads_a_folder_and_errors_import_from_the_package(tmp_path):
    # a notebook session: pc.ingest("data2") was refused as "a file without an extension"
    from conftest import ICML_JSONL

    from paperchat import BadArgument, Paperchat, PaperchatError

    folder = tmp_path / "data2"
    folder.mkdir()
    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()[:4]
    (folder / "a.jsonl").write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")
    (folder / "b.jsonl").write_text("\n".join(lines[2:]) + "\n", encoding="utf-8")
    (folder / "notes.md").write_text("mine", encoding="utf-8")
    pc = Paperchat(tmp_path / "store")
    report = pc.ingest(folder)
    assert report.papers_added == 4
    assert sorted(p.paper_id for p in pc.papers()) == sorted(json.loads(x)["id"] for x in lines)
    assert report.notes[0].startswith(f"{folder}: read a.jsonl, b.jsonl; left out notes.md")
    assert issubclass(BadArgument, PaperchatError) and issubclass(BadArgument, ValueError)
    with pytest.raises(BadArgument, match="top_k=0 is outside 1..100"):
        Paperchat(tmp_path / "store", top_k=0)


def test_a_paperchat_used_after_fork_says_so(bundled_store):
    # a notebook session: multiprocessing's fork hung for good in Chroma's client
    from paperchat import Paperchat
    from paperchat.api.client import FORKED

    pc = Paperchat(bundled_store)
    pc.papers()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one line to the parent, then out without running the parent's cleanup
        try:
            pc.ask("What is ConfPO?")
            said = "answered"
        except Exception as exc:  # noqa: BLE001 - the child reports whatever it got
            said = str(exc)
        os.write(write, said.encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    assert os.read(read, 4096).decode() == FORKED


def test_a_conversation_reads_follow_ups_as_the_chat_does(bundled_engine, bundled_store):
    # a notebook session: pc.ask("summarize the second one") abstained and "compare them" answered about
    # unrelated papers; ask() keeps no conversation, chat() does
    from paperchat import Paperchat, PaperchatError

    chat = Paperchat(bundled_store).chat(mode="extractive")
    with pytest.raises(PaperchatError, match="nothing to refer to|refers to nothing|Which paper"):
        chat.ask("summarize it")
    listed = chat.ask("Which papers study backdoor attacks or defenses for language models?")
    assert len(listed.sources) >= 2
    second = chat.ask("summarize the second one")
    assert [s.paper_id for s in second.sources] == [listed.sources[1].paper_id]
    assert len(chat.turns) == 2


def test_papers_with_their_abstracts(bundled_store):
    # a notebook session: a DataFrame of pc.papers() had an empty abstract column
    from paperchat import BadArgument, Paperchat

    pc = Paperchat(bundled_store)
    assert not any(p.abstract for p in pc.papers())
    with_text = {p.paper_id: p.abstract for p in pc.papers(abstracts=True)}
    assert len(with_text) == 38 and with_text[CONFPO] == pc.paper(CONFPO).abstract
    with pytest.raises(BadArgument, match="abstracts must be True or False"):
        pc.papers(abstracts="yes")
