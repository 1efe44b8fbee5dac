"""Click options shared by the answering commands (ask, summarize, chat): mode and LLM settings."""

from __future__ import annotations

import click


def llm_options(func):
    """Answer options shared by ask, summarize and chat: mode and LLM settings (flag > env > file)."""
    options = [
        click.option("--mode", type=click.Choice(["auto", "llm", "extractive"]), default=None,
                     help="auto (default): the LLM when one is configured, else the offline extractive answerer."),
        click.option("--model", "llm_model", default=None, help="LLM model name (env PAPERCHAT_LLM_MODEL; default gpt-4o-mini)."),
        click.option("--base-url", "llm_base_url", default=None, metavar="URL",
                     help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 for vLLM (env OPENAI_BASE_URL)."),
        click.option("--temperature", type=float, default=None, help="Sampling temperature (default 0)."),
        click.option("--timeout", type=float, default=None, help="LLM request timeout in seconds (default 60)."),
        click.option("--max-retries", type=click.IntRange(0, 10), default=None, help="Retries on 429/5xx (default 3)."),
        click.option("--context-window", type=click.IntRange(512, 10_000_000), default=None,
                     help="The model's context window in tokens (default 8192); sources are trimmed to fit."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


LLM_FLAGS = ("mode", "llm_model", "llm_base_url", "temperature", "timeout", "max_retries", "context_window")


def take_llm_flags(obj, kwargs: dict) -> None:
    """Move the LLM flags given on a command into the context's settings (flag > env > file)."""
    for name in LLM_FLAGS:
        value = kwargs.pop(name, None)
        if value is not None:
            obj.flags[name] = value
    obj._settings = None
    obj._engine = None
