"""The kiosk (issue 24, item 6): a player adds themselves to a list from the live feed's
page — no login, so a confirmation code texted to the phone they give shows the phone is
theirs before anything is recorded. Off unless ``FLOOR_KIOSK`` is on (404 otherwise).

1. ``/poker/live/<licence>/join/``: the list, a name or initials, a phone. The phone is
   checked as the floor's own form checks it (``invalid_phone``); a request past
   ``KIOSK_PER_ADDRESS_PER_HOUR`` from the address (the client's own behind a trusted
   proxy, counted in the cache every process shares: :mod:`casino.rate_limits`) or ``KIOSK_PER_PHONE_PER_DAY`` for the
   phone is refused (429 ``kiosk_limit``). A 6-digit code is texted
   (:func:`poker_floor.paging.send_code`) and kept hashed, with the request, in the
   ``kiosk`` cache for :data:`CODE_MINUTES` minutes.
2. ``/poker/live/<licence>/join/confirm/?r=<request>``: the code. The right one adds the
   player (:func:`poker_floor.services.lists.player_list`, ``source="kiosk"``, by the
   system actor ``system:kiosk``); :data:`CODE_TRIES` tries end the request. An address
   may try :data:`CODE_TRIES` codes for each request it may make
   (``KIOSK_PER_ADDRESS_PER_HOUR``) an hour (429 ``kiosk_limit`` past it).

The cache holds no personal data in clear: a request is kept under a hash of its token,
its name and phone sealed (AES-GCM) under a key derived from ``SECRET_KEY`` and the token
(which only the player's browser has), the code as an HMAC, a phone's count under an
HMAC of the phone. A try takes one of the request's :data:`CODE_TRIES` tickets away
(``cache.delete``, which one caller alone wins on every backend: locmem, file, Redis), so
concurrent tries never get more than :data:`CODE_TRIES` guesses.

Nothing is appended before the code is confirmed; a refused step appends nothing.
"""

from __future__ import annotations

import base64
import json
import secrets
import time
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from django.conf import settings
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.views.decorators.http import require_http_methods

from casino.actors import system_actor
from casino.domain.errors import DomainError
from casino.models import Property
from casino.rate_limits import client_address, counted, seconds_left
from casino.refusals import refusal_sentence
from poker_floor.feed import board_lists
from poker_floor.models import Waitlist
from poker_floor.paging import send_code
from poker_floor.services.lists import player_list, player_name, player_phone

#: how long a texted code may be confirmed
CODE_MINUTES = 10
#: wrong codes a request allows before it ends
CODE_TRIES = 5
CACHE = "kiosk"


class KioskRefusal(DomainError):
    """A kiosk step refused before any service is asked (``status``: its HTTP status;
    ``retry_after``: the seconds a 429 says to wait)."""

    def __init__(self, message: str, *, code: str, field: str | None = None,
                 status: int = 400, retry_after: int | None = None):
        super().__init__(message, code=code, field=field)
        self.status = status
        self.retry_after = retry_after


def _property(licence: str) -> Property:
    if not settings.FLOOR_KIOSK:
        raise Http404("the kiosk is not open")
    # no licence holds a NUL (PostgreSQL's text cannot: the query would fail)
    prop = None if "\x00" in licence else Property.objects.filter(
        licence_number=licence).first()
    if prop is None:
        raise Http404("no such property")
    return prop


def _refused(request: HttpRequest, template: str, context: dict[str, Any],
             exc: DomainError) -> HttpResponse:
    """The step's page again with the refusal's sentence (and its code, for a machine)."""
    context.update({"refusal": {"code": exc.code, "sentence": refusal_sentence(exc.code),
                                "detail": exc.message, "field": exc.field}})
    response = render(request, template, context, status=exc.status)
    if getattr(exc, "retry_after", None):
        response["Retry-After"] = str(exc.retry_after)
    return response


def _limits(request: HttpRequest, phone: str) -> None:
    """429 ``kiosk_limit`` past the address's hourly or the phone's daily requests."""
    per_address = settings.KIOSK_PER_ADDRESS_PER_HOUR
    if counted(f"kiosk-address:{client_address(request)}", 3600,
               cache_alias=CACHE) > per_address:
        raise KioskRefusal(f"more than {per_address} requests an hour from this place",
                           code="kiosk_limit", status=429, retry_after=seconds_left(3600))
    per_phone = settings.KIOSK_PER_PHONE_PER_DAY
    phone_key = salted_hmac("poker_floor.kiosk.phone", phone).hexdigest()
    if counted(f"kiosk-phone:{phone_key}", 86400, cache_alias=CACHE) > per_phone:
        raise KioskRefusal(f"more than {per_phone} requests today for this phone",
                           code="kiosk_limit", field="phone", status=429,
                           retry_after=seconds_left(86400))


def _confirm_limit(request: HttpRequest) -> None:
    """429 ``kiosk_limit`` past :data:`CODE_TRIES` codes tried from the address for each
    request it may make an hour: no address guesses codes faster than its own requests
    could need."""
    tries = settings.KIOSK_PER_ADDRESS_PER_HOUR * CODE_TRIES
    if counted(f"kiosk-confirm:{client_address(request)}", 3600, cache_alias=CACHE) > tries:
        raise KioskRefusal(f"more than {tries} codes tried an hour from this place",
                           code="kiosk_limit", status=429, retry_after=seconds_left(3600))


def _code_hash(token: str, code: str) -> str:
    return salted_hmac("poker_floor.kiosk.code", f"{token}:{code}").hexdigest()


def _pending_key(token: str) -> str:
    """The cache key of a request: a hash of its token (the cache never holds the token,
    which opens the request's details)."""
    return f"kiosk-pending:{salted_hmac('poker_floor.kiosk.request', token).hexdigest()}"


def _ticket_key(token: str, n: int) -> str:
    return f"{_pending_key(token)}:try:{n}"


def _details_key(token: str) -> bytes:
    """The AES-256 key a request's details are sealed under: HKDF-SHA256 of ``SECRET_KEY``
    with the token as salt (neither alone opens them)."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=token.encode(),
                info=b"poker_floor.kiosk.details").derive(settings.SECRET_KEY.encode())


def _seal(token: str, details: dict[str, str]) -> str:
    nonce = secrets.token_bytes(12)
    body = AESGCM(_details_key(token)).encrypt(nonce, json.dumps(details).encode(), None)
    return base64.b64encode(nonce + body).decode()


def _unseal(token: str, sealed: str) -> dict[str, str] | None:
    try:
        raw = base64.b64decode(sealed)
        return json.loads(AESGCM(_details_key(token)).decrypt(raw[:12], raw[12:], None))
    except (InvalidTag, ValueError):
        return None


def _take_ticket(token: str) -> int | None:
    """Take one of the request's tries away: the number of tries left after it, or None
    when none was left (each ticket is deleted by one caller alone)."""
    for n in range(CODE_TRIES):
        if caches[CACHE].delete(_ticket_key(token, n)):
            return CODE_TRIES - n - 1
    return None


def _end(token: str) -> bool:
    """End a request (its tickets too); whether this caller was the one to end it."""
    caches[CACHE].delete_many([_ticket_key(token, n) for n in range(CODE_TRIES)])
    return bool(caches[CACHE].delete(_pending_key(token)))


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, licence: str) -> HttpResponse:
    """Step 1: the form; its answer texts a code and goes on to step 2."""
    prop = _property(licence)
    template = "poker_floor/live_join.html"
    context: dict[str, Any] = {"property": prop, "licence": licence,
                               "lists": board_lists(prop), "form": {}}
    if request.method != "POST":
        return render(request, template, context)
    form = {k: request.POST.get(k, "") for k in ("waitlist", "name", "phone")}
    context["form"] = form
    try:
        waitlist = next((w for w in context["lists"] if w["id"] == form["waitlist"]), None)
        if waitlist is None:
            raise KioskRefusal("choose one of the lists", code="invalid_choice",
                               field="waitlist")
        name = player_name(form["name"])
        phone = player_phone(form["phone"])
        if not phone:
            raise KioskRefusal("a phone is needed: the code is texted to it",
                               code="invalid_phone", field="phone")
        _limits(request, phone)
    except DomainError as exc:
        return _refused(request, template, context, exc)
    token = secrets.token_urlsafe(24)
    code = f"{secrets.randbelow(10 ** 6):06d}"
    expires = time.time() + CODE_MINUTES * 60
    caches[CACHE].set_many({_ticket_key(token, n): 1 for n in range(CODE_TRIES)},
                           timeout=CODE_MINUTES * 60)
    caches[CACHE].set(_pending_key(token), {
        "licence": licence, "waitlist": waitlist["id"],
        "details": _seal(token, {"name": name, "phone": phone}),
        "code": _code_hash(token, code), "expires": expires},
        timeout=CODE_MINUTES * 60)
    _channel, error = send_code(phone, code)
    if error:
        _end(token)
        return _refused(request, template, context, KioskRefusal(
            "the text could not be sent", code="kiosk_code_not_sent", status=503))
    return redirect(reverse("live-join-confirm", args=[licence]) + f"?r={token}")


def _pending(token: str) -> dict[str, Any] | None:
    if not token or len(token) > 64:
        return None
    pending = caches[CACHE].get(_pending_key(token))
    if pending is None or pending["expires"] <= time.time():
        return None
    return pending


@require_http_methods(["GET", "HEAD", "POST"])
def confirm(request: HttpRequest, licence: str) -> HttpResponse:
    """Step 2: the texted code; the right one adds the player to the list."""
    prop = _property(licence)
    template = "poker_floor/live_join_confirm.html"
    token = (request.POST if request.method == "POST" else request.GET).get("r", "")
    pending = _pending(token)
    context: dict[str, Any] = {"property": prop, "licence": licence, "token": token,
                               "pending": pending}
    if pending is not None and pending["licence"] != licence:
        pending = context["pending"] = None
    if request.method != "POST":
        if pending is None:
            return _refused(request, template, context, KioskRefusal(
                "this request has expired", code="kiosk_code_expired"))
        return render(request, template, context)
    try:
        _confirm_limit(request)
        if pending is None:
            raise KioskRefusal("this request has expired or was ended",
                               code="kiosk_code_expired")
        # every try, right or wrong, takes a ticket first: never more than CODE_TRIES
        left = _take_ticket(token)
        code = "".join(request.POST.get("code", "").split())
        if left is None or not constant_time_compare(_code_hash(token, code),
                                                     pending["code"]):
            if not left:  # that was the last try (or none was left)
                _end(token)
                context["pending"] = None
                raise KioskRefusal("too many wrong codes", code="kiosk_code_expired")
            raise KioskRefusal("not the code we sent", code="kiosk_code_wrong",
                               field="code")
        details = _unseal(token, pending["details"])
        # one confirmation per request: the first to take it away adds the player
        if not _end(token) or details is None:
            raise KioskRefusal("this request was confirmed already",
                               code="kiosk_code_expired")
        entry = player_list(actor=system_actor(prop, "kiosk"),
                            waitlist_id=pending["waitlist"], name=details["name"],
                            phone=details["phone"], source="kiosk")
    except DomainError as exc:
        return _refused(request, template, context, exc)
    waitlist = Waitlist.objects.get(pk=entry.waitlist_id)
    order = [str(x) for x in waitlist.order]
    position = order.index(str(entry.pk)) + 1 if str(entry.pk) in order else None
    with timezone.override(prop.time_zone):
        return render(request, "poker_floor/live_join_done.html", {
            "property": prop, "licence": licence, "waitlist": waitlist,
            "initials": entry.initials, "position": position})
