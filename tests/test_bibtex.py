"""BibTeX out (``ask/summarize/papers --bibtex``, chat ``/export``): written with pybtex, read back with pybtex.

Also where venue and year come from (:mod:`paperchat.ingest.venue`).
"""

from __future__ import annotations

import codecs
import json
import re

import latexcodec  # noqa: F401  (registers the "ulatex" codec pybtex's writer encodes with)
import pytest
from conftest import SECOND_VENUE
from pybtex.database import parse_file, parse_string
from test_filters import run, untitled_id

CONFPO = "p-abe9274a3783"


def read_back(path) -> dict[str, tuple[str, str, dict[str, str], list[str]]]:
    """``{key: (entry type, decoded title, fields, author last names)}`` of a .bib file, parsed by pybtex; the
    title without the braces that keep its capitals (``{ConfPO}``)."""
    bib = parse_file(str(path), "bibtex")
    return {
        key: (
            e.type,
            _unbraced(codecs.decode(e.fields["title"], "ulatex")),
            dict(e.fields),
            ["".join(p.last_names) for p in e.persons.get("author", [])],
        )
        for key, e in bib.entries.items()
    }


def _unbraced(title: str) -> str:
    return re.sub(r"\{([^{}$]*)\}", r"\1", title)


def test_ask_bibtex_writes_the_cited_papers(bundled_store, tmp_path):
    bib = tmp_path / "refs.bib"
    out = run(
        bundled_store,
        "ask",
        "What does ConfPO use to pick preference-critical tokens?",
        "--json",
        "--bibtex",
        str(bib),
    )
    answer = json.loads(out.stdout)  # stdout is still only the answer
    assert [s["paper_id"] for s in answer["sources"]] == [CONFPO]
    assert out.stderr == f"wrote 1 BibTeX entry to {bib}\n"
    entries = read_back(bib)
    assert list(entries) == ["yoon2025confpo"]
    kind, title, fields, authors = entries["yoon2025confpo"]
    assert kind == "inproceedings" and title == answer["sources"][0]["title"]
    # PMLR's own fields for an ICML 2025 paper (a LaTeX session: "In ICML, 2025" was all a style printed)
    assert {
        k: fields[k] for k in ("booktitle", "series", "volume", "publisher", "year", "url")
    } == {
        "booktitle": "Proceedings of the 42nd International Conference on Machine Learning",
        "series": "Proceedings of Machine Learning Research",
        "volume": "267",
        "publisher": "PMLR",
        "year": "2025",
        "url": "https://openreview.net/forum?id=ZG7bkp6ScT",
    }
    assert authors == ["Yoon", "Yoon", "Hasegawa-Johnson", "Kim", "Yoo"]


def test_summarize_and_papers_bibtex(two_venue_store, tmp_path):
    bib = tmp_path / "summary.bib"
    summary = json.loads(
        run(
            two_venue_store,
            "summarize",
            "backdoor defenses",
            "--venue",
            "NeurIPS",
            "--json",
            "--bibtex",
            str(bib),
        ).stdout
    )
    cited = {s["paper_id"]: s["title"] for s in summary["sources"]}
    entries = read_back(bib)
    assert cited and sorted(title for _k, title, _f, _a in entries.values()) == sorted(
        cited.values()
    )

    every = tmp_path / "all.bib"
    out = run(two_venue_store, "papers", "--bibtex", str(every))
    assert out.stdout == "" and out.stderr == f"wrote 43 BibTeX entries to {every}\n"
    entries = read_back(every)
    assert len(entries) == 43  # keys are unique: pybtex refuses a repeated key
    listing = {
        r["paper_id"]: r for r in json.loads(run(two_venue_store, "papers", "--json").stdout)
    }
    assert sorted(t for _k, t, _f, _a in entries.values()) == sorted(
        r["title"] or r["label"] for r in listing.values()
    )
    # a paper with no metadata at all still gives a valid entry: its label as title, no author, year or venue
    bare = [e for e in entries.values() if e[0] == "misc"]
    label = listing[untitled_id()]["label"]
    assert [(k, t, {f: _unbraced(v) for f, v in fs.items()}, a) for k, t, fs, a in bare] == [
        ("misc", label, {"title": label}, [])
    ]

    neurips = tmp_path / "neurips.bib"
    run(two_venue_store, "papers", "--venue", "NeurIPS", "--year", "2024", "--bibtex", str(neurips))
    assert {f["booktitle"] for _k, _t, f, _a in read_back(neurips).values()} == {"NeurIPS"}
    assert len(read_back(neurips)) == len(SECOND_VENUE)


def test_chat_export(bundled_store, tmp_path):
    bib = tmp_path / "chat.bib"
    out = run(
        bundled_store,
        "chat",
        "--no-history",
        stdin=f"What does ConfPO use to pick preference-critical tokens?\nHow does CROW remove backdoors?\n"
        f"/export {bib}\n/export {bib}\n",
    )
    assert f"Exported 2 BibTeX entries to {bib}" in out.stdout
    assert f"{bib} exists; /export {bib} --force replaces it." in out.stdout
    assert [k for k in read_back(bib)] == ["yoon2025confpo", "min2025crow"]


def test_chat_exports_the_sources_it_is_given(bundled_store, tmp_path):
    # a reading-group session: "/export pick.bib 1 3" wrote every cited paper to a file named "pick.bib 1 3"
    picks = tmp_path / "picks.bib"
    out = run(
        bundled_store,
        "chat",
        "--no-history",
        stdin="What does ConfPO use to pick preference-critical tokens?\nHow does CROW remove backdoors?\n"
        f"/export {picks} 1\n/export {tmp_path / 'x.bib'} 7\n",
    )
    # the reply names the papers the numbers counted (a reference-manager session could not tell)
    assert f"Exported 1 BibTeX entry to {picks}: [1] CROW: Eliminating Backdoors" in out.stdout
    assert [k for k in read_back(picks)] == ["min2025crow"]  # source 1 of the last list
    assert "The last answer has 1 source: /export refs.bib 1." in out.stdout
    assert not (tmp_path / "x.bib").exists() and not list(tmp_path.glob("picks.bib *"))


def test_keys_are_stable_and_unique():
    from paperchat.cite.bibtex import cite_keys, entries
    from paperchat.ingest.records import PaperRecord

    records = {
        "b": PaperRecord("b", title="Transformers Learn Faster", authors=["Tao Tao"], year=2025),
        "a": PaperRecord(
            "a",
            title="(How) Can Transformers Predict Pseudo-Random Numbers?",
            authors=["Tao Tao"],
            year=2025,
            venue="ICML",
        ),
        "c": PaperRecord(
            "c", title="On the $K^2$ Bound: 100% of Cases", authors=["Ludwig van Beethoven"]
        ),
        "d": PaperRecord("d", label="QuokkaNet"),
    }
    keys = cite_keys(records)
    assert keys == {
        "a": "tao2025transformerspredict",
        "b": "tao2025transformerslearn",
        "c": "beethovenk2",
        "d": "anonquokkanet",
    }
    # alone, a paper has its base key
    assert cite_keys({k: records[k] for k in ("a", "c")})["a"] == "tao2025transformers"

    text = entries(["c"], records)
    assert (
        'title = "On the $K^2$ Bound: 100\\% of Cases"' in text
    )  # math kept, the rest LaTeX-encoded


def test_a_key_never_passes_to_another_paper_as_the_store_grows():
    # a related-work writer's session: after `ingest b.jsonl`, chen2025learning named Min Chen's new paper
    # instead of Wei Chen's, so a manuscript's \cite{chen2025learning} changed paper without an error
    from paperchat.cite.bibtex import cite_keys
    from paperchat.ingest.records import PaperRecord

    def paper(pid, title, author="Wei Chen"):
        return PaperRecord(pid, title=title, authors=[author], year=2025)

    stages = [{"zz2": paper("zz2", "Learning Things Quickly")}]
    stages.append({**stages[-1], "zz3": paper("zz3", "Learning Other Things Slowly")})
    stages.append({**stages[-1], "aa1": paper("aa1", "Learning Graph Structure", "Min Chen")})
    stages.append({**stages[-1], "aa2": paper("aa2", "Learning Things Slowly")})
    keys = [cite_keys(s) for s in stages]
    assert keys[-1] == {
        "aa1": "chen2025learninggraph",
        "aa2": "chen2025learningthingsslowly",
        "zz2": "chen2025learningthingsquickly",
        "zz3": "chen2025learningother",
    }
    owner: dict[str, str] = {}
    for stage in keys:
        for pid, key in stage.items():
            assert owner.setdefault(key, pid) == pid


def test_a_dollar_that_is_money_is_escaped_and_math_is_kept():
    # a lone "$" opened math mode in LaTeX (a newcomer's break-it session)
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.records import PaperRecord

    title = "Training for $5 per Model: the $K^2$ Trick Is $2\\times$ Cheaper than $1,000."
    text = entries(["m"], {"m": PaperRecord("m", title=title, authors=["Ann Lee"], year=2025)})
    assert (
        'title = "Training for \\$5 per Model: the $K^2$ Trick Is $2\\times$ Cheaper than \\$1,000."'
        in text
    )
    parsed = parse_string(text, "bibtex").entries["lee2025training"].fields["title"]
    assert (
        parsed.count("$") == 6 and parsed.count("\\$") == 2
    )  # two pairs of math, two escaped signs


@pytest.mark.parametrize(
    "fields, file_name, expected",
    [
        (
            {"pmlr_url": "https://proceedings.mlr.press/v267/yoon25b.html"},
            "000_215d12c2ee2986f8.txt",
            ("ICML", 2025),
        ),
        ({}, "icml2025_abstracts.jsonl", ("ICML", 2025)),
        ({}, "neurips-2024.csv", ("NeurIPS", 2024)),
        ({"venue": "TMLR", "year": "2023"}, "icml2025_abstracts.jsonl", ("TMLR", 2023)),
        ({}, "my_papers.jsonl", ("", 0)),
        # a reference-manager session: four spellings of ICML 2025, only "ICML" had PMLR's fields
        ({"venue": "ICML 2025"}, "mine.csv", ("ICML", 2025)),
        (
            {"venue": "Forty-second International Conference on Machine Learning"},
            "",
            ("ICML", 2025),
        ),
        (
            {"venue": "Proceedings of the 41st International Conference on Machine Learning"},
            "",
            ("ICML", 2024),
        ),
        (
            {"venue": "International Conference on Machine Learning", "year": 2023},
            "",
            ("ICML", 2023),
        ),
        ({"venue": "NeurIPS'24"}, "", ("NeurIPS", 2024)),
        ({"venue": "ICML 2025 Workshop on Agents"}, "", ("ICML 2025 Workshop on Agents", 0)),
        # the verifier's: a presentation kind, "Proc.", a hyphen, "The", the short name in parentheses
        ({"venue": "ICML 2025 (Oral)"}, "", ("ICML", 2025)),
        ({"venue": "Proc. ICML-2025"}, "", ("ICML", 2025)),
        ({"venue": "The 42nd International Conference on Machine Learning"}, "", ("ICML", 2025)),
        ({"venue": "International Conference on Machine Learning (ICML 2025)"}, "", ("ICML", 2025)),
        (
            {"venue": "Proceedings of the AAAI Conference"},
            "",
            ("Proceedings of the AAAI Conference", 0),
        ),
    ],
)
def test_venue_and_year(fields, file_name, expected):
    from paperchat.ingest.venue import publication

    assert publication(fields, file_name) == expected


def test_a_year_that_is_not_one_stops_the_ingest_at_its_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"abstract": "We study A."}\n{"abstract": "We study B.", "year": "soon"}\n',
        encoding="utf-8",
    )
    out = run(tmp_path / "store", "ingest", str(bad))
    assert out.returncode == 1
    assert out.stderr == (
        f"error: {bad}:2: malformed record ('year' must be a year such as 2025, not 'soon'); "
        "fix it or pass --on-error skip\n"
    )


def test_titles_keep_their_capitals_in_bibtex_styles():
    """Styles lower-case titles: words with capitals inside are braced; math and braced text stay as they are."""
    from paperchat.cite.bibtex import protect_case

    assert (
        protect_case("ConfPO: Exploiting Policy Model Confidence")
        == "{ConfPO}: Exploiting Policy Model Confidence"
    )
    assert protect_case("GPT-4 and {BERT} in $O(nK)$ time") == "{GPT-4} and {BERT} in $O(nK)$ time"
    assert protect_case("A Study of Things") == "A Study of Things"
    # a title in sentence case writes its names capitalised: braced, or plain.bst prints "gaussian" (a
    # course TA's bibliography); a head in title case before a sentence-case subtitle is not
    assert (
        protect_case(
            "Diffusion models for Gaussian distributions: Exact solutions and Wasserstein errors"
        )
        == "Diffusion models for {Gaussian} distributions: Exact solutions and {Wasserstein} errors"
    )
    assert (
        protect_case("Emergent Misalignment: Narrow finetuning can produce broadly misaligned LLMs")
        == "Emergent Misalignment: Narrow finetuning can produce broadly misaligned {LLMs}"
    )
    assert (
        protect_case("Linear convergence of Sinkhorn's algorithm for static bridges")
        == "Linear convergence of {Sinkhorn}'s algorithm for static bridges"
    )


def test_a_name_suffix_is_written_as_bibtex_reads_it_and_kept_out_of_the_key():
    # a newcomer's "John Smith Jr." came out as last name "Jr." with the key jr2025...
    from paperchat.cite.bibtex import bibtex_name, cite_keys, entries
    from paperchat.ingest.records import PaperRecord

    assert bibtex_name("John Smith Jr.") == "Smith, Jr., John"
    assert bibtex_name("John Smith, Jr.") == "Smith, Jr., John"
    assert bibtex_name("Mary Ann Lee III") == "Lee, III, Mary Ann"
    assert bibtex_name("Smith, John") == "Smith, John" and bibtex_name("Ann Lee") == "Ann Lee"
    records = {
        "x": PaperRecord(
            "x", title="Learning to rank", authors=["John Smith Jr.", "Ann Lee"], year=2025
        )
    }
    assert cite_keys(records) == {"x": "smith2025learning"}
    assert 'author = "Smith, Jr., John and Lee, Ann"' in entries(["x"], records)


def test_team_names_and_bibtex_style_author_strings_stay_whole_names():
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.authors import author_list
    from paperchat.ingest.records import PaperRecord

    # "Last, First" is stored "First Last", as the other names are (a break-it session: "Which papers did
    # Ashish Vaswani write?" missed "Vaswani, Ashish; Shazeer, Noam")
    assert author_list("Smith, John and Doe, Jane") == ["John Smith", "Jane Doe"]
    assert author_list("Vaswani, Ashish; Shazeer, Noam") == ["Ashish Vaswani", "Noam Shazeer"]
    assert author_list("Martin Luther King, Jr.; Rosa Parks") == [
        "Martin Luther King, Jr.",
        "Rosa Parks",
    ]
    assert author_list("Ann Lee, Bo Chen, and Cy Dee") == ["Ann Lee", "Bo Chen", "Cy Dee"]
    assert author_list([1, None, {"n": "x"}, "Ann Lee"]) == ["Ann Lee"]  # no name but text
    records = {
        "x": PaperRecord("x", title="Soap", authors=["Procter and Gamble Research Team"], year=2025)
    }
    assert 'author = "{Procter and Gamble Research Team}"' in entries(["x"], records)


def test_apa_scopus_and_pubmed_author_strings_are_whole_names():
    # a lab's own corpus: "Sabbaghi, M., Kassianik, P., Pappas, G." had been stored as six authors
    # (BibTeX "Sabbaghi and M. and ..."), "Paulus A.; Zharmagambetov A." as "A., Paulus" in BibTeX
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.authors import author_list
    from paperchat.ingest.records import PaperRecord

    assert author_list("Sabbaghi, M., Kassianik, P., & Pappas, G. J.") == [
        "M. Sabbaghi",
        "P. Kassianik",
        "G. J. Pappas",
    ]
    assert author_list("Paulus A.; Zharmagambetov A.; Guo C.") == [
        "A. Paulus",
        "A. Zharmagambetov",
        "C. Guo",
    ]
    assert author_list("Qu X, Zhang YL, Li Z") == ["X. Qu", "Y. L. Zhang", "Z. Li"]
    # "Last, First, Last, First" of one word each (a verifying session had four authors)
    assert author_list("Sabbaghi, Mahdi, Kassianik, Paul") == ["Mahdi Sabbaghi", "Paul Kassianik"]
    assert author_list(["Paulus A.", "Guo C."]) == ["A. Paulus", "C. Guo"]
    # names that only look so stay: capitalised surnames, a given name and a surname
    assert author_list("Wei LI, Ming WU") == ["Wei LI", "Ming WU"]
    assert author_list("Bob B") == ["Bob B"]  # one name: a given name and an initial, as written
    assert author_list("Alice Bob, Carol Dee") == ["Alice Bob", "Carol Dee"]
    records = {
        "x": PaperRecord("x", title="T", authors=author_list("Sabbaghi, M., Pappas, G."), year=2025)
    }
    assert 'author = "Sabbaghi, M. and Pappas, G."' in entries(["x"], records)


def test_an_abstention_leaves_an_existing_bibliography_as_it_was(tmp_path):
    # a newcomer's `ask "..." --bibtex refs.bib` that abstained emptied a 1,553-byte refs.bib; a reviewer's
    # script reading --json then kept the previous question's references: the answer's notes say so
    from types import SimpleNamespace

    from paperchat.cli.common import export_bibtex, note_unwritten_bibtex

    refs = tmp_path / "refs.bib"
    refs.write_text("@misc{kept, title = {Kept}}\n")
    assert export_bibtex(None, refs, []) == 0
    assert refs.read_text() == "@misc{kept, title = {Kept}}\n"
    answer = SimpleNamespace(sources=[], notes=[])
    note_unwritten_bibtex(answer, refs)
    assert answer.notes == [f"no paper cited: {refs} left as it was"]
    note_unwritten_bibtex(answer, None)
    assert len(answer.notes) == 1


def test_a_caret_and_a_final_backslash_are_escaped_and_keys_fold_letters_nfkd_cannot():
    # found by a break-it session: "^caret" set a superscript, a title ending in "\" took the quote after
    # it, and "Ørsted" gave the key "rsted..."
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.records import PaperRecord

    record = PaperRecord(
        "a", "x", title=r"Approx ^caret with $x^2$ back\ ", authors=["Hans Ørsted", "Łukasz Kaiser"]
    )
    text = entries(["a"], {"a": record})
    assert text.startswith("@misc{orstedapprox,")
    title = parse_string(text, "bibtex").entries["orstedapprox"].fields["title"]
    assert title == r"Approx \^{}caret with $x^2$ back\textbackslash{}"
    # a backslash before a space is no command: "\ " had been LaTeX's control space, the backslash gone
    record = PaperRecord("b", "x", title=r"Paths like C:\ drive and \emph{kept}")
    title = parse_string(entries(["b"], {"b": record}), "bibtex").entries
    assert (
        next(iter(title.values())).fields["title"]
        == r"Paths like C:\textbackslash{} drive and \emph{kept}"
    )


@pytest.mark.parametrize(
    ("written", "encoded"),
    [
        # a break-it session: "~" became "\textasciitilde\textbackslash{}" (a tilde, then "\" shown)
        ("Tilde ~ alone", r"Tilde \textasciitilde{} alone"),
        # a title already in LaTeX had its escapes escaped again ("\\&": a line break, then "&")
        (r"Cats \& Dogs at 50\% off", r"Cats \& Dogs at 50\% off"),
        (r"x\_y and \#1", r"x\_y and \#1"),
        ("Cats & Dogs at 50% off", r"Cats \& Dogs at 50\% off"),  # plain text, encoded as before
    ],
)
def test_tildes_and_titles_already_in_latex_are_encoded_once(written, encoded):
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.records import PaperRecord

    text = entries(["a"], {"a": PaperRecord("a", "x", title=written)})
    assert next(iter(parse_string(text, "bibtex").entries.values())).fields["title"] == encoded


def test_inline_math_in_a_title_is_not_the_keys_word():
    # a break-it session: "On $\mathcal{O}(\sqrt{T})$ ..." gave the key mullermathcalosqrtt
    from paperchat.cite.bibtex import cite_keys
    from paperchat.ingest.records import PaperRecord

    records = {
        "x": PaperRecord(
            "x",
            title=r"On $\mathcal{O}(\sqrt{T})$ Regret for Bandits",
            authors=["Anna Müller"],
            year=2025,
        ),
        "y": PaperRecord("y", title=r"$\ell_1$-Regularized Models", authors=["Bo Li"], year=2025),
    }
    assert cite_keys(records) == {"x": "muller2025regret", "y": "li2025regularized"}


def test_capitalised_particles_a_stray_period_and_hyphenated_words():
    # a reviewer's session: "Schaar, Mihaela Van Der" (abbreviated "M. V. D. Schaar"), "Du., Yuntao", and
    # "continual Test-Time adaptation" in a sentence-case style
    from paperchat.cite.bibtex import base_key, bibtex_name, protect_case
    from paperchat.ingest.records import PaperRecord

    assert bibtex_name("Mihaela Van Der Schaar") == "Van Der Schaar, Mihaela"
    assert bibtex_name("Luca Di Liello") == "Di Liello, Luca"
    assert bibtex_name("Di Wang") == "Di Wang"  # a given name, not a particle
    assert bibtex_name("Yuntao Du.") == "Yuntao Du"
    assert bibtex_name("John Smith Jr.") == "Smith, Jr., John"
    assert protect_case("Continual Test-Time Adaptation") == "Continual Test-Time Adaptation"
    assert protect_case("Llama-3.1-8B on Non-IID data") == "{Llama-3.1-8B} on {Non-IID} data"
    records = {"x": PaperRecord("x", title="T", authors=["Mihaela Van Der Schaar"], year=2025)}
    assert base_key(records["x"]) == "vanderschaar2025t"


def test_non_ascii_is_written_as_latex_so_pdflatex_reads_it():
    # a LaTeX session: raw "ı́", "α", "∞" stopped pdflatex ("Unicode character ́ (U+0301) not set up")
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.records import PaperRecord

    recs = {
        "a": PaperRecord(
            "a",
            title="ABKD: Distillation via α - β -Divergence, Poincaré–Hopf and GSM- ∞ in $K^2$",
            authors=["Álvaro Rodrı́guez Abella", "Waı̈ss Azizian"],
            venue="ICML",
            year=2025,
            url="https://example.org/é",
        )
    }
    text = entries(["a"], recs)
    # "{\\'i}", not "{\\'\\i}": biber reads the latter back as a dotless i and a combining accent
    assert "author = {Abella, {\\'A}lvaro Rodr{\\'i}guez and Azizian, Wa{\\\"i}ss}" in text
    assert (
        "title = \"{ABKD}: Distillation via $\\alpha$ - $\\beta$ -Divergence, Poincar{\\'e}--Hopf and "
        '{GSM-} $\\infty$ in $K^2$"' in text
    )
    assert 'url = "https://example.org/é"' in text  # urls as they are


def test_greek_is_written_as_latex_commands_that_exist():
    # a reference-manager session: "Ελληνικά" became "$\\Epsilon$...ά" (no such command; a raw "ά")
    from paperchat.cite.latex_chars import ascii_latex

    assert ascii_latex("Ελληνικά, Ομάδα, ς") == (
        "E$\\lambda$$\\lambda$$\\eta$$\\nu$$\\iota$$\\kappa$$\\alpha$, "
        "O$\\mu$$\\alpha$$\\delta$$\\alpha$, $\\varsigma$"
    )


@pytest.mark.parametrize(
    "author, written",
    [
        ("Laurent El Ghaoui", "El Ghaoui, Laurent"),
        ("Souhaib Ben Taieb", "Ben Taieb, Souhaib"),
        ("Oisin Mac Aodha", "Mac Aodha, Oisin"),
        ("Guy Van den Broeck", "{Van den Broeck}, Guy"),
        ("Mihaela Van Der Schaar", "Van Der Schaar, Mihaela"),
        ("guy van den broeck", "guy van den broeck"),
    ],
)
def test_surname_particles_stay_with_the_last_name(author, written):
    from paperchat.cite.bibtex import bibtex_name

    assert bibtex_name(author) == written


@pytest.mark.parametrize(
    "value, names",
    [
        # an own-corpus session: "Chang, Edward Y." had been two authors, "Chang" and "Edward Y."
        ("Chang, Edward Y.", ["Edward Y. Chang"]),
        ("van der Berg, Hans", ["Hans van der Berg"]),
        ("Ann Lee, Bo Chen", ["Ann Lee", "Bo Chen"]),
        # a list's "Last, First" items read as a string's (author questions had missed "Edward Chang")
        (
            ["Chang, Edward Y.", "Smith, Alice", "Ann Lee"],
            ["Edward Y. Chang", "Alice Smith", "Ann Lee"],
        ),
    ],
)
def test_last_first_names_are_one_author_in_natural_order(value, names):
    from paperchat.ingest.authors import author_list

    assert author_list(value) == names


def test_common_export_field_names_are_read(tmp_path):
    # an own-corpus session: Zotero's "Abstract Note" CSV was refused, arXiv's "summary" and a sheet's
    # "Paper Title"/"Link" dropped
    from paperchat.ingest.corpus import load_file

    zotero = tmp_path / "zotero.csv"
    zotero.write_bytes(
        b'\xef\xbb\xbf"Key","Publication Year","Author","Title","Url","Abstract Note"\r\n'
        b'"K1","2024","Chang, Edward Y.","My Paper","https://x.org/1","We study widgets for learning."\r\n'
    )
    sheet = tmp_path / "sheet.jsonl"
    sheet.write_text(
        '{"summary": "We propose gizmos for agents.", "Paper Title": "Gizmo RL", "Link": "https://y.org/2", '
        '"Author(s)": "Ada Lovelace; Alan Turing", "Publication Year": "2023"}\n'
    )
    (z,), _ = load_file(zotero)
    assert (z.title, z.authors, z.url, z.abstract) == (
        "My Paper",
        ["Edward Y. Chang"],
        "https://x.org/1",
        "We study widgets for learning.",
    )
    (g,), _ = load_file(sheet)
    assert (g.title, g.authors, g.url) == (
        "Gizmo RL",
        ["Ada Lovelace", "Alan Turing"],
        "https://y.org/2",
    )


@pytest.mark.parametrize(
    "venue, kind, field",
    [
        ("Journal of Machine Learning Research", "article", "journal"),
        ("TMLR", "article", "journal"),
        ("Nature", "article", "journal"),
        ("arXiv", "misc", "howpublished"),
        ("NeurIPS", "inproceedings", "booktitle"),
    ],
)
def test_a_journal_is_an_article_and_a_preprint_misc(venue, kind, field):
    # an own-corpus session: "Nature" and "arXiv" had been written as a conference's booktitle
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.records import PaperRecord

    recs = {"a": PaperRecord("a", title="A Study", authors=["Ann Lee"], venue=venue, year=2024)}
    text = entries(["a"], recs)
    assert text.startswith(f"@{kind}{{lee2024study,") and f'{field} = "{venue}"' in text


@pytest.mark.parametrize(
    "value, year", [("n.d.", 0), ("2025", 2025), ("forthcoming", 0), (None, 0)]
)
def test_a_year_written_as_no_date_is_unknown(value, year):
    # Zotero's "n.d." had refused the whole record
    from paperchat.ingest.venue import parse_year

    assert parse_year(value) == year


def test_and_others_ends_an_author_list_as_bibtex_writes_it():
    # a reference-manager session: "Morel, Rudy and Han, Jiequn and others" was written as five authors
    # "Morel and Rudy and Han and Jiequn and others", and "et al." as an author "et al"
    from paperchat.cite.bibtex import entries
    from paperchat.ingest.authors import author_list
    from paperchat.ingest.records import PaperRecord

    assert author_list("Morel, Rudy and Han, Jiequn and others") == [
        "Rudy Morel",
        "Jiequn Han",
        "others",
    ]
    assert author_list(["Rudy Morel", "et al."]) == ["Rudy Morel", "others"]
    assert author_list("Alice Smith et al.") == ["Alice Smith", "others"]
    # the verifier's: "Last, First" beside "First Last", braced or dotted "others", a number of others
    assert author_list("Morel, Rudy and Han, Jiequn and Edouard Oyallon") == [
        "Rudy Morel",
        "Jiequn Han",
        "Edouard Oyallon",
    ]
    assert (
        author_list("Morel, Rudy and {others}")
        == author_list("Morel, Rudy and 3 others.")
        == [
            "Rudy Morel",
            "others",
        ]
    )
    record = PaperRecord("a", title="T", authors=["Rudy Morel", "Jiequn Han", "others"], year=2025)
    text = entries(["a"], {"a": record})
    assert 'author = "Morel, Rudy and Han, Jiequn and others"' in text
    assert text.startswith("@misc{morel2025")


def test_a_non_breaking_hyphen_is_written_as_a_hyphen():
    # a reference-manager session: U+2011 in two ICML 2025 titles was written raw (pdflatex rejects it)
    from paperchat.cite.latex_chars import ascii_latex

    assert ascii_latex("Belief\u2011Driven Multi\u2010Agent") == "Belief-Driven Multi-Agent"


def test_csl_json_authors_and_dates_are_read():
    # a reference-manager session: Zotero's CSL JSON items were stored without authors or year, silently
    from paperchat.ingest.authors import author_list
    from paperchat.ingest.fields import with_aliases
    from paperchat.ingest.venue import parse_year

    item = {
        "author": [{"family": "Morel", "given": "Rudy"}, {"literal": "The Team"}],
        "issued": {"date-parts": [[2025, 7]]},
    }
    assert author_list(item["author"]) == ["Rudy Morel", "The Team"]
    assert parse_year(with_aliases(item)["year"]) == 2025
    assert parse_year({"raw": "2024-05"}) == 2024


def test_a_titles_case_protecting_braces_are_dropped_outside_math():
    # a reference-manager session: "Learning {BERT}-style Encoders" could not be found by "Learning BERT-style"
    from paperchat.core.text import unbraced

    assert unbraced("Learning {BERT}-style Encoders in $\\mathcal{O}(n)$ time") == (
        "Learning BERT-style Encoders in $\\mathcal{O}(n)$ time"
    )
    assert unbraced("A \\emph{bold} title") == "A \\emph{bold} title"
