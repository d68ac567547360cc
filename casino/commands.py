"""The casino app's commands, each declared once (issue 23, DESIGN §7): staff and their
roles (issue 11), lock-outs, tokens and one's own password, and the two-person resets of
someone's sign-in (issue 35). The API operation, the API
reference and the console form are made from these. Logging in and out are not commands
of this kind (casino.api.login_views)."""

from __future__ import annotations

from typing import Any

from casino.api import credential_serializers as c
from casino.api import staff_serializers as s
from casino.api.login_views import (
    StaffRevokedSerializer,
    TokensRevokeInput,
    UnlockSerializer,
)
from casino.declared import declare
from casino.roles import Role
from casino.services import credentials, logins, staff, unlocks

MANAGERS = (Role.ADMIN, Role.COMPLIANCE)
S = "staff/<int:pk>/"


def staff_stream(pk: Any) -> str:
    """A member of staff's events (roles, login, credentials) are their own stream."""
    return f"staff-{pk}"


staff_enrol = declare(
    service=staff.staff_enrol, input=s.EnrolInput, output=s.StaffSerializer,
    roles=(Role.ADMIN,), created=True, label="Enrol the member of staff",
    summary="Enrol a new member of staff.",
    doc="Enrol a member of staff of this property, with no role: roles are asked for and "
        "approved by two people.")
role_grant_request = declare(
    service=staff.role_grant_request, input=s.GrantRequestInput, output=s.RoleGrantSerializer,
    roles=MANAGERS, path=S + "role-grants/", url_name="staff-role-grant", id_arg="staff_id",
    created=True, stream=staff_stream, label="Ask for the role",
    summary="Ask for a role for a member of staff, for a second person to approve.",
    doc="Ask for a role for a member of staff (never oneself); a second admin or "
        "compliance officer approves it.")
role_grant_approve = declare(
    service=staff.role_grant_approve, input=s.StaffEmptyInput, output=s.RoleGrantSerializer,
    roles=MANAGERS, path="role-grants/<uuid:pk>/approve/", url_name="role-grant-approve",
    id_arg="grant_id", label="Approve the role",
    summary="Approve a role request as the second person.",
    doc="Approve a role request: not by the person who asked, not by the person who "
        "receives it.")
role_grant_reject = declare(
    service=staff.role_grant_reject, input=s.StaffReasonInput, output=s.RoleGrantSerializer,
    roles=MANAGERS, path="role-grants/<uuid:pk>/reject/", url_name="role-grant-reject",
    id_arg="grant_id", label="Turn the request down",
    summary="Turn a role request down, with the reason.",
    doc="Turn a role request down, with the reason.")
role_revoke = declare(
    service=staff.role_revoke, input=s.RevokeInput, output=s.StaffSerializer,
    roles=MANAGERS, path=S + "roles/revoke/", url_name="staff-role-revoke",
    id_arg="staff_id", stream=staff_stream, label="Take the role away",
    summary="Take a role away from a member of staff, with the reason.",
    doc="Take a role away, with the reason.")
staff_deactivate = declare(
    service=staff.staff_deactivate, input=s.StaffReasonInput, output=s.StaffSerializer,
    roles=MANAGERS, path=S + "deactivate/", url_name="staff-deactivate", id_arg="staff_id",
    stream=staff_stream, label="Deactivate the login",
    summary="Deactivate a member of staff's login.",
    doc="Deactivate a login (never one's own); its tokens are revoked.")
staff_credential_number_change = declare(
    service=staff.staff_credential_number_change, input=s.CredentialNumberInput,
    output=s.StaffSerializer, roles=(Role.ADMIN,), path=S + "credential-number/",
    url_name="staff-credential-number", id_arg="staff_id", stream=staff_stream,
    label="Record the new credential number",
    summary="Record a member of staff's new Board credential number.",
    doc="Record a new Board credential number.")
def password_change(*, actor: Any, old_password: Any, new_password: Any) -> dict[str, bool]:
    """The service answers nothing; the API answers that it is done."""
    staff.password_change(actor=actor, old_password=old_password, new_password=new_password)
    return {"done": True}


password_change_ = declare(
    service=password_change, input=s.PasswordChangeInput, output=s.DoneSerializer,
    roles=tuple(Role), path="me/password/", url_name="me-password",
    label="Change my password", summary="Change your own password.", console=False,
    doc="Change one's own password, giving the old one; one's tokens are revoked.")
staff_tokens_revoke = declare(
    service=logins.staff_tokens_revoke, input=TokensRevokeInput,
    output=StaffRevokedSerializer, roles=(Role.ADMIN,), path=S + "tokens/revoke/",
    url_name="staff-tokens-revoke", id_arg="staff_id", label="Revoke the tokens", summary="Revoke every API token of a member of staff.",
    doc="Revoke every API token of a member of staff.",
    schema={"problem_codes": {404: ["staff_not_found"]}})


# --- two people for a sign-in: a reset, a lock-out lifted (issue 35) -------------------

def _reset_signs(actor: Any, pk: Any) -> list[tuple[str, str]]:
    reset = credentials.reset_of(actor, pk)
    username = reset.staff.user.username
    person = (f"{reset.staff.display_name} ({username})" if reset.staff.display_name
              else username)
    return [("Whose sign-in", f"{person}, Board credential {reset.staff.credential_number}"),
            ("What is reset", reset.get_what_display().capitalize()),
            ("Asked for by", reset.requested_by), ("Why", reset.reason),
            ("What approving does", "Their password stops working and/or their "
             "authenticator is removed, every session and API token of theirs ends, and "
             "you are shown your half of the code they enrol with, once.")]


def _unlock_signs(actor: Any, pk: Any) -> list[tuple[str, str]]:
    from casino.models import LoginUnlockRequest
    from casino.scoping import property_row

    req = property_row(LoginUnlockRequest.objects.all(), actor, pk,
                       what="login_unlock_request")
    return [*([("Whose sign-in", req.username)] if req.username else []),
            *([("Terminal address", req.ip_address)] if req.ip_address else []),
            ("Asked for by", req.requested_by), ("Why", req.reason)]


credential_reset_request = declare(
    service=credentials.credential_reset_request, input=c.ResetRequestInput,
    output=c.CredentialResetSerializer, roles=credentials.REQUESTERS,
    path=S + "credential-resets/", url_name="staff-credential-reset", id_arg="staff_id",
    created=True, stream=staff_stream, label="Ask for the reset",
    shows_once="credential_reset_half",
    summary="Ask for a reset of a member of staff's password or second factor, for a "
            "second person to approve.",
    doc="Ask for a reset of another person's password, second factor or both. A second "
        "person approves it; the person then enrols in person with two codes: your half, "
        "shown to you once now, and the approver's.",
    refusals=credentials.REFUSALS)
credential_reset_approve = declare(
    service=credentials.credential_reset_approve, input=s.StaffEmptyInput,
    output=c.CredentialResetSerializer, roles=credentials.APPROVERS,
    path="credential-resets/<uuid:pk>/approve/", url_name="credential-reset-approve",
    id_arg="reset_id", label="Approve the reset", signs=_reset_signs,
    shows_once="credential_reset_half",
    summary="Approve a reset of someone's sign-in as the second person.",
    doc="Approve a reset: not by the person who asked, not by the person whose sign-in "
        "it is. Their sessions and tokens end now; you are shown your half of the "
        "enrolment code once.")
credential_reset_reject = declare(
    service=credentials.credential_reset_reject, input=s.StaffReasonInput,
    output=c.CredentialResetSerializer, roles=credentials.APPROVERS,
    path="credential-resets/<uuid:pk>/reject/", url_name="credential-reset-reject",
    id_arg="reset_id", label="Turn the reset down", signs=_reset_signs,
    summary="Turn a reset of someone's sign-in down, with the reason.",
    doc="Turn a reset down, with the reason; nothing about the sign-in changes.")
login_unlock_request = declare(
    service=unlocks.login_unlock_request, input=c.UnlockRequestInput,
    output=c.UnlockRequestSerializer, roles=logins.UNLOCKERS, path="logins/unlock/",
    url_name="login-unlock", created=True, label="Ask to lift the lock-out",
    summary="Ask for a lock-out of an account or an address to be lifted before it ends.",
    doc="Ask for a lock-out to be lifted before it ends (never one's own); a second "
        "administrator or compliance officer approves it.",
    refusals=unlocks.REFUSALS,
    schema={"problem_codes": {404: ["staff_not_found"], 409: ["self_unlock"]}})
login_unlock_approve = declare(
    service=unlocks.login_unlock_approve, input=s.StaffEmptyInput, output=UnlockSerializer,
    roles=logins.UNLOCKERS, path="logins/unlock-requests/<uuid:pk>/approve/",
    url_name="login-unlock-approve", id_arg="request_id", label="Lift the lock-out",
    signs=_unlock_signs,
    summary="Lift a lock-out as the second person.",
    doc="Lift the lock-out asked for: not by the person who asked, not by the locked "
        "login.")
login_unlock_reject = declare(
    service=unlocks.login_unlock_reject, input=s.StaffReasonInput,
    output=c.UnlockRequestSerializer, roles=logins.UNLOCKERS,
    path="logins/unlock-requests/<uuid:pk>/reject/", url_name="login-unlock-reject",
    id_arg="request_id", label="Turn the request down", signs=_unlock_signs,
    summary="Turn a request to lift a lock-out down, with the reason.",
    doc="Turn the request down, with the reason; the lock-out runs its course.")
