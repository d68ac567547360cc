"""The staff API: enrol staff, ask for and approve roles, revoke them, deactivate logins,
change credentials. Each command is one service of :mod:`casino.services.staff`, which
records it as an event; nobody grants themselves a role (issue 11)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from casino.actors import actor_of
from casino.api import staff_serializers as s
from casino.api.commands import Command, command
from casino.domain.errors import DomainError
from casino.models import RoleGrant, StaffProfile
from casino.roles import Role, roles_required
from casino.scoping import property_rows
from casino.services import staff

MANAGERS = (Role.ADMIN, Role.COMPLIANCE)


def _scoped(view: Any, qs: QuerySet) -> QuerySet:
    if getattr(view, "swagger_fake_view", False):
        return qs.none()  # schema generation: no staff member behind the request
    return property_rows(qs, actor_of(view.request.user))


StaffEnrol = command(staff.staff_enrol, roles=(Role.ADMIN,), input=s.EnrolInput,
                     output=s.StaffSerializer, id_arg=None, created=True,
                     doc="Enrol a member of staff of this property, with no role: roles are "
                         "asked for and approved by two people.")
RoleGrantRequest = command(staff.role_grant_request, roles=MANAGERS, input=s.GrantRequestInput,
                           output=s.RoleGrantSerializer, id_arg="staff_id", created=True,
                           doc="Ask for a role for a member of staff (never oneself); a "
                               "second admin or compliance officer approves it.")
RoleGrantApprove = command(staff.role_grant_approve, roles=MANAGERS, input=s.StaffEmptyInput,
                           output=s.RoleGrantSerializer, id_arg="grant_id",
                           doc="Approve a role request: not by the person who asked, not by "
                               "the person who receives it.")
RoleGrantReject = command(staff.role_grant_reject, roles=MANAGERS, input=s.StaffReasonInput,
                          output=s.RoleGrantSerializer, id_arg="grant_id",
                          doc="Turn a role request down, with the reason.")
RoleRevoke = command(staff.role_revoke, roles=MANAGERS, input=s.RevokeInput,
                     output=s.StaffSerializer, id_arg="staff_id",
                     doc="Take a role away, with the reason.")
StaffDeactivate = command(staff.staff_deactivate, roles=MANAGERS, input=s.StaffReasonInput,
                          output=s.StaffSerializer, id_arg="staff_id",
                          doc="Deactivate a login (never one's own); its tokens are revoked.")
CredentialNumberChange = command(staff.staff_credential_number_change, roles=(Role.ADMIN,),
                                 input=s.CredentialNumberInput, output=s.StaffSerializer,
                                 id_arg="staff_id",
                                 doc="Record a new Board credential number.")
PasswordReset = command(staff.staff_password_reset, roles=(Role.ADMIN,),
                        input=s.PasswordResetInput, output=s.StaffSerializer,
                        id_arg="staff_id",
                        doc="Set another member of staff's password; their tokens are revoked.")


class PasswordChange(Command):
    """Change one's own password, giving the old one; one's tokens are revoked."""

    permission_classes = [roles_required(*Role)]
    input = s.PasswordChangeInput
    output = s.DoneSerializer

    def run(self, actor: Any, pk: Any, data: dict[str, Any]) -> Any:
        staff.password_change(actor=actor, **data)
        return {"done": True}

    @extend_schema(request=s.PasswordChangeInput, responses={200: s.DoneSerializer},
                   operation_id="password_change")
    def post(self, request: Request, pk: Any = None) -> Response:
        return super().post(request, pk)


class StaffList(ListAPIView):
    """Staff of this property with their roles. POST enrols (admin)."""

    permission_classes = [roles_required(*MANAGERS)]
    serializer_class = s.StaffSerializer

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [p() for p in StaffEnrol.permission_classes]
        return super().get_permissions()

    def get_queryset(self) -> QuerySet:
        return _scoped(self, StaffProfile.objects.select_related("user", "property")
                       .prefetch_related("user__groups").order_by("user_id"))

    @extend_schema(request=s.EnrolInput, responses={201: s.StaffSerializer},
                   operation_id="staff_enrol")
    def post(self, request: Request) -> Response:
        return Command.post(StaffEnrol(), request)


class StaffDetail(RetrieveAPIView):
    permission_classes = [roles_required(*MANAGERS)]
    serializer_class = s.StaffSerializer
    lookup_field = "user_id"
    lookup_url_kwarg = "pk"

    def get_queryset(self) -> QuerySet:
        return _scoped(self, StaffProfile.objects.select_related("user", "property")
                       .prefetch_related("user__groups"))


@extend_schema_view(get=extend_schema(parameters=[OpenApiParameter(
                                          "state", str, enum=["pending", "approved",
                                                              "rejected"])]))
class RoleGrantList(ListAPIView):
    """Role requests, newest first; ``?state=pending`` for those awaiting a second person."""

    permission_classes = [roles_required(*MANAGERS)]
    serializer_class = s.RoleGrantSerializer

    def get_queryset(self) -> QuerySet:
        rows = _scoped(self, RoleGrant.objects.select_related("staff__user"))
        state = self.request.query_params.get("state")
        if state:
            if state not in RoleGrant.State.values:
                raise DomainError("state must be pending, approved or rejected",
                                  code="invalid_input", field="state")
            rows = rows.filter(state=state)
        return rows.order_by("-requested_at")
