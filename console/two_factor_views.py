"""The second factor's pages (issue 23): enrolling an authenticator (a QR code drawn as
SVG on the server, and the secret as text to type), giving a code after the password,
the recovery codes shown once. A reset of someone's second factor takes two people and ends
on the enrolment page (:mod:`console.enrolment_views`; issue 35). Each
calls one service of :mod:`casino.services.two_factor`."""

from __future__ import annotations

import segno
from django import forms
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods

from casino.domain.errors import DomainError
from casino.services.two_factor import (
    has_confirmed_device,
    new_secret,
    provisioning,
    two_factor_enrol,
)
from console.shell_views import safe_next

SECRET_KEY = "console_two_factor_secret"
CODES_KEY = "console_recovery_codes"


class CodeForm(forms.Form):
    code = forms.CharField(max_length=20, label="Code", widget=forms.TextInput(attrs={
        "autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}))


def _qr_svg(url: str) -> str:
    """The QR code as inline SVG (no image file, no script): black on white, a title for
    screen readers."""
    svg = segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff",
                                                title="QR code for your authenticator app",
                                                svgclass="qr-code", lineclass=None)
    return mark_safe(svg)  # noqa: S308 - segno's own markup, no user text in it


@require_http_methods(["GET", "POST"])
def enrol(request: HttpRequest) -> HttpResponse:
    console = request.console
    if has_confirmed_device(console.user):
        return HttpResponseRedirect("/console/two-factor/verify/?next=" + safe_next(request))
    secret = request.session.get(SECRET_KEY)
    if not secret:
        secret = request.session[SECRET_KEY] = new_secret()
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            codes = two_factor_enrol(actor=console.actor, secret=secret,
                                     code=form.cleaned_data["code"])
        except DomainError as exc:
            form.add_error("code", _sentence(exc))
        else:
            import django_otp
            from django_otp.plugins.otp_totp.models import TOTPDevice

            django_otp.login(request, TOTPDevice.objects.get(user=console.user, confirmed=True))
            request.session.pop(SECRET_KEY, None)
            request.session[CODES_KEY] = codes
            return HttpResponseRedirect("/console/two-factor/codes/?next=" + safe_next(request))
    url, typed = provisioning(console.user, secret)
    return render(request, "console/two_factor_enrol.html", {
        "form": form, "qr": _qr_svg(url), "secret": typed, "next": safe_next(request, "")},
        status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest) -> HttpResponse:
    """A code from the authenticator, or one of the recovery codes (used up)."""
    import django_otp

    console = request.console
    if not has_confirmed_device(console.user):
        return HttpResponseRedirect("/console/two-factor/enrol/?next=" + safe_next(request))
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"].replace(" ", "")
        throttled = _throttled(console.user)
        device = None if throttled else django_otp.match_token(console.user, code)
        if throttled:
            form.add_error("code", "Too many wrong codes in a row: wait a few seconds, then "
                                   "type the code the app shows then.")
        elif device is None:
            form.add_error("code", "That code does not match. Type the code the app shows "
                                   "now, or one of your recovery codes.")
        else:
            django_otp.login(request, device)
            return HttpResponseRedirect(safe_next(request))
    return render(request, "console/two_factor_verify.html",
                  {"form": form, "next": safe_next(request, "")},
                  status=400 if form.errors else 200)


@require_GET
def recovery_codes(request: HttpRequest) -> HttpResponse:
    """The ten recovery codes, once, right after enrolment."""
    codes = request.session.pop(CODES_KEY, None)
    if not codes:
        return HttpResponseRedirect(safe_next(request))
    return render(request, "console/two_factor_codes.html",
                  {"codes": codes, "next": safe_next(request)})


def _throttled(user: object) -> bool:
    """Whether the authenticator refuses codes for now (django-otp's throttling doubles
    the wait after each wrong code)."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device is not None and not device.verify_is_allowed()[0]


def _sentence(exc: DomainError) -> str:
    text = exc.message
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
