"""Shapes of the poker room's API: what a command takes and what it answers."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from poker_room.api.cards import cards_out
from poker_room.domain import pot_figures
from poker_room.domain.visibility import TERMINAL, event_data, seat_cards
from poker_room.models import PokerTable, Seat
from poker_room.services.hands import PokerHand


class PlayerIn(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True)


#: how table stakes were paid (poker_room.chip_sales); checked by the service for its code
PAID_WITH_HELP = ("cash: paid in cash at the table, recorded with it as a chip sale into the "
                  "drop box; chips: chips brought from the cage or another table, no sale. "
                  "Required: left out, 400 invalid_paid_with and nothing recorded")


class PaidWithField(serializers.CharField):
    """``paid_with``, required: left out (or null) it reaches the seating service as
    ``None``, which refuses it with the field's own code, ``invalid_paid_with``, as it
    refuses a value other than cash or chips (poker_room.domain.seating.paid_with)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(help_text=PAID_WITH_HELP, **kwargs)

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        if data is serializers.empty or data is None:
            return True, None
        return super().validate_empty_values(data)


class SeatIn(serializers.Serializer):
    seat = serializers.IntegerField()
    buy_in_cents = serializers.IntegerField()
    paid_with = PaidWithField()
    player = PlayerIn(required=False, allow_null=True, default=None,
                      help_text="null: an anonymous seat; else the name and phone a High "
                                "Hand Tracking Slip records (637a.16(f)(1))")


class SeatNumberIn(serializers.Serializer):
    seat = serializers.IntegerField()


class ChipsIn(SeatNumberIn):
    amount_cents = serializers.IntegerField()
    paid_with = PaidWithField()


class StepAwayIn(SeatNumberIn):
    covered_cents = serializers.IntegerField(help_text="the table stakes the floorperson "
                                                       "counted or covered (637a.8(b)(6))")
    method = serializers.ChoiceField(["stakes-counted", "stakes-covered"],
                                     default="stakes-counted")


class ReturnIn(SeatNumberIn):
    stakes_verified = serializers.BooleanField()


class RemoveIn(SeatNumberIn):
    reason = serializers.CharField(max_length=2000)


class MinimumBetIn(serializers.Serializer):
    amount_cents = serializers.IntegerField()
    all_players_agreed = serializers.BooleanField()


class SeatOut(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()

    class Meta:
        model = Seat
        fields = ["seat", "player", "stack_cents", "status", "covered_cents", "seated_at"]

    def get_player(self, seat: Seat) -> dict[str, str] | None:
        if seat.anonymous:
            return None
        return {"name": seat.player_name, "phone": seat.player_phone}


class LeftOut(serializers.Serializer):
    seat = serializers.IntegerField()
    cashed_out_cents = serializers.IntegerField()


class PokerTableOut(serializers.ModelSerializer):
    class Meta:
        model = PokerTable
        fields = ["button_seat", "kill_active", "hands_dealt", "current_hand",
                  "agreed_minimum_bet_cents", "stream_version"]


class TableSeatsOut(serializers.Serializer):
    table = serializers.UUIDField(source="pk")
    name = serializers.CharField()
    game = serializers.CharField()
    state = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()

    def get_state(self, table: Any) -> dict[str, Any] | None:
        poker = PokerTable.objects.filter(table_id=table.pk).first()
        return PokerTableOut(poker).data if poker else None

    def get_seats(self, table: Any) -> list[dict[str, Any]]:
        return SeatOut(Seat.objects.filter(table_id=table.pk).order_by("seat"), many=True).data


class HandStartIn(serializers.Serializer):
    deck_id = serializers.UUIDField(required=False, allow_null=True, default=None,
                                    help_text="the deck of the pair that deals the hand; "
                                              "omit it for the deck due (they alternate)")
    straddle = serializers.BooleanField(default=False)
    shuffle = serializers.BooleanField(default=False, help_text="the server shuffles the "
                                       "deck (CSPRNG) and the engine deals from it")
    deck = serializers.ListField(child=serializers.CharField(max_length=3), required=False,
                                 allow_null=True, default=None,
                                 help_text="the deck's recorded shuffle, top card first: the "
                                           "engine deals from it; omit to record the cards "
                                           "as the dealer deals them")


class HandCommandIn(serializers.Serializer):
    command = serializers.JSONField(help_text=(
        '{"type": "act", "seat": 3, "action": "raise", "amount": 800} · {"type": "deal", '
        '"cards": {"1": ["As", "Kd"], ...}} or a board list · {"type": "draw", "seat": 2, '
        '"discard": ["7c"], "cards": ["2d"]} · {"type": "misdeal", "reason": ...}. An act\'s '
        '"amount" is in cents (800 = $8.00): what the bet or raise comes to'))
    expected_version = serializers.IntegerField(required=False, allow_null=True, default=None)


class HandBatchIn(serializers.Serializer):
    commands = serializers.JSONField(help_text="a list of commands, run in order, all or "
                                               "nothing (amounts in cents)")
    expected_version = serializers.IntegerField(required=False, allow_null=True, default=None)


class RulingIn(serializers.Serializer):
    ruling = serializers.CharField(max_length=2000)


# --- what a dispute turns on (637a.18(a); poker_room.domain.pot_figures.dispute_figures) --

class ContributionOut(serializers.Serializer):
    fund = serializers.CharField(help_text="the fund's posted name")
    amount_cents = serializers.IntegerField()


class PotAwardOut(serializers.Serializer):
    seat = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    share = serializers.CharField(allow_null=True, help_text="whole, high or low")
    odd_chips_cents = serializers.IntegerField()


class PotOut(serializers.Serializer):
    pot_number = serializers.IntegerField(help_text="1 the main pot, then each side pot")
    gross_pot_cents = serializers.IntegerField(help_text="what the players put in it")
    rake_cents = serializers.IntegerField(help_text="the rake taken from it (637a.17)")
    contributions = ContributionOut(many=True, help_text="what each jackpot fund took "
                                                         "from it (637a.15(c), 637a.16(c))")
    pot_cents = serializers.IntegerField(help_text="the Pot (637a.1): after the rake and "
                                                   "the contributions, what is awarded")
    eligible_seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the seats that may win it: not a folded player, an all-in player only "
                  "the pots he reached (637a.8(b)(5))")
    awards = PotAwardOut(many=True)


class FirstToActOut(serializers.Serializer):
    betting_round = serializers.IntegerField(help_text="1 the first betting round")
    seat = serializers.IntegerField(allow_null=True)


class NextHandKillOut(serializers.Serializer):
    option = serializers.ChoiceField(["kill", "half-kill"])
    scooped_by_seat = serializers.IntegerField(
        allow_null=True, help_text="who won the entire qualifying pot; null when the Kill "
                                   "carries on from an earlier hand")
    qualifying_pot_cents = serializers.IntegerField()
    small_bet_cents = serializers.IntegerField(allow_null=True,
                                               help_text="fixed limit: the next hand's")
    big_bet_cents = serializers.IntegerField(allow_null=True,
                                             help_text="fixed limit: the next hand's")
    minimum_bet_cents = serializers.IntegerField(
        allow_null=True, help_text="pot or no limit: the next hand's minimum bet")


class JackpotWithheldOut(serializers.Serializer):
    fund = serializers.CharField(help_text="the fund's posted name")
    kind = serializers.ChoiceField(["bad_beat", "high_hand"])
    reason = serializers.CharField(help_text="why the hand paid nothing into it")


class DisputeFiguresOut(serializers.Serializer):
    """What a supervisor settling a dispute reads without opening the events (637a.18(a);
    poker_room.domain.pot_figures.dispute_figures): a hand's answer and the dispute
    calculator's both carry it."""

    pots = PotOut(many=True, help_text="once the hand is over, each pot, main pot first "
                                       "(empty while it is played, or void)")
    first_to_act = FirstToActOut(many=True, help_text=(
        "each betting round played and the seat that acted first in it (637a.10(e)-(f), "
        "637a.11(g)-(h)); in a round no one has acted in yet, the seat to act"))
    forced_bet_seat = serializers.IntegerField(
        allow_null=True, help_text="stud: the seat that owed the Forced Bet (637a.10(d)); "
                                   "null in a game with blinds")
    next_hand_kill = NextHandKillOut(allow_null=True, help_text=(
        "once the hand is over, the Kill or Half-kill in force for the next hand and its "
        "limits (637a.1, 637a.12(n)); null when none"))
    jackpots_withheld = JackpotWithheldOut(many=True, help_text=(
        "each jackpot fund of the Rules Submission the hand pays nothing into because "
        "its box is not registered at the table, and why (637a.2(e)); the pot keeps "
        "that money"))


def hand_view(ph: PokerHand, audience: str) -> dict[str, Any]:
    """A hand as ``audience`` may see it (poker_room.domain.visibility), cards as codes."""
    hand = ph.hand
    over = hand.is_complete or ph.closed
    snap = hand.snapshot()
    seats = []
    for i, seat in enumerate(hand.seats):
        up = hand.up_cards(seat)
        down = hand.cards(seat)[:len(hand.cards(seat)) - len(up)]
        seats.append({"seat": seat, "stack_cents": snap["stacks"][i],
                      "bet_cents": snap["bets"][i], "in_hand": bool(snap["live"][i]),
                      **seat_cards(down, up, hand_over=over, audience=audience)})
    legal = None if over else hand.legal_actions()
    # 637a.1: the Pot is after the rake (and the contributions, taken after it); the
    # gross pot is every chip put in (poker_room.domain.pot_figures)
    result = pot_figures.hand_result(hand.result, hand.events) if over else None
    pot = ({k: result[k] for k in ("gross_pot_cents", "pot_cents")} if result is not None
           else pot_figures.live_pot(hand.gross_pot, hand.rake_taken))
    return cards_out({
        "round_id": str(ph.round_id), "number": ph.number,
        "table": {"id": str(ph.table.pk), "name": ph.table.name, "game": ph.table.game},
        "version": ph.version, "over": over, "phase": hand.phase, "to_act": hand.to_act,
        "legal_actions": legal, **pot, "board": hand.board, "seats": seats,
        "kill_active": hand.kill_active, "result": result,
        # what a supervisor settling a dispute reads without the events (637a.18(a))
        **pot_figures.dispute_figures(hand, ph.jackpots_withheld),
        "events": [{"version": e.version, "type": e.type,
                    "data": event_data(e.type, e.data, hand_over=over, audience=audience)}
                   for e in ph.events if e.type not in ("RoundOpened",)],
    })


class HandOut(DisputeFiguresOut):
    """The hand: seats with stacks, bets and cards (hole cards ``null`` on the terminal),
    the board, whose turn and what is legal, the pot; the events this command appended
    (or, read, all of them); the ``version`` to send as ``expected_version`` next."""

    round_id = serializers.UUIDField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    over = serializers.BooleanField()
    phase = serializers.CharField()
    to_act = serializers.IntegerField(allow_null=True)
    gross_pot_cents = serializers.IntegerField(
        help_text="every chip put in the pot, this round's bets included, before the rake "
                  "and the jackpot contributions")
    pot_cents = serializers.IntegerField(
        help_text="the Pot (637a.1): after the rake and, once the hand is over, the jackpot "
                  "contributions — what is awarded")
    board = serializers.ListField(child=serializers.CharField())
    seats = serializers.ListField(child=serializers.DictField())
    legal_actions = serializers.DictField(allow_null=True)
    result = serializers.DictField(
        allow_null=True, help_text="once over: gross_pot_cents, rake_cents, "
        "rake_by_pot_cents, contributions [{fund, amount_cents}], pot_cents (after the rake "
        "and the contributions), stacks [{seat, stack_cents}], winners, kill_next, voided")
    events = serializers.ListField(child=serializers.DictField())

    def to_representation(self, ph: PokerHand) -> dict[str, Any]:
        return hand_view(ph, self.context.get("audience", TERMINAL))

