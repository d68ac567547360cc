"""Logins over the API: a token for a username and password, logging out, lifting a
lock-out, revoking someone's tokens, and the answer to a locked-out login
(:mod:`casino.services.logins`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.http import HttpRequest, HttpResponse, JsonResponse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.problems import PROBLEM_CONTENT_TYPE, problem
from casino.services import logins, token_factor


def _retry_after() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def throttled_seconds(request: HttpRequest) -> int | None:
    """The seconds a wrong password from a spraying address would have waited, when it
    was refused instead (the sleeper slot was taken: :mod:`casino.login_throttle`)."""
    return getattr(request, "login_throttled_retry_after", None)


def locked_detail(request: HttpRequest) -> str:
    """The lock-out in a sentence: from this address (the only lock there is)."""
    minutes = _retry_after() // 60
    return (f"too many failed logins: this account is locked for {minutes} minutes "
            "from this address, or until an administrator or compliance officer "
            "unlocks it")


def throttled_detail(seconds: int) -> str:
    return (f"too many wrong passwords from this address: wait {seconds} seconds and try "
            "again")


def lockout_response(request: HttpRequest, original_response: Any = None,
                     credentials: Any = None) -> HttpResponse:
    """What a locked-out or throttled login gets (axes' ``AXES_LOCKOUT_CALLABLE``): 429
    problem+json ``login_locked_out`` or ``login_throttled`` on the API, a plain page
    elsewhere (the admin's login form), each with ``Retry-After``."""
    if getattr(original_response, "shown_lockout", False):
        return original_response  # a page that said so itself (the console's login page)
    seconds = throttled_seconds(request)
    if seconds:
        code, title, detail = "login_throttled", "Slow down", throttled_detail(seconds)
    else:
        code, title, detail = "login_locked_out", "Login locked", locked_detail(request)
        seconds = _retry_after()
    headers = {"Retry-After": str(seconds)}
    if request.path.startswith("/api/"):
        return JsonResponse(problem(429, code, detail), status=429,
                            content_type=PROBLEM_CONTENT_TYPE, headers=headers)
    return HttpResponse(f"<h1>{title}</h1><p>{detail}.</p>", status=429, headers=headers)


class LockedOut(Throttled):
    default_code = "login_locked_out"


class LoginThrottled(Throttled):
    default_code = "login_throttled"


class TokenRequest(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    code = serializers.CharField(
        max_length=40, required=False, allow_blank=True,
        help_text="the second factor, for a login whose roles need one (administrators, "
                  "compliance officers): the six digits the authenticator app shows now, "
                  "or one of the recovery codes")


class TokenResponse(serializers.Serializer):
    token = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True,
                                       help_text="after this the token answers 401")


class TokenView(APIView):
    """Exchange a username and password for an API token (``Authorization: Token …``)
    that expires after ``API_TOKEN_TTL_HOURS``. A login whose roles need a second factor
    (administrators, compliance officers: the console's rule) also gives ``code``: 401
    ``code_required``, ``wrong_code``, ``code_used``; 403
    ``two_factor_enrolment_required`` before it has enrolled one (``auth/two-factor/
    enrol/``). Repeated failures (a wrong code is one) lock the account from that address
    (429 ``login_locked_out``); many across addresses slow every answer for the account,
    the right password's included, but never refuse it; many from one address, whatever
    the accounts, slow its further wrong passwords, or refuse them at once (429
    ``login_throttled``) while another is being slowed (:mod:`casino.login_throttle`)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    problem_codes = {401: ["authentication_failed", "code_required", "wrong_code",
                           "code_used"],
                     403: ["two_factor_enrolment_required"],
                     429: ["login_locked_out", "login_throttled", "code_throttled"]}

    def get_authenticate_header(self, request: Request) -> str:
        return "Token"  # so a wrong password is 401, not 403

    @extend_schema(request=TokenRequest, responses={200: TokenResponse},
                   operation_id="auth_token")
    def post(self, request: Request) -> Response:
        body = TokenRequest(data=request.data)
        body.is_valid(raise_exception=True)
        user = password_login(request, body.validated_data)
        if token_factor.needs_code(user):
            second_factor(request, user, body.validated_data.get("code"))
        return _issued(request, user)


def password_login(request: Request, data: dict[str, Any]) -> Any:
    """The login whose username and password ``data`` gives, through axes (its lock-outs
    and the throttle), or the refusal: 429 ``login_throttled`` / ``login_locked_out``, 401
    ``authentication_failed``."""
    user = authenticate(request._request, username=data["username"],
                        password=data["password"])
    # (axes' middleware answers both with lockout_response, so these say the same.)
    seconds = throttled_seconds(request._request)
    if seconds:
        raise LoginThrottled(wait=seconds, detail="too many wrong passwords: wait")
    if getattr(request._request, "axes_locked_out", False):
        raise LockedOut(wait=_retry_after(), detail="too many failed logins: locked")
    if user is None or not user.is_active:
        raise AuthenticationFailed("wrong username or password",
                                   code="authentication_failed")
    return user


def second_factor(request: Request, user: Any, code: str | None) -> None:
    """The console's second-factor rule at the token login
    (:func:`casino.services.token_factor.check_code`). A wrong or already used code is a
    failed login, recorded as a wrong password is (axes' row, which the lock-outs and the
    throttle count), and nothing else."""
    try:
        token_factor.check_code(user, code)
    except token_factor.CodeRefused as refused:
        if refused.failed_login:
            user_login_failed.send(sender=__name__, request=request._request,
                                   credentials={"username": user.get_username()})
            seconds = throttled_seconds(request._request)
            if seconds:
                raise LoginThrottled(wait=seconds,
                                     detail="too many wrong passwords: wait") from None
            if getattr(request._request, "axes_locked_out", False):
                raise LockedOut(wait=_retry_after(),
                                detail="too many failed logins: locked") from None
        raise


def _issued(request: Request, user: Any, **extra: Any) -> Response:
    # As Django's login() and knox's LoginView do: last_login, and the account's own
    # failures forgotten (casino.services.logins.on_user_logged_in).
    user_logged_in.send(sender=user.__class__, request=request._request, user=user)
    token, expiry = logins.token_issue(user)
    return Response({"token": token, "expiry": expiry, **extra})


class EnrolRequest(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    secret = serializers.CharField(
        max_length=80, help_text="the authenticator's secret, generated by the client: 20 "
                                 "random bytes in base32 (32 characters A-Z, 2-7)")
    code = serializers.CharField(max_length=20, help_text="the six digits the "
                                                          "authenticator shows now")


class EnrolResponse(TokenResponse):
    recovery_codes = serializers.ListField(
        child=serializers.CharField(),
        help_text="ten codes to use once each when the authenticator is away: shown only "
                  "in this answer, never again")


class TwoFactorEnrolView(APIView):
    """An administrator's or compliance officer's first authenticator, through the API as
    the console's first sign-in asks for it: the password, a secret the client generated
    and kept (never sent by the server) and a code from it. ``TwoFactorEnrolled`` is
    recorded; the answer is a token and the ten recovery codes, shown this once.
    Refused: the password's refusals (as ``auth/token/``), 409
    ``two_factor_already_enrolled`` (an administrator resets it first) or
    ``two_factor_not_needed``, 400 ``invalid_secret``, ``invalid_code``, ``wrong_code``."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    problem_codes = {400: ["invalid_secret", "invalid_code", "wrong_code"],
                     401: ["authentication_failed"],
                     409: ["two_factor_already_enrolled", "two_factor_not_needed"],
                     429: ["login_locked_out", "login_throttled"]}

    def get_authenticate_header(self, request: Request) -> str:
        return "Token"

    @extend_schema(request=EnrolRequest, responses={200: EnrolResponse},
                   operation_id="auth_two_factor_enrol")
    def post(self, request: Request) -> Response:
        body = EnrolRequest(data=request.data)
        body.is_valid(raise_exception=True)
        user = password_login(request, body.validated_data)
        codes = token_factor.api_enrol(user, secret=body.validated_data["secret"],
                                       code=body.validated_data["code"])
        return _issued(request, user, recovery_codes=codes)


class RevokedSerializer(serializers.Serializer):
    revoked = serializers.IntegerField()


class Logout(APIView):
    """Revoke the token this request was made with."""

    permission_classes = [IsAuthenticated]
    everywhere = False
    problem_codes = {409: ["no_token"]}

    @extend_schema(request=None, responses={200: RevokedSerializer}, operation_id="auth_logout")
    def post(self, request: Request) -> Response:
        count = logins.token_logout(user=request.user, token=request.auth,
                                    everywhere=self.everywhere)
        return Response({"revoked": count})


class LogoutAll(Logout):
    """Revoke every token of mine, on every device."""

    everywhere = True

    @extend_schema(request=None, responses={200: RevokedSerializer},
                   operation_id="auth_logout_all")
    def post(self, request: Request) -> Response:
        return super().post(request)


class UnlockInput(serializers.Serializer):
    username = serializers.CharField(max_length=150, required=False, allow_blank=True)
    ip_address = serializers.IPAddressField(required=False, allow_blank=True)
    reason = serializers.CharField(max_length=1000)


class UnlockSerializer(serializers.Serializer):
    username = serializers.CharField(allow_null=True)
    ip_address = serializers.CharField(allow_null=True)
    attempts_reset = serializers.IntegerField()


class TokensRevokeInput(serializers.Serializer):
    reason = serializers.CharField(max_length=1000)


class StaffRevokedSerializer(serializers.Serializer):
    username = serializers.CharField()
    revoked = serializers.IntegerField()
