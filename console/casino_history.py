"""Sentences for the casino's own event types: the property, staff and their roles, logins
and tokens, the second factor (:mod:`console.history`). The console may import only
``casino``, so the casino's sentences live here; each app's are in its
``console_history.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from console.history import NOTHING, say, sentences, who, words


def _credential_changed(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    if data.get("credential") == "credential_number":
        return (f"{who(metadata)} changed {data.get('username')}'s credential number from "
                f"{data.get('old_credential_number') or NOTHING} to "
                f"{data.get('credential_number')}: {data.get('reason') or NOTHING}")
    return (f"{who(metadata)} set a new password for {data.get('username')}"
            f" ({data.get('reason') or 'no reason given'})")


def _role_granted(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    if data.get("basis") == "bootstrap":
        return (f"{who(metadata)} set up {data.get('username')} with the role "
                f"{words(data.get('role'))}")
    return (f"{who(metadata)} approved the role {words(data.get('role'))} for "
            f"{data.get('username')}, asked for by {data.get('requested_by')}")


def _scope(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    scope = "every property of the group" if data.get("group_wide") else "their own property"
    return f"{who(metadata)} set {data.get('username')}'s event log scope to {scope}"


def _admin_site(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    if data.get("is_staff"):
        return f"{who(metadata)} gave {data.get('username')} access to the admin site"
    return f"{who(metadata)} took {data.get('username')}'s access to the admin site away"


def _locked_out(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    whom = data.get("username") or f"the address {data.get('ip_address')}"
    return (f"{who(metadata)} locked out {whom} after {data.get('failures')} failed logins, "
            f"until {say('{until:t}')(data, metadata)}")


def _unlocked(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    whom = data.get("username") or f"the address {data.get('ip_address')}"
    asked = (f", asked for by {data.get('requested_by')}" if data.get("requested_by")
             else "")
    return f"{who(metadata)} unlocked {whom}{asked}: {data.get('reason') or NOTHING}"


def _what(data: Mapping[str, Any]) -> str:
    return {"password": "password", "second_factor": "second factor",
            "both": "password and second factor"}.get(data.get("what") or "", "sign-in")


def _reset_requested(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    return (f"{who(metadata)} asked for a reset of {data.get('username')}'s {_what(data)}: "
            f"{data.get('reason') or NOTHING}")


def _reset_approved(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    return (f"{who(metadata)} approved the reset of {data.get('username')}'s {_what(data)}, "
            f"asked for by {data.get('requested_by')} ({data.get('sessions_ended', 0)} "
            f"sessions ended, {data.get('tokens_revoked', 0)} API tokens revoked; to be "
            f"completed in person by {say('{expires_at:t}')(data, metadata)})")


def _reset_rejected(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    return (f"{who(metadata)} turned down the reset of {data.get('username')}'s "
            f"{_what(data)}: {data.get('reason') or NOTHING}")


def _enrolment(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    extra = " and a new second factor" if data.get("second_factor_enrolled") else ""
    chose = ("chose a new password" if data.get("password_fingerprint")
             else "confirmed their password")
    return f"{data.get('username')} {chose}{extra} in person, with the reset's two codes"


def _unlock_requested(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    whom = data.get("username") or f"the address {data.get('ip_address')}"
    return f"{who(metadata)} asked to lift the lock-out of {whom}: {data.get('reason') or NOTHING}"


def _unlock_rejected(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    whom = data.get("username") or f"the address {data.get('ip_address')}"
    return (f"{who(metadata)} turned down lifting the lock-out of {whom}: "
            f"{data.get('reason') or NOTHING}")


def _registered(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    """The gaming day's first hour as the property's clock says it ("6 AM"), the zone
    named beside it: a clock time without AM/PM is never shown (issue 22)."""
    hour = int(data.get("gaming_day_start_hour") or 0)
    clock = f"{(hour % 12) or 12} {'AM' if hour < 12 else 'PM'}"
    return (f"{who(metadata)} registered the property {data.get('name')} (licence "
            f"{data.get('licence_number')}, clock {data.get('time_zone')}, gaming day from "
            f"{clock})")


sentences({
    "PropertyRegistered": _registered,
    "StaffEnrolled": say("{who} enrolled {username} (credential {credential_number}) as "
                         "staff of {property}"),
    "RoleGrantRequested": say("{who} asked for the role {role:w} for {username}: {reason}"),
    "RoleGranted": _role_granted,
    "RoleGrantRejected": say("{who} turned down the role {role:w} for {username}: {reason}"),
    "RoleRevoked": say("{who} took the role {role:w} away from {username}: {reason}"),
    "StaffScopeChanged": _scope,
    "StaffDeactivated": say("{who} deactivated {username}'s login ({tokens_revoked} API "
                            "tokens revoked): {reason}"),
    "CredentialChanged": _credential_changed,
    "AdminSiteAccessSet": _admin_site,
    "LoginLockedOut": _locked_out,
    "LoginUnlocked": _unlocked,
    "LoginThrottled": say("{who} slowed logins from the address {ip_address} after "
                          "{failures} wrong passwords from it (limit {limit}), until "
                          "{until:t}"),
    "LoginSlowed": say("{who} slowed every login of {username} after {failures} wrong "
                       "passwords for it from several addresses (limit {limit}), until "
                       "{until:t}"),
    "RecoveryCodeUsed": say("{username} gave one of their recovery codes for an API "
                            "token ({codes_left} left)"),
    "TokenIssued": say("{who} was issued an API token ({token_key_prefix}…), expiring "
                       "{expiry:t}"),
    "TokenRevoked": say("{by} revoked {count} of {username}'s API tokens ({reason})"),
    "TwoFactorEnrolled": say("{username} enrolled a second factor ({kind:w}, {recovery_codes} "
                             "recovery codes)"),
    "TwoFactorReset": say("{who} reset {username}'s second factor: {reason}"),
    "CredentialResetRequested": _reset_requested,
    "CredentialResetApproved": _reset_approved,
    "CredentialResetRejected": _reset_rejected,
    "CredentialEnrolmentCompleted": _enrolment,
    "PasswordRehashed": say("{username}'s password was stored again under the current "
                            "hashing (the same password)"),
    "LoginUnlockRequested": _unlock_requested,
    "LoginUnlockRejected": _unlock_rejected,
    "PersonalDataErased": say("{who} erased the personal details of a {kind:w}: {reason}"),
})
