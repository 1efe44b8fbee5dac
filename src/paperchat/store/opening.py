"""Opening a store: an embedded Chroma folder (checked first: never a damaged store taken for an empty one)
or a Chroma server."""

from __future__ import annotations

import os
import time
from pathlib import Path

from paperchat.core.errors import StoreError
from paperchat.core.notes import note
from paperchat.core.text import short_hash
from paperchat.store.chroma import MARKER, ChromaStore
from paperchat.store.failures import StoreUnavailable, server_timeout, store_error, unreachable
from paperchat.store.integrity import DENIED, database_damage, index_damage
from paperchat.store.locks import open_guard

OPEN_WAIT_S = 30.0


def _chroma_settings():
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=True)


def _parse_url(url: str) -> tuple[str, int, bool]:
    """``(host, port, ssl)`` of a Chroma server's ``http(s)://HOST:PORT`` (an IPv6 host in brackets, as the
    client needs it). Raises :class:`StoreError` for anything else: a path, credentials or a query, which
    the client would drop (a server holds one paperchat store), or a port that is no port."""
    from urllib.parse import urlparse

    parsed = urlparse(url if "://" in url else f"http://{url}")
    bad = f"--chroma-url {url!r} is not an http(s)://HOST:PORT address"
    if parsed.scheme not in {"http", "https"} or not parsed.hostname:
        raise StoreError(bad)
    if parsed.path.strip("/") or parsed.query or parsed.username or parsed.password:
        raise StoreError(
            f"{bad}: a server holds one paperchat store, reached without a path or credentials"
        )
    try:
        port = parsed.port
    except ValueError:
        raise StoreError(f"{bad}: its port is not a number from 1 to 65535") from None
    ssl = parsed.scheme == "https"
    host = f"[{parsed.hostname}]" if ":" in parsed.hostname else parsed.hostname
    return host, port or (443 if ssl else 8000), ssl


def server_key(url: str) -> str:
    """One name for a Chroma server however its URL is spelled (``localhost``, ``127.0.0.1``, ``[::1]``, a
    trailing slash, the host's case): the folder of its local state, and of the write lock the processes of
    this machine share. Names are not looked up (a name's addresses may change between runs)."""
    import ipaddress

    host, port, ssl = _parse_url(url)
    host = host.strip("[]").lower()
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    return f"{'https' if ssl else 'http'}://{'loopback' if loopback else host}:{port}"


def _unknown_host(host: str, port: int) -> str | None:
    """Why ``host`` names no machine (the resolver's own words), or None when it resolves.

    Read only after a connection failed: ``--chroma-url notaurl`` reads as the host ``notaurl``, and
    "no such host" tells the user more than Chroma's "could not connect".
    """
    import socket

    try:  # an IPv6 host keeps the URL's brackets ("[::1]"), which the resolver does not read
        socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"no host named {host!r} ({exc.strerror or exc})"
    except (OSError, UnicodeError):
        return None
    return None


def _database_damage(store_dir: Path) -> str | None:
    """What is wrong with the store's Chroma database, waiting once for a process that is creating it."""
    chroma = store_dir / "chroma"
    if not (chroma.is_dir() or (store_dir / MARKER).exists()):
        return None  # not a store yet
    damage = database_damage(chroma)
    if damage is not None and os.access(store_dir, os.W_OK | os.X_OK):
        # Another process may be creating the store: Chroma makes the folder, then an empty database, then fills
        # it, all under the open lock. Once the lock is free, what is still wrong is damage.
        with open_guard(store_dir, OPEN_WAIT_S):
            damage = database_damage(chroma)
    return damage


#: What a store's folder holds besides ``chroma/`` and its marker, before its first ingest has written them.
_STORE_FILES = frozenset(
    {"open.lock", "write.lock", "ingest-manifest.json", "history.sqlite3", "bm25"}
)


def _foreign_files(store_dir: Path) -> list[str]:
    """The names of what an existing folder that is no store holds besides a store's own files and hidden
    ones, sorted; ``[]`` for a store or an empty folder. A store made there would write beside them, and its
    writers tidy names of their own (``snapshot/``)."""
    if (store_dir / "chroma").is_dir() or (store_dir / MARKER).exists():
        return []
    try:
        names = [p.name for p in store_dir.iterdir()]
    except OSError:
        return []
    return sorted(n for n in names if not n.startswith(".") and n not in _STORE_FILES)


def check_folder(store_dir: Path, create: bool) -> None:
    """Refuse a store folder that cannot be one (a file; with ``create``, a folder of other files), or that
    holds a damaged store (never treated as empty).

    Damage: Chroma's ``chroma.sqlite3`` missing, unreadable, empty or not a database; an index file cut short.
    """
    if store_dir.exists() and not store_dir.is_dir():
        raise StoreError(f"store path {store_dir} exists and is not a folder")
    if not store_dir.exists():
        if not create:
            raise StoreError(f"no store at {store_dir}; run `paperchat ingest` first")
        try:
            store_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the store folder {store_dir} ({exc.strerror})"
            ) from None
    if create and (foreign := _foreign_files(store_dir)):
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise StoreError(
            f"the folder {store_dir} holds no store but other files ({shown}); a store needs a new or empty "
            "folder of its own"
        )
    chroma = store_dir / "chroma"
    damage = _database_damage(store_dir)
    if damage is not None and damage.endswith(DENIED):
        raise StoreUnavailable(
            f"the store at {store_dir} cannot be opened: {damage}. Give this user read and write "
            "access to the store folder"
        )
    if damage is not None:
        raise StoreError(
            f"the store at {store_dir} is damaged: {damage}. Restore it from a backup, or start "
            "afresh with `paperchat ingest --rebuild FILES` (the stored papers are lost)"
        )
    if create and not any(store_dir.iterdir()) and not os.access(store_dir, os.W_OK | os.X_OK):
        raise StoreError(f"the store folder {store_dir} is not writable")
    damage = index_damage(chroma) if chroma.is_dir() else []
    if damage:
        more = f" (and {len(damage) - 1} more)" if len(damage) > 1 else ""
        raise StoreError(
            f"the store at {store_dir} is damaged: {damage[0]}{more}. Rebuild it with "
            "`paperchat ingest --rebuild FILES` (or restore a backup); `paperchat check` lists the problems"
        )


def _set_damaged_aside(store_dir: Path) -> None:
    """Before a rebuild: move a ``chroma/`` folder whose database is empty or not a database aside (kept, not
    deleted), so Chroma starts a new one."""
    chroma = store_dir / "chroma"
    damage = database_damage(chroma) if chroma.is_dir() else None
    if damage is None or not (
        damage.endswith("(0 bytes)") or damage.endswith("not a SQLite database")
    ):
        return
    aside = store_dir / f"chroma.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    os.replace(chroma, aside)
    note(
        f"note: {damage}; the damaged folder was moved to {aside} (delete it when you no longer need it)"
    )


def server_folder(chroma_url: str) -> Path:
    """This machine's folder for the store on the Chroma server at ``chroma_url`` (its BM25 cache, locks and
    chat history), one per server however its URL is spelled (:func:`server_key`)."""
    from paperchat.core.config_file import user_cache_dir

    return user_cache_dir() / "servers" / short_hash(server_key(chroma_url), 12)


def local_folder(settings) -> Path:
    """Where this machine keeps what belongs to the store ``settings`` name beside Chroma's own files: the
    store folder of an embedded store, :func:`server_folder` of a server's."""
    return server_folder(settings.chroma_url) if settings.chroma_url else settings.store_path


def open_store(
    store_dir: Path | None = None,
    chroma_url: str | None = None,
    create: bool = True,
    allow_damaged: bool = False,
) -> ChromaStore:
    """Open the store: embedded Chroma in ``store_dir``, or the server at ``chroma_url``.

    Raises :class:`StoreError` when the folder cannot be created or written,
    holds a damaged store (unless ``allow_damaged``, for a rebuild), or the
    server does not answer.
    """
    import chromadb

    if chroma_url:
        host, port, ssl = _parse_url(chroma_url)
        local = server_folder(chroma_url)
        local.mkdir(parents=True, exist_ok=True)

        def connect_server():
            _bound_http_waits()
            client = chromadb.HttpClient(host=host, port=port, ssl=ssl, settings=_chroma_settings())
            client.heartbeat()
            _same_major_version(client, chroma_url)
            return client

        try:
            return ChromaStore(connect_server, local, remote=chroma_url)
        except StoreUnavailable:
            raise
        except Exception as exc:
            unknown = _unknown_host(host, port)
            if unknown:
                raise StoreUnavailable(
                    f"cannot reach the Chroma server at {chroma_url}: {unknown}; give the server's "
                    "address as http://HOST:PORT (`chroma run` serves http://localhost:8000)"
                ) from None
            raise StoreUnavailable(unreachable(chroma_url, exc)) from None

    assert store_dir is not None
    store_dir = Path(store_dir).expanduser()
    if not allow_damaged:
        check_folder(store_dir, create)
    else:
        store_dir.mkdir(parents=True, exist_ok=True)
        _set_damaged_aside(store_dir)

    def connect_local():
        with open_guard(store_dir, OPEN_WAIT_S):
            return chromadb.PersistentClient(
                path=str(store_dir / "chroma"), settings=_chroma_settings()
            )

    try:
        return ChromaStore(connect_local, store_dir)
    except StoreError:
        raise
    except Exception as exc:
        raise store_error(exc, store_dir) from None


def _bound_http_waits() -> None:
    """Make chromadb's HTTP client wait at most :func:`~paperchat.store.failures.server_timeout` seconds per
    request (10 s to connect). chromadb builds its ``httpx.Client`` with ``timeout=None`` and offers no
    setting for it, and its client constructor already sends requests, so the module's ``httpx`` is replaced
    by one whose ``Client`` gets the bound (once per process; everything else is httpx's own)."""
    import httpx
    from chromadb.api import fastapi

    if isinstance(getattr(fastapi, "httpx", None), _BoundHttpx):
        return

    fastapi.httpx = _BoundHttpx(httpx)


class _BoundHttpx:
    """``httpx`` with a ``Client`` whose timeout is bounded (see :func:`_bound_http_waits`)."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        return getattr(self._module, name)

    def Client(self, *args, **kwargs):  # noqa: N802 - httpx's own name
        kwargs["timeout"] = self._module.Timeout(server_timeout(), connect=10.0)
        return self._module.Client(*args, **kwargs)


def _same_major_version(client, url: str) -> None:
    """Raise :class:`StoreUnavailable` when the server at ``url`` runs another major version of chromadb than
    this client: a 0.6 server answers the heartbeat, then fails every collection call with a raw
    ``InvalidCollection`` error that read as a damaged store."""
    import chromadb

    try:
        theirs = str(client.get_version())
    except Exception:  # a server too old to say is caught by what fails next
        return
    ours = chromadb.__version__
    if theirs.split(".")[0] != ours.split(".")[0]:
        raise StoreUnavailable(
            f"the Chroma server at {url} runs chromadb {theirs}, and paperchat's client is chromadb {ours}: "
            f"run a server of chromadb {ours.split('.')[0]}.x (`chroma run` from paperchat's own install)"
        )
