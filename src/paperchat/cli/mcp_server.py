"""``paperchat mcp``: paperchat as an MCP server over stdio (the official ``mcp`` SDK), for coding agents.

Tools: ``search_papers``, ``ask``, ``get_paper``, ``summarize``,
``list_papers`` (each with a JSON schema from its type hints and a
description written for the agent); every stored paper is also a resource,
``paper://<paper id>``. ``ask`` and ``summarize`` return the ``ask --json``
contract. One :class:`~paperchat.api.Paperchat` serves every call, so the
embedding model and the store stay loaded: the first call pays the load (it
starts in the background when the client connects), later calls are warm.
Calls run one at a time.

Errors carry the CLI's one-line message (``error: ...``): a bad argument (an
unknown paper id, a filter that matches nothing, an empty question) is a tool
error the agent reads and can correct (``isError``); a store that is missing
or damaged is a protocol error (JSON-RPC ``-32603``), since no retry fixes it.
While serving, the SDK points file descriptor 1 at stderr, so nothing but
protocol reaches stdout (progress and notes go to stderr).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.types import INTERNAL_ERROR, CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paperchat import __version__
from paperchat.api import Paperchat
from paperchat.api.results import paper_listing
from paperchat.core.background import background
from paperchat.core.errors import StoreError, describe
from paperchat.core.text import MAX_QUESTION_CHARS as _MAX

#: What every tool returns: its JSON (``structuredContent``, and as text for the model), or an error line.
ToolResult = Annotated[CallToolResult, dict[str, Any]]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
QUESTION = f"The question, in words (at most {_MAX} characters)."
#: Papers list_papers and get_bibtex give at most per call: 16k tokens (hosts had cut a page of 500 off).
MAX_LISTED = 100

INSTRUCTIONS = (
    "paperchat answers questions about a local store of research-paper abstracts (by default the ICML 2025 papers) "
    "with numbered citations [n] that map to the papers, each checkable. Find papers with search_papers or "
    "list_papers, answer with ask (quote its sources; when abstained is true the abstracts hold no answer: say so, "
    "do not guess), read a paper with get_paper or the resource paper://<paper_id>, summarize with summarize, "
    "cite with get_bibtex."
)


class PaperFilters(BaseModel):
    """Which papers a tool may use; every filter given must match. An unknown key ("venu") is refused, not
    dropped: dropped, the search would run unfiltered and the agent would not know."""

    model_config = ConfigDict(extra="forbid", strict=True)  # strict: a year is a number, not "2025"

    author: str | None = Field(
        None,
        description="Words of an author's name, any case and order (e.g. 'Hinton', 'Sergey Levine').",
    )
    venue: str | None = Field(None, description="Venue, whole words, any case (e.g. 'ICML').")
    year: int | None = Field(None, ge=1000, le=2999, description="Publication year (e.g. 2025).")
    papers: list[str] | None = Field(
        None, description="Paper ids (from search_papers, list_papers or ask sources)."
    )

    def kwargs(self) -> dict[str, Any]:
        """The filters as :class:`~paperchat.api.Paperchat` keywords."""
        return {
            "author": self.author,
            "venue": self.venue,
            "year": self.year,
            "papers": self.papers,
        }


FiltersArg = Annotated[
    PaperFilters | None,
    Field(
        description="Optional: restrict to papers by author, venue, year or ids (all must match). A filter that "
        "matches no paper is an error naming it."
    ),
]
TopK = Annotated[int, Field(ge=1, le=50, description="How many papers to retrieve (1-50).")]
Mode = Annotated[
    Literal["auto", "extractive", "llm"] | None,
    Field(
        description="extractive: quote the abstracts (offline); llm: an LLM writes the answer from them (the server "
        "must have one configured); auto: the LLM when configured, else extractive. Default: the server's "
        "setting (--mode, else auto)."
    ),
]


class Failed(Exception):
    """A call that failed with a message the agent can act on (the CLI's one line)."""


class Service:
    """The warm :class:`~paperchat.api.Paperchat` behind the tools: made on first use, one call at a time,
    paperchat's errors turned into MCP errors with the CLI's one-line messages."""

    def __init__(self, make: Callable[[], Paperchat]):
        self._make = make
        self._pc: Paperchat | None = None
        self._lock = threading.Lock()

    def _client(self) -> Paperchat:
        if self._pc is None:
            self._pc = self._make()
        return self._pc

    def warm_up(self) -> None:
        """Load the store, its indexes and the embedding model now (errors wait for the first call)."""
        with self._lock:
            pc = self._client()
            pc.papers()
            pc.engine.retriever  # noqa: B018
            pc.engine.store.bm25()
            pc.engine.embedder.embed_one("warm up")

    def run(self, fn: Callable[[Paperchat], Any]) -> Any:
        """``fn(paperchat)``, under the lock. A store error raises :class:`MCPError` (a protocol error: no
        argument fixes it); any other raises :class:`Failed` with the CLI's line, ``error: ...``."""
        with self._lock:
            try:
                return fn(self._client())
            except StoreError as exc:
                raise MCPError(code=INTERNAL_ERROR, message=f"error: {describe(exc)}") from None
            except (
                Exception
            ) as exc:  # a PaperchatError, or unexpected: one line all the same, as the CLI says it
                raise Failed(f"error: {describe(exc)}") from None

    def tool(self, fn: Callable[[Paperchat], dict[str, Any]]) -> CallToolResult:
        """A tool's result: ``fn(paperchat)`` as JSON, or its error line with ``isError``."""
        try:
            data = self.run(fn)
        except Failed as exc:
            return CallToolResult(
                content=[TextContent(type="text", text=_for_agents(str(exc)))], is_error=True
            )
        text = json.dumps(data, ensure_ascii=False, indent=2)
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=data
        )

    def resource(self, fn: Callable[[Paperchat], str]) -> str:
        """A resource's text; an unknown paper is the protocol's "not found", a store error ``-32603``."""
        try:
            return self.run(fn)
        except MCPError as exc:
            raise ResourceError(exc.error.message) from None
        except Failed as exc:
            raise ResourceNotFoundError(_for_agents(str(exc))) from None


def _for_agents(message: str) -> str:
    """The CLI's one-line error with its hint as an agent follows it (a tool, not a command)."""
    return message.replace("`paperchat papers` lists them", "the list_papers tool lists them")


def paper_markdown(record) -> str:
    """A stored paper as the ``paper://`` resource shows it: title, authors, venue and year, url, id, abstract."""
    lines = [f"# {record.name}", ""]
    if record.authors:
        lines.append("Authors: " + ", ".join(record.authors))
    if record.appeared:
        lines.append(f"Venue: {record.appeared}")
    if record.url:
        lines.append(f"URL: {record.url}")
    lines += [f"Paper id: {record.paper_id}", "", record.abstract]
    return "\n".join(lines) + "\n"


class _Server(MCPServer):
    """The SDK's server, but arguments refused against a tool's schema ("top_k": 0) get the CLI's kind of
    one-line error, ``error: top_k: input should be greater than or equal to 1 (got 0)``, not pydantic's
    several-line report."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        tool = self._tool_manager.get_tool(name)
        if tool is not None and (refused := loose_arguments(tool.parameters, arguments or {})):
            raise ToolError(refused)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if not isinstance(exc.__cause__, ValidationError):
                raise
            raise ToolError(argument_errors(exc.__cause__)) from exc.__cause__


def loose_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> str:
    """The one-line error for arguments a tool's JSON ``schema`` does not take, or ``""``: a name it does not
    have (``{"venue": "ACL"}`` beside ``filters``; dropped, the call would run unfiltered) and a whole number
    given as text, a boolean or a float (``"top_k": "3"``, ``true``, ``2.0``), which pydantic's lax mode would
    coerce (the Python API refuses ``top_k=2.0`` too)."""
    props = schema.get("properties", {})
    parts = [
        f"{key}: not an argument of this tool (its arguments: {', '.join(props)})"
        for key in arguments
        if key not in props
    ]
    for key, value in arguments.items():
        kinds = {o.get("type") for o in props.get(key, {}).get("anyOf", [props.get(key, {})])}
        if "integer" in kinds and isinstance(value, (bool, str, float)):
            parts.append(f"{key}: input should be a whole number (got {json.dumps(value)[:40]})")
    return "error: " + "; ".join(parts) if parts else ""


def argument_errors(exc: ValidationError) -> str:
    """One line for a tool's refused arguments: each field, what it should be, and the value given."""
    parts = []
    for err in exc.errors():
        field = ".".join(str(part) for part in err["loc"]) or "arguments"
        msg = err["msg"][:1].lower() + err["msg"][1:]
        given = (
            f" (got {json.dumps(err['input'], default=str)[:40]})"
            if err["type"] != "missing"
            else ""
        )
        parts.append(f"{field}: {msg}{given}")
    return "error: " + "; ".join(parts)


def build_server(make: Callable[[], Paperchat]) -> MCPServer:
    """The MCP server over the :class:`Paperchat` that ``make()`` opens (on first use)."""
    service = Service(make)

    @asynccontextmanager
    async def lifespan(_server):
        background(service.warm_up, "paperchat-mcp-warm-up")
        yield {}

    server = _Server(
        "paperchat",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level="WARNING",
    )
    for handler in (
        logging.getLogger().handlers
    ):  # the SDK's stderr handler: libraries that log at DEBUG (bm25s) stay quiet
        handler.setLevel(logging.WARNING)

    @server.tool(annotations=READ_ONLY)
    def search_papers(
        query: Annotated[
            str, Field(description="What to look for, in words (a topic, a method, a question).")
        ],
        top_k: TopK = 5,
        filters: FiltersArg = None,
    ) -> ToolResult:
        """Find the stored papers that best match a query (hybrid dense + keyword search over titles and abstracts).

        Returns {"query", "results": [{paper_id, title, authors, url, venue, year, score, sentence}]}, best first:
        score is higher for a better match, sentence is the abstract sentence closest to the query. Use ask for
        an answer with checked citations, get_paper for a paper's whole abstract.
        """
        f = (filters or PaperFilters()).kwargs()
        return service.tool(
            lambda pc: {
                "query": query,
                "results": [h.to_json() for h in pc.search(query, top_k=top_k, **f)],
            }
        )

    @server.tool(annotations=READ_ONLY)
    def ask(
        question: Annotated[str, Field(description=QUESTION)],
        top_k: Annotated[
            int | None,
            Field(
                ge=1,
                le=50,
                description="How many papers to retrieve (1-50; default: the server's PAPERCHAT_TOP_K, 5; a "
                '"which papers" question given none lists up to 10).',
            ),
        ] = None,
        mode: Mode = None,
        filters: FiltersArg = None,
    ) -> ToolResult:
        """Answer a question from the stored abstracts, every sentence cited with [n] markers.

        Returns the `paperchat ask --json` contract: answer (text with [n] markers), sources ([{n, paper_id, title,
        label, url, origin, chunk_id, text}]: what each [n] cites, text being the cited passage), retrieved (the
        ranking), mode, abstained; LLM answers add sentences ([{text, citations, supported, score, missing}], each
        sentence checked against its sources). When abstained is true the abstracts hold no answer (answer is
        "The indexed abstracts do not contain an answer to this question." and sources is empty): report that,
        do not answer from memory.
        """
        f = (filters or PaperFilters()).kwargs()
        return service.tool(lambda pc: pc.ask(question, top_k=top_k, mode=mode, **f).to_json())

    @server.tool(annotations=READ_ONLY)
    def get_paper(
        paper_id: Annotated[
            str,
            Field(description="A paper id, as search_papers, list_papers or ask sources give it."),
        ],
    ) -> ToolResult:
        """One stored paper: {paper_id, title, label, authors, url, venue, year, chunks, origin, aliases, abstract}.

        The same text is the resource paper://<paper_id>. An unknown id is an error.
        """
        return service.tool(
            lambda pc: {**paper_listing(rec := pc.paper(paper_id)), "abstract": rec.abstract}
        )

    @server.tool(annotations=READ_ONLY)
    def summarize(
        target: Annotated[
            str,
            Field(description="A paper (its id, label, title or words of its title) or a topic."),
        ],
        top_k: Annotated[
            int | None,
            Field(
                ge=1,
                le=50,
                description="Papers of a topic to summarize (1-50; default: the server's PAPERCHAT_TOP_K when "
                "set, else up to 10 above the relevance bar).",
            ),
        ] = None,
        mode: Mode = None,
        filters: FiltersArg = None,
    ) -> ToolResult:
        """A cited summary of one paper (its problem, method and result) or of a topic across top_k papers.

        Returns the same JSON as ask, with target first. An unknown paper id is an error.
        """
        f = (filters or PaperFilters()).kwargs()
        return service.tool(lambda pc: pc.summarize(target, top_k=top_k, mode=mode, **f).to_json())

    @server.tool(annotations=READ_ONLY)
    def list_papers(
        filters: FiltersArg = None,
        limit: Annotated[
            int,
            Field(ge=1, le=MAX_LISTED, description=f"At most this many papers (1-{MAX_LISTED})."),
        ] = 50,
        offset: Annotated[int, Field(ge=0, description="Skip this many first.")] = 0,
    ) -> ToolResult:
        """List the stored papers (no abstracts) that match the filters, in the store's order, a page at a time.

        Returns {"total" (papers that match), "offset", "papers": [{paper_id, title, label, authors, url, venue,
        year, chunks, origin, aliases}]}.
        """
        f = (filters or PaperFilters()).kwargs()

        def page(pc: Paperchat) -> dict[str, Any]:
            records = pc.papers(**f)
            return {
                "total": len(records),
                "offset": offset,
                "papers": [paper_listing(r) for r in records[offset : offset + limit]],
            }

        return service.tool(page)

    @server.tool(annotations=READ_ONLY)
    def get_bibtex(
        paper_ids: Annotated[
            list[str],
            Field(
                min_length=1,
                max_length=MAX_LISTED,
                description="Paper ids, as search_papers, list_papers or ask sources give them.",
            ),
        ],
    ) -> ToolResult:
        """BibTeX entries for stored papers, for a .bib file or a reference manager.

        Returns {"bibtex": the @inproceedings/@article entries as one text, in the order given}, with the keys
        `paperchat papers --bibtex FILE` writes for them. An unknown id is an error.
        """
        return service.tool(lambda pc: {"bibtex": pc.bibtex(paper_ids)})

    @server.resource(
        "paper://{paper_id}",
        mime_type="text/markdown",
        description="A stored paper: title, authors, venue, url and its abstract.",
    )
    def paper_resource(paper_id: str) -> str:
        return service.resource(lambda pc: paper_markdown(pc.paper(paper_id)))

    return server


def serve(make: Callable[[], Paperchat]) -> None:
    """Serve over stdin/stdout until the client closes stdin."""
    build_server(make).run("stdio")
