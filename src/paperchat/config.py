"""Settings and paths.

Every setting resolves in this order: command-line flag, environment variable,
TOML config file, built-in default. :func:`load_settings` records where each
value came from, so ``paperchat config`` can show it.

The config file is ``$PAPERCHAT_CONFIG`` or ``<user config dir>/paperchat/config.toml``
(``platformdirs.user_config_dir``). It holds flat keys, for example::

    store = "/data/paperchat"
    top_k = 5
    [llm]
    model = "gpt-4o-mini"
    base_url = "http://127.0.0.1:8000/v1"

Importing this module also turns Chroma's anonymous telemetry off for the
process (``ANONYMIZED_TELEMETRY=False``) and points Hugging Face libraries at
offline mode, so nothing phones home or downloads weights.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperchat.errors import PaperchatError

# No telemetry and no hub downloads, for this process and its children.
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

APP = "paperchat"

#: name -> (environment variable, config-file key, default, type)
SETTINGS: dict[str, tuple[str | None, str, Any, type]] = {
    "store": ("PAPERCHAT_STORE", "store", None, str),
    "chroma_url": ("PAPERCHAT_CHROMA_URL", "chroma_url", None, str),
    "embed_model": ("PAPERCHAT_EMBED_MODEL", "embed_model", "minilm-l6-int8", str),
    "top_k": ("PAPERCHAT_TOP_K", "top_k", 5, int),
    "mode": ("PAPERCHAT_MODE", "mode", "auto", str),
    "llm_model": ("PAPERCHAT_LLM_MODEL", "llm.model", "gpt-4o-mini", str),
    "llm_base_url": ("OPENAI_BASE_URL", "llm.base_url", None, str),
    "llm_api_key": ("OPENAI_API_KEY", "llm.api_key", None, str),
    "temperature": ("PAPERCHAT_TEMPERATURE", "llm.temperature", 0.0, float),
    "timeout": ("PAPERCHAT_TIMEOUT", "llm.timeout", 60.0, float),
    "max_retries": ("PAPERCHAT_MAX_RETRIES", "llm.max_retries", 3, int),
    "context_window": ("PAPERCHAT_CONTEXT_WINDOW", "llm.context_window", 8192, int),
    "history": ("PAPERCHAT_HISTORY", "history", True, bool),
}

SECRET_SETTINGS = frozenset({"llm_api_key"})


def user_data_dir() -> Path:
    """The per-user data folder (``platformdirs.user_data_dir("paperchat")``)."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def config_file_path() -> Path:
    """The config file location: ``$PAPERCHAT_CONFIG`` or the user config folder."""
    env = os.environ.get("PAPERCHAT_CONFIG")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False)) / "config.toml"


#: Allowed ranges of numeric settings (inclusive).
RANGES = {"top_k": (1, 100), "max_retries": (0, 10), "context_window": (512, 10_000_000), "timeout": (0.1, 3600.0),
          "temperature": (0.0, 2.0)}


def _read_config_file(path: Path) -> dict[str, Any]:
    if not path.exists():
        if os.environ.get("PAPERCHAT_CONFIG"):
            raise PaperchatError(f"PAPERCHAT_CONFIG names {path}, which does not exist")
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PaperchatError(f"config file {path} is not valid TOML: {exc}") from exc
    flat: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, dict):
            for sub, subval in value.items():
                flat[f"{key}.{sub}"] = subval
        else:
            flat[key] = value
    known = {file_key for _env, file_key, _default, _kind in SETTINGS.values()}
    unknown = sorted(set(flat) - known)
    if unknown:
        raise PaperchatError(f"config file {path}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    return flat


def _coerce(name: str, value: Any, kind: type, origin: str) -> Any:
    if value is None:
        return None
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
        return kind(value)
    except (TypeError, ValueError) as exc:
        raise PaperchatError(f"setting {name} from {origin}: {value!r} is not a valid {kind.__name__}") from exc


@dataclass
class Settings:
    """Resolved settings with the origin of each value.

    ``values[name]`` is the value, ``origins[name]`` one of ``"flag"``,
    ``"env:VAR"``, ``"file:PATH"`` or ``"default"``.
    """

    values: dict[str, Any] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def store_path(self) -> Path:
        """The embedded store folder (``--store`` / ``PAPERCHAT_STORE`` / user data dir)."""
        if self.values.get("store"):
            return Path(self.values["store"]).expanduser()
        return user_data_dir() / "store"

    @property
    def data_dir(self) -> Path:
        """Where per-user state beside the store lives (chat history database)."""
        return self.store_path

    def redacted(self) -> dict[str, Any]:
        """The values with secrets replaced by a mask (for display and logs)."""
        out = {}
        for key, value in self.values.items():
            if key in SECRET_SETTINGS and value:
                out[key] = "sk-…" + "(set)"
            else:
                out[key] = value
        return out


def load_settings(flags: dict[str, Any] | None = None) -> Settings:
    """Resolve every setting: flag > environment variable > config file > default.

    ``flags`` maps setting names to values given on the command line (``None``
    means not given). Raises :class:`PaperchatError` for an unreadable config
    file or a value of the wrong type.
    """
    flags = flags or {}
    path = config_file_path()
    file_values = _read_config_file(path)
    settings = Settings()
    for name, (env_var, file_key, default, kind) in SETTINGS.items():
        if flags.get(name) is not None:
            value, origin = flags[name], "flag"
        elif env_var and os.environ.get(env_var):
            value, origin = os.environ[env_var], f"env:{env_var}"
        elif file_key in file_values:
            value, origin = file_values[file_key], f"file:{path}"
        else:
            value, origin = default, "default"
        value = _coerce(name, value, kind, origin)
        if name in RANGES and value is not None and not RANGES[name][0] <= value <= RANGES[name][1]:
            low, high = RANGES[name]
            raise PaperchatError(f"setting {name} from {origin}: {value} is outside {low}..{high}")
        settings.values[name] = value
        settings.origins[name] = origin
    return settings


def bundled_path(kind: str) -> Path:
    """The folder of bundled files of ``kind`` (``"data"`` or ``"prompts"``).

    In an installed wheel they live in ``paperchat/_bundled/<kind>``; in a
    source checkout (editable install, tests) at the repository root.
    """
    here = Path(__file__).resolve().parent
    packaged = here / "_bundled" / kind
    if packaged.is_dir():
        return packaged
    source = here.parent.parent / kind
    if source.is_dir():
        return source
    raise PaperchatError(f"bundled {kind} folder not found (looked in {packaged} and {source})")
