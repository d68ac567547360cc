"""Signed digests of the event log's newest seal, kept outside the database (DESIGN §3).

The stream chains and the seals (:mod:`casino.eventstore.seals`) show that no event was
changed *in place*; they cannot show that events were deleted and the seals after them
re-computed, by someone who can lift the append-only triggers. A digest closes that gap
as SQL Server ledger digests, QLDB digests and certificate-transparency signed tree
heads do: every few minutes, at each gaming-day close and on demand, the log is sealed
up to what has settled and the newest seal's last position and hash are signed with a
key the database does not hold and written to an append-only store outside it
(``casino.eventstore.digest_store``). ``verify_events`` then checks the log against
every digest: the seal ending at each digest's position must still exist and still carry
the digest's hash (and the seals and events under it are checked by the walk).

A digest is a JSON object::

    {"position": 1234, "hash": "<64 hex>", "head_recorded_at": "…Z" | null,
     "made_at": "…Z", "reason": "periodic" | "gaming_day_close" | "on_demand",
     "gaming_day": "YYYY-MM-DD" | null, "key_id": "<16 hex>", "signature": "<base64>"}

``signature`` is Ed25519 over the canonical JSON (casino.eventstore.canonical) of every
other field, so a copy can be checked anywhere with the public key alone. No Django
model: nothing about a digest is stored in the database it vouches for.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from casino.domain.gaming_day import gaming_day_of
from casino.eventstore import digest_keys
from casino.eventstore.canonical import GENESIS_HASH, canonical_json, timestamp_text
from casino.eventstore.digest_keys import DigestKeyError
from casino.eventstore.digest_store import NAME, DigestExists, DigestStore, digest_store
from casino.eventstore.seals import seal_head, seal_now

log = logging.getLogger(__name__)

PERIODIC, GAMING_DAY_CLOSE, ON_DEMAND = "periodic", "gaming_day_close", "on_demand"
REASONS = (PERIODIC, GAMING_DAY_CLOSE, ON_DEMAND)
SIGNED_FIELDS = ("position", "hash", "head_recorded_at", "made_at", "reason", "gaming_day",
                 "key_id")
FIELDS = (*SIGNED_FIELDS, "signature")
#: Key of the advisory lock that keeps two digest writers from both deciding a day's
#: close digest is still due ("CASDIGST" in ASCII).
DIGEST_LOCK_KEY = 0x4341534449475354
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_MAX_POSITION = 2**63 - 1
#: How ``verify_events`` names the first digest a restored log no longer reaches.
RESTORED_BEFORE = "restored to before digest"


class DigestUnavailable(Exception):
    """The key or the store cannot be used: nothing was written or checked."""


__all__ = ["DigestExists", "DigestReport", "DigestUnavailable", "LogView", "StoredDigest",
           "digest_check", "digest_for_gaming_day", "digest_make", "digest_name",
           "digest_write", "digests_list", "digests_page", "public_key_info",
           "verify_digests", "write_due"]


@dataclass(frozen=True)
class StoredDigest:
    """One entry of the store: its name, and its digest or why it could not be read."""

    name: str
    digest: dict[str, Any] | None
    error: str = ""


@dataclass(frozen=True)
class DigestReport:
    """What ``verify_digests`` found: ``checked`` digests matched the log, in order,
    before ``first_bad`` (a store name) did not, for ``reason``."""

    ok: bool
    checked: int
    total: int
    first_bad: str | None = None
    reason: str = ""
    newest: str | None = None
    #: ``first_bad`` is signed and valid but the log no longer reaches its position: the
    #: database was restored to before it (or its tail was deleted), not rewritten.
    restored_before: bool = False


# --- the format ----------------------------------------------------------------------

def signed_message(digest: dict[str, Any]) -> bytes:
    """The bytes the signature covers: canonical JSON of every field but ``signature``."""
    return canonical_json({k: v for k, v in digest.items() if k != "signature"}).encode()


def digest_name(digest: dict[str, Any]) -> str:
    """``<made_at>-<position>-<reason>[-<gaming day>].json``: by time, then position."""
    made = datetime.strptime(digest["made_at"], "%Y-%m-%dT%H:%M:%S.%fZ")
    day = f"-{digest['gaming_day']}" if digest.get("gaming_day") else ""
    return (f"{made.strftime('%Y%m%dT%H%M%S%fZ')}-{digest['position']:012d}"
            f"-{digest['reason']}{day}.json")


def digest_make(*, position: int, hash: str, head_recorded_at: datetime | None,
                reason: str, gaming_day: date | None, made_at: datetime) -> dict[str, Any]:
    """A signed digest of a head. Timestamps are stored as the exact text that was
    signed (microseconds, UTC, ``Z``), so that nothing re-formats them before a check."""
    if reason not in REASONS:
        raise ValueError(f"reason must be one of {', '.join(REASONS)}, not {reason!r}")
    private = _key(digest_keys.checked_signing_key)
    body = {"position": position, "hash": hash,
            "head_recorded_at": timestamp_text(head_recorded_at) if head_recorded_at else None,
            "made_at": timestamp_text(made_at), "reason": reason,
            "gaming_day": gaming_day.isoformat() if gaming_day else None,
            "key_id": digest_keys.key_id(private.public_key())}
    body["signature"] = base64.b64encode(private.sign(signed_message(body))).decode("ascii")
    return body


def _key(load: Any) -> Any:
    try:
        return load()
    except (DigestKeyError, OSError) as exc:
        raise DigestUnavailable(str(exc)) from None


def _encode(digest: dict[str, Any]) -> bytes:
    return (json.dumps(digest, indent=2, sort_keys=True) + "\n").encode()


def _shape_problem(digest: Any) -> str | None:
    """Why a parsed file is not a digest, or None."""
    if not isinstance(digest, dict) or set(digest) != set(FIELDS):
        got = sorted(digest) if isinstance(digest, dict) else type(digest).__name__
        return f"not a digest: fields are {got}"
    position = digest["position"]
    if type(position) is not int or not 0 <= position <= _MAX_POSITION:
        return "not a digest: position is not a whole number"
    if not isinstance(digest["hash"], str) or not _HEX64.match(digest["hash"]):
        return "not a digest: hash is not 64 hex digits"
    if digest["reason"] not in REASONS:
        return f"not a digest: unknown reason {digest['reason']!r}"
    texts = ("made_at", "key_id", "signature")
    if not all(isinstance(digest[k], str) for k in texts):
        return "not a digest: made_at, key_id and signature must be text"
    if not all(digest[k] is None or isinstance(digest[k], str)
               for k in ("head_recorded_at", "gaming_day")):
        return "not a digest: head_recorded_at and gaming_day must be text or null"
    return None


def _parse(raw: bytes) -> dict[str, Any]:
    """A stored digest, or ValueError saying why it is not one."""
    try:
        digest = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a digest: unreadable JSON ({exc})") from None
    problem = _shape_problem(digest)
    if problem:
        raise ValueError(problem)
    return digest


# --- writing ---------------------------------------------------------------------------

def _head() -> tuple[int, str, datetime | None]:
    """What a digest signs: the newest seal (sealing first whatever has settled since),
    as the last position it covers, its hash, and when that event was recorded."""
    seal_now()
    sealed = seal_head()
    return sealed.last_position, sealed.seal_hash, sealed.last_recorded_at


def digest_write(reason: str = ON_DEMAND, gaming_day: date | None = None, *,
                 now: datetime | None = None) -> dict[str, Any]:
    """Sign the current head and store it; return the digest.

    Call it outside any transaction that appended events: a digest must vouch for
    committed events only, or a rollback would later look like a deleted tail.
    """
    position, head_hash, recorded_at = _head()
    digest = digest_make(position=position, hash=head_hash, head_recorded_at=recorded_at,
                         reason=reason, gaming_day=gaming_day,
                         made_at=now or timezone.now())
    try:
        digest_store().create(digest_name(digest), _encode(digest))
    except DigestExists:
        raise  # a digest of that name is already stored: never replaced
    except OSError as exc:
        raise DigestUnavailable(f"cannot write to the digest store: {exc}") from None
    return digest


@contextmanager
def _serialized() -> Iterator[None]:
    """One digest writer at a time, so that "is a digest due?" and writing it are one
    step (a PostgreSQL advisory lock; SQLite's transactions already take its single
    write lock). The lock only coordinates writers; the digests stay outside."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", [DIGEST_LOCK_KEY])
        yield


def gaming_day_end(day: date, *, time_zone: str, start_hour: int) -> datetime:
    """The instant (UTC) a gaming day ends: the next day's start hour, local time."""
    after = day + timedelta(days=1)
    local = datetime(after.year, after.month, after.day, start_hour, tzinfo=ZoneInfo(time_zone))
    return local.astimezone(UTC)


def _close_days_due(names: list[str], now: datetime) -> list[date]:
    """Gaming days that have ended since the newest close digest (only the one just
    ended when there is none yet: earlier days are anchored by the same head anyway)."""
    today = gaming_day_of(now, time_zone=settings.PROPERTY_TIME_ZONE,
                          start_hour=settings.GAMING_DAY_START_HOUR)
    last_ended = today - timedelta(days=1)
    closed = _closed_days(names)
    first = max(closed) + timedelta(days=1) if closed else last_ended
    return [first + timedelta(days=i) for i in range((last_ended - first).days + 1)]


def _closed_days(names: Iterable[str]) -> set[date]:
    """The gaming days that already have a close digest (read from the names, which
    this module writes)."""
    return {date.fromisoformat(m["day"]) for m in map(NAME.match, names)
            if m and m["reason"] == GAMING_DAY_CLOSE and m["day"]}


def _head_unmoved(store: DigestStore, names: list[str]) -> bool:
    """Whether the newest digest already vouches for the current head."""
    if not names:
        return False
    try:
        newest = _parse(store.read(names[-1]))
    except (OSError, ValueError):
        return False
    position, head_hash, _ = _head()
    return (newest["position"], newest["hash"]) == (position, head_hash)


def write_due(*, reason: str = PERIODIC, gaming_day: date | None = None,
              now: datetime | None = None) -> list[dict[str, Any]]:
    """What the beat task does, safe to run twice: a ``periodic`` (or ``on_demand``)
    digest unless the head has not moved since the newest digest, then one
    ``gaming_day_close`` digest for each gaming day ended since the last one (never two
    for a day). ``reason="gaming_day_close"`` with ``gaming_day`` closes that day only
    (if not closed yet). ``now`` lets a caller, a test, fix the time."""
    now = now or timezone.now()
    store = digest_store()
    written = []
    try:
        with _serialized():
            names = store.names()
            if reason != GAMING_DAY_CLOSE and not _head_unmoved(store, names):
                written.append(digest_write(reason, now=now))
            days = _close_days_due(names, now)
            if reason == GAMING_DAY_CLOSE and gaming_day is not None:
                days = [] if gaming_day in _closed_days(names) else [gaming_day]
            written += [digest_write(GAMING_DAY_CLOSE, d, now=now) for d in days]
    except OSError as exc:
        raise DigestUnavailable(f"cannot use the digest store: {exc}") from None
    return written



# --- reading and checking ----------------------------------------------------------------

def digests_list() -> list[StoredDigest]:
    """Every stored digest, oldest first; one that cannot be read says why."""
    store = digest_store()
    out = []
    try:
        names = store.names()
    except OSError as exc:
        raise DigestUnavailable(f"cannot list the digest store: {exc}") from None
    for name in names:
        try:
            out.append(StoredDigest(name, _parse(store.read(name))))
        except (OSError, ValueError) as exc:
            out.append(StoredDigest(name, None, str(exc)))
    return out


@dataclass(frozen=True)
class LogView:
    """What the checks need of the log: where it ends and the hashes at some positions."""

    end: int
    hashes: dict[int, str]

    @classmethod
    def load(cls, positions: Iterable[int]) -> LogView:
        """The seals ending at ``positions`` (a digest signs a seal: its last position
        and its hash), and the last position sealed."""
        from casino.eventstore.models import EventSeal

        wanted = sorted({p for p in positions if type(p) is int and 0 < p <= _MAX_POSITION})
        hashes: dict[int, str] = {}
        for i in range(0, len(wanted), 1000):
            hashes.update(EventSeal.objects.filter(last_position__in=wanted[i:i + 1000])
                          .values_list("last_position", "seal_hash"))
        return cls(seal_head().last_position, hashes)


def digest_check(digest: dict[str, Any], *, name: str | None = None,
                 key: Any = None, log_view: LogView | None = None) -> str | None:
    """Why the log no longer matches this digest, or None: the signature must verify
    with the public key, the log must still reach the digest's position, and the event
    there must still carry the digest's hash."""
    problem = _shape_problem(digest)
    if problem:
        return problem
    name = name or digest_name(digest)
    key = key or _key(digest_keys.public_key)
    problem = _signature_problem(digest, key)
    if problem:
        return problem
    position = digest["position"]
    if position == 0:
        return None if digest["hash"] == GENESIS_HASH else "not a digest: empty log, bad hash"
    log_view = log_view or LogView.load([position])
    if log_view.end < position:
        return _restored_before(name, position, log_view.end)
    stored = log_view.hashes.get(position)
    if stored is None:
        return f"the seal ending at position {position} of digest {name} is missing"
    if stored != digest["hash"]:
        return (f"history rewritten at or before position {position}: digest {name} "
                f"records seal hash {digest['hash']}, the log's seal has {stored}")
    return None


def _restored_before(name: str, position: int, end: int) -> str:
    """The log ends before a valid digest's position: a restore from backup to an earlier
    point (or a deleted tail, which the log alone cannot tell from one). Not a rewritten
    history: a seal the log still has but with another hash is reported as that."""
    return (f"{RESTORED_BEFORE} {name} at position {position}: the log's seals end at "
            f"position {end}")


def _signature_problem(digest: dict[str, Any], key: Any) -> str | None:
    try:
        signature = base64.b64decode(digest["signature"], validate=True)
    except (binascii.Error, ValueError):
        return "signature does not verify: not base64"
    if digest_keys.signature_valid(key, signature, signed_message(digest)):
        return None
    ours = digest_keys.key_id(key)
    if digest["key_id"] != ours:
        return (f"signature does not verify: signed by key {digest['key_id']}, "
                f"the public key is {ours}")
    return "signature does not verify"


def verify_digests() -> DigestReport:
    """Check every stored digest against the log, oldest first; stop at the first one
    the log no longer matches (or that is not a valid digest at all)."""
    stored = digests_list()
    if not stored:
        return DigestReport(True, 0, 0)
    key = _key(digest_keys.public_key)
    log_view = LogView.load(s.digest["position"] for s in stored if s.digest)
    for checked, entry in enumerate(stored):
        problem = entry.error or digest_check(entry.digest or {}, name=entry.name, key=key,
                                              log_view=log_view)
        if problem:
            unreached = not entry.error and problem.startswith(RESTORED_BEFORE)
            return DigestReport(False, checked, len(stored), entry.name, problem,
                                stored[-1].name, restored_before=unreached)
    return DigestReport(True, len(stored), len(stored), newest=stored[-1].name)


def public_key_info() -> dict[str, str]:
    """What a copy needs to be verified elsewhere: the key's fingerprint and PEM."""
    key = _key(digest_keys.public_key)
    return {"algorithm": "Ed25519", "key_id": digest_keys.key_id(key),
            "public_key_pem": digest_keys.public_key_pem(key)}


def digests_page(*, limit: int, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    """Newest first: ``limit`` digests after skipping ``offset``, and the total. Only the
    page's files are read; one that cannot be read is left out (verify_events names it)."""
    store = digest_store()
    try:
        names = store.names()
        chosen = list(reversed(names))[offset:offset + limit]
        page = []
        for name in chosen:
            try:
                page.append(_parse(store.read(name)))
            except ValueError:
                log.warning("digest %s is not a valid digest; left out of the list", name)
    except OSError as exc:
        raise DigestUnavailable(f"cannot read the digest store: {exc}") from None
    return page, len(names)


def digest_for_gaming_day(day: date, *, time_zone: str, start_hour: int
                          ) -> dict[str, Any] | None:
    """The digest to print on a gaming day's report: that day's close digest, else the
    first digest made once the day was over, else (the day is not over yet) the newest.
    None when there is none, or when the store cannot be read (logged): a report is
    still printed without it."""
    try:
        store = digest_store()
        names = store.names()
        if not names:
            return None
        end = gaming_day_end(day, time_zone=time_zone, start_hour=start_hour)
        after = [n for n in names if n[:22] >= end.strftime("%Y%m%dT%H%M%S%fZ")]
        close = [n for n in after if n.endswith(f"-{GAMING_DAY_CLOSE}-{day.isoformat()}.json")]
        return _parse(store.read((close or after or names[-1:])[0]))
    except (OSError, ValueError) as exc:
        log.warning("no digest on the report of %s: %s", day, exc)
        return None
