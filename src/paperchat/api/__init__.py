"""The Python API (``from paperchat import Paperchat``): cited answers, search, summaries, BibTeX, from notebooks.

It sits above the engine and the chat, beside the CLI: the CLI's commands and
the MCP server (``paperchat mcp``) reach the same engine. See
:class:`~paperchat.api.client.Paperchat`.
"""

from paperchat.api.client import Paperchat
from paperchat.api.evaluating import evaluate
from paperchat.api.results import Answer, SearchHit
from paperchat.retrieve.filters import Filters

__all__ = ["Paperchat", "Answer", "SearchHit", "Filters", "evaluate"]
