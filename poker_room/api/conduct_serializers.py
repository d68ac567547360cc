"""The compliance acknowledgement of a player required to leave the game (637a.18(c))."""

from __future__ import annotations

from rest_framework import serializers


class RemovalAcknowledgeIn(serializers.Serializer):
    removal = serializers.IntegerField(help_text=(
        "the version of the PlayerRemoved event in the table's stream (its item on the "
        "console's list names it)"))
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True,
                                 default="", help_text="what the review found, if anything")


class RemovalAcknowledgedOut(serializers.Serializer):
    removal_version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    removed_by = serializers.CharField()
    note = serializers.CharField(allow_blank=True)
    rule = serializers.CharField()
