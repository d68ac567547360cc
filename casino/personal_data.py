"""Personal data in an immutable log: crypto-shredding (issue 24).

A player's name, phone and e-mail (a list entry, a High Hand Tracking Slip 637a.16(f)(1),
a Bad Beat payee 637a.15(f)) are written into the events *sealed*: encrypted with AES-GCM
under a key of their own subject (one list entry, one slip, one payout). The key lives in
:class:`casino.models.PersonalDataKey`, outside the events. Erasing the key erases the
details everywhere at once, while the events, their hash chain and the seals stay as they
were: they cover the ciphertext, which does not change.

``seal`` and ``unseal`` are the one way in and out; nothing else reads a key.

The erasure (:func:`personal_data_erase`) is itself an event: ``PersonalDataErased
{subject, kind, reason}`` in the subject's own stream ``personal_data-<subject>``,
appended in the transaction that sets the key to NULL. Each app's projection blanks its
rows on that event (the floor's list entries, the jackpots' slips and payouts), and a
rebuild after it finds nothing left to unseal. The beat task ``casino.personal_data_erase_due``
erases every key whose ``retain_until`` has passed (:func:`erase_due`); how long each kind
is kept is the setting ``PERSONAL_DATA_RETENTION_DAYS`` (:func:`retention_end`).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import uuid
from datetime import datetime, timedelta
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.roles import Role

#: the marker of a sealed value in an event's data
SEALED = "sealed"
#: what every reader shows in place of a detail once its key is erased
ERASED = "erased"
#: the erasure's event, in the subject's own stream
ERASED_EVENT = "PersonalDataErased"
STREAM_TYPE = "personal_data"
#: the kinds of subject, each with its retention (settings.PERSONAL_DATA_RETENTION_DAYS)
KINDS = ("list_entry", "high_hand_slip", "bad_beat_payout", "seated_player")
#: who erases one subject on a person's request (the beat task erases as the system)
ERASING = (Role.COMPLIANCE,)


class PersonalDataError(DomainError):
    code = "invalid_personal_data"


def stream_id(subject: Any) -> str:
    return f"{STREAM_TYPE}-{uuid.UUID(str(subject))}"


def key_create(*, subject: Any, property_id: Any, kind: str,
               retain_until: datetime | None = None) -> bytes:
    """A new 256-bit key for ``subject`` (a UUID: the entry's, the slip's id), in the
    caller's transaction; returns it, for :func:`seal` to take (the row just inserted is
    the caller's until it commits: no erasure can come between). ``kind`` names the
    retention rule (:data:`KINDS`); ``retain_until`` None: not known yet (the record has
    not ended, :func:`retain_from`)."""
    from casino.models import PersonalDataKey

    if kind not in KINDS:
        raise ValueError(f"unknown kind of personal data {kind!r}; known: {', '.join(KINDS)}")
    key = AESGCM.generate_key(bit_length=256)
    PersonalDataKey.objects.create(subject=uuid.UUID(str(subject)), property_id=property_id,
                                   kind=kind, key=key, created_at=timezone.now(),
                                   retain_until=retain_until)
    return key


def seal(subject: Any, details: dict[str, Any], *, key: bytes | None = None
         ) -> dict[str, str]:
    """``details`` encrypted under ``subject``'s key, as an event's data holds it:
    ``{"sealed": <base64 nonce + ciphertext>, "subject": <uuid>}``. The subject is the
    associated data, so a sealed value copied under another subject does not open.
    An erased subject is refused (409 ``personal_data_erased``): nothing new is written
    about it. ``key``: the key :func:`key_create` just gave back in this transaction
    (nobody can erase it before the commit), so it is not read again; without it the key
    is read and held FOR SHARE (:func:`_key`)."""
    subject = str(uuid.UUID(str(subject)))
    if key is None:
        found, key = _key(subject, lock=True)
        if not found:
            raise NotFoundError(f"no personal data key for {subject}",
                                code="personal_data_not_found")
        if key is None:
            raise ConflictError(f"the personal data of {subject} was erased",
                                code="personal_data_erased")
    nonce = os.urandom(12)
    body = json.dumps(details, sort_keys=True, separators=(",", ":")).encode()
    box = AESGCM(key).encrypt(nonce, body, subject.encode())
    sealed = base64.b64encode(nonce + box).decode()
    _sealed_here(subject, sealed, details)
    return {SEALED: sealed, "subject": subject}


#: what this process sealed in the transaction still open, by ciphertext: the inline
#: projections of the very events that carry it open it without reading the key again.
#: A ciphertext is new each time (a random nonce), so only the events of the transaction
#: that sealed it hold it; the writer holds the key (FOR SHARE, or its own new row) until
#: it commits, so no erasure of another comes between (an erasure in this thread empties
#: it). Per thread (as the connection is), emptied when the transaction commits; a
#: transaction rolled back leaves values nothing stored will ever hold (bounded).
_here = threading.local()
_SEALED_HERE_MAX = 256


def _sealed_by_this_transaction() -> dict[tuple[str, str], dict[str, Any]]:
    if not hasattr(_here, "sealed"):
        _here.sealed = {}
    return _here.sealed


def _sealed_here(subject: str, sealed: str, details: dict[str, Any]) -> None:
    if not connection.in_atomic_block:
        return
    here = _sealed_by_this_transaction()
    if len(here) >= _SEALED_HERE_MAX:
        here.clear()
    here[(subject, sealed)] = json.loads(json.dumps(details))
    transaction.on_commit(lambda: here.pop((subject, sealed), None))


def is_sealed(value: Any) -> bool:
    return isinstance(value, dict) and SEALED in value and "subject" in value


def subject_of(value: Any) -> uuid.UUID | None:
    """The subject a sealed value belongs to (None for a value not sealed)."""
    return uuid.UUID(value["subject"]) if is_sealed(value) else None


def _key(subject: str, *, lock: bool) -> tuple[bool, bytes | None]:
    """(whether ``subject`` has a key row, its key or None once erased)."""
    from casino.models import PersonalDataKey

    if lock and connection.vendor == "postgresql" and connection.in_atomic_block:
        # A writer sealing details into its events, or a projection unsealing them into
        # its rows, holds the key row FOR SHARE until it commits, so an erasure (which
        # locks the row FOR UPDATE) waits for those rows and then blanks them, or runs
        # first and the writer is refused, the projection finds no key: never rows in
        # clear committed after the erasure blanked the others.
        with connection.cursor() as cur:
            cur.execute(f"SELECT key FROM {PersonalDataKey._meta.db_table} "
                        "WHERE subject = %s FOR SHARE", [subject])
            row = cur.fetchone()
    else:
        row = PersonalDataKey.objects.filter(subject=subject).values_list("key").first()
    if row is None:
        return False, None
    return True, None if row[0] is None else bytes(row[0])


def unseal(value: Any, *, lock: bool = False) -> Any:
    """The details of a sealed value; None once its key is erased. A value that is not
    sealed (an event recorded before issue 24) is given back as it is. ``lock``: a
    projection writing the details into its rows (see :func:`_key`)."""
    if not is_sealed(value):
        return value
    try:
        subject = str(uuid.UUID(str(value["subject"])))
    except ValueError:
        return None
    opened = (_sealed_by_this_transaction().get((subject, value[SEALED]))
              if connection.in_atomic_block and isinstance(value[SEALED], str) else None)
    if opened is not None:
        return json.loads(json.dumps(opened))
    _, key = _key(subject, lock=lock)
    if key is None:
        return None
    try:
        raw = base64.b64decode(value[SEALED])
        body = AESGCM(key).decrypt(raw[:12], raw[12:], subject.encode())
    except (InvalidTag, ValueError):
        return None
    return json.loads(body)


# --- retention --------------------------------------------------------------------------

def retention(days: int, start: datetime | None = None) -> datetime:
    return (start or timezone.now()) + timedelta(days=days)


def retention_days(kind: str) -> int:
    """How many days a kind of personal data is kept after its record ends
    (settings.PERSONAL_DATA_RETENTION_DAYS; chapter 637a sets no period)."""
    return int(settings.PERSONAL_DATA_RETENTION_DAYS[kind])


def retention_end(kind: str, start: datetime | None = None) -> datetime:
    """When a ``kind`` record that ended at ``start`` (now) is due for erasure."""
    return retention(retention_days(kind), start)


def retain_from(subjects: Any, start: datetime | None = None) -> int:
    """The records of ``subjects`` ended at ``start`` (now): each is kept for its kind's
    retention from then, in the caller's transaction. A subject already erased, or one
    whose retention is already set, is left as it is. Returns how many were set."""
    from casino.models import PersonalDataKey

    start = start or timezone.now()
    keys = [uuid.UUID(str(s)) for s in subjects]
    done = 0
    for kind in KINDS:
        done += PersonalDataKey.objects.filter(
            subject__in=keys, kind=kind, retain_until__isnull=True,
            erased_at__isnull=True).update(retain_until=retention_end(kind, start))
    return done


# --- erasure ----------------------------------------------------------------------------

def _reason(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 500:
        raise PersonalDataError("the reason is text of 1 to 500 characters",
                                code="invalid_erasure_reason", field="reason")
    return value.strip()


def personal_data_erase(subject: Any, *, actor: Any, reason: Any) -> Any:
    """Erase one subject's personal data: its key set to NULL and ``erased_at`` set, and
    ``PersonalDataErased {subject, kind, reason}`` appended to ``personal_data-<subject>``
    in the same transaction; the projections blank their rows on that event. ``actor``:
    a compliance officer of the subject's property (a person's request), or the system
    (the retention sweep). 404 ``personal_data_not_found`` for a subject of no key or
    another property's; 409 ``personal_data_erased`` when it is erased already. Returns
    the key's row (its key gone, its dates kept as the proof)."""
    from casino.eventstore.store import NewEvent, Stream, append
    from casino.models import PersonalDataKey

    role = "system" if getattr(actor, "system", False) else actor.require(*ERASING)
    why = _reason(reason)
    try:
        key = uuid.UUID(str(subject))
    except ValueError:
        raise NotFoundError(f"no personal data of {subject!r}",
                            code="personal_data_not_found", field="subject") from None
    with transaction.atomic():
        # nothing sealed in a transaction of this thread opens from memory past an
        # erasure (a test's transaction, a command that erases what it sealed)
        _sealed_by_this_transaction().clear()
        row = PersonalDataKey.objects.select_for_update().filter(
            subject=key, property_id=actor.property.pk).first()
        if row is None:
            raise NotFoundError(f"no personal data of {key}", code="personal_data_not_found",
                                field="subject")
        if row.erased_at is not None:
            raise ConflictError(f"the personal data of {key} was erased already",
                                code="personal_data_erased")
        row.key = None
        row.erased_at = timezone.now()
        row.save(update_fields=["key", "erased_at"])
        append(Stream(STREAM_TYPE, stream_id(key)), 0,
               [NewEvent(ERASED_EVENT, {"subject": str(key), "kind": row.kind,
                                        "reason": why})],
               actor.metadata(role=role), savepoint=False)
    return row


def erase_due(now: datetime | None = None) -> int:
    """The beat task's work: every key whose ``retain_until`` has passed erased by the
    system, each in its own transaction and each an event. Safe to run twice, or beside
    a person's erasure: a key erased meanwhile is passed over. Returns how many it
    erased."""
    from casino.actors import system_actor
    from casino.models import PersonalDataKey, Property

    now = now or timezone.now()
    due = list(PersonalDataKey.objects.filter(
        erased_at__isnull=True, retain_until__lte=now).order_by(
        "retain_until", "subject").values_list("subject", "property_id", "kind"))
    actors: dict[int, Any] = {}
    done = 0
    for subject, property_id, kind in due:
        if property_id not in actors:
            actors[property_id] = system_actor(Property.objects.get(pk=property_id),
                                               "personal-data-retention")
        try:
            personal_data_erase(subject, actor=actors[property_id],
                                reason=f"the {kind.replace('_', ' ')}'s retention period "
                                       f"({retention_days(kind)} days) passed")
            done += 1
        except ConflictError:  # erased meanwhile (another run, or on a request)
            continue
    return done
