"""``gin serve``: run the web table (Starlette on uvicorn)."""

from __future__ import annotations

import gc
import signal
import socket

import typer

from .common import fail
from .main import app

__all__ = ["serve", "listen", "database_error", "GC_YOUNG_THRESHOLD"]

FILES_HELD_BACK = 64
"""Open files kept for the database, logs and the review worker beyond ``--max-connections``."""

GC_YOUNG_THRESHOLD = 10_000
"""The garbage collector's youngest-generation threshold under ``gin serve`` (Python's default
is 700); see :func:`serve`."""


def database_error(url: str, exc: BaseException) -> str:
    """One line saying why the database at ``url`` could not be opened, never showing its
    password: the URL is shown masked (``masked_url``) and the password is cut from the
    driver's message too.  A missing PostgreSQL driver says which extra to install."""
    from sqlalchemy.engine import make_url

    from ..web.store import masked_url

    shown = masked_url(url)
    if isinstance(exc, ModuleNotFoundError) and "psycopg" in str(exc):
        return (f"cannot open the database {shown}: PostgreSQL needs the psycopg driver; "
                'install it with: pip install "ginrummy[postgres]"')
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    text = text.replace(url, shown)
    try:
        password = make_url(url).password
    except Exception:
        password = None
        text = f"{type(exc).__name__}: not a database URL (sqlite:///file.db or postgresql://user:pass@host/db)"
    if password:
        text = text.replace(str(password), "***")
    return f"cannot open the database {shown}: {text}"


def database_backend(url: str) -> str | None:
    """The database kind of ``url`` (``"sqlite"``, ``"postgresql"`` for ``postgres://`` too,
    ``"mysql"``...), or ``None`` when it is not a URL (:func:`database_error` says so)."""
    from ..web.store import engine_url

    try:
        return engine_url(url).get_backend_name()
    except Exception:
        return None


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (port 0: one the system picks).

    Raises ``OSError`` with the system's reason when the address cannot be bound (the port is
    in use, the host is not an address of this machine, a port below 1024 without the right)."""
    family, kind, proto, _, addr = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                      flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (0.0.0.0 for every interface)."),
    port: int = typer.Option(8000, "--port", help="TCP port to listen on.", min=0, max=65535),
    database_url: str = typer.Option(
        "", "--database-url",
        help="SQLAlchemy database URL (sqlite:///file.db, or a postgresql:// URL with the "
             "ginrummy[postgres] extra; postgres:// works too); default: a SQLite file in the user's "
             "data folder.  Several servers may share one PostgreSQL database (docs/deploy.md)."),
    bot_delay: float | None = typer.Option(
        None, "--bot-delay", show_default=False,
        help="Seconds a computer player waits before each move; default a natural 0.7-1.2 s; 0 moves at once."),
    review_budget_ms: float = typer.Option(
        100.0, "--review-budget-ms",
        help="The expert's review at the table: milliseconds of budget per decision (sampled deals, docs/review.md)."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level: critical, error, warning, info, debug."),
    tables_per_minute: int = typer.Option(
        60, "--tables-per-minute", min=0,
        help="The most tables one client address may open in any 60 seconds (more are refused with 429); 0 for no limit."),
    header_timeout: float = typer.Option(
        10.0, "--header-timeout", min=0,
        help="Seconds a connection has to send its request line and headers; then it is closed. 0 for none."),
    max_connections: int = typer.Option(
        2000, "--max-connections", min=0,
        help="The most connections open in all (HTTP and WebSocket); more are answered 503 and closed. "
             "0 for no cap. Lowered to fit the open-files limit."),
    max_connections_per_address: int = typer.Option(
        100, "--max-connections-per-address", min=0,
        help="The most connections one client address may hold open; more are answered 503 and closed. 0 for no cap."),
) -> None:
    """Serve the web table: open http://HOST:PORT/ in a browser to play against the computer
    or a friend.  Every action is stored before it is acknowledged, so a restart resumes every
    table (players reconnect with their links)."""
    import uvicorn

    from uvicorn.config import HTTP_PROTOCOLS, WS_PROTOCOLS
    from uvicorn.importer import import_from_string

    from ..web.app import MAX_FRAME_BYTES, create_app
    from ..web.connections import ConnectionGuard, guarded_protocols, raise_open_files_limit
    from ..web.security import install_log_redaction
    from ..web.store import default_database_url, masked_url

    if log_level not in ("critical", "error", "warning", "info", "debug"):
        fail(f"--log-level {log_level!r} is not allowed; allowed: critical, error, warning, info, debug")
    if bot_delay is not None and not bot_delay >= 0:
        fail(f"--bot-delay {bot_delay}: the delay is 0 seconds or more")
    from ..review import samples_for
    try:
        samples_for(review_budget_ms)
    except ValueError as exc:
        fail(f"--review-budget-ms: {exc}")
    url = database_url or default_database_url()
    backend = database_backend(url)
    if backend is not None and backend not in ("sqlite", "postgresql"):
        fail(f"--database-url {masked_url(url)}: {backend} is not supported; "
             "use sqlite:///FILE (the default) or postgresql://USER:PASSWORD@HOST/DB")
    try:
        web_app = create_app(url, bot_delay=bot_delay, review_budget_ms=review_budget_ms,
                             tables_per_minute=tables_per_minute)
    except Exception as exc:  # a bad URL, a missing driver or an unreachable database
        fail(database_error(url, exc))
    # bind first, so a port in use is one clear line (exit 2) and port 0 prints the real port
    try:
        sock = listen(host, port)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port or --host")
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"gin serve: http://{shown}:{bound}/  (database {masked_url(url)})", flush=True)
    # frames up to MAX_FRAME_BYTES are read and answered (too_large); larger ones close with 1009
    # no permessage-deflate: a state is a few kilobytes a move, nothing for any connection, and
    # compressing every frame cost a busy server about 9% more CPU a move and a zlib context per
    # connection (docs/deploy.md, "WebSocket compression"); browsers that offer it are answered
    # without it, the messages are the same
    # connections: a deadline for the headers, caps per address and in all (web/connections.py,
    # docs/deploy.md "Connections"); the open-files limit is raised toward the hard one so the
    # caps, not the system, decide, and the total cap is lowered to fit what is left of it
    soft, _hard = raise_open_files_limit(max(4096, max_connections + FILES_HELD_BACK))
    if soft and (max_connections == 0 or max_connections > soft - FILES_HELD_BACK):
        fitted = max(1, soft - FILES_HELD_BACK)
        print(f"gin serve: --max-connections {max_connections or 'unlimited'} lowered to {fitted} "
              f"(open-files limit {soft})", flush=True)
        max_connections = fitted
    guard = ConnectionGuard(max_connections_per_address, max_connections, header_timeout)
    http_class, ws_class = guarded_protocols(import_from_string(HTTP_PROTOCOLS["auto"]),
                                             import_from_string(WS_PROTOCOLS["auto"]), guard)
    config = uvicorn.Config(web_app, host=host, port=bound, log_level=log_level, ws_max_size=MAX_FRAME_BYTES,
                            ws_per_message_deflate=False, http=http_class, ws=ws_class,
                            limit_concurrency=(max_connections + FILES_HELD_BACK // 2) if max_connections else None)
    install_log_redaction()  # after uvicorn set up its loggers: seat tokens in URLs are masked
    # the cyclic garbage collector's youngest generation is collected every 10,000 net new
    # objects instead of 700: a busy server makes a few hundred objects a move and holds
    # hundreds of thousands; at the default a tenth of its time went to collections
    # (benchmarks/RESULTS.md, "Load"); memory is still returned at once by reference counting
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    # uvicorn shuts down gracefully on SIGTERM and then raises the signal again with the
    # handler it found: with this one the process then ends as Python does (exit 143), running
    # its exit hooks, so the review pool's semaphores are freed even when a review was running
    # (without it the default handler killed the process and the resource tracker warned)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    uvicorn.Server(config).run(sockets=[sock])


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    """SIGTERM outside uvicorn's own handling: a normal exit with status 128 + 15."""
    raise SystemExit(128 + signum)
