"""Settings: one table, from which the CLI's flags, the environment variables and the help are made.

Every setting resolves in this order: command-line flag, environment variable, TOML config file,
built-in default. :func:`load_settings` records where each value came from (``paperchat config``).

The config file is ``$PAPERCHAT_CONFIG`` or ``<user config dir>/paperchat/config.toml``
(``platformdirs.user_config_dir``). It holds flat keys, for example::

    store = "/data/paperchat"
    top_k = 5
    [llm]
    model = "gpt-4o-mini"
    base_url = "http://127.0.0.1:8000/v1"

Importing this module also turns Chroma's anonymous telemetry off for the process
(``ANONYMIZED_TELEMETRY=False``) and onnxruntime's (``ORT_DISABLE_TELEMETRY=1``: without it
onnxruntime writes a device id and an event database under ``~/.cache/Microsoft/DeveloperTools/``),
and points Hugging Face libraries at offline mode, so nothing phones home or downloads weights.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from paperchat.core.config_file import config_file_path, read_config_file, user_data_dir
from paperchat.core.errors import PaperchatError
from paperchat.core.store_choice import one_store

# No telemetry and no hub downloads, for this process and its children.
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
# ORT_DISABLE_TELEMETRY is read when onnxruntime is imported: settings come first
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

MODES = ("auto", "llm", "extractive")
DAEMON_MODES = ("auto", "on", "off")


@dataclass(frozen=True)
class Setting:
    """One setting: where it comes from, its type, unit and range (inclusive), and its help text.

    ``flag`` is the command-line option (``None``: no flag); ``env`` the
    environment variable; ``key`` the config-file key (``llm.model`` is
    ``model`` under ``[llm]``).
    """

    name: str
    env: str | None
    key: str
    default: Any
    kind: type
    help: str
    flag: str | None = None
    unit: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    secret: bool = False
    default_text: str | None = None

    def describe_default(self) -> str:
        """The default as help text shows it, with its unit (``5 papers``, ``60 s``)."""
        if self.default_text:
            return self.default_text
        if self.default is None:
            return "none"
        text = f"{self.default:g}" if isinstance(self.default, float) else str(self.default)
        return f"{text} {self.unit}" if self.unit else text


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "store",
        "PAPERCHAT_STORE",
        "store",
        None,
        str,
        "Store folder.",
        flag="--store",
        default_text="the per-user data folder",
    ),
    Setting(
        "chroma_url",
        "PAPERCHAT_CHROMA_URL",
        "chroma_url",
        None,
        str,
        "Use a Chroma server (`chroma run`) at http://HOST:PORT instead of the embedded store.",
        flag="--chroma-url",
        default_text="none (embedded)",
    ),
    Setting(
        "embed_model",
        "PAPERCHAT_EMBED_MODEL",
        "embed_model",
        "minilm-l6-int8",
        str,
        "Embedding model: minilm-l6-int8 (offline) or openai:<model>.",
        flag="--embed-model",
    ),
    Setting(
        "vector_cache",
        "PAPERCHAT_VECTOR_CACHE",
        "vector_cache",
        None,
        str,
        "Sentence-vector cache folder, shared by every store: a rebuild or another store does not "
        "embed a text again (off: no cache).",
        default_text="<user cache dir>/paperchat/vectors",
    ),
    Setting(
        "vector_cache_mib",
        "PAPERCHAT_VECTOR_CACHE_MIB",
        "vector_cache_mib",
        256,
        int,
        "Size bound of the vector cache; the oldest vectors go first (0: no cache).",
        unit="MiB",
        low=0,
        high=1_000_000,
    ),
    Setting(
        "top_k",
        "PAPERCHAT_TOP_K",
        "top_k",
        5,
        int,
        'Papers to retrieve per question (left unset, a "which papers ..." question retrieves 10).',
        flag="--top-k",
        unit="papers",
        low=1,
        high=100,
    ),
    Setting(
        "mode",
        "PAPERCHAT_MODE",
        "mode",
        "auto",
        str,
        "auto: the LLM when one is configured, else the offline extractive answerer.",
        flag="--mode",
        choices=MODES,
    ),
    Setting(
        "llm_model",
        "PAPERCHAT_LLM_MODEL",
        "llm.model",
        "gpt-4o-mini",
        str,
        "LLM model name.",
        flag="--model",
    ),
    Setting(
        "llm_base_url",
        "OPENAI_BASE_URL",
        "llm.base_url",
        None,
        str,
        "OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 for vLLM.",
        flag="--base-url",
        default_text="OpenAI",
    ),
    Setting(
        "llm_api_key",
        "OPENAI_API_KEY",
        "llm.api_key",
        None,
        str,
        "API key of the LLM server.",
        secret=True,
    ),
    Setting(
        "temperature",
        "PAPERCHAT_TEMPERATURE",
        "llm.temperature",
        0.0,
        float,
        "Sampling temperature.",
        flag="--temperature",
        low=0.0,
        high=2.0,
    ),
    Setting(
        "timeout",
        "PAPERCHAT_TIMEOUT",
        "llm.timeout",
        60.0,
        float,
        "LLM request timeout in seconds.",
        flag="--timeout",
        unit="s",
        low=0.1,
        high=3600.0,
    ),
    Setting(
        "max_retries",
        "PAPERCHAT_MAX_RETRIES",
        "llm.max_retries",
        3,
        int,
        "Retries on 429/5xx, a dropped connection and a timeout (a hung server waits (1 + retries) x --timeout).",
        flag="--max-retries",
        low=0,
        high=10,
    ),
    Setting(
        "context_window",
        "PAPERCHAT_CONTEXT_WINDOW",
        "llm.context_window",
        8192,
        int,
        "The model's context window in tokens; sources are trimmed to fit.",
        flag="--context-window",
        unit="tokens",
        low=512,
        high=10_000_000,
    ),
    Setting(
        "verify_llm",
        "PAPERCHAT_VERIFY_LLM",
        "llm.verify",
        False,
        bool,
        "After an LLM answer, ask the LLM too whether each sentence's cited sources support it (one more call per "
        "answer, cached); a sentence is then supported only when both checks agree.",
        flag="--verify-llm/--no-verify-llm",
    ),
    Setting(
        "history",
        "PAPERCHAT_HISTORY",
        "history",
        True,
        bool,
        "Log chat turns to <store>/history.sqlite3.",
    ),
    Setting(
        "daemon",
        "PAPERCHAT_DAEMON",
        "daemon",
        "auto",
        str,
        "ask, summarize and papers run in a warm local daemon (`paperchat daemon --help`): auto uses one when "
        "it runs and starts one for the next command, on waits for one, off never uses one.",
        flag="--daemon",
        choices=DAEMON_MODES,
    ),
    Setting(
        "daemon_idle",
        "PAPERCHAT_DAEMON_IDLE",
        "daemon_idle",
        900.0,
        float,
        "A daemon exits after this long without a request.",
        unit="s",
        low=1.0,
        high=604800.0,
    ),
)

BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


_NOT_EMPTY = ("store", "embed_model", "vector_cache", "chroma_url", "llm_base_url", "llm_model")


def _coerce(setting: Setting, value: Any, origin: str) -> Any:
    if value is None:
        return None
    kind = setting.kind
    try:
        if kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off"}:
                return False
            raise ValueError(value)
        # a config file's `top_k = 3.7`, `= true` or `= "7"` is not silently 3, 1 or 7, nor `store = []` a path
        bad_int = kind is int and isinstance(value, float) and not value.is_integer()
        bad_int |= kind in (int, float) and origin.startswith("file:") and isinstance(value, str)
        if isinstance(value, bool) or bad_int or (kind is str and not isinstance(value, str)):
            raise ValueError(value)
        value = kind(value)
    except (TypeError, ValueError) as exc:
        shown = "the value given" if setting.secret else repr(value)  # a key is never echoed
        raise PaperchatError(
            f"setting {setting.name} from {origin}: {shown} is not a valid {kind.__name__}"
        ) from exc
    # (an empty environment variable counts as unset; an empty flag or file value had silently meant the default)
    if setting.name in _NOT_EMPTY and not str(value).strip():
        raise PaperchatError(
            f"setting {setting.name} from {origin}: an empty value; leave it out to use the default"
        )
    if setting.choices and str(value).lower() not in setting.choices:
        raise PaperchatError(
            f"setting {setting.name} from {origin}: {value!r} is not one of {', '.join(setting.choices)}"
        )
    if (
        setting.low is not None
        and setting.high is not None
        and not setting.low <= value <= setting.high
    ):
        raise PaperchatError(
            f"setting {setting.name} from {origin}: {value} is outside {setting.low:.10g}..{setting.high:.10g}"
        )
    return value.lower() if setting.choices else value


def _default(name: str) -> Any:
    """The default of setting ``name``, as the table writes it (the one place defaults are written)."""
    return BY_NAME[name].default


@dataclass
class Settings:
    """Resolved settings (one attribute per row of :data:`SETTINGS`, defaults from it) and the origin of each.

    ``origins[name]`` is one of ``"flag"``, ``"env:VAR"``, ``"file:PATH"`` or ``"default"``.
    """

    store: str | None = _default("store")
    chroma_url: str | None = _default("chroma_url")
    embed_model: str = _default("embed_model")
    vector_cache: str | None = _default("vector_cache")
    vector_cache_mib: int = _default("vector_cache_mib")
    top_k: int = _default("top_k")
    mode: str = _default("mode")
    llm_model: str = _default("llm_model")
    llm_base_url: str | None = _default("llm_base_url")
    llm_api_key: str | None = _default("llm_api_key")
    temperature: float = _default("temperature")
    timeout: float = _default("timeout")
    max_retries: int = _default("max_retries")
    context_window: int = _default("context_window")
    verify_llm: bool = _default("verify_llm")
    history: bool = _default("history")
    daemon: str = _default("daemon")
    daemon_idle: float = _default("daemon_idle")
    origins: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def store_path(self) -> Path:
        """The embedded store folder (``--store`` / ``PAPERCHAT_STORE`` / user data dir)."""
        if self.store:
            return Path(self.store).expanduser()
        return user_data_dir() / "store"

    def values(self) -> dict[str, Any]:
        """Every setting's value by name, in table order."""
        return {s.name: getattr(self, s.name) for s in SETTINGS}

    def redacted(self) -> dict[str, Any]:
        """The values with secrets (and a URL's password) masked, for display and logs."""
        from paperchat.core.errors import shown_setting

        return {name: shown_setting(BY_NAME[name], v) for name, v in self.values().items()}


assert [f.name for f in fields(Settings) if f.name != "origins"] == [s.name for s in SETTINGS]


def load_settings(flags: dict[str, Any] | None = None) -> Settings:
    """Resolve every setting: flag > environment variable > config file > default.

    ``flags`` maps setting names to values given on the command line (``None``
    means not given). Raises :class:`PaperchatError` for an unreadable config
    file or a value of the wrong type or outside its range.
    """
    flags = flags or {}
    path = config_file_path()
    file_values = read_config_file(path, {s.key for s in SETTINGS})
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for setting in SETTINGS:
        name = setting.name
        if flags.get(name) is not None:
            value, origin = flags[name], "flag"
        elif setting.env and os.environ.get(setting.env):
            value, origin = os.environ[setting.env], f"env:{setting.env}"
        elif setting.key in file_values:
            value, origin = file_values[setting.key], f"file:{path}"
        else:
            value, origin = setting.default, "default"
        if setting.key in file_values and origin[:5] != "file:":  # a bad one is said anyway
            _coerce(setting, file_values[setting.key], f"file:{path}")
        values[name] = _coerce(setting, value, origin)
        origins[name] = origin
    one_store(values, origins)
    return Settings(**values, origins=origins)
