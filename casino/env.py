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


def env_database(name: str, default_sqlite: Path) -> dict:
    import dj_database_url

    raw = os.environ.get(name)
    if raw is None:
        default_sqlite.parent.mkdir(parents=True, exist_ok=True)
        raw = f"sqlite:///{default_sqlite}"
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
    elif not engine.endswith("postgresql"):
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
