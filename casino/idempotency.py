"""Idempotency keys on the API's commands (issue 25 item 3; the IETF HTTPAPI draft "The
Idempotency-Key HTTP Header Field").

A terminal that lost the answer to a command (a timeout, a restarted server) sends it
again with the same ``Idempotency-Key`` header and gets the answer of what happened,
with nothing recorded twice. Every command of the API passes through
:func:`idempotent_answer` (``casino.api.commands.Command.post``):

* no header: the command runs exactly as without this module (no transaction of ours);
* an empty key, one over 255 characters or with a character other than printable ASCII:
  400 ``invalid_idempotency_key``, nothing run;
* keys are per login: another login's same key is a different key;
* the request's fingerprint is the SHA-256 of its method, path and raw body; the same key
  with the same fingerprint, done before: the stored answer again (status, body bytes,
  content type) with ``Idempotent-Replayed: true``, nothing recorded; with another
  fingerprint: 422 ``idempotency_key_reused``;
* on PostgreSQL a replay first checks that the primary replicates synchronously when
  it is configured to (casino.replication.confirm_replicating): 503
  ``replication_unconfirmed`` otherwise, since the stored answer may acknowledge a commit
  the standby never confirmed;
* the same key while the first request still runs: 409 ``idempotency_key_in_flight``
  with ``Retry-After: 1`` (PostgreSQL: an advisory lock of the login and key, tried, not
  waited for).

The key's row is written in the command's own transaction, as the console's
:class:`console.models.FormSubmission` is: it exists exactly when the command's events
do. A refusal (4xx) rolls it back with the command, so a corrected request may use the
key again. Keys are kept ``IDEMPOTENCY_KEY_HOURS`` (at least 24), then deleted by the
beat task ``casino.idempotency_keys_expire`` (:func:`keys_expire`), with the console's
form keys of the same age.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpResponse, RawPostDataException
from django.utils import timezone

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.errors import ConcurrencyError
from casino.eventstore.store import writer_turn
from casino.replication import confirm_replicating

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
#: what a key may hold: printable ASCII, at least one character not a space (a UUID, say);
#: the schema's pattern for the header (casino.api.schema)
KEY_PATTERN = r"^[ -~]*[!-~][ -~]*$"
VISIBLE_ASCII = re.compile(r"[ -~]*")
#: how often a command whose append lost a race is run again from the start, in a new
#: transaction (the command runner's own count: casino.command_runner._ATTEMPTS)
ATTEMPTS = 4
#: seconds a client is asked to wait before sending an in-flight key again
RETRY_AFTER_SECONDS = 1


class InvalidIdempotencyKey(DomainError):
    code = "invalid_idempotency_key"
    status = 400


class IdempotencyKeyReused(DomainError):
    """The key was used by this login for another request (another method, path or
    body): 422, as the draft says."""

    code = "idempotency_key_reused"
    status = 422


class IdempotencyKeyInFlight(ConflictError):
    """The first request with this key has not finished; ``headers`` go on the answer
    (casino.api.problems)."""

    code = "idempotency_key_in_flight"
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}


def key_of(request: Any) -> str | None:
    """The request's idempotency key, or None without the header; 400 when it is empty,
    over 255 characters or holds anything but printable ASCII (the key is opaque: a
    quoted Structured Field string is taken as sent, quotes and all, the same on every
    retry)."""
    key = request.META.get("HTTP_IDEMPOTENCY_KEY")
    if key is None:
        return None
    if not key.strip():
        raise InvalidIdempotencyKey(f"the {HEADER} header is empty", field=HEADER)
    if len(key) > MAX_KEY_LENGTH:
        raise InvalidIdempotencyKey(
            f"the {HEADER} is {len(key)} characters long; at most {MAX_KEY_LENGTH}",
            field=HEADER)
    if not VISIBLE_ASCII.fullmatch(key):
        raise InvalidIdempotencyKey(
            f"the {HEADER} holds a character other than printable ASCII", field=HEADER)
    return key


def fingerprint(request: Any) -> str:
    """SHA-256 of the method, the path and the raw body. The body is read before the
    command parses it; a multipart body already read by a CSRF check (a session's form
    post) has no raw bytes left, so its parsed fields stand in for them."""
    try:
        body = request.body
    except RawPostDataException:
        body = json.dumps(request.data, sort_keys=True, default=str).encode()
    digest = hashlib.sha256()
    digest.update(f"{request.method} {request.path}\n".encode())
    digest.update(body)
    return digest.hexdigest()


def idempotent_answer(request: Any, run: Callable[[], Any], *,
                      render: Callable[[Any], None]) -> Any:
    """The answer to a command request: ``run()`` as is without a key; with one, the
    stored answer, a refusal of the key, or ``run()`` in one transaction with the key's
    row. ``render`` renders ``run()``'s response in place, so its bytes can be kept."""
    key = key_of(request)
    if key is None:
        return run()
    request_digest = fingerprint(request)
    user_id = request.user.pk
    for attempt in range(ATTEMPTS):
        try:
            return _run_once(user_id, key, request_digest, run, render)
        except ConcurrencyError:
            # The store refused an append (a race the runner retries by itself outside a
            # transaction; inside ours it cannot): the whole command again, a new
            # transaction, its own fresh read.
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _run_once(user_id: int, key: str, request_digest: str, run: Callable[[], Any],
              render: Callable[[Any], None]) -> Any:
    # SQLite: transactions begin IMMEDIATE (casino.env), so this one holds the database's
    # one write lock from its first statement: a retry racing the first waits for it to
    # commit, then finds its row and replays it. No in-flight answer is needed there.
    with writer_turn(), transaction.atomic():
        if not _locked(user_id, key):
            raise IdempotencyKeyInFlight(
                f"a request with this {HEADER} is still being recorded; send it again in "
                f"{RETRY_AFTER_SECONDS} second")
        # Looked up in a statement after the lock's, never in the same one: a statement's
        # snapshot is taken as it starts, so a first request committing between that and
        # the lock would be missed and the command run twice.
        done = _stored(user_id, key)
        if done is not None:
            # The stored answer acknowledges a commit; with a synchronous standby
            # configured and none in sync it may be one the standby never confirmed
            # (casino.replication): 503 replication_unconfirmed rather than the 2xx.
            confirm_replicating()
            return replayed(done, request_digest)
        response = run()
        render(response)
        if 200 <= response.status_code < 300:
            _store(user_id, key, request_digest, response)
        else:  # not kept: a corrected request may use the key again (nothing recorded)
            transaction.set_rollback(True)
        return response


def lock_id(user_id: int, key: str) -> int:
    """The advisory lock's 64-bit id for this login's key (signed, as PostgreSQL's
    bigint)."""
    digest = hashlib.sha256(f"idempotency:{user_id}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _locked(user_id: int, key: str) -> bool:
    """PostgreSQL: this transaction holds the key's advisory lock (released at its end),
    or another request of the key does and this one answers 409. SQLite: always (one
    writer at a time already)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cur:
        cur.execute("SELECT pg_try_advisory_xact_lock(%s)", [lock_id(user_id, key)])
        return bool(cur.fetchone()[0])


def _stored(user_id: int, key: str) -> Any:
    from casino.models import IdempotencyKey

    return IdempotencyKey.objects.filter(user_id=user_id, key=key).first()


def replayed(done: Any, request_digest: str) -> HttpResponse:
    """The stored answer again, or 422 when the key was used for another request."""
    if done.fingerprint != request_digest:
        raise IdempotencyKeyReused(
            f"this {HEADER} was already used for another request (another method, path "
            "or body); use a new key for a new request", field=HEADER)
    response = HttpResponse(bytes(done.body), status=done.status,
                            content_type=done.content_type)
    response[REPLAYED_HEADER] = "true"
    return response


#: kept instead of an answer that must not be kept (``Cache-Control: no-store``: a half of
#: an enrolment code, issue 35): a retry learns the step was done, not the secret
SHOWN_ONCE = (b'{"type":"about:blank","title":"Shown once","status":409,'
              b'"code":"answer_shown_once","detail":"this step was recorded and its answer '
              b'was shown once; it is not kept"}')


def _store(user_id: int, key: str, request_digest: str, response: Any) -> None:
    from casino.models import IdempotencyKey

    now = timezone.now()
    once = "no-store" in response.get("Cache-Control", "")
    IdempotencyKey.objects.create(
        user_id=user_id, key=key, fingerprint=request_digest,
        status=409 if once else response.status_code,
        body=SHOWN_ONCE if once else bytes(response.content),
        content_type="application/problem+json" if once else response.get("Content-Type",
                                                                           ""),
        created_at=now, expires_at=now + kept_for())


def kept_for() -> timedelta:
    """How long a key is kept: ``IDEMPOTENCY_KEY_HOURS`` (at least 24, the issue's
    minimum, enforced where the setting is read)."""
    return timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)


#: other keys of the same age to delete with the API's (the console's form keys, which
#: console.apps registers: the casino app imports nothing of the console)
_ALSO_EXPIRED: dict[str, Callable[[datetime], int]] = {}


def expire_also(name: str, delete_older_than: Callable[[datetime], int]) -> None:
    """Have :func:`keys_expire` also call ``delete_older_than(cutoff)`` (it returns how
    many rows it deleted). Registering a name again replaces it."""
    _ALSO_EXPIRED[name] = delete_older_than


def keys_expire(now: datetime | None = None) -> dict[str, int]:
    """Delete the API's keys past their ``expires_at`` and every registered kind of key
    created more than ``IDEMPOTENCY_KEY_HOURS`` ago; how many of each."""
    from casino.models import IdempotencyKey

    now = now or timezone.now()
    done = {"api": IdempotencyKey.objects.filter(expires_at__lte=now).delete()[0]}
    for name, delete in _ALSO_EXPIRED.items():
        done[name] = delete(now - kept_for())
    return done


__all__ = ["HEADER", "REPLAYED_HEADER", "IdempotencyKeyInFlight", "IdempotencyKeyReused",
           "InvalidIdempotencyKey", "expire_also", "fingerprint", "idempotent_answer",
           "key_of", "keys_expire", "lock_id", "replayed"]
