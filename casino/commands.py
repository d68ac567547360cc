"""The casino app's commands, each declared once (issue 23, DESIGN §7): staff and their
roles (issue 11), lock-outs, tokens and one's own password. The API operation, the API
reference and the console form are made from these. Logging in and out are not commands
of this kind (casino.api.login_views)."""

from __future__ import annotations

from typing import Any

from casino.api import staff_serializers as s
from casino.api.login_views import (
    StaffRevokedSerializer,
    TokensRevokeInput,
    UnlockInput,
    UnlockSerializer,
)
from casino.declared import declare
from casino.roles import Role
from casino.services import logins, staff

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
staff_password_reset = declare(
    service=staff.staff_password_reset, input=s.PasswordResetInput, output=s.StaffSerializer,
    roles=(Role.ADMIN,), path=S + "password/", url_name="staff-password", id_arg="staff_id",
    stream=staff_stream, label="Set the password",
    summary="Set another member of staff's password.",
    doc="Set another member of staff's password; their tokens are revoked.")


def password_change(*, actor: Any, old_password: Any, new_password: Any) -> dict[str, bool]:
    """The service answers nothing; the API answers that it is done."""
    staff.password_change(actor=actor, old_password=old_password, new_password=new_password)
    return {"done": True}


password_change_ = declare(
    service=password_change, input=s.PasswordChangeInput, output=s.DoneSerializer,
    roles=tuple(Role), path="me/password/", url_name="me-password",
    label="Change my password", summary="Change your own password.", console=False,
    doc="Change one's own password, giving the old one; one's tokens are revoked.")
login_unlock = declare(
    service=logins.login_unlock, input=UnlockInput, output=UnlockSerializer,
    roles=logins.UNLOCKERS, path="logins/unlock/", url_name="login-unlock",
    label="Lift the lock-out",
    summary="Lift a lock-out of an account or an address before it ends.",
    doc="Lift a lock-out of an account or an address before it ends (never one's own).",
    schema={"problem_codes": {404: ["staff_not_found"], 409: ["self_unlock"]}})
staff_tokens_revoke = declare(
    service=logins.staff_tokens_revoke, input=TokensRevokeInput,
    output=StaffRevokedSerializer, roles=(Role.ADMIN,), path=S + "tokens/revoke/",
    url_name="staff-tokens-revoke", id_arg="staff_id", label="Revoke the tokens", summary="Revoke every API token of a member of staff.",
    doc="Revoke every API token of a member of staff.",
    schema={"problem_codes": {404: ["staff_not_found"]}})
