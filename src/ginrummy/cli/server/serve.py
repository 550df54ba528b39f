"""``gin serve``: run the web table (Starlette on uvicorn)."""

from __future__ import annotations

import gc
import logging
import logging.config
import os
import re
import signal
import socket
import sys
from typing import Annotated, Any, NoReturn, TypedDict, cast

import typer

from ..common import fail
from ..main import app

__all__ = [
    "serve",
    "listen",
    "database_error",
    "GC_YOUNG_THRESHOLD",
    "check_public_url",
    "allowed_hosts_for",
    "proxy_options",
]

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

    from ...web.db.store import masked_url

    shown = masked_url(url)
    if isinstance(exc, ModuleNotFoundError) and "psycopg" in str(exc):
        return (
            f"cannot open the database {shown}: PostgreSQL needs the psycopg driver; "
            'install it with: pip install "ginrummy[postgres]"'
        )
    if isinstance(exc, OSError) and exc.filename:  # the SQLite file's folder, or its lock file
        folder = os.path.dirname(os.path.abspath(str(exc.filename)))
        if isinstance(exc, FileNotFoundError):
            return f"cannot open the database {shown}: the folder {folder} does not exist; make it first"
        if isinstance(exc, PermissionError):
            return f"cannot open the database {shown}: this user may not write in the folder {folder}"
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    text = text.replace(url, shown)
    try:
        password = make_url(url).password
    except Exception:
        password = None
        text = "it is not a database URL; use sqlite:///FILE (the default) or postgresql://USER:PASSWORD@HOST/DB"
    text = re.sub(r"^\([\w.]+\)\s*", "", text)  # the driver's class, "(psycopg.OperationalError) "
    if password:
        text = text.replace(str(password), "***")
    return f"cannot open the database {shown}: {text}"


def database_backend(url: str) -> str | None:
    """The database kind of ``url`` (``"sqlite"``, ``"postgresql"`` for ``postgres://`` too,
    ``"mysql"``...), or ``None`` when it is not a URL (:func:`database_error` says so)."""
    from ...web.db.store import engine_url

    try:
        return engine_url(url).get_backend_name()
    except Exception:
        return None


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (port 0: one the system picks).

    Raises ``OSError`` with the system's reason when the address cannot be bound (the port is
    in use, the host is not an address of this machine, a port below 1024 without the right)."""
    family, kind, proto, _, addr = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")
"""Host names always allowed: the machine itself (``./dev serve``, a proxy's health check)."""


def check_public_url(url: str) -> str:
    """``url`` (``gin serve --public-url``) without a trailing slash, or ``""`` for none.
    Raises ``ValueError`` (the message says what is allowed) unless it is an ``http://`` or
    ``https://`` URL with a host and no query, fragment or user part."""
    from urllib.parse import urlsplit

    if not url:
        return ""
    parts = urlsplit(url.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or parts.username
        or parts.password
        or any(c.isspace() for c in url.strip())
    ):
        raise ValueError(
            f"{url!r} is not allowed; give the address people open, such as "
            "https://gin.example.org or http://192.168.1.5:8000"
        )
    return url.strip().rstrip("/")


def allowed_hosts_for(host: str, public_url: str, extra: list[str]) -> list[str]:
    """The ``Host`` names ``gin serve`` answers (Starlette's ``TrustedHostMiddleware``): the
    ``--allowed-host`` values (``extra``, ``*.example.org`` allowed), the host of the public URL,
    the address served on (``--host``, unless every interface: ``0.0.0.0`` or ``::``), and
    :data:`LOCAL_HOSTS`.  Lower case, each once, in that order."""
    from urllib.parse import urlsplit

    names = [h.strip().lower() for h in extra if h.strip()]
    if public_url:
        names.append((urlsplit(public_url).hostname or "").lower())
    if host not in ("", "0.0.0.0", "::"):
        names.append(host.lower())
        if ":" in host:  # an IPv6 address: the Host header writes it in brackets
            names.append(f"[{host.lower()}]")
    names.extend(LOCAL_HOSTS)
    return list(dict.fromkeys(n for n in names if n))


class ProxyOptions(TypedDict):
    """uvicorn's two proxy settings (``uvicorn.Config`` keywords), as :func:`proxy_options` gives them."""

    proxy_headers: bool
    forwarded_allow_ips: str


def _is_network(text: str) -> bool:
    """Whether ``text`` is an IP address or network (``10.0.0.2``, ``10.0.0.0/8``, ``::1``)."""
    import ipaddress

    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def proxy_options(forwarded_allow_ips: str) -> ProxyOptions:
    """uvicorn's proxy settings for ``--forwarded-allow-ips``: none (the default) reads no
    ``X-Forwarded-*`` header at all (``proxy_headers`` off: the client's address is the peer's);
    else those headers are read only from these addresses (comma-separated IPs or networks,
    or ``*``).  The sign-in and table-opening limits count by the address this gives."""
    ips = ",".join(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    for part in ips.split(",") if ips else ():
        if part != "*" and not _is_network(part):
            fail(
                f"--forwarded-allow-ips {part!r}: not an address or network; give your proxies' "
                "addresses or networks separated by commas (10.0.0.2,10.0.0.0/8), or *"
            )
    if not ips:
        return {"proxy_headers": False, "forwarded_allow_ips": ""}
    return {"proxy_headers": True, "forwarded_allow_ips": ips}


# gin serve's options (Typer's Annotated style: the defaults are in the signature)
_Host = Annotated[
    str,
    typer.Option(
        "--host",
        help="Interface to listen on (0.0.0.0 for every interface).",
    ),
]
_Port = Annotated[
    int,
    typer.Option(
        "--port",
        help="TCP port to listen on.",
        min=0,
        max=65535,
    ),
]
_DatabaseUrl = Annotated[
    str,
    typer.Option(
        "--database-url",
        help="SQLAlchemy database URL (sqlite:///file.db, or a postgresql:// URL with the "
        "ginrummy[postgres] extra; postgres:// works too); default: a SQLite file in the user's "
        "data folder.  Several servers may share one PostgreSQL database (docs/deploy.md).",
    ),
]
_BotDelay = Annotated[
    float | None,
    typer.Option(
        "--bot-delay",
        show_default=False,
        help="Seconds a computer player waits before each move; default a natural 0.7-1.2 s; 0 moves at once.",
    ),
]
_ReviewBudgetMs = Annotated[
    float,
    typer.Option(
        "--review-budget-ms",
        help="The expert's review at the table: milliseconds of budget per decision (sampled deals, docs/review.md).",
    ),
]
_Workers = Annotated[
    int,
    typer.Option(
        "--workers",
        min=0,
        show_default=False,
        help="Worker processes for the computer's moves and hints (off the event loop); "
        "default one less than the cores, at least one.",
    ),
]
_LogLevel = Annotated[
    str,
    typer.Option(
        "--log-level",
        help="uvicorn log level: critical, error, warning, info, debug.",
    ),
]
_TablesPerMinute = Annotated[
    int,
    typer.Option(
        "--tables-per-minute",
        min=0,
        help="The most tables one client address may open in any 60 seconds (more are refused with 429); 0 for no limit.",
    ),
]
_LeaveGrace = Annotated[
    float,
    typer.Option(
        "--leave-grace",
        min=1.0,
        max=3600.0,
        help="Seconds a person of a rated match may be disconnected before his opponent may claim the win "
        "(the server ends the match itself 5 seconds later).",
    ),
]
_PairAllowance = Annotated[
    int,
    typer.Option(
        "--pair-allowance",
        min=1,
        max=1000,
        help="Rated matches between the same two accounts that move the ratings in any 24 hours; "
        "the rest are played unrated.",
    ),
]
_PublicUrl = Annotated[
    str,
    typer.Option(
        "--public-url",
        help="The address people open, as a URL (https://HOST): every link the server sends starts with it. "
        "Default: each link is made from its receiver's own request (its Host, checked against the allowed hosts).",
    ),
]
_AllowedHost = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        metavar="HOST",
        help="A Host name the server answers (repeatable; *.example.org allowed); others get 400. Always allowed: "
        "the public URL's host, the --host address, localhost and 127.0.0.1.",
    ),
]
_ForwardedAllowIps = Annotated[
    str,
    typer.Option(
        "--forwarded-allow-ips",
        help="The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (comma-separated addresses, or *); "
        "default none: the client's address is the connection's. Set it to your nginx/Caddy (docs/deploy.md).",
    ),
]
_Metrics = Annotated[
    bool,
    typer.Option(
        "--metrics",
        help="Serve Prometheus metrics at /metrics, to loopback clients and --metrics-allow (docs/deploy.md).",
    ),
]
_NoTableScores = Annotated[
    bool,
    typer.Option(
        "--no-table-scores",
        help="Do not review each deal that ends to show every player's score at the table "
        "(docs/protocol.md, 'The score'; on by default).",
    ),
]
_MetricsAllow = Annotated[
    list[str] | None,
    typer.Option(
        "--metrics-allow",
        metavar="ADDRESS",
        help="Also let this address or network (10.0.0.5, 10.0.0.0/24) read /metrics. Repeatable.",
    ),
]
_LogFormat = Annotated[
    str,
    typer.Option(
        "--log-format",
        help="text (uvicorn's lines) or json (one JSON object a line: time, level, logger, message, request fields; "
        "docs/deploy.md).",
    ),
]
_HeaderTimeout = Annotated[
    float,
    typer.Option(
        "--header-timeout",
        min=0,
        help="Seconds a connection has to send its request line and headers; then it is closed. 0 for none.",
    ),
]
_MaxConnections = Annotated[
    int,
    typer.Option(
        "--max-connections",
        min=0,
        help="The most connections open in all (HTTP and WebSocket); more are answered 503 and closed. "
        "0 for no cap. Lowered to fit the open-files limit.",
    ),
]
_MaxConnectionsPerAddress = Annotated[
    int,
    typer.Option(
        "--max-per-address",
        min=0,
        help="The most connections one client address may hold open; more are answered 503 and closed. 0 for no cap.",
    ),
]

_BotsRatedTogether = Annotated[
    bool,
    typer.Option(
        "--bots-rated-together",
        help="Let two bot accounts play a rated match (docs/bot-api.md); by default their matches are unrated.",
    ),
]


@app.command()
def serve(
    host: _Host = "127.0.0.1",
    port: _Port = 8000,
    database_url: _DatabaseUrl = "",
    bot_delay: _BotDelay = None,
    review_budget_ms: _ReviewBudgetMs = 100.0,
    workers: _Workers = 0,
    log_level: _LogLevel = "info",
    tables_per_minute: _TablesPerMinute = 60,
    leave_grace: _LeaveGrace = 60.0,
    pair_allowance: _PairAllowance = 3,
    public_url: _PublicUrl = "",
    allowed_host: _AllowedHost = None,
    forwarded_allow_ips: _ForwardedAllowIps = "",
    metrics: _Metrics = False,
    metrics_allow: _MetricsAllow = None,
    log_format: _LogFormat = "text",
    header_timeout: _HeaderTimeout = 10.0,
    max_connections: _MaxConnections = 2000,
    max_connections_per_address: _MaxConnectionsPerAddress = 100,
    bots_rated_together: _BotsRatedTogether = False,
    no_table_scores: _NoTableScores = False,
) -> None:
    """Serve the web table: open http://HOST:PORT/ in a browser to play against the computer
    or a friend.  Every action is stored before it is acknowledged, so a restart resumes every
    table (players reconnect with their links)."""
    from ...web.db.store import default_database_url, masked_url
    from .logs import LOG_FORMATS

    allowed_host, metrics_allow = allowed_host or [], metrics_allow or []  # repeatable, maybe not given
    if log_format not in LOG_FORMATS:
        fail(f"--log-format {log_format!r} is not allowed; allowed: {', '.join(LOG_FORMATS)}")
    public, hosts = _checked_options(
        host, log_level, bot_delay, review_budget_ms, public_url, allowed_host, metrics, metrics_allow
    )
    proxy_options(forwarded_allow_ips)  # checked before anything starts (exits 2 on a bad one)
    url = database_url or default_database_url()
    backend = database_backend(url)
    if backend is not None and backend not in ("sqlite", "postgresql"):
        fail(
            f"--database-url {masked_url(url)}: {backend} is not supported; "
            "use sqlite:///FILE (the default) or postgresql://USER:PASSWORD@HOST/DB"
        )
    log_config = _start_logs(log_format, log_level)
    from ...web.app import create_app

    try:
        web_app = create_app(
            url,
            bot_delay=bot_delay,
            review_budget_ms=review_budget_ms,
            tables_per_minute=tables_per_minute,
            leave_grace=leave_grace,
            pair_allowance=pair_allowance,
            workers=workers or None,
            warm_workers=True,
            public_url=public or None,
            allowed_hosts=hosts,
            metrics=metrics,
            metrics_allow=metrics_allow,
            # the key of the sign-in addresses' hashes (docs/accounts.md, "Farming flags")
            address_key=os.environ["GIN_ADDRESS_KEY"].encode() if os.environ.get("GIN_ADDRESS_KEY") else None,
            bots_rated_together=bots_rated_together,
            table_scores=not no_table_scores,
        )
    except Exception as exc:  # a bad URL, a missing driver or an unreachable database
        _stop(log_format, database_error(url, exc))
    # bind first, so a port in use is one clear line (exit 2) and port 0 prints the real port
    try:
        sock = listen(host, port)
    except OSError as exc:
        _stop(log_format, f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port or --host")
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    _say(
        log_format,
        f"gin serve: http://{shown}:{bound}/  (database {masked_url(url)})",
        url=f"http://{shown}:{bound}/",
        database=masked_url(url),
    )
    _run(
        web_app,
        sock,
        host,
        bound,
        log_level,
        forwarded_allow_ips,
        header_timeout,
        max_connections,
        max_connections_per_address,
        log_format,
        log_config,
    )


def _say(log_format: str, line: str, **fields: Any) -> None:
    """A line of the server's own on stdout: as written, or as a JSON log line."""
    from .logs import json_line

    print(json_line("ginrummy.serve", line, **fields) if log_format == "json" else line, flush=True)


def _stop(log_format: str, message: str) -> NoReturn:
    """:func:`fail` (exit 2), its line a JSON log line on stderr in the JSON format."""
    from .logs import json_line

    if log_format != "json":
        fail(message)
    print(
        json_line("ginrummy.serve", "gin: error: " + " ".join(str(message).split()), logging.ERROR),
        file=sys.stderr,
        flush=True,
    )
    raise typer.Exit(2)


def _start_logs(log_format: str, log_level: str) -> dict[str, Any] | None:
    """The logging configuration of ``--log-format json`` (applied now, so the start-up's own
    lines, migrations and loading tables included, are JSON too; uvicorn applies it again as it
    starts), else ``None`` (uvicorn's own)."""
    if log_format != "json":
        return None
    from ...web.security import install_log_redaction
    from .logs import json_log_config

    log_config = json_log_config(log_level)
    logging.config.dictConfig(log_config)
    install_log_redaction()
    return log_config


def _checked_options(
    host: str,
    log_level: str,
    bot_delay: float | None,
    review_budget_ms: float,
    public_url: str,
    allowed_host: list[str],
    metrics: bool,
    metrics_allow: list[str],
) -> tuple[str, list[str]]:
    """``(public URL, allowed hosts)`` of ``gin serve``'s options; exits 2 (:func:`fail`) naming
    the first option that is not allowed."""
    if log_level not in ("critical", "error", "warning", "info", "debug"):
        fail(f"--log-level {log_level!r} is not allowed; allowed: critical, error, warning, info, debug")
    if bot_delay is not None and not bot_delay >= 0:
        fail(f"--bot-delay {bot_delay}: the delay is 0 seconds or more")
    from ...analysis.review import samples_for

    try:
        samples_for(review_budget_ms)
    except ValueError as exc:
        fail(f"--review-budget-ms: {exc}")
    try:
        public = check_public_url(public_url)
    except ValueError as exc:
        fail(f"--public-url {exc}")
    hosts = allowed_hosts_for(host, public, allowed_host)
    bad_host = next(
        (h for h in hosts if "*" in h[1:] or (h.startswith("*") and not h.startswith("*.")) or h == "*"), None
    )
    if bad_host is not None:
        fail(f"--allowed-host {bad_host!r} is not allowed; give a host name, or *.example.org for its subdomains")
    from ...web.ops import parse_allow

    try:
        parse_allow(metrics_allow)
    except ValueError as exc:
        fail(f"--metrics-allow {exc}")
    if metrics_allow and not metrics:
        fail("--metrics-allow needs --metrics (metrics are off without it)")
    return public, hosts


def _run(
    web_app: Any,
    sock: socket.socket,
    host: str,
    bound: int,
    log_level: str,
    forwarded_allow_ips: str,
    header_timeout: float,
    max_connections: int,
    max_connections_per_address: int,
    log_format: str = "text",
    log_config: dict[str, Any] | None = None,
) -> None:
    """Serve ``web_app`` with uvicorn on the bound ``sock`` until it is stopped."""
    import uvicorn
    from uvicorn.config import HTTP_PROTOCOLS, LOGGING_CONFIG, WS_PROTOCOLS
    from uvicorn.importer import import_from_string

    from ...web.app import MAX_FRAME_BYTES
    from ...web.limits import ConnectionGuard, guarded_protocols, raise_open_files_limit
    from ...web.security import install_log_redaction

    # frames up to MAX_FRAME_BYTES are read and answered (too_large); larger ones close with 1009
    # no permessage-deflate: a state is a few kilobytes a move, nothing for any connection, and
    # compressing every frame cost a busy server about 9% more CPU a move and a zlib context per
    # connection (docs/deploy.md, "WebSocket compression"); browsers that offer it are answered
    # without it, the messages are the same
    # connections: a deadline for the headers, caps per address and in all (web/limits.py,
    # docs/deploy.md "Connections"); the open-files limit is raised toward the hard one so the
    # caps, not the system, decide, and the total cap is lowered to fit what is left of it
    soft, _hard = raise_open_files_limit(max(4096, max_connections + FILES_HELD_BACK))
    if soft and (max_connections == 0 or max_connections > soft - FILES_HELD_BACK):
        fitted = max(1, soft - FILES_HELD_BACK)
        _say(
            log_format,
            f"gin serve: --max-connections {max_connections or 'unlimited'} lowered to {fitted} "
            f"(open-files limit {soft})",
            max_connections=fitted,
            open_files_limit=soft,
        )
        max_connections = fitted
    guard = ConnectionGuard(max_connections_per_address, max_connections, header_timeout)
    http_class, ws_class = guarded_protocols(
        import_from_string(HTTP_PROTOCOLS["auto"]), import_from_string(WS_PROTOCOLS["auto"]), guard
    )
    config = uvicorn.Config(
        web_app,
        host=host,
        port=bound,
        log_level=log_level,
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False,
        http=http_class,
        ws=cast(Any, ws_class),
        log_config=log_config or LOGGING_CONFIG,
        limit_concurrency=(max_connections + FILES_HELD_BACK // 2) if max_connections else None,
        **proxy_options(forwarded_allow_ips),
    )
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
