"""Signed digests of the event log (DESIGN §3, "digests kept outside the database"):
the list, newest first, with the public key a copy is verified with elsewhere, and a
digest written on demand. Compliance only.

Digests are over the whole log, not one property's events: a position and a hash reveal
nothing of any event, so every compliance officer may read them. Timestamps are served
as the exact text that was signed, so a copy verifies byte for byte.
"""

from __future__ import annotations

import logging
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.pagination import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    MAX_OFFSET,
    bounded_schema,
    whole_param,
)
from casino.api.problems import PROBLEM_CONTENT_TYPE
from casino.api.schema import ProblemAutoSchema, problem_component
from casino.domain.errors import ConflictError
from casino.eventstore import digests
from casino.roles import Role, roles_required

log = logging.getLogger(__name__)
UNAVAILABLE = "digest_store_unavailable"


# --- serializers -------------------------------------------------------------------------

class DigestSerializer(serializers.Serializer):
    """A signed digest of the log's head, exactly as stored outside the database."""

    position = serializers.IntegerField(min_value=0, help_text="the head's global position")
    hash = serializers.CharField(help_text="the head event's SHA-256 chain hash")
    head_recorded_at = serializers.CharField(
        allow_null=True, help_text="when the head event was recorded (signed text, UTC)")
    made_at = serializers.CharField(help_text="when the digest was signed (signed text, UTC)")
    reason = serializers.ChoiceField(choices=digests.REASONS)
    gaming_day = serializers.CharField(
        allow_null=True, help_text="YYYY-MM-DD for a gaming_day_close digest, else null")
    key_id = serializers.CharField(help_text="first 16 hex digits of SHA-256 of the raw "
                                             "Ed25519 public key")
    signature = serializers.CharField(
        help_text="base64 Ed25519 signature over the canonical JSON (sorted keys, no "
                  "spaces, UTF-8) of every other field")


class DigestPageSerializer(serializers.Serializer):
    algorithm = serializers.CharField()
    key_id = serializers.CharField(help_text="the fingerprint printed on each report")
    public_key_pem = serializers.CharField(help_text="SubjectPublicKeyInfo PEM")
    next = serializers.URLField(allow_null=True)
    count = serializers.IntegerField(help_text="digests on this page")
    total = serializers.IntegerField(help_text="digests stored")
    results = DigestSerializer(many=True, help_text="newest first")


# --- errors and schema ---------------------------------------------------------------------

class DigestStoreUnavailable(APIException):
    """503: the key or the store cannot be used (the cause is logged, not shown)."""

    status_code = 503
    default_code = UNAVAILABLE
    default_detail = "the digest key or store cannot be used; the cause was logged"


def _unavailable(exc: Exception) -> DigestStoreUnavailable:
    log.error("digest store unavailable: %s", exc)
    return DigestStoreUnavailable(code=UNAVAILABLE)


class DigestSchema(ProblemAutoSchema):
    """The shared problem responses plus 503 ``digest_store_unavailable``."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None:
            operation["responses"].setdefault("503", {
                "description": f"The digest key or store cannot be used. Codes: `{UNAVAILABLE}`.",
                "content": {PROBLEM_CONTENT_TYPE: {"schema": problem_component().ref}}})
        return operation


PAGE_PARAMETERS = [
    OpenApiParameter("limit", bounded_schema(1, MAX_LIMIT, DEFAULT_LIMIT),
                     description=f"at most this many digests (1-{MAX_LIMIT}, "
                                 f"default {DEFAULT_LIMIT})"),
    OpenApiParameter("offset", bounded_schema(0, MAX_OFFSET, 0),
                     description=f"skip this many of the newest (0-{MAX_OFFSET})"),
]


# --- views ---------------------------------------------------------------------------------

class DigestListView(APIView):
    """``GET``: the digests, newest first, with the public key and its fingerprint so
    that a copy can be verified away from this system. ``POST``: sign the head now."""

    permission_classes = [roles_required(Role.COMPLIANCE)]
    schema = DigestSchema()

    @extend_schema(parameters=PAGE_PARAMETERS, responses=DigestPageSerializer)
    def get(self, request: Request) -> Response:
        params = request.query_params
        limit = whole_param(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        offset = whole_param(params, "offset", 0, 0, MAX_OFFSET)
        try:
            page, total = digests.digests_page(limit=limit, offset=offset)
            key = digests.public_key_info()
        except digests.DigestUnavailable as exc:
            raise _unavailable(exc) from None
        return Response(DigestPageSerializer({
            **key, "next": _next_url(request, offset, limit, total),
            "count": len(page), "total": total, "results": page}).data)

    @extend_schema(request=None, responses={201: DigestSerializer})
    def post(self, request: Request) -> Response:
        try:
            digest = digests.digest_write(digests.ON_DEMAND)
        except digests.DigestUnavailable as exc:
            raise _unavailable(exc) from None
        except digests.DigestExists:
            raise ConflictError("a digest was written at the same instant; try again",
                                code="digest_exists") from None
        return Response(DigestSerializer(digest).data, status=201)


def _next_url(request: Request, offset: int, limit: int, total: int) -> str | None:
    if offset + limit >= total:
        return None
    params = request.query_params.copy()
    params["offset"] = str(offset + limit)
    params["limit"] = str(limit)
    return request.build_absolute_uri(f"{request.path}?{params.urlencode()}")
