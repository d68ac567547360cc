"""The shell's own pages (issue 23): logging in and out, the second factor, and the home
page "Waiting for me" with its fragment. Logins go through the same accounts and the same
lock-out as the API's token login (django-axes, :mod:`casino.services.logins`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, login as auth_login, logout as auth_logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.actors import NoStaffProfile, actor_of
from casino.api.login_views import _retry_after, locked_detail, throttled_seconds
from console.middleware import refusal
from console.waiting import fragment_stamp, shell_of

HOME = "/console/"


class LoginForm(forms.Form):
    username = forms.CharField(max_length=150, widget=forms.TextInput(
        attrs={"autocomplete": "username", "autofocus": True}))
    password = forms.CharField(max_length=128, strip=False, widget=forms.PasswordInput(
        attrs={"autocomplete": "current-password"}))


def local_path(request: HttpRequest, wanted: str | None, default: str = HOME) -> str:
    """THE "next is local" check: ``wanted`` when it is a path on this site (never another
    host, never a scheme), else ``default``."""
    if (wanted and wanted.startswith("/") and not wanted.startswith("//")
            and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure())):
        return wanted
    return default


def safe_next(request: HttpRequest, default: str = HOME) -> str:
    """The request's ``next`` (posted, else in the query string) when it is local."""
    return local_path(request, request.POST.get("next") or request.GET.get("next"), default)


def locked_sentence(request: HttpRequest) -> str:
    detail = locked_detail(request)
    return detail[0].upper() + detail[1:] + "."


@require_http_methods(["GET", "POST"])
def login_page(request: HttpRequest) -> HttpResponse:
    """Username and password; a wrong one counts towards the lock-out, as on the API."""
    form = LoginForm(request.POST or None)
    context: dict[str, Any] = {"form": form, "next": safe_next(request, "")}
    if request.method == "POST" and form.is_valid():
        user = authenticate(request, username=form.cleaned_data["username"],
                            password=form.cleaned_data["password"])
        seconds = throttled_seconds(request)
        if seconds:  # a spraying address's wrong password, not slowed but refused
            context["problem"] = (f"Too many wrong passwords from this terminal: wait "
                                  f"{seconds} seconds and try again.")
        elif getattr(request, "axes_locked_out", False):
            context["problem"] = locked_sentence(request)
        if seconds or getattr(request, "axes_locked_out", False):
            response = render(request, "console/login.html", context, status=429)
            response["Retry-After"] = str(seconds or _retry_after())
            response.shown_lockout = True  # casino.api.login_views.lockout_response keeps it
            return response
        if user is None or not user.is_active:
            context["problem"] = "That username and password do not match a login."
            return render(request, "console/login.html", context, status=400)
        try:
            actor_of(user)
        except NoStaffProfile:
            return refusal(request, "This login is not enrolled as staff of a property, so "
                                    "the console has nothing for it. An administrator "
                                    "enrols staff.")
        # Django's login: a new session key, last_login, and user_logged_in, on which the
        # account's own failures are forgotten (casino.services.logins.on_user_logged_in).
        auth_login(request, user)
        return HttpResponseRedirect(safe_next(request))
    if request.method == "POST":
        context["problem"] = "Give a username and a password."
        return render(request, "console/login.html", context, status=400)
    return render(request, "console/login.html", context)


@require_POST
def logout_page(request: HttpRequest) -> HttpResponse:
    auth_logout(request)
    messages.info(request, "You are logged out.")
    return HttpResponseRedirect("/console/login/")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """What needs this person now, from every task provider their roles see."""
    fragment = _waiting_html(request)
    return render(request, "console/home.html", {"waiting_html": fragment})


def _waiting_html(request: HttpRequest) -> str:
    shell = shell_of(request)
    body = render_to_string("console/_waiting_body.html", {"shell": shell}, request=request)
    return render_to_string("console/_waiting.html", {
        "body": body, "stamp": fragment_stamp(body), "seconds": settings.CONSOLE_POLL_SECONDS},
        request=request)


@require_GET
def waiting_fragment(request: HttpRequest) -> HttpResponse:
    """The home list alone (htmx polls it), with the nav's badges swapped out of band;
    204 when it is what the page already shows (``If-None-Match`` or ``?since=``)."""
    shell = shell_of(request)
    body = render_to_string("console/_waiting_body.html", {"shell": shell}, request=request)
    stamp = fragment_stamp(body)
    seen = (request.headers.get("If-None-Match", "").strip('"')
            or request.GET.get("since", ""))
    if seen == stamp:
        return HttpResponse(status=204, headers={"ETag": f'"{stamp}"'})
    html = render_to_string("console/_waiting.html", {
        "body": body, "stamp": stamp, "seconds": settings.CONSOLE_POLL_SECONDS,
        "oob": True, "shell": shell}, request=request)
    return HttpResponse(html, headers={"ETag": f'"{stamp}"', "Cache-Control": "no-store"})
