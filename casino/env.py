"""Strict parsing of settings from the environment.

A bad value stops start-up with a message that names the variable: a casino would rather
not open than open on a misread setting.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    v = raw.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true/false, 1/0, yes/no)")


def env_int(name: str, default: int, *, minimum: int | None = None,
            maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise ImproperlyConfigured(f"{name}={value} is outside {minimum}..{maximum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [p.strip() for p in raw.split(",") if p.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} is set but names nothing")
    return items


def env_header(name: str, default: tuple[str, str] | None) -> tuple[str, str] | None:
    """A request header and the value that marks HTTPS, ``X-Forwarded-Proto=https``, as
    Django's ``SECURE_PROXY_SSL_HEADER`` wants it (``("HTTP_X_FORWARDED_PROTO", "https")``);
    ``off`` for none."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    if raw.strip().lower() in ("off", "none", "false", "0"):
        return None
    header, sep, value = raw.partition("=")
    if not sep or not header.strip() or not value.strip():
        raise ImproperlyConfigured(f"{name}={raw!r} is not a header and its value, e.g. "
                                   "X-Forwarded-Proto=https (or off)")
    return "HTTP_" + header.strip().upper().replace("-", "_"), value.strip()


def env_timezone(name: str, default: str) -> str:
    raw = os.environ.get(name, default)
    try:
        ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(f"{name}={raw!r} is not an IANA time zone") from None
    return raw


def env_file(name: str) -> Path | None:
    """A path to an existing file, or None when the variable is unset or empty."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    path = Path(raw)
    if not path.is_file():
        raise ImproperlyConfigured(f"{name}={raw!r} is not a readable file")
    return path


#: libpq's connection parameters a ``DATABASE_URL`` leaves unset get these (issue 26 item
#: 5): a server that does not answer is given up on in 2 s (per host of a multi-host URL);
#: a connection waiting on a host that vanished (a partition) is noticed by keepalives in
#: about 2 + 1 x 2 s, and one waiting for its data to be acknowledged in 4 s
#: (``tcp_user_timeout``, which keepalives do not cover), instead of the kernel's 15 min.
#: So a request in flight when the database goes away is answered 503 within 10 s: about
#: 4 s to learn of it, 2 s per host to fail to reconnect (the database is on the LAN: a
#: silence of 4 s is a fault, not a slow link).
LIBPQ_DEFAULTS = {"connect_timeout": "2", "keepalives": "1", "keepalives_idle": "2",
                  "keepalives_interval": "1", "keepalives_count": "2",
                  "tcp_user_timeout": "4000"}
#: keys of a URL's query string that are Django's, not libpq's
_DJANGO_KEYS = {"isolation_level", "server_side_binding", "assume_role"}


def session_timeouts() -> dict[str, int]:
    """The server-side limits every session starts with (milliseconds, 0: none): a
    statement (``DB_STATEMENT_TIMEOUT_MS``), a wait for a lock (``DB_LOCK_TIMEOUT_MS``)
    and a transaction left open doing nothing (``DB_IDLE_IN_TRANSACTION_TIMEOUT_MS``).
    A request that meets one answers 503 (casino.outage) instead of hanging;
    ``casino.db_timeouts.lifted`` lifts the first two for a command that legitimately
    runs long."""
    day = 24 * 3600 * 1000
    return {
        "statement_timeout": env_int("DB_STATEMENT_TIMEOUT_MS", 15_000, minimum=0,
                                     maximum=day),
        "lock_timeout": env_int("DB_LOCK_TIMEOUT_MS", 5_000, minimum=0, maximum=day),
        "idle_in_transaction_session_timeout": env_int(
            "DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 60_000, minimum=0, maximum=day),
    }


def _split_hosts(netloc: str, name: str) -> tuple[str, str, str, str]:
    """``user:password@host1:port1,host2:port2`` → user, password, "host1,host2",
    "port1,port2" (the comma lists libpq takes; a host without a port gets 5432, so the
    two lists stay the same length). IPv6 hosts are written in brackets."""
    from urllib.parse import unquote

    userinfo, _, hostlist = netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    hosts, ports = [], []
    for item in hostlist.split(","):
        item = item.strip()
        if item.startswith("["):
            host, _, rest = item[1:].partition("]")
            port = rest[1:] if rest.startswith(":") else ""
        else:
            host, _, port = item.partition(":")
        if port and not port.isdigit():
            raise ImproperlyConfigured(f"{name} names the port {port!r}, not a number")
        hosts.append(unquote(host))
        ports.append(port or "5432")
    if not any(hosts):
        hosts, ports = [], []  # libpq's own default: the local socket
    elif not all(hosts):
        raise ImproperlyConfigured(f"{name} has an empty host in its list of hosts")
    return unquote(user), unquote(password), ",".join(hosts), ",".join(ports)


def postgres_config(raw: str, name: str = "DATABASE_URL") -> dict:
    """Django's settings of a ``postgres://`` URL, one host or several
    (``postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write``): every
    query-string parameter goes to libpq as is (``target_session_attrs``,
    ``connect_timeout``, ``sslmode``, ...), over :data:`LIBPQ_DEFAULTS`, and the
    :func:`session_timeouts` go in its ``options`` (a URL's own ``options`` after them,
    so it wins). Connections persist 60 s and are checked before each request reuses one
    (``CONN_HEALTH_CHECKS``): after a failover the next request reconnects, and
    ``target_session_attrs=read-write`` finds the new primary."""
    from urllib.parse import parse_qsl, unquote, urlsplit

    parts = urlsplit(raw)
    user, password, hosts, ports = _split_hosts(parts.netloc, name)
    database = unquote(parts.path.lstrip("/"))
    if not database:
        raise ImproperlyConfigured(f"{name} names no database (postgres://host:5432/name)")
    options: dict = dict(LIBPQ_DEFAULTS)
    try:
        query = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        raise ImproperlyConfigured(f"{name} has a malformed query string") from None
    own_options = ""
    for key, value in query:
        if key == "options":
            own_options = value
        else:
            options[key] = value
    limits = " ".join(f"-c {k}={v}" for k, v in session_timeouts().items())
    options["options"] = f"{limits} {own_options}".strip()
    for key in _DJANGO_KEYS & options.keys():
        if key == "server_side_binding":
            options[key] = options[key].lower() in _TRUE
        elif key == "isolation_level":
            options[key] = int(options[key])
    return {"ENGINE": "django.db.backends.postgresql", "NAME": database, "USER": user,
            "PASSWORD": password, "HOST": hosts, "PORT": ports, "OPTIONS": options,
            "CONN_MAX_AGE": 60, "CONN_HEALTH_CHECKS": True,
            "DISABLE_SERVER_SIDE_CURSORS": False}


def env_database(name: str, default_sqlite: Path) -> dict:
    import dj_database_url

    raw = os.environ.get(name)
    if raw is None:
        default_sqlite.parent.mkdir(parents=True, exist_ok=True)
        raw = f"sqlite:///{default_sqlite}"
    if raw.split("://", 1)[0] in {"postgres", "postgresql", "pgsql"}:
        # dj_database_url refuses a list of hosts and drops nothing of the query string
        # only for one host: these URLs are read here (issue 26 item 5).
        return postgres_config(raw, name)
    try:
        config = dj_database_url.parse(raw, conn_max_age=60)
    except Exception as exc:  # the library raises several types for a bad URL
        raise ImproperlyConfigured(f"{name} is not a database URL: {exc}") from None
    engine = config.get("ENGINE", "")
    if engine.endswith("sqlite3"):
        config["OPTIONS"] = {
            # Writers queue instead of failing at once; WAL lets readers run beside them.
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        config["CONN_MAX_AGE"] = 0
    else:
        raise ImproperlyConfigured(f"{name} must be a sqlite:// or postgres:// URL, not {engine!r}")
    return config


def env_broker(name: str) -> str:
    raw = os.environ.get(name)
    if raw is None:
        return "filesystem://localhost/"
    if raw.split("://", 1)[0] not in {"redis", "rediss", "filesystem", "memory", "amqp"}:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a broker URL (redis://host:port/db)")
    return raw


def secret_key(*, debug: bool, embedded: bool, var_dir: Path) -> str:
    """``SECRET_KEY`` from the environment.

    On the embedded default (no ``DATABASE_URL``) or with DEBUG on, a key is generated once
    into ``var/`` so that a fresh checkout runs; a production database without a key stops.
    """
    raw = os.environ.get("SECRET_KEY")
    if raw:
        if len(raw) < 32:
            raise ImproperlyConfigured("SECRET_KEY must be at least 32 characters")
        return raw
    if not (debug or embedded):
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off "
                                   "and DATABASE_URL names a production database")
    path = var_dir / "secret_key"
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()
