"""The staff API's reads: the staff and the role requests. The commands (enrol staff, ask
for and approve roles, revoke them, deactivate logins, change credentials) are declared
in :mod:`casino.commands`, each one service of :mod:`casino.services.staff`, which
records it as an event; nobody grants themselves a role (issue 11)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.generics import ListAPIView, RetrieveAPIView

from casino import commands
from casino.actors import actor_of
from casino.api import staff_serializers as s
from casino.api.commands import CreateVia, write_via
from casino.domain.errors import DomainError
from casino.models import RoleGrant, StaffProfile
from casino.roles import Role, roles_required
from casino.scoping import property_rows

MANAGERS = (Role.ADMIN, Role.COMPLIANCE)


def _scoped(view: Any, qs: QuerySet) -> QuerySet:
    if getattr(view, "swagger_fake_view", False):
        return qs.none()  # schema generation: no staff member behind the request
    return property_rows(qs, actor_of(view.request.user))


class StaffList(CreateVia, ListAPIView):
    """Staff of this property with their roles. POST enrols (admin)."""

    write_declaration = commands.staff_enrol
    permission_classes = [roles_required(*MANAGERS)]
    serializer_class = s.StaffSerializer

    def get_queryset(self) -> QuerySet:
        return _scoped(self, StaffProfile.objects.select_related("user", "property")
                       .prefetch_related("user__groups").order_by("user_id"))

    # the operation keeps the id it always had (not "staff_enrol_post")
    post = extend_schema(operation_id="staff_enrol")(write_via(commands.staff_enrol))


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
