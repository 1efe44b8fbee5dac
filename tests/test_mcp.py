"""``paperchat mcp``: the real server started as a subprocess, driven with the MCP SDK's own stdio client."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import anyio
import pytest
from conftest import ROOT, SECOND_VENUE
from mcp import Client, MCPError, StdioServerParameters
from openai_stub import Reply, StubServer
from test_filters import run

CONFPO = "p-abe9274a3783"
TOOLS = {"search_papers", "ask", "get_paper", "summarize", "list_papers", "get_bibtex"}
ABSTENTION = "The indexed abstracts do not contain an answer to this question."


def server(store, **env: str) -> StdioServerParameters:
    """How a host starts the server: ``paperchat --store STORE mcp`` (the child gets only the variables named here)."""
    env.update(
        PYTHONPATH=str(ROOT / "src"),
        ANONYMIZED_TELEMETRY="False",
        HF_HUB_OFFLINE="1",
        PAPERCHAT_CONFIG=os.environ["PAPERCHAT_CONFIG"],
    )
    return StdioServerParameters(
        command=sys.executable, args=["-m", "paperchat", "--store", str(store), "mcp"], env=env
    )


def text(result) -> str:
    return result.content[0].text


def test_tools_resources_and_errors(two_venue_store):
    question = "What does ConfPO use to pick preference-critical tokens?"
    cli = json.loads(run(two_venue_store, "ask", question, "--json").stdout)

    async def session():
        async with Client(server(two_venue_store)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == TOOLS
            for tool in tools.values():
                assert len(tool.description) > 80 and tool.annotations.read_only_hint
            assert set(tools["ask"].input_schema["properties"]) == {
                "question",
                "top_k",
                "mode",
                "filters",
            }
            assert tools["ask"].input_schema["required"] == ["question"]
            assert set(tools["list_papers"].input_schema["properties"]) == {
                "filters",
                "limit",
                "offset",
            }

            ask = await client.call_tool("ask", {"question": question})
            assert not ask.is_error and ask.structured_content == json.loads(text(ask))
            assert (
                ask.structured_content["sources"] == cli["sources"]
                and ask.structured_content["answer"] == cli["answer"]
            )

            search = await client.call_tool(
                "search_papers", {"query": "preference-critical tokens", "top_k": 3}
            )
            first = search.structured_content["results"][0]
            assert (
                first["paper_id"] == CONFPO and first["venue"] == "ICML" and first["year"] == 2025
            )
            assert "preference-critical tokens" in first["sentence"]

            paper = await client.call_tool("get_paper", {"paper_id": CONFPO})
            assert paper.structured_content["title"].startswith(
                "ConfPO: Exploiting Policy Model Confidence"
            )
            assert paper.structured_content["abstract"].startswith("We introduce ConfPO")

            summary = await client.call_tool("summarize", {"target": "ConfPO"})
            assert summary.structured_content["target"] == "ConfPO"
            assert [s["paper_id"] for s in summary.structured_content["sources"]] == [CONFPO]

            bib = await client.call_tool("get_bibtex", {"paper_ids": [CONFPO]})
            assert bib.structured_content["bibtex"].startswith("@inproceedings{")
            assert (
                'title = "{ConfPO}: Exploiting Policy Model Confidence'
                in bib.structured_content["bibtex"]
            )
            # an id copied with spaces and a newline, as get_paper reads it (an agent's session: "no paper with id")
            padded = await client.call_tool("get_bibtex", {"paper_ids": [f" {CONFPO}\n"]})
            assert padded.structured_content["bibtex"] == bib.structured_content["bibtex"]
            too_many = await client.call_tool("list_papers", {"limit": 500})
            assert too_many.is_error and "less than or equal to 100" in text(too_many)

            page = await client.call_tool(
                "list_papers", {"limit": 2, "offset": 1, "filters": {"venue": "neurips"}}
            )
            assert (
                page.structured_content["total"] == 4
                and len(page.structured_content["papers"]) == 2
            )
            filtered = await client.call_tool(
                "ask",
                {
                    "question": "How can a backdoor be removed from a model?",
                    "top_k": 3,
                    "filters": {"year": 2024},
                },
            )
            assert {r["paper_id"] for r in filtered.structured_content["retrieved"]} <= set(
                SECOND_VENUE
            )

            abstains = await client.call_tool(
                "ask", {"question": "What is the boiling point of ethanol?"}
            )
            assert abstains.structured_content["abstained"] is True
            assert (
                abstains.structured_content["answer"] == ABSTENTION
                and abstains.structured_content["sources"] == []
            )

            bad = await client.call_tool("get_paper", {"paper_id": "p-000000000000"})
            assert bad.is_error and text(bad) == (
                "error: no paper with id p-000000000000 in the store; the list_papers tool lists them"
            )
            nothing = await client.call_tool(
                "search_papers", {"query": "backdoors", "filters": {"venue": "AAAI"}}
            )
            assert (
                nothing.is_error
                and text(nothing)
                == 'error: no paper matches --venue "AAAI" (stored venues: ICML, NeurIPS)'
            )
            empty = await client.call_tool("ask", {"question": "   "})
            assert empty.is_error and text(empty).startswith("error: ")
            schema = await client.call_tool("ask", {"question": "x", "top_k": 0})
            # refused against the schema (1 <= top_k <= 50) before paperchat runs, in one line
            assert schema.is_error and text(schema) == (
                "error: top_k: input should be greater than or equal to 1 (got 0)"
            )
            many = await client.call_tool("search_papers", {"query": "x", "top_k": 51})
            assert text(many) == "error: top_k: input should be less than or equal to 50 (got 51)"
            missing = await client.call_tool("ask", {})
            assert text(missing) == "error: question: field required"
            # a mistyped filter key is refused, not dropped (dropped, the search ran unfiltered)
            typo = await client.call_tool(
                "search_papers", {"query": "backdoor", "filters": {"venu": "ICML"}}
            )
            assert typo.is_error and text(typo).startswith("error: filters.venu: ")
            # so is a filter given beside "filters", and a number given as text or a boolean (a newcomer's
            # break-it session: both ran, unfiltered and coerced)
            beside = await client.call_tool("search_papers", {"query": "graphs", "venue": "ACL"})
            assert text(beside) == (
                "error: venue: not an argument of this tool (its arguments: query, top_k, filters)"
            )
            loose = await client.call_tool("ask", {"question": "x", "top_k": "3"})
            assert text(loose) == 'error: top_k: input should be a whole number (got "3")'
            flag = await client.call_tool("search_papers", {"query": "x", "top_k": True})
            assert text(flag) == "error: top_k: input should be a whole number (got true)"
            # a float, even a whole one, is refused as the Python API refuses it (break-it: 2.0 ran as 2)
            real = await client.call_tool("search_papers", {"query": "x", "top_k": 2.0})
            assert text(real) == "error: top_k: input should be a whole number (got 2.0)"
            year = await client.call_tool("list_papers", {"filters": {"year": "2025"}})
            assert year.is_error and text(year).startswith("error: filters.year: ")
            blank = await client.call_tool("ask", {"question": "x", "filters": {"author": ""}})
            assert text(blank) == "error: author is empty; leave it out to search every paper"

            templates = (await client.list_resource_templates()).resource_templates
            assert [t.uri_template for t in templates] == ["paper://{paper_id}"]
            read = await client.read_resource(f"paper://{CONFPO}")
            body = read.contents[0].text
            assert (
                body.startswith("# ConfPO: Exploiting")
                and "Venue: ICML 2025" in body
                and f"Paper id: {CONFPO}" in body
            )
            with pytest.raises(MCPError) as missing:
                await client.read_resource("paper://p-000000000000")
            assert missing.value.error.message == (
                "error: no paper with id p-000000000000 in the store; the list_papers tool lists them"
            )

    anyio.run(session)


def test_ask_with_an_llm_returns_per_sentence_checks(bundled_store):
    """With an LLM configured on the server (the loopback stub), ask gives the LLM contract: every sentence checked."""
    with StubServer() as llm:
        llm.script(
            Reply(
                "ConfPO picks tokens by the training policy's confidence [1]. It is 95% faster [1]."
            )
        )

        async def session():
            async with Client(
                server(
                    bundled_store,
                    OPENAI_BASE_URL=llm.base_url,
                    PAPERCHAT_LLM_MODEL="stub-model",
                    PAPERCHAT_MAX_RETRIES="0",
                )
            ) as client:
                return (
                    await client.call_tool(
                        "ask", {"question": "What does ConfPO use to pick tokens?"}
                    )
                ).structured_content

        answer = anyio.run(session)
    assert answer["mode"] == "llm" and answer["model"] == "stub-model"
    assert [s["paper_id"] for s in answer["sources"]] == [CONFPO]
    assert [(s["citations"], s["supported"]) for s in answer["sentences"]] == [
        ([1], True),
        ([1], False),
    ]
    assert answer["sentences"][1]["missing"] == [
        "95"
    ]  # the number the cited abstract does not hold


def test_a_store_that_does_not_exist(tmp_path):
    async def session():
        async with Client(server(tmp_path / "nowhere")) as client:
            with pytest.raises(MCPError) as err:
                await client.call_tool("ask", {"question": "What is ConfPO?"})
            assert err.value.error.code == -32603
            assert (
                err.value.error.message == f"error: no store at {tmp_path / 'nowhere'}; run "
                f"`paperchat --store {(tmp_path / 'nowhere').resolve()} ingest` first"
            )

    anyio.run(session)
    assert not (tmp_path / "nowhere").exists()  # nothing was created


def test_nothing_but_protocol_on_stdout(bundled_store):
    """Raw JSON-RPC over the pipes: every stdout line is a JSON-RPC message, while the model loads and answers too."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "paperchat", "--store", str(bundled_store), "mcp"],
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    lines: list[str] = []

    def call(message: dict) -> dict | None:
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        if "id" not in message:
            return None
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "no answer within 120 s"
        lines.append(proc.stdout.readline())
        return json.loads(lines[-1])

    try:
        call(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
        )
        call({"jsonrpc": "2.0", "method": "notifications/initialized"})
        ask = call(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {
                    "name": "ask",
                    "arguments": {"question": "How does CROW remove backdoors?"},
                },
            }
        )
        listing = call(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "list_papers", "arguments": {}},
            }
        )
    finally:
        rest, _err = proc.communicate(timeout=60)  # closes stdin: the server ends
    lines += rest.splitlines(keepends=True)
    assert proc.returncode == 0
    assert [json.loads(line).get("id") for line in lines] == [
        1,
        2,
        3,
    ]  # every line parses: nothing else was printed
    assert ask["result"]["structuredContent"]["sources"][0]["paper_id"] == "p-f951bc7f7256"
    assert listing["result"]["structuredContent"]["total"] == 38
