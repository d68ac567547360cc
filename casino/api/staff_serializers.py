"""Input and output shapes of the staff API (casino.api.staff_views)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino.models import RoleGrant, StaffProfile
from casino.roles import Role

ROLE_CHOICES = [r.value for r in Role]


class StaffSerializer(serializers.ModelSerializer):
    """A member of staff; ``id`` is their login's id, used in every staff URL."""

    id = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    is_active = serializers.BooleanField(source="user.is_active")
    roles = serializers.SerializerMethodField()
    property = serializers.CharField(source="property.licence_number")

    class Meta:
        model = StaffProfile
        fields = ["id", "username", "display_name", "credential_number", "property",
                  "roles", "group_wide", "is_active"]

    def get_roles(self, profile: StaffProfile) -> list[str]:
        return sorted(g.name for g in profile.user.groups.all())


class RoleGrantSerializer(serializers.ModelSerializer):
    staff = serializers.IntegerField(source="staff.user_id")
    username = serializers.CharField(source="staff.user.username")

    class Meta:
        model = RoleGrant
        fields = ["id", "staff", "username", "role", "group_wide", "reason", "state",
                  "requested_by", "requested_at", "decided_by", "decided_at",
                  "decision_reason"]


def _text(max_length: int, **kw: Any) -> serializers.CharField:
    return serializers.CharField(max_length=max_length, **kw)


class EnrolInput(serializers.Serializer):
    username = _text(150)
    password = _text(128, trim_whitespace=False, style={"input_type": "password"})
    credential_number = _text(50)
    display_name = _text(200, required=False, allow_blank=True, default="")


class GrantRequestInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=ROLE_CHOICES)
    reason = _text(1000)
    group_wide = serializers.BooleanField(
        required=False, default=False,
        help_text="compliance only: read every property's event log")


class StaffReasonInput(serializers.Serializer):
    reason = _text(1000)


class RevokeInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=ROLE_CHOICES)
    reason = _text(1000)


class CredentialNumberInput(serializers.Serializer):
    credential_number = _text(50)
    reason = _text(1000)


class PasswordChangeInput(serializers.Serializer):
    old_password = _text(128, trim_whitespace=False, style={"input_type": "password"})
    new_password = _text(128, trim_whitespace=False, style={"input_type": "password"})


class DoneSerializer(serializers.Serializer):
    done = serializers.BooleanField()


class StaffEmptyInput(serializers.Serializer):
    """No body."""
