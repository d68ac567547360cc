"""Core API: the event log for compliance and finance, chain verification, who-am-I,
tokens and health. Each view names the roles it admits (casino.roles)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import health, health_access
from casino.actors import actor_of
from casino.api.pagination import KEYSET_PAGING_PARAMETERS, page_response, parse_paging
from casino.api.serializers import (
    ChainReportSerializer,
    EventPageSerializer,
    HealthLiveSerializer,
    HealthReadySerializer,
    HealthSerializer,
    MeSerializer,
)
from casino.eventstore import selectors
from casino.eventstore.verify import verify_chain
from casino.roles import ALL_ROLES, Role, roles_required, user_roles

PAGING = KEYSET_PAGING_PARAMETERS  # from_position and limit, with their bounds


class EventListView(APIView):
    """The event log in global order, optionally narrowed to a stream, stream type or
    event type. Compliance and finance only."""

    permission_classes = [roles_required(Role.COMPLIANCE, Role.FINANCE)]

    @extend_schema(
        parameters=PAGING + [
            OpenApiParameter("stream_id", str), OpenApiParameter("stream_type", str),
            OpenApiParameter("type", str, description="event type"),
        ],
        responses=EventPageSerializer)
    def get(self, request: Request) -> Response:
        from_position, limit = parse_paging(request.query_params)
        events = selectors.events_page(
            actor=actor_of(request.user), from_position=from_position, limit=limit,
            stream_id=request.query_params.get("stream_id") or None,
            stream_type=request.query_params.get("stream_type") or None,
            event_type=request.query_params.get("type") or None)
        return page_response(request, events, limit)


class StreamEventsView(APIView):
    """Every event of one stream, in version order. Compliance and finance only; a stream
    of another property is 404 ``stream_not_found``."""

    permission_classes = [roles_required(Role.COMPLIANCE, Role.FINANCE)]

    @extend_schema(parameters=PAGING, responses=EventPageSerializer)
    def get(self, request: Request, stream_id: str) -> Response:
        from_position, limit = parse_paging(request.query_params)
        actor = actor_of(request.user)
        if not selectors.stream_visible(actor=actor, stream_id=stream_id):
            raise NotFound(f"no stream {stream_id!r}", code="stream_not_found")
        events = selectors.events_page(actor=actor, from_position=from_position, limit=limit,
                                       stream_id=stream_id)
        return page_response(request, events, limit)


class ChainVerificationView(APIView):
    """Re-compute the SHA-256 chain over every event and report the first broken link.
    Compliance only. ``count`` counts the caller's property's events (every property's
    for a group-wide officer); a break anywhere is reported, by position only."""

    permission_classes = [roles_required(Role.COMPLIANCE)]

    @extend_schema(responses=ChainReportSerializer)
    def get(self, request: Request) -> Response:
        actor = actor_of(request.user)
        report = verify_chain(property=None if actor.group_wide
                              else actor.property.licence_number)
        return Response(ChainReportSerializer(report).data)


class MeView(APIView):
    """Who the caller is and which roles they hold."""

    permission_classes = [roles_required(*ALL_ROLES)]

    @extend_schema(responses=MeSerializer)
    def get(self, request: Request) -> Response:
        staff = getattr(request.user, "staff", None)
        return Response({
            "username": request.user.get_username(),
            "roles": sorted(user_roles(request.user)),
            "credential_number": staff.credential_number if staff else None,
            "property": staff.property.name if staff else None,
            "licence_number": staff.property.licence_number if staff else None,
            "group_wide": bool(staff and staff.group_wide),
        })


class HealthView(APIView):
    """Database and broker status: 200 when both answer, 503 otherwise. No login; the
    details (each component) only to HEALTH_DETAIL_ADDRESSES (casino.health_access),
    anyone else the status alone."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses={200: HealthSerializer, 503: HealthSerializer})
    def get(self, request: Request) -> Response:
        report: dict[str, Any] = health.check()
        return Response(health_access.for_caller(request, report),
                        status=200 if report["status"] == "ok" else 503)


class HealthLiveView(APIView):
    """Liveness: the process answers (200), whatever the database and broker do. No
    login (issue 26 item 5)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses={200: HealthLiveSerializer})
    def get(self, request: Request) -> Response:
        return Response(health.live())


class HealthReadyView(APIView):
    """Readiness: each component's status; 200 when commands can be taken (the database
    answers and takes writes), ``degraded`` when only the broker, the workers, the beat
    or what they keep up are in trouble; 503 with Retry-After otherwise. No login
    (issue 26 item 5); the components only to HEALTH_DETAIL_ADDRESSES, anyone else the
    status alone with the same code (issue 35, casino.health_access)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(responses={200: HealthReadySerializer, 503: HealthReadySerializer})
    def get(self, request: Request) -> Response:
        report, can_write = health.ready()
        report = health_access.for_caller(request, report)
        if can_write:
            return Response(report)
        return Response(report, status=503,
                        headers={"Retry-After": str(health.RETRY_AFTER_SECONDS)})


__all__ = ["EventListView", "StreamEventsView", "ChainVerificationView", "MeView",
           "HealthView", "HealthLiveView", "HealthReadyView"]
