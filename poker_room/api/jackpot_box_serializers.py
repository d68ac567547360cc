"""Shapes of the jackpot-box commands (637a.2(e)): what registering or removing a box
takes and what it answers. The confirmations reach the service as sent, so a box not
confirmed is refused with its own code (poker_room.domain.contributions)."""

from __future__ import annotations

from rest_framework import serializers

CONFIRM_HELP = ("true: the person registering the box confirms it (637a.2(e)); false or "
                "left out: 400 with this field's code and nothing recorded")


class JackpotBoxRegisterIn(serializers.Serializer):
    fund = serializers.CharField(max_length=60,
                                 help_text="the fund as the Rules Submission names it")
    box = serializers.CharField(max_length=40, help_text="the number or tag on the box")
    transparent = serializers.BooleanField(required=False, default=False,
                                           help_text=CONFIRM_HELP)
    locked = serializers.BooleanField(required=False, default=False, help_text=CONFIRM_HELP)
    beside_drop_box = serializers.BooleanField(
        required=False, default=False,
        help_text="attached on the same side of the table as the drop box; " + CONFIRM_HELP)


class JackpotBoxRemoveIn(serializers.Serializer):
    fund = serializers.CharField(max_length=60)
    reason = serializers.CharField(max_length=2000)


class JackpotBoxOut(serializers.Serializer):
    box = serializers.CharField()
    kind = serializers.CharField()


class JackpotBoxesOut(serializers.Serializer):
    table = serializers.UUIDField()
    jackpot_boxes = serializers.DictField(child=JackpotBoxOut(),
                                          help_text="fund name -> the box registered for it")
