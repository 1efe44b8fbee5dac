"""Corpus loading, ids, labels, metadata join and text hygiene (no store needed)."""

from __future__ import annotations

import json

import pytest
from conftest import SEED_000, SEED_003, SEED_METADATA

from paperchat.core.errors import PaperchatError
from paperchat.core.sentences import split_sentences
from paperchat.core.text import clean_text
from paperchat.ingest.corpus import bundled_corpus_files, load_file, paper_id_for
from paperchat.ingest.labels import derive_label, short_label
from paperchat.ingest.metadata import join_metadata, load_metadata


def test_bundled_corpus_has_38_papers_in_two_files():
    files = bundled_corpus_files()
    assert [f.name for f in files] == [SEED_000, SEED_003]
    papers = [p for f in files for p in load_file(f)[0]]
    assert len(papers) == 38
    confpo = [p for p in papers if p.source_path == SEED_000 and p.source_index == 3][0]
    assert confpo.abstract.startswith("We introduce ConfPO, a method for preference learning")
    assert confpo.paper_id == paper_id_for(confpo.abstract) == "p-abe9274a3783"


def test_labels_name_the_introduced_method():
    papers = {
        (p.source_path, p.source_index): p for f in bundled_corpus_files() for p in load_file(f)[0]
    }
    assert papers[(SEED_000, 1)].label == "GNN+"
    assert papers[(SEED_000, 2)].label == "CROW"
    assert papers[(SEED_000, 3)].label == "ConfPO"
    assert papers[(SEED_000, 14)].label == "LightGTS"
    assert papers[(SEED_003, 12)].label == "SOLD"
    # No name introduced: the opening words, cut with an ellipsis.
    assert derive_label(
        "We study tensor completion through the lens of low-rank tensor decomposition."
    ).startswith("We study tensor completion")
    # an abstract that opens by defining its name (a newcomer's break-it session); not an opening about
    # another model, nor a capitalised common word
    assert derive_label("BOMNet is a parser that handles byte order marks. It is fast.") == "BOMNet"
    assert derive_label("GPT-4 has shown strong results on many tasks.").startswith(
        "GPT-4 has shown"
    )
    assert derive_label("Zebra is a reinforcement learning agent.").startswith("Zebra is a")
    # a coined acronym defined and used again names the paper; a plural one names what it studies
    coined = "We study a flow (FINOLA) for images. FINOLA is fast. FINOLA is simple."
    assert derive_label(coined) == "FINOLA"
    studied = "We study attention heads (AHs) under attack. AHs change. Some AHs do not."
    assert derive_label(studied).startswith("We study attention heads")
    # one capitalised word before a title's colon is the paper's name, unless it says the paper's kind
    otter = "We introduce TDD-Bench-Verified, a benchmark, and Otter, a test generator."
    assert (
        short_label("Otter: Generating Tests from Issues to Validate SWE Patches", otter) == "Otter"
    )
    position = "Benchmarks age. We propose BenchGuard, a checklist for keeping them honest."
    assert short_label("Position: Benchmarks Should Change", position) == "BenchGuard"


def test_ids_do_not_depend_on_order(tmp_path):
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text(
        "header\n\nFirst abstract about graphs.\n\nSecond abstract about flows.\n", encoding="utf-8"
    )
    b.write_text(
        "header\n\nSecond abstract about flows.\n\nFirst abstract about graphs.\n", encoding="utf-8"
    )
    ids_a = {p.abstract: (p.paper_id, p.source_index) for p in load_file(a)[0]}
    ids_b = {p.abstract: (p.paper_id, p.source_index) for p in load_file(b)[0]}
    assert {k: v[0] for k, v in ids_a.items()} == {k: v[0] for k, v in ids_b.items()}
    assert ids_a["First abstract about graphs."][1] == 1
    assert ids_b["First abstract about graphs."][1] == 2


def test_jsonl_and_csv_records(tmp_path):
    jl = tmp_path / "p.jsonl"
    jl.write_text(
        json.dumps(
            {"id": "X1", "title": "T1", "authors": ["A", "B"], "abstract": "Abs one.", "url": "u1"}
        )
        + "\n"
        + json.dumps({"abstract": "Abs two."})
        + "\n",
        encoding="utf-8",
    )
    papers, _ = load_file(jl)
    assert [(p.paper_id, p.title, p.authors, p.url, p.source_index) for p in papers] == [
        ("X1", "T1", ["A", "B"], "u1", 1),
        (paper_id_for("Abs two."), "", [], "", 2),
    ]
    cs = tmp_path / "p.csv"
    cs.write_text(
        'title,abstract,authors\n"T, with comma","Csv abstract.","A; B"\n', encoding="utf-8"
    )
    (paper,), _ = load_file(cs)
    assert (paper.title, paper.abstract, paper.authors, paper.label) == (
        "T, with comma",
        "Csv abstract.",
        ["A", "B"],
        "T, with comma",
    )


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("missing.jsonl", None, "no such file"),
        ("empty.jsonl", b"", "file is empty"),
        ("bin.jsonl", b"\x00\x01\x02binary", "binary"),
        ("bad.csv", b"title,text\nT,S\n", "no 'abstract' column"),
        # a spreadsheet with two Title columns: DictReader would keep the last one silently
        ("twice.csv", b"Title,abstract,title ,,\nA,S,B,,\n", "names the column 'title' twice"),
    ],
)
def test_bad_files_fail_with_one_line(tmp_path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(PaperchatError) as err:
        load_file(path)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_malformed_jsonl_line_stop_or_skip(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text(
        '{"abstract": "Good one."}\n{not json\n{"abstract": "Good two."}\n', encoding="utf-8"
    )
    with pytest.raises(PaperchatError, match=r"m\.jsonl:2: malformed JSON"):
        load_file(path)
    papers, report = load_file(path, on_error="skip")
    assert [p.abstract for p in papers] == ["Good one.", "Good two."]
    assert report.skipped[0][0] == 2


def test_metadata_join_gives_real_titles():
    papers = [p for f in bundled_corpus_files() for p in load_file(f)[0]]
    matched = join_metadata(papers, load_metadata(SEED_METADATA))
    assert matched == 38
    confpo = [p for p in papers if p.source_path == SEED_000 and p.source_index == 3][0]
    assert confpo.title == (
        "ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference Optimization"
    )
    assert confpo.label == "ConfPO"  # the short name heading the title
    assert confpo.authors[0] == "Hee Suk Yoon"
    assert confpo.url == "https://openreview.net/forum?id=ZG7bkp6ScT"


def test_text_hygiene_keeps_latex_and_strips_what_breaks_storage(tmp_path):
    raw = "Cafe\u0301 uses $\\textit{de novo}$ and $K^2$ with *emphasis*\x00 and a lone \ud800surrogate."
    cleaned = clean_text(raw)
    assert (
        cleaned == "Café uses $\\textit{de novo}$ and $K^2$ with *emphasis* and a lone surrogate."
    )
    papers = [p for f in bundled_corpus_files() for p in load_file(f)[0]]
    assert any("$\\textit{de novo}$" in p.abstract for p in papers)
    header = bundled_corpus_files()[0].read_text(encoding="utf-8").splitlines()[0]
    assert header == "ICML 2025 论文列表"


def test_sentence_splitter_respects_abbreviations_and_math():
    text = "We use e.g. graphs and $x. Y$ terms. Results improve by 3.5%. Next sentence here."
    assert split_sentences(text) == [
        "We use e.g. graphs and $x. Y$ terms.",
        "Results improve by 3.5%.",
        "Next sentence here.",
    ]


def test_fields_that_are_not_text_are_malformed(tmp_path):
    path = tmp_path / "types.jsonl"
    path.write_text(
        '{"abstract": 12345}\n{"abstract": "ok", "title": ["a", "b"]}\n{"abstract": "fine", "id": 7}\n'
    )
    with pytest.raises(
        PaperchatError,
        match=r"types\.jsonl:1: malformed record \('abstract' must be text, not int\)",
    ):
        load_file(path)
    papers, report = load_file(path, on_error="skip")
    assert [(p.paper_id, p.abstract) for p in papers] == [("7", "fine")]
    assert [line for line, _ in report.skipped] == [1, 2]


def test_an_id_with_white_space_is_malformed(tmp_path):
    # the store lists a paper's chunk ids space-joined: "paper 12" was stored, then never retrieved, and
    # `check` called the store damaged (a newcomer's break-it session)
    path = tmp_path / "ids.jsonl"
    path.write_text(
        '{"abstract": "One. Two.", "id": "paper 12"}\n{"abstract": "Three.", "id": "p:2#x"}\n'
    )
    with pytest.raises(
        PaperchatError,
        match=r"ids\.jsonl:1: malformed record \(id 'paper 12' holds white space; a paper id is one word "
        r"\(e\.g\. 'paper-12'\)\)",
    ):
        load_file(path)
    papers, report = load_file(path, on_error="skip")
    assert [p.paper_id for p in papers] == ["p:2#x"] and [line for line, _ in report.skipped] == [1]


def test_settings_out_of_range_and_unknown_config_keys(tmp_path, monkeypatch):
    from paperchat.core.settings import load_settings

    monkeypatch.setenv("PAPERCHAT_TOP_K", "0")
    with pytest.raises(
        PaperchatError, match=r"setting top_k from env:PAPERCHAT_TOP_K: 0 is outside 1\.\.100"
    ):
        load_settings()
    monkeypatch.delenv("PAPERCHAT_TOP_K")
    cfg = tmp_path / "c.toml"
    cfg.write_text('top_k = 7\nstore_dir = "/x"\n')
    monkeypatch.setenv("PAPERCHAT_CONFIG", str(cfg))
    with pytest.raises(PaperchatError, match=r"unknown key\(s\) store_dir"):
        load_settings()
    cfg.write_text('top_k = 7\n[llm]\nmodel = "m"\n')
    s = load_settings({"top_k": None})
    assert (s.top_k, s.origins["top_k"], s.llm_model) == (7, f"file:{cfg}", "m")
    monkeypatch.setenv("PAPERCHAT_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(PaperchatError, match="does not exist"):
        load_settings()


@pytest.mark.parametrize(
    "line, error",
    [
        ("top_k = 3.7", "setting top_k from file:{cfg}: 3.7 is not a valid int"),
        ("top_k = true", "setting top_k from file:{cfg}: True is not a valid int"),
        # TOML has numbers: a quoted one is text
        ('top_k = "7"', "setting top_k from file:{cfg}: '7' is not a valid int"),
        ("[llm]\ntimeout = false", "setting timeout from file:{cfg}: False is not a valid float"),
        (
            'store = ""',
            "setting store from file:{cfg}: an empty value; leave it out to use the default",
        ),
        (
            'embed_model = ""',
            "setting embed_model from file:{cfg}: an empty value; leave it out to use the default",
        ),
        ("store = []", "setting store from file:{cfg}: [] is not a valid str"),
        # a key is never echoed (an LLM session: a key given as a list was printed in the error)
        (
            '[llm]\napi_key = ["sk-abc123secretvalue"]',
            "setting llm_api_key from file:{cfg}: the value given is not a valid str",
        ),
    ],
)
def test_config_file_values_are_type_checked_as_env_values_are(tmp_path, monkeypatch, line, error):
    # a newcomer's `top_k = 3.7` ran as 3 and `top_k = true` as 1, where PAPERCHAT_TOP_K=3.7 is refused
    from paperchat.core.settings import load_settings

    cfg = tmp_path / "c.toml"
    cfg.write_text(line + "\n")
    monkeypatch.setenv("PAPERCHAT_CONFIG", str(cfg))
    with pytest.raises(PaperchatError) as info:
        load_settings()
    assert str(info.value) == error.format(cfg=cfg)
    cfg.write_text("top_k = 7.0\n")  # a whole number written as a float is that number
    assert load_settings().top_k == 7


def test_an_escaped_dollar_is_a_price_not_inline_math():
    """A newcomer found three sentences of one abstract quoted as one, two of them uncited: an escaped
    ``\\$`` opened "inline math" that ran to the next dollar sign."""
    from paperchat.core.sentences import split_sentences

    text = r"It costs only \$0.88 per million tokens. It needs no access. The rest follows at \$1."
    assert split_sentences(text) == [
        r"It costs only \$0.88 per million tokens.",
        "It needs no access.",
        r"The rest follows at \$1.",
    ]
    assert split_sentences(r"We bound it by $O(n). Then$ we stop. Next.") == [
        r"We bound it by $O(n). Then$ we stop.",
        "Next.",
    ]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_utf16_and_utf32_files_are_text_not_binary(tmp_path, encoding):
    # a newcomer's Excel export (UTF-16) was refused as binary even with --encoding utf-16
    from paperchat.ingest.corpus import load_file, read_text

    data = tmp_path / "papers.csv"
    text = "title,abstract\nCafé models,We study naïve Bayes for café menus. They are calibrated.\n"
    data.write_bytes(text.encode(encoding))
    assert read_text(data, encoding).lstrip("\ufeff") == text
    if encoding != "utf-16-le":  # these open with a byte-order mark: no --encoding needed
        papers, _ = load_file(data)
        assert [(p.title, p.abstract[:8]) for p in papers] == [("Café models", "We study")]
    else:
        with pytest.raises(PaperchatError, match="looks like a binary file"):
            read_text(data)


def test_a_csv_row_with_more_fields_than_its_header_is_an_error_not_a_cut_abstract(tmp_path):
    # a newcomer's unquoted "We study Gamma, a new optimizer" was stored as "We study Gamma", exit 0
    from paperchat.ingest.corpus import load_file

    data = tmp_path / "B.csv"
    data.write_text(
        "id,title,abstract\np2,Gamma,We study Gamma, a new optimizer for transformers\n"
        'p3,Delta,"We study Delta, a quoted abstract."\n'
    )
    why = "4 fields where the header has 3; quote a field that holds a comma"
    with pytest.raises(PaperchatError) as info:
        load_file(data)
    assert str(info.value) == f"{data}:2: {why}; fix it or pass --on-error skip"
    papers, report = load_file(data, on_error="skip")
    assert [p.paper_id for p in papers] == ["p3"] and report.skipped == [(2, why)]


def test_encoding_messages_name_the_fix(tmp_path):
    from paperchat.ingest.corpus import load_file, read_text

    text = "id,abstract\nx,We study things.\n"
    data = tmp_path / "p.csv"
    data.write_bytes(text.encode("utf-16-le"))  # no byte-order mark
    with pytest.raises(PaperchatError) as info:
        read_text(data)
    assert str(info.value).endswith(
        "; if it is utf-16-le text without a byte-order mark, pass --encoding utf-16-le"
    )
    data.write_bytes(
        text.encode("utf-16")
    )  # a mark, and an encoding named that keeps it in the text
    assert read_text(data, "utf-16-le") == text
    data.write_bytes(text.encode("utf-8-sig"))
    assert read_text(data, "utf-8") == text
    bad = tmp_path / "cut.jsonl"
    bad.write_text('{"id": "a", "abstract": "We cut\n')
    with pytest.raises(
        PaperchatError,
        match=r"cut\.jsonl:1: malformed JSON at column 25 \(Unterminated string starting at\)",
    ):
        load_file(bad)


def test_a_file_named_twice_is_read_once(tmp_path):
    # `ingest A.jsonl A.jsonl` reported "2 duplicates kept once"
    from paperchat.ingest.corpus import corpus_files

    a = tmp_path / "A.jsonl"
    a.write_text('{"abstract": "We study things."}\n')
    files, _ = corpus_files([a, tmp_path / "." / "A.jsonl", tmp_path])
    assert files == [a]


def test_spreadsheet_exports_as_sheets_excel_and_a_mac_write_them(tmp_path):
    # an own-corpus session: a sheet's empty row (",,,") stopped the ingest ("no abstract"), a Mac's
    # "CSV (Macintosh)" (rows ending in "\r" alone) was one malformed line, and a cell over the csv module's
    # 131,072 characters refused the whole file
    from paperchat.ingest.corpus import MAX_ABSTRACT_CHARS, load_file

    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "title,abstract,url\r\nA,We study cats.,\r\n,,\r\nB,We study dogs.,\r\n, ,\r\n", "utf-8"
    )
    papers, report = load_file(sheet)
    assert [(p.title, p.source_index) for p in papers] == [("A", 1), ("B", 2)]
    assert report.skipped == []
    mac = tmp_path / "mac.csv"
    mac.write_text("title;abstract\rA;We study cats.\rB;We study dogs.\r", "utf-8")
    assert [p.abstract for p in load_file(mac)[0]] == ["We study cats.", "We study dogs."]
    huge = tmp_path / "huge.csv"
    huge.write_text('title,abstract\nH,"' + "We study cats. " * 12_000 + '"\nS,Small.\n', "utf-8")
    big, small = load_file(huge)[0]
    assert len(big.abstract) <= MAX_ABSTRACT_CHARS and small.abstract == "Small."


@pytest.mark.parametrize(
    "column", ["Conference Name", "Publication Title", "booktitle", "journal", "container-title"]
)
def test_a_reference_managers_venue_column_is_the_venue(tmp_path, column):
    # an own-corpus session: Zotero's "Conference Name" and "Publication Title" were dropped, so
    # --venue ICLR matched none of its rows
    from paperchat.ingest.corpus import load_file
    from paperchat.ingest.venue import publication

    rows = tmp_path / "zotero.jsonl"
    rows.write_text(
        json.dumps({"title": "LoRA", "abstract": "We adapt models.", column: "ICLR"})
        + "\n"
        + json.dumps({"title": "X", "abstract": "We list.", column: ["not", "text"]})
        + "\n",
        "utf-8",
    )
    lora, listed = load_file(rows)[0]
    assert publication(lora.extra, rows.name)[0] == "ICLR"
    assert publication(listed.extra, rows.name)[0] == ""  # a list is no venue, and no error


def test_windows_bytes_are_told_cp1252_wherever_they_are(tmp_path):
    # an own-corpus session: "ß" before the first dash was told latin-1, which then kept "\x96" as the dash
    from paperchat.ingest.text_files import NothingReadable, read_text

    excel = tmp_path / "excel.csv"
    excel.write_bytes("title;abstract\nStraße;Kalibrierung – ein „Überblick“.\n".encode("cp1252"))
    with pytest.raises(NothingReadable, match=r"e\.g\. --encoding cp1252$"):
        read_text(excel)
    with pytest.raises(NothingReadable, match=r"byte 35 is 0x96, .*; pass --encoding cp1252$"):
        read_text(excel, "latin-1")
    assert "„Überblick“" in read_text(excel, "cp1252")


def test_a_json_array_saved_as_jsonl_says_so(tmp_path):
    # an own-corpus session: a pretty-printed array read "malformed JSON at column 2 (Expecting value)"
    from paperchat.ingest.corpus import load_file

    array = tmp_path / "papers.jsonl"
    array.write_text('[\n  {"title": "A", "abstract": "We study cats."}\n]\n', encoding="utf-8")
    with pytest.raises(PaperchatError) as err:
        load_file(array)
    assert str(err.value) == (
        f"{array}: holds a JSON array, not JSON lines; write one object per line "
        "(e.g. `jq -c '.[]' papers.jsonl > papers-lines.jsonl`)"
    )
