"""What the poker floor's read endpoints answer: the lists (``GET waitlists/``) and a
list's fairness record (``GET waitlists/{id}/fairness/``). A player's name, phone and
e-mail are given to the floor's roles only; everyone else reads initials."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino.api.fields import LocalDateTimeField

PERSONAL = ("name", "phone", "email")


class WaitlistWaitingOut(serializers.Serializer):
    entry = serializers.UUIDField(source="entry.pk")
    position = serializers.IntegerField(help_text="1 is called first")
    initials = serializers.CharField(help_text='"J.S."; "erased" once the details are erased')
    kind = serializers.CharField(source="entry.kind", help_text="player, change or broken")
    status = serializers.CharField(source="entry.status", help_text="waiting or called")
    source = serializers.CharField(source="entry.source", help_text="floor or kiosk")
    listed_at = LocalDateTimeField(source="entry.listed_at")
    missed_calls = serializers.IntegerField(source="entry.missed_calls")
    name = serializers.CharField(help_text="the floor's roles only (absent otherwise)")
    phone = serializers.CharField(help_text="E.164; the floor's roles only (absent otherwise)")
    email = serializers.CharField(help_text="the floor's roles only (absent otherwise)")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        out = super().to_representation(instance)
        if not self.context.get("personal"):
            for key in PERSONAL:
                out.pop(key, None)
        return out


class WaitlistCallOpenOut(serializers.Serializer):
    call = serializers.UUIDField(source="call.pk")
    entry = serializers.UUIDField(source="call.entry_id")
    initials = serializers.CharField()
    name = serializers.CharField(help_text="the floor's roles only (absent otherwise)")
    position = serializers.IntegerField(allow_null=True)
    table = serializers.UUIDField(source="call.table")
    table_name = serializers.CharField()
    seat = serializers.IntegerField(source="call.seat")
    called_at = LocalDateTimeField(source="call.called_at")
    deadline_at = LocalDateTimeField(source="call.deadline_at")
    overdue = serializers.BooleanField(help_text="past its deadline")
    reason = serializers.CharField(source="call.reason",
                                   help_text="why the floor called out of turn ('' in turn)")
    by_lot = serializers.BooleanField(source="call.by_lot")
    page = serializers.CharField(source="call.page", help_text="'', sent or failed")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        out = super().to_representation(instance)
        if not self.context.get("personal"):
            out.pop("name", None)
        return out


class WaitlistOut(serializers.Serializer):
    id = serializers.UUIDField(source="waitlist.pk")
    game = serializers.CharField(source="waitlist.game")
    name = serializers.CharField(source="waitlist.name")
    kind = serializers.CharField(help_text="'waitlist' while a table of the game is open, "
                                           "'interest list' otherwise")
    tables_open = serializers.IntegerField()
    open_table_at = serializers.IntegerField(source="waitlist.open_table_at",
                                             help_text="a table is suggested at this many "
                                                       "waiting (0: never)")
    main_table = serializers.UUIDField(source="waitlist.main_table", allow_null=True,
                                       help_text="a must-move game's main table (else null)")
    feeders = serializers.ListField(source="waitlist.feeders", child=serializers.CharField(),
                                    help_text="a must-move game's feeder tables")
    waiting_count = serializers.IntegerField(help_text="waiting for a call")
    suggest_open = serializers.BooleanField()
    entries = WaitlistWaitingOut(many=True, source="waiting",
                         help_text="the active entries in calling order")
    calls = WaitlistCallOpenOut(many=True, help_text="the open calls, the earliest deadline first")


class FairnessWhoOut(serializers.Serializer):
    entry = serializers.UUIDField()
    initials = serializers.CharField()
    position = serializers.IntegerField(allow_null=True,
                                        help_text="the player's place on the list then")


class FairnessStepOut(serializers.Serializer):
    version = serializers.IntegerField(help_text="the event's version in the list's stream")
    at = LocalDateTimeField()
    type = serializers.CharField(help_text="the event type")
    kind = serializers.CharField(help_text="added, called, passed, timed out, called off, "
                                           "seated, removed, paged, page failed, moved, "
                                           "opened by lot, broken by lot, must-move, list")
    by = serializers.CharField(help_text='who recorded it: "dana (floorperson)"')
    actor = serializers.CharField()
    role = serializers.CharField()
    player = FairnessWhoOut(allow_null=True)
    text = serializers.CharField(help_text="the step in words (initials, never a name)")
    table = serializers.CharField(allow_null=True)
    table_name = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    passed = FairnessWhoOut(many=True, help_text="a call: the players passed over")
    called_instead = FairnessWhoOut(allow_null=True,
                                    help_text="a pass: the player called instead")
    in_turn = serializers.BooleanField(allow_null=True)
    by_lot = serializers.BooleanField()
    moved_to = serializers.IntegerField(allow_null=True)
    missed = serializers.IntegerField(allow_null=True)
    call = serializers.CharField(allow_null=True)


class FairnessOut(serializers.Serializer):
    waitlist = serializers.UUIDField(source="waitlist.pk")
    name = serializers.CharField(source="waitlist.name")
    day = serializers.DateField(help_text="the gaming day")
    steps = FairnessStepOut(many=True)
    waiting_at_start = FairnessWhoOut(many=True,
                                      help_text="the list before the day's first step")
    waiting_at_end = FairnessWhoOut(many=True, help_text="the list after the day's last step")
