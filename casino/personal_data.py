"""Personal data in an immutable log: crypto-shredding (issue 24).

A player's name, phone and e-mail (a list entry, a High Hand Tracking Slip 637a.16(f)(1),
a Bad Beat payee 637a.15(f)) are written into the events *sealed*: encrypted with AES-GCM
under a key of their own subject (one list entry, one slip, one payout). The key lives in
:class:`casino.models.PersonalDataKey`, outside the events. Erasing the key erases the
details everywhere at once, while the events, their hash chain and the seals stay as they
were: they cover the ciphertext, which does not change.

``seal`` and ``unseal`` are the one way in and out; nothing else reads a key.
"""

from __future__ import annotations

import base64
import json
import os
import uuid
from datetime import datetime, timedelta
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.utils import timezone

#: the marker of a sealed value in an event's data
SEALED = "sealed"


def key_create(*, subject: Any, property_id: Any, kind: str,
               retain_until: datetime | None = None) -> None:
    """A new 256-bit key for ``subject`` (a UUID: the entry's, the slip's id), in the
    caller's transaction. ``kind`` names the retention rule (``list_entry``,
    ``high_hand_slip``, ``bad_beat_payout``)."""
    from casino.models import PersonalDataKey

    PersonalDataKey.objects.create(subject=uuid.UUID(str(subject)), property_id=property_id,
                                   kind=kind, key=AESGCM.generate_key(bit_length=256),
                                   created_at=timezone.now(), retain_until=retain_until)


def seal(subject: Any, details: dict[str, Any]) -> dict[str, str]:
    """``details`` encrypted under ``subject``'s key, as an event's data holds it:
    ``{"sealed": <base64 nonce + ciphertext>, "subject": <uuid>}``. The subject is the
    associated data, so a sealed value copied under another subject does not open."""
    from casino.models import PersonalDataKey

    subject = str(uuid.UUID(str(subject)))
    key = PersonalDataKey.objects.values_list("key", flat=True).get(subject=subject)
    if key is None:
        raise ValueError(f"the personal data of {subject} was erased")
    nonce = os.urandom(12)
    body = json.dumps(details, sort_keys=True, separators=(",", ":")).encode()
    box = AESGCM(bytes(key)).encrypt(nonce, body, subject.encode())
    return {SEALED: base64.b64encode(nonce + box).decode(), "subject": subject}


def is_sealed(value: Any) -> bool:
    return isinstance(value, dict) and SEALED in value and "subject" in value


def unseal(value: Any) -> dict[str, Any] | None:
    """The details of a sealed value; None once its key is erased. A value that is not
    sealed (an event recorded before issue 24) is given back as it is."""
    if not is_sealed(value):
        return value
    from casino.models import PersonalDataKey

    key = PersonalDataKey.objects.filter(subject=value["subject"]).values_list(
        "key", flat=True).first()
    if key is None:
        return None
    raw = base64.b64decode(value[SEALED])
    try:
        body = AESGCM(bytes(key)).decrypt(raw[:12], raw[12:], value["subject"].encode())
    except InvalidTag:
        return None
    return json.loads(body)


def retention(days: int, start: datetime | None = None) -> datetime:
    return (start or timezone.now()) + timedelta(days=days)
