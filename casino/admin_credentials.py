"""The authentication libraries' models in the admin: read-only, scoped, no secret (issue 35).

django-otp, knox and axes register admins of their own that add, change and delete
authenticators, API tokens and lock-outs, and show a device's key and its ``otpauth://``
address. Anyone holding the admin could then sign in as anyone else. Each is replaced here
(``casino.admin`` imports this module after the libraries registered theirs):

* an authenticator, a set of recovery codes, a login attempt: shown under the project's
  :class:`~casino.admin.ReadOnlyAdmin` with only the fields that are not a secret (who,
  when, how many), scoped to the viewer's property through the login's staff profile;
* a knox API token: not shown at all. Its primary key is the token's digest, so every
  link and address of a row would carry it; a token is issued (``TokenIssued``) and ended
  through the API and the staff services, which record both.

Enrolling an authenticator, ending tokens and lifting a lock-out go through the staff
services, each an event (a lock-out lifted by two people, not by deleting its row here).
"""

from __future__ import annotations

from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from casino.admin import ReadOnlyAdmin
from casino.models import StaffProfile
from casino.scoping import admin_rows

for model in (AuthToken, TOTPDevice, StaticDevice, AccessAttempt, AccessLog, AccessFailureLog):
    if admin.site.is_registered(model):
        admin.site.unregister(model)


class DeviceAdmin(ReadOnlyAdmin):
    """A login's second-factor device: whose, whether confirmed, when made and last used —
    never its key, its ``otpauth://`` address or its codes (no ``config`` view either)."""

    property_path = "user__staff__property"
    list_display = ("user", "name", "confirmed", "created_at", "last_used_at")
    list_filter = ("confirmed",)
    search_fields = ("user__username",)
    fields = readonly_fields = ("user", "name", "confirmed", "created_at", "last_used_at",
                                "throttling_failure_count")


@admin.register(TOTPDevice)
class AuthenticatorAdmin(DeviceAdmin):
    """Authenticators (TOTP): the key is the secret a code is computed from."""


@admin.register(StaticDevice)
class RecoveryCodesAdmin(DeviceAdmin):
    """Recovery codes: how many are left, never the codes."""

    list_display = (*DeviceAdmin.list_display, "codes_left")
    fields = readonly_fields = (*DeviceAdmin.fields, "codes_left")

    @admin.display(description="recovery codes left")
    def codes_left(self, obj: Any) -> int:
        return obj.token_set.count()


class LoginRecordAdmin(ReadOnlyAdmin):
    """axes' records name a login by its username only: a viewer sees those naming a login
    of their property (``admin_rows`` on the staff profiles). Attempts on a name nobody
    holds belong to no property and are not listed. The request's GET and POST data and
    the session's hash are left out: a mistyped password or a code can be in them."""

    list_display = ("attempt_time", "username", "ip_address", "path_info")
    search_fields = ("username", "ip_address")
    date_hierarchy = "attempt_time"
    fields = readonly_fields = ("attempt_time", "username", "ip_address", "user_agent",
                                "path_info")

    def get_queryset(self, request: Any) -> Any:
        staff = admin_rows(StaffProfile.objects.all(), request.user, "property")
        return self.model._default_manager.filter(
            username__in=staff.values("user__username"))


@admin.register(AccessAttempt)
class LockOutAdmin(LoginRecordAdmin):
    """Failed logins and lock-outs. Read-only: a lock-out is lifted through the staff
    services by two people, recorded as an event, never by deleting the row here."""

    list_display = (*LoginRecordAdmin.list_display, "failures_since_start")
    fields = readonly_fields = (*LoginRecordAdmin.fields, "failures_since_start")


@admin.register(AccessLog)
class LoginLogAdmin(LoginRecordAdmin):
    list_display = (*LoginRecordAdmin.list_display, "logout_time")
    fields = readonly_fields = (*LoginRecordAdmin.fields, "logout_time")


@admin.register(AccessFailureLog)
class LoginFailureAdmin(LoginRecordAdmin):
    list_display = (*LoginRecordAdmin.list_display, "locked_out")
    list_filter = ("locked_out",)
    fields = readonly_fields = (*LoginRecordAdmin.fields, "locked_out")
