"""Paging a listed player (issue 24, item 5): one text sent by SMS or e-mail.

Every service is configured by URL through Apprise (SMS gateways such as Twilio, e-mail,
chat services: no code per service):

* ``PAGING_SMS_URL``: an Apprise URL template with ``{phone}`` where the player's number
  goes, e.g. ``twilio://SID:TOKEN@+15550001111/{phone}`` or, for a gateway of one's own,
  ``json://sms.example:8080/send?:to={phone}`` (Apprise's JSON service: ``:key=value``
  adds ``key`` to the body it posts);
* ``PAGING_EMAIL_URL``: the same for e-mail with ``{email}``
  (``mailtos://user:pass@mail.example?to={email}``); when it is blank, e-mail goes
  through Django's own e-mail backend (``send_mail``, from ``PAGING_FROM_EMAIL`` or
  ``DEFAULT_FROM_EMAIL``): the default.

A phone is paged by SMS when SMS is configured, before an e-mail address; a player with
neither (or only a phone, and no SMS) has no channel. Nothing waits longer than
``PAGING_TIMEOUT_SECONDS``. What a page says names at most the player's initials and the
table (:func:`call_text`): a text message is read over shoulders and kept by carriers.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import apprise
from django.conf import settings
from django.core.mail import get_connection, send_mail

log = logging.getLogger(__name__)

SMS = "sms"
EMAIL = "email"

#: the errors a page may record (PageFailed.error): words without personal data
NO_CHANNEL = "no_channel"        # no phone with SMS configured, no e-mail address
URL_INVALID = "url_invalid"      # the configured URL names no service Apprise knows
TIMEOUT = "timeout"              # the service did not answer within the timeout
REFUSED = "refused"              # the service answered with a failure, or not at all

#: an e-mail's subject (a text message has none)
CALL_SUBJECT = "Your seat is ready"
CODE_SUBJECT = "Your confirmation code"


def call_text(entry: Any, call: Any) -> str:
    """What the page of ``call`` says: the entry's initials (never a surname, a phone or
    an e-mail address), the table's name and the minutes the player has to come, e.g.
    "J.S.: a seat is ready for you at table T3. Please come to the poker desk within 5
    minutes." An erased entry (no initials) is addressed by no name at all."""
    from tables.models import GameTable

    table = GameTable.objects.filter(pk=call.table).values_list("name", flat=True).first()
    # the Rules' minutes (FLOOR_CALL_MINUTE_SECONDS long: tests and demonstrations
    # shorten them)
    minute = float(settings.FLOOR_CALL_MINUTE_SECONDS)
    minutes = max(1, math.ceil((call.deadline_at - call.called_at).total_seconds() / minute
                               - 1e-9))
    ready = f"a seat is ready for you at table {table or 'the poker room'}"
    initials = (entry.initials or "").strip()
    opening = f"{initials}: {ready}" if initials else ready[0].upper() + ready[1:]
    return (f"{opening}. Please come to the poker desk within {minutes} "
            f"minute{'' if minutes == 1 else 's'}.")


def _field(contact: Any, name: str) -> str:
    value = contact.get(name) if isinstance(contact, Mapping) else getattr(contact, name, "")
    return (value or "").strip()


def _timeout() -> float:
    return float(settings.PAGING_TIMEOUT_SECONDS)


def channel_for(contact: Any) -> str | None:
    """The channel a page to ``contact`` (a list entry, or a mapping with ``phone`` and
    ``email``) goes by: SMS for a phone when SMS is configured, else e-mail for an
    address, else None."""
    if _field(contact, "phone") and settings.PAGING_SMS_URL:
        return SMS
    if _field(contact, "email"):
        return EMAIL
    return None


def _apprise(template: str, field: str, value: str, text: str, subject: str) -> str | None:
    """Send ``text`` to the service of ``template`` with ``value`` put in its ``{field}``
    (quoted for a URL: a phone's "+" stays a "+"). None when it was accepted."""
    url = template.replace("{" + field + "}", quote(value, safe=""))
    service = apprise.Apprise.instantiate(url)
    if service is None:
        return URL_INVALID
    limit = _timeout()
    # a slow or silent service is given up at the limit, whatever the URL asked
    service.socket_connect_timeout = min(service.socket_connect_timeout, limit)
    service.socket_read_timeout = min(service.socket_read_timeout, limit)
    sender = apprise.Apprise()
    sender.add(service)
    result = sender.notify(body=text, title=subject, timeout=limit)
    if result:
        return None
    if getattr(result, "status", None) == apprise.AppriseResultStatus.TIMEOUT:
        return TIMEOUT
    return REFUSED


def _django_mail(email: str, text: str, subject: str) -> str | None:
    sender = settings.PAGING_FROM_EMAIL or settings.DEFAULT_FROM_EMAIL
    try:
        send_mail(subject, text, sender, [email],
                  connection=get_connection(timeout=_timeout()))
    except Exception as exc:  # noqa: BLE001  any failure of the mail server is a failed page
        log.warning("a page by e-mail failed: %s", type(exc).__name__)
        return REFUSED
    return None


def send(contact: Any, text: str, *, subject: str = CALL_SUBJECT) -> tuple[str, str | None]:
    """Send ``text`` to ``contact`` (a list entry, or a mapping with ``phone`` and
    ``email``): ``(channel, None)`` once a service accepted it, ``(channel, error)``
    otherwise; ``("", "no_channel")`` when there is no way to reach the player. Never
    raises for a failed service and never waits past ``PAGING_TIMEOUT_SECONDS``."""
    channel = channel_for(contact)
    if channel is None:
        return "", NO_CHANNEL
    if channel == SMS:
        # an SMS has no subject: Apprise would put it before the text
        return SMS, _apprise(settings.PAGING_SMS_URL, "phone", _field(contact, "phone"),
                             text, "")
    email = _field(contact, "email")
    template = settings.PAGING_EMAIL_URL
    if template:
        return EMAIL, _apprise(template, "email", email, text, subject)
    return EMAIL, _django_mail(email, text, subject)


def code_text(code: str) -> str:
    return f"Your code for the poker waiting list: {code}"


def send_code(phone: str, code: str) -> tuple[str, str | None]:
    """Text a kiosk's confirmation ``code`` to ``phone`` (not a call's page: no event).
    The outcome is logged, without the phone or the code."""
    channel, error = send({"phone": phone}, code_text(code), subject=CODE_SUBJECT)
    if error:
        log.warning("a kiosk confirmation code was not sent (%s)", error)
    else:
        log.info("a kiosk confirmation code was sent by %s", channel)
    return channel, error
