"""Input and output shapes of the two-person steps on sign-ins (issue 35): a reset of a
password or second factor, and the lifting of a lock-out."""

from __future__ import annotations

from rest_framework import serializers

from casino.models import CredentialReset, LoginUnlockRequest


class ResetRequestInput(serializers.Serializer):
    what = serializers.ChoiceField(
        choices=[("password", "The password"),
                 ("second_factor", "The second factor (authenticator and recovery codes)"),
                 ("both", "Both")],
        help_text="password, second_factor or both")
    reason = serializers.CharField(max_length=1000)


class CredentialResetSerializer(serializers.ModelSerializer):
    staff = serializers.IntegerField(source="staff.user_id")
    username = serializers.CharField(source="staff.user.username")
    code = serializers.CharField(
        source="half_code", read_only=True, required=False,
        help_text="your half of the enrolment code, in this answer only (never kept, "
                  "never shown again): hand it to the person in person")

    class Meta:
        model = CredentialReset
        fields = ["id", "staff", "username", "what", "reason", "state", "requested_by",
                  "requested_at", "decided_by", "decided_at", "decision_reason",
                  "expires_at", "completed_at", "code"]


class UnlockRequestInput(serializers.Serializer):
    username = serializers.CharField(max_length=150, required=False, allow_blank=True)
    ip_address = serializers.IPAddressField(required=False, allow_blank=True)
    reason = serializers.CharField(max_length=1000)


class UnlockRequestSerializer(serializers.ModelSerializer):
    class Meta:
        model = LoginUnlockRequest
        fields = ["id", "username", "ip_address", "reason", "state", "requested_by",
                  "requested_at", "decided_by", "decided_at", "decision_reason"]
