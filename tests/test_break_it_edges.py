"""Edges a newcomer's break-it session found (issue 17's twenty-fourth round): empty filter flags, a --bibtex
file in a folder that does not exist, a store path that is a file, and an ingest whose every line was skipped.
Each is a one-line error and a non-zero exit, before any work is done."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from paperchat.cli import cli


def invoke(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env or {})


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--author", ""], "--author is empty; leave it out to search every paper"),
        (["--venue", "  "], "--venue is empty; leave it out to search every paper"),
        (["--paper", " "], "--paper is empty; give a paper id (`paperchat papers` lists them)"),
    ],
)
def test_an_empty_filter_flag_is_an_error_not_every_paper(bundled_store, flags, message):
    out = invoke("--store", str(bundled_store), "papers", *flags)
    assert out.exit_code == 1 and str(out.exception) == message


def test_a_bibtex_file_in_a_missing_folder_is_refused_before_the_answer(bundled_store, tmp_path):
    target = tmp_path / "nodir" / "refs.bib"
    out = invoke("--store", str(bundled_store), "ask", "What is ConfPO?", "--bibtex", str(target))
    assert out.exit_code == 2 and "ConfPO" not in out.stdout  # no answer printed, then a failure
    assert f"Invalid value for '--bibtex': {target}: its folder {target.parent} does not exist" in (
        out.output
    )


def test_a_store_path_that_is_a_file_says_so(tmp_path):
    path = tmp_path / "store.txt"
    path.write_text("not a store")
    for command in ("papers", "check"):
        out = invoke(command, env={"PAPERCHAT_STORE": str(path)})
        assert out.exit_code == 1
        assert str(out.exception) == f"store path {path} exists and is not a folder"


def test_a_store_is_not_made_in_a_folder_of_other_files(tmp_path):
    # a notebook session: Paperchat(folder).ingest() wrote chroma/ and lock files beside the folder's notes.md
    # (and a writer tidies a "snapshot/" of its own there)
    from paperchat.core.errors import StoreError
    from paperchat.store.opening import check_folder

    mine = tmp_path / "mine"
    mine.mkdir()
    for name in ("notes.md", "snapshot", ".hidden"):
        (mine / name).write_text("keep me")
    with pytest.raises(StoreError) as err:
        check_folder(mine, create=True)
    assert str(err.value) == (
        f"the folder {mine} holds no store but other files (notes.md, snapshot); a store needs a new or "
        "empty folder of its own"
    )
    assert sorted(p.name for p in mine.iterdir()) == [".hidden", "notes.md", "snapshot"]
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "write.lock").write_text("")  # what a first ingest stopped at once leaves
    check_folder(empty, create=True)


def test_an_ingest_whose_every_line_was_skipped_says_which_and_why(tmp_path):
    from paperchat.core.errors import PaperchatError
    from paperchat.ingest.corpus import load_file

    path = tmp_path / "years.jsonl"
    path.write_text(
        '{"id": "y1", "abstract": "Fine. Yes.", "year": "twenty"}\n{"id": "y2", "abstract": ""}\n'
    )
    with pytest.raises(PaperchatError) as err:
        load_file(path, on_error="skip")
    assert str(err.value) == (
        f"{path}: no line could be read; line 1: malformed record ('year' must be a year such as 2025, "
        "not 'twenty') (and 1 more)"
    )


def test_a_config_path_that_is_a_folder_says_so(tmp_path):
    out = invoke("config", env={"PAPERCHAT_CONFIG": str(tmp_path)})
    assert out.exit_code == 1
    assert str(out.exception) == f"config file {tmp_path} is a folder; name a TOML file"


def test_history_of_an_unknown_conversation_names_it(tmp_path):
    from paperchat.chat.history import HistoryLog, history_path

    (tmp_path / "store").mkdir()
    log = HistoryLog(history_path(tmp_path / "store"))
    log.log_turn("c1", 1, {"question": "What is ConfPO?", "answer": "A method [1].", "sources": []})
    log.close()
    out = invoke("--store", str(tmp_path / "store"), "history", "-c", "nope")
    assert out.exit_code == 0 and "in conversation 'nope'" in out.output


def test_metadata_rows_that_match_no_paper_are_noted(tmp_path):
    corpus = tmp_path / "m.jsonl"
    corpus.write_text('{"id": "m1", "abstract": "We prune graphs by saliency. Accuracy holds."}\n')
    meta = tmp_path / "meta.jsonl"
    meta.write_text(
        '{"file": "m.jsonl", "index": 1, "title": "Graph pruning"}\n'
        '{"file": "other.jsonl", "index": 1, "title": "Elsewhere"}\n'
    )
    out = invoke("--store", str(tmp_path / "s"), "ingest", str(corpus), "--metadata", str(meta))
    assert out.exit_code == 0, out.output
    assert (
        f"note: {meta}: 1 of 2 metadata rows matched no paper (a row names its paper by file name "
        "and position)"
    ) in out.output


def test_a_very_long_paper_id_does_not_pad_the_papers_table():
    from paperchat.cli.render import render_papers
    from paperchat.ingest.records import PaperRecord

    long_id = "x" * 5000
    table = render_papers(
        [PaperRecord(long_id, title="Long", source_path="a.jsonl", source_index=1)]
    )
    first_row = table.splitlines()[1]
    assert first_row.startswith("x" * 39 + "…  Long") and len(first_row) < 80


@pytest.mark.parametrize(
    ("args", "setting"),
    [
        (["ask", "What is ConfPO?", "--base-url", ""], "llm_base_url"),
        (["--chroma-url", "", "ask", "What is ConfPO?"], "chroma_url"),
    ],
)
def test_an_empty_url_flag_is_an_error_not_the_default(tmp_path, args, setting):
    # `--base-url ""` silently meant "no server" (the offline answer), `--chroma-url ""` the local store
    out = invoke("--store", str(tmp_path / "s"), *args)
    assert out.exit_code == 1
    assert str(out.exception) == (
        f"setting {setting} from flag: an empty value; leave it out to use the default"
    )


def test_a_chroma_url_whose_host_does_not_resolve_says_so(monkeypatch):
    # `--chroma-url notaurl` reads as the host "notaurl": the error names the host, not only "could not connect"
    import socket

    from paperchat.store.failures import StoreUnavailable
    from paperchat.store.opening import open_store

    def no_such_host(host, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    with pytest.raises(StoreUnavailable) as err:
        open_store(chroma_url="notaurl")
    assert str(err.value) == (
        "cannot reach the Chroma server at notaurl: no host named 'notaurl' (Name or service not known); "
        "give the server's address as http://HOST:PORT (`chroma run` serves http://localhost:8000)"
    )


def test_a_store_flag_beats_a_chroma_url_from_the_environment(tmp_path, monkeypatch):
    # with PAPERCHAT_CHROMA_URL exported, `--store DIR ingest --rebuild` had rebuilt the shared server
    from paperchat.core.errors import PaperchatError
    from paperchat.core.settings import load_settings

    monkeypatch.setenv("PAPERCHAT_CHROMA_URL", "http://127.0.0.1:8000")
    settings = load_settings({"store": str(tmp_path)})
    assert settings.chroma_url is None and settings.store_path == tmp_path
    assert settings.origins["chroma_url"] == "ignored: --store beats env:PAPERCHAT_CHROMA_URL"
    assert load_settings({}).chroma_url == "http://127.0.0.1:8000"
    with pytest.raises(PaperchatError, match="^--store and --chroma-url name two stores; give one"):
        load_settings({"store": str(tmp_path), "chroma_url": "http://127.0.0.1:8000"})
    # an operator's PAPERCHAT_STORE beside PAPERCHAT_CHROMA_URL: the server had answered silently
    monkeypatch.setenv("PAPERCHAT_STORE", str(tmp_path))
    with pytest.raises(PaperchatError) as caught:
        load_settings({})
    assert str(caught.value) == (
        "PAPERCHAT_STORE and PAPERCHAT_CHROMA_URL name two stores (a folder and a Chroma server); "
        "give one of them"
    )
    # the environment beats the config file
    config = tmp_path / "config.toml"
    config.write_text('chroma_url = "http://127.0.0.1:9000"\n', encoding="utf-8")
    monkeypatch.delenv("PAPERCHAT_CHROMA_URL")
    monkeypatch.setenv("PAPERCHAT_CONFIG", str(config))
    settings = load_settings({})
    assert settings.chroma_url is None and settings.store_path == tmp_path
    assert settings.origins["chroma_url"] == f"ignored: env:PAPERCHAT_STORE beats file:{config}"


def test_a_config_file_with_a_bom_and_a_relative_store_path(tmp_path, monkeypatch):
    # a file saved by Windows Notepad starts with a BOM; a relative store is the file's folder's, not the
    # folder each command runs in (which gave every folder its own store and its own first-run ingest)
    from paperchat.core.settings import load_settings

    config = tmp_path / "conf" / "config.toml"
    config.parent.mkdir()
    config.write_text('store = "stores/main"\ntop_k = 7\n', encoding="utf-8-sig")
    monkeypatch.setenv("PAPERCHAT_CONFIG", str(config))
    monkeypatch.chdir(tmp_path)
    settings = load_settings({})
    assert settings.top_k == 7 and settings.store_path == tmp_path / "conf" / "stores" / "main"


def test_a_bad_config_file_value_is_said_even_when_the_environment_overrides_it(
    tmp_path, monkeypatch
):
    # "every value is checked the same way wherever it comes from": PAPERCHAT_TOP_K had hidden top_k = 3.7
    from paperchat.core.errors import PaperchatError
    from paperchat.core.settings import load_settings

    config = tmp_path / "config.toml"
    config.write_text("top_k = 3.7\n", encoding="utf-8")
    monkeypatch.setenv("PAPERCHAT_CONFIG", str(config))
    monkeypatch.setenv("PAPERCHAT_TOP_K", "4")
    with pytest.raises(
        PaperchatError, match=rf"setting top_k from file:{config}: 3.7 is not a valid int"
    ):
        load_settings({})


def test_a_servers_url_spellings_share_one_name_and_a_path_or_bad_port_is_refused():
    # 127.0.0.1, localhost and a trailing slash were three write locks for one server; a path was dropped
    from paperchat.core.errors import StoreError
    from paperchat.store.opening import server_key

    spellings = [
        "http://127.0.0.1:8000",
        "http://localhost:8000/",
        "localhost:8000",
        "http://[::1]:8000",
    ]
    assert {server_key(url) for url in spellings} == {"http://loopback:8000"}
    assert server_key("https://Chroma.Example.org") == "https://chroma.example.org:443"
    for url, why in [
        (
            "http://127.0.0.1:8000/teamA",
            "a server holds one paperchat store, reached without a path or credentials",
        ),
        (
            "http://u:pw@127.0.0.1:8000",
            "a server holds one paperchat store, reached without a path or credentials",
        ),
        ("http://127.0.0.1:notaport", "its port is not a number from 1 to 65535"),
    ]:
        with pytest.raises(StoreError) as err:
            server_key(url)
        assert (
            str(err.value) == f"--chroma-url {url!r} is not an http(s)://HOST:PORT address: {why}"
        )


def test_an_8_bit_encoding_is_for_the_files_that_are_not_utf8(tmp_path):
    # `ingest --encoding latin-1 FOLDER` had read the folder's UTF-8 files as Latin-1: "RÃ©sumÃ©"
    from paperchat.ingest.text_files import read_text

    utf8, latin = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    utf8.write_text('{"id": "u1", "abstract": "Résumé parsing, naïvely."}\n', encoding="utf-8")
    latin.write_text('{"id": "u1", "abstract": "Résumé parsing, naïvely."}\n', encoding="latin-1")
    assert read_text(utf8, "latin-1") == read_text(latin, "latin-1") == read_text(utf8)
    assert "Résumé" in read_text(utf8, "latin-1")


@pytest.mark.integration
def test_an_empty_file_in_a_folder_is_skipped_with_on_error_skip(tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.jsonl").write_text(
        '{"id": "a1", "abstract": "We count quokkas from drone images with a small detector."}\n',
        encoding="utf-8",
    )
    (folder / "empty.jsonl").write_text("\n", encoding="utf-8")
    # and a file none of whose lines can be read (it had stopped the whole folder under --on-error skip)
    (folder / "lists.jsonl").write_text('[1, 2]\n"x"\n', encoding="utf-8")
    # and one not in UTF-8 (a break-it session: it still stopped the folder under --on-error skip)
    (folder / "latin.jsonl").write_bytes(b'{"id": "l1", "abstract": "Caf\xe9 counting."}\n')
    store = str(tmp_path / "store")
    stopped = invoke("--store", store, "ingest", str(folder))
    assert (
        stopped.exit_code == 1
        and str(stopped.exception) == f"{folder / 'empty.jsonl'}: file is empty"
    )
    out = invoke("--store", store, "ingest", str(folder), "--on-error", "skip", "--json")
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["papers_added"] == 1 and report["lines_skipped"] == [
        f"{folder / 'empty.jsonl'}: file is empty",
        f"{folder / 'latin.jsonl'}: not UTF-8 text (byte 29 is 0xe9); if the file is in another encoding, "
        "say which with --encoding, e.g. --encoding latin-1",
        f"{folder / 'lists.jsonl'}: no line could be read; line 1: malformed record (not a JSON object) "
        "(and 1 more)",
    ]


def test_a_semicolon_or_tab_csv_is_read_and_authors_may_be_objects(tmp_path):
    # European Excel writes ";" (with a BOM and CRLF); OpenAlex and Semantic Scholar give authors as objects
    from paperchat.ingest.corpus import load_file

    semi = tmp_path / "excel.csv"
    semi.write_bytes(
        "\ufeffid;title;authors;abstract\r\nx1;Quokkas;Ann Lee;We count quokkas, from drones.\r\n".encode()
    )
    tabs = tmp_path / "unicode.csv"
    tabs.write_text("id\ttitle\tabstract\r\nx2\tWombats\tWe count wombats.\r\n", encoding="utf-16")
    objects = tmp_path / "openalex.jsonl"
    objects.write_text(
        json.dumps(
            {"id": "x3", "abstract": "We count koalas.", "authors": [{"display_name": "Bo Chen"}]}
        ),
        encoding="utf-8",
    )
    got = [p for f in (semi, tabs, objects) for p in load_file(f)[0]]
    assert [(p.paper_id, p.abstract, p.authors) for p in got] == [
        ("x1", "We count quokkas, from drones.", ["Ann Lee"]),
        ("x2", "We count wombats.", []),
        ("x3", "We count koalas.", ["Bo Chen"]),
    ]


def test_a_csv_authors_cell_holding_a_list_is_read_as_the_list(tmp_path):
    # df.to_csv writes a list column as JSON or as Python's repr; it had been stored as '["Min Chen"' ...
    from paperchat.ingest.corpus import load_file

    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "id,authors,abstract\n"
        'y1,"[""Min Chen"", ""Guansong Pang""]",We count quokkas.\n'
        "y2,\"['Ann Lee', 'Bo Chen']\",We count wombats.\n",
        encoding="utf-8",
    )
    papers, _ = load_file(sheet)
    assert [p.authors for p in papers] == [["Min Chen", "Guansong Pang"], ["Ann Lee", "Bo Chen"]]


def test_a_chroma_server_that_does_not_answer_is_explained():
    # a web page from another server, a bare exception name and an https URL to a plain-http server had
    # been shown as they came ("<!DOCTYPE HTML>", "ValueError", "Could not connect ...")
    import httpx

    from paperchat.store.failures import unreachable

    page = ValueError("<!DOCTYPE HTML>\n<html>")
    assert unreachable("http://127.0.0.1:9", page) == (
        "cannot reach the Chroma server at http://127.0.0.1:9: something answered, but not a Chroma "
        "server (an HTML page): check the port"
    )
    assert unreachable("http://10.255.255.1:8000", ValueError()) == (
        "cannot reach the Chroma server at http://10.255.255.1:8000: no answer (ValueError)"
    )
    assert unreachable("https://127.0.0.1:9", httpx.ConnectError("Could not connect")).endswith(
        "Could not connect; if the server speaks plain HTTP (as `chroma run` does), write http://"
    )


def test_ids_that_are_no_whole_number_and_abstracts_without_words_are_malformed(tmp_path):
    from paperchat.core.errors import PaperchatError
    from paperchat.ingest.corpus import load_file

    for line, why in [
        (
            '{"id": 1.5, "abstract": "We count quokkas."}',
            "'id' must be text or a whole number, not 1.5",
        ),
        ('{"id": "p1", "abstract": "..."}', "no words in the abstract '...'"),
    ]:
        path = tmp_path / "one.jsonl"
        path.write_text(line + "\n", encoding="utf-8")
        with pytest.raises(PaperchatError) as err:
            load_file(path)
        assert why in str(err.value)


def test_a_tab_separated_txt_with_an_abstract_column_is_a_table_not_one_abstract(tmp_path):
    # Excel's "Unicode Text" export (UTF-16, tabs) saved as .txt had become one paper of four papers' rows
    from paperchat.ingest.corpus import load_file

    path = tmp_path / "excel.txt"
    path.write_text(
        "id\ttitle\tabstract\r\nx1\tQuokkas\tWe count quokkas.\r\nx2\tWombats\tWe count wombats.\r\n",
        encoding="utf-16",
    )
    assert [(p.paper_id, p.abstract) for p in load_file(path)[0]] == [
        ("x1", "We count quokkas."),
        ("x2", "We count wombats."),
    ]


def test_history_of_a_store_that_does_not_exist_says_so(tmp_path):
    out = invoke("--store", str(tmp_path / "nostore"), "history")
    assert out.exit_code == 1
    assert str(out.exception) == (
        f"no store at {tmp_path / 'nostore'}: no chat history there "
        f"(`paperchat --store {(tmp_path / 'nostore').resolve()} ingest FILES` creates one of your files; without FILES, of the bundled corpus)"
    )
    assert not (tmp_path / "nostore").exists()


def test_a_seed_text_file_without_a_header_keeps_its_first_abstract(tmp_path):
    # a notes file of abstracts with no header line had lost its first abstract to the header, silently
    from paperchat.ingest.corpus import load_file

    first = "We study equivariant kernels for vector-valued Gaussian processes. " * 4
    notes = tmp_path / "notes.txt"
    notes.write_text(f"{first}\n\nWe prune graphs by saliency.\n", encoding="utf-8")
    papers, report = load_file(notes)
    assert [p.abstract for p in papers] == [first.strip(), "We prune graphs by saliency."]
    assert report.notes == [
        f"{notes}: the first line ({len(first.strip())} characters) is an abstract, not a header line; "
        "it is read as the first paper"
    ]
    # a title line is still the header, as in the bundled seed files
    titled = tmp_path / "titled.txt"
    titled.write_text(
        "My reading list, December\n\nWe prune graphs by saliency.\n", encoding="utf-8"
    )
    assert [p.abstract for p in load_file(titled)[0]] == ["We prune graphs by saliency."]


def test_years_as_pandas_and_dates_write_them_are_read(tmp_path):
    # a break-it session: df.to_csv writes a year column with a gap as "2019.0", and dates as "2019-05-01";
    # both had been refused
    from paperchat.ingest.corpus import load_file

    path = tmp_path / "pandas.csv"
    path.write_text(
        "id,title,abstract,year\n"
        "a,One,First abstract here.,2019.0\n"
        "b,Two,Second abstract here.,2021-05-01\n"
        "c,Three,Third abstract here.,\n",
        encoding="utf-8",
    )
    from paperchat.ingest.records import PaperRecord

    papers, _report = load_file(path)
    assert [PaperRecord.from_paper(p).year for p in papers] == [2019, 2021, None]


def test_an_author_column_is_the_authors(tmp_path):
    # a break-it session: a CSV column named "author" (as BibTeX names the field) was dropped without a word
    from paperchat.ingest.corpus import load_file

    path = tmp_path / "refs.csv"
    path.write_text(
        'title,Author,abstract\nAttention,"Vaswani, Ashish; Shazeer, Noam",We propose a model.\n',
        encoding="utf-8",
    )
    papers, _report = load_file(path)
    assert papers[0].authors == ["Ashish Vaswani", "Noam Shazeer"]
    assert "author" not in papers[0].extra


def test_ctrl_c_while_the_command_line_loads_is_no_traceback(monkeypatch, capsys):
    # a break-it session: Ctrl-C in the first 0.15 s (while `import click` ran) printed a traceback
    import sys
    import types

    from paperchat import entry

    class Loading(types.ModuleType):
        def __getattr__(self, name):
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "paperchat.cli", Loading("paperchat.cli"))
    assert entry.main() == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_a_chroma_server_that_accepts_and_never_replies_fails_within_the_wait(
    monkeypatch, tmp_path
):
    # a break-it session: a server that accepted the connection and never replied (a stopped `chroma run`,
    # SIGSTOP) hung every command: chromadb's HTTP client waits forever
    import socket
    import time

    from paperchat.core.errors import StoreError
    from paperchat.store.opening import open_store

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    url = f"http://127.0.0.1:{silent.getsockname()[1]}"
    monkeypatch.setenv("PAPERCHAT_CHROMA_TIMEOUT", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    started = time.monotonic()
    try:
        with pytest.raises(StoreError) as failed:
            open_store(chroma_url=url)
    finally:
        silent.close()
    assert str(failed.value) == (
        f"cannot reach the Chroma server at {url}: no answer within 1 s (a stopped or overloaded server; "
        "PAPERCHAT_CHROMA_TIMEOUT sets the wait)"
    )
    assert time.monotonic() - started < 30


def test_a_lease_left_by_a_writer_of_this_machine_that_exited_is_stale():
    # a break-it session: the server went away mid-ingest, the writer exited, and the resume it was told to
    # run was refused for five minutes ("another paperchat process (pid ... on this host) is writing")
    import os
    import socket
    import subprocess
    import sys

    from paperchat.store.lease import _gone

    exited = subprocess.Popen([sys.executable, "-c", "pass"])
    exited.wait()
    here = socket.gethostname()
    assert _gone(here, str(exited.pid))
    assert not _gone(here, str(os.getpid()))  # still running
    assert not _gone(
        "lab-box-2", str(exited.pid)
    )  # another machine's process is never known to be gone


def test_a_lease_another_writer_holds_or_took_is_named():
    # a server session: `check` on another machine called a live ingest there "interrupted" (exit 1), and a
    # writer stopped past its lease, then resumed, went on writing beside the one that took the store
    import time
    from types import SimpleNamespace

    from paperchat.store.lease import lost_to, other_writer

    def store(lease: str):
        return SimpleNamespace(read_meta=lambda: {"writer_lease": lease})

    live = store(f"theirs|lab-box-2|4242|{time.time() + 300}")
    assert other_writer(live) == "pid 4242 on lab-box-2"
    assert other_writer(live, "theirs") is None  # its own lease
    assert other_writer(store(f"theirs|lab-box-2|4242|{time.time() - 1}")) is None  # expired
    assert other_writer(store("")) is None
    assert lost_to(live, "mine") == "pid 4242 on lab-box-2"
    assert lost_to(live, "theirs") is None and lost_to(store(""), "mine") is None


def test_a_chroma_server_of_another_major_version_is_named_as_such():
    # a break-it session: a chromadb 0.6.3 server answered the heartbeat, then every call failed with a raw
    # "InvalidCollection" error that `check` reported as a damaged store
    from types import SimpleNamespace

    import chromadb

    from paperchat.store.failures import StoreUnavailable
    from paperchat.store.opening import _same_major_version

    url = "http://127.0.0.1:8741"
    with pytest.raises(StoreUnavailable) as old:
        _same_major_version(SimpleNamespace(get_version=lambda: "0.6.3"), url)
    major = chromadb.__version__.split(".")[0]
    assert str(old.value) == (
        f"the Chroma server at {url} runs chromadb 0.6.3, and paperchat's client is chromadb "
        f"{chromadb.__version__}: run a server of chromadb {major}.x (`chroma run` from paperchat's own install)"
    )
    _same_major_version(
        SimpleNamespace(get_version=lambda: f"{major}.0.0"), url
    )  # the same major: fine


def test_a_chroma_server_is_never_filled_with_the_bundled_corpus_unasked():
    # a break-it session: a server restarted empty (a wrong --path) was filled with the 38 bundled papers by
    # the next `ask`, which answered from them with exit status 0
    from types import SimpleNamespace

    from paperchat.engine.ingesting import ensure_corpus

    def never(*_a, **_k):
        raise AssertionError("a server's store was opened to be filled")

    engine = SimpleNamespace(
        settings=SimpleNamespace(chroma_url="http://127.0.0.1:8000"), open_store=never
    )
    assert ensure_corpus(engine) is None


def test_an_operators_own_files_capitalised_fields_entities_windows_text_and_author_forms(tmp_path):
    # an operator's session: {"Title", "Abstract"} had no abstract (a CSV header's case was free),
    # "Cats &amp; Dogs" stayed escaped, a Windows-1252 file was told to use latin-1 (which stores its
    # curly quotes as control characters), and "Smith, Alice" was two authors
    from paperchat.ingest.authors import author_list
    from paperchat.ingest.corpus import load_file
    from paperchat.ingest.text_files import NothingReadable, read_text

    caps = tmp_path / "caps.jsonl"
    caps.write_text(
        json.dumps(
            {
                "Title": "Cats &amp; Dogs &#233;t&eacute;",
                "Abstract": "We sort cats &amp; dogs &mdash; fast.",
                "Authors": "Smith, Alice",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    (paper,) = load_file(caps)[0]
    assert (paper.title, paper.abstract, paper.authors) == (
        "Cats & Dogs été",
        "We sort cats & dogs — fast.",
        ["Alice Smith"],
    )
    windows = tmp_path / "win.csv"
    windows.write_bytes("title,abstract\n“Quoted” title,A — dash.\n".encode("cp1252"))
    with pytest.raises(NothingReadable) as caught:
        read_text(windows)
    assert str(caught.value).endswith("e.g. --encoding cp1252")
    assert author_list("Alice Smith\nBob Jones") == ["Alice Smith", "Bob Jones"]
    assert author_list(42) == [] and author_list("Smith, A. B.") == ["A. B. Smith"]
    assert author_list(["Ren&eacute;e Smith", "Bo Chen"]) == [
        "Renée Smith",
        "Bo Chen",
    ]  # a list's too
    assert author_list("Martin Luther King, Jr.") == ["Martin Luther King, Jr."]
    # JSON lines saved as .txt had become one paper of raw JSON; a CSV header too is no seed text
    from paperchat.core.errors import PaperchatError

    saved = tmp_path / "saved.txt"
    saved.write_text(caps.read_text(encoding="utf-8") * 2, encoding="utf-8")
    with pytest.raises(
        PaperchatError, match=r"saved.txt: its first line is JSONL, not seed text .*"
    ):
        load_file(saved)
    saved.write_text("title,abstract\nA,We do x.\n", encoding="utf-8")
    with pytest.raises(PaperchatError, match=r"rename it to saved.csv$"):
        load_file(saved)
    saved.write_text("Abstracts, 2025\n\nWe do x. It works.\n\nWe do y.\n", encoding="utf-8")
    assert len(load_file(saved)[0]) == 2
