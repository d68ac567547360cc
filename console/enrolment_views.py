"""The enrolment page (issue 35): after a reset two people decided, the person whose
sign-in it is — and nobody else — types their username and the two halves of the code
(one from the person who asked, one from the person who approved), chooses a new password
and, where their roles need one, sets up a new authenticator. No login: the halves are the
proof. Each step calls :mod:`casino.services.credentials`; nothing is written until the
last, which records ``CredentialEnrolmentCompleted`` in one transaction.

The halves travel in the page's own hidden fields between the two steps (the server keeps
only their hashes); the new authenticator's secret waits in the session until confirmed,
as on the ordinary enrolment page. Every answer is ``no-store``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from casino.domain.errors import DomainError
from casino.refusals import refusal_sentence
from casino.services.credentials import (
    credential_enrolment_complete,
    enrolment_needs_second_factor,
    enrolment_open,
)
from casino.services.two_factor import new_secret, provisioning
from console.two_factor_views import _qr_svg

SECRET_KEY = "console_enrolment_secret"


class CodesForm(forms.Form):
    username = forms.CharField(max_length=150, label="Your username")
    requester_code = forms.CharField(max_length=20, label="Code from the person who asked")
    approver_code = forms.CharField(max_length=20, label="Code from the person who approved")


class NewCredentialsForm(CodesForm):
    password = forms.CharField(max_length=128, required=False, strip=False,
                               label="New password", widget=forms.PasswordInput(
                                   attrs={"autocomplete": "new-password"}))
    password_again = forms.CharField(max_length=128, required=False, strip=False,
                                     label="New password again", widget=forms.PasswordInput(
                                         attrs={"autocomplete": "new-password"}))
    current_password = forms.CharField(max_length=128, required=False, strip=False,
                                       label="Your password", widget=forms.PasswordInput(
                                           attrs={"autocomplete": "current-password"}))
    code = forms.CharField(max_length=20, required=False, label="Code from the app")


def _words(exc: DomainError) -> str:
    return refusal_sentence(exc.code) or exc.message


def _answer(request: HttpRequest, template: str, context: dict[str, Any],
            status: int = 200) -> HttpResponse:
    response = render(request, f"console/{template}.html", context, status=status)
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def enrol(request: HttpRequest) -> HttpResponse:
    if request.method == "GET" or "password" not in request.POST and "code" not in (
            request.POST):
        return _codes(request)
    return _complete(request)


def _codes(request: HttpRequest) -> HttpResponse:
    """Step one: the username and the two halves; checked, nothing written."""
    form = CodesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            reset = enrolment_open(**form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, _words(exc))
        else:
            return _second_step(request, NewCredentialsForm(initial=form.cleaned_data),
                                reset, form.cleaned_data)
    return _answer(request, "enrolment_codes", {"form": form},
                   status=400 if form.errors else 200)


def _second_step(request: HttpRequest, form: forms.Form, reset: Any, codes: dict[str, Any],
                 status: int = 200) -> HttpResponse:
    context: dict[str, Any] = {"form": form, "reset": reset, "codes": codes,
                               "new_password": reset.resets_password()}
    if enrolment_needs_second_factor(reset):
        secrets = request.session.setdefault(SECRET_KEY, {})
        secret = secrets.get(str(reset.pk)) or new_secret()
        secrets[str(reset.pk)] = secret
        request.session.modified = True
        url, typed = provisioning(reset.staff.user, secret)
        context.update(qr=_qr_svg(url), secret=typed)
    return _answer(request, "enrolment_new", context, status=status)


def _complete(request: HttpRequest) -> HttpResponse:
    """Step two: the new password (or the current one) and the authenticator's code."""
    form = NewCredentialsForm(request.POST)
    if not form.is_valid():
        return _codes(request)
    data = form.cleaned_data
    codes = {k: data[k] for k in ("username", "requester_code", "approver_code")}
    try:
        reset = enrolment_open(**codes)
    except DomainError as exc:
        back = CodesForm(codes)
        back.is_valid()
        back.add_error(None, _words(exc))
        return _answer(request, "enrolment_codes", {"form": back}, status=409)
    if reset.resets_password() and data["password"] != data["password_again"]:
        form.add_error("password_again", "The two new passwords differ.")
        return _second_step(request, form, reset, codes, status=400)
    secret = request.session.get(SECRET_KEY, {}).get(str(reset.pk))
    try:
        recovery = credential_enrolment_complete(
            **codes, password=data["password"], current_password=data["current_password"],
            secret=secret, code=data["code"])
    except DomainError as exc:
        field = {"password": "password", "current_password": "current_password",
                 "code": "code"}.get(exc.field or "", None)
        form.add_error(field, _words(exc) + (f" ({exc.message})" if field == "password"
                                             else ""))
        return _second_step(request, form, reset, codes, status=400)
    request.session.get(SECRET_KEY, {}).pop(str(reset.pk), None)
    request.session.modified = True
    return _answer(request, "enrolment_done", {"codes": recovery,
                                               "username": codes["username"]})
