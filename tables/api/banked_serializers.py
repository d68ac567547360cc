"""Input and output shapes of the house-banked rounds' API (Lunar Poker 589 and 671a,
Five Card Hi-Lo): the terminal's commands and the round, its settlement and its
reconstruction as answered. Inputs are checked for type here; the rules are the domain's.
Money is in cents (fields named ``…_cents`` in answers)."""

from __future__ import annotations

from rest_framework import serializers

from casino.domain.cards import format_card
from tables.domain.banked.visibility import reported_phase
from tables.reconstruction import cards_as_text


class CardsField(serializers.ListField):
    """Cards as text ("As", "10d", "Th"); the domain parses and checks them."""

    child = serializers.CharField(max_length=3)


class VersionedInput(serializers.Serializer):
    expected_version = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1,
        help_text="the round version the command was decided on; stale → 409 "
                  "stale_round_version")


class WagerInput(VersionedInput):
    position = serializers.IntegerField(help_text="1 = first position at the dealer's left")
    wager = serializers.CharField(max_length=20, help_text="ante, super, super_dealer, "
                                  "super_on_<P> (Lunar); ante, tie, poker_bonus (Hi-Lo)")
    amount = serializers.IntegerField(help_text="cents")
    player = serializers.CharField(required=False, allow_null=True, default=None,
                                   max_length=60)
    instrument = serializers.CharField(
        required=False, allow_null=True, default=None, max_length=10,
        help_text="chips or plaque (x.7(a)); a verbal wager with cash is refused "
                  "(verbal_cash_wager)")


class WagerItem(serializers.Serializer):
    position = serializers.IntegerField(help_text="1 = first position at the dealer's left")
    wager = serializers.CharField(max_length=20)
    amount = serializers.IntegerField(help_text="cents")
    player = serializers.CharField(required=False, allow_null=True, default=None,
                                   max_length=60)
    instrument = serializers.CharField(
        required=False, allow_null=True, default=None, max_length=10,
        help_text="chips or plaque (x.7(a)); a verbal wager with cash is refused "
                  "(verbal_cash_wager)")


#: more items than a round can hold: at most 35 wagers (5 Lunar positions, each with an
#: Ante, a Super and a Super on the dealer and on each other hand, 671a.7(c)(2)-(3)) and a
#: few decisions or a setting per position; a longer batch is bad input, not work
BATCH_LIMIT = 60


class WagersInput(VersionedInput):
    wagers = serializers.ListField(child=WagerItem(), allow_empty=False,
                                   max_length=BATCH_LIMIT,
                                   help_text="every wager the terminal holds, in order")
    no_more_bets = serializers.BooleanField(
        default=False, help_text="then announce no more bets (589.7(d), 579.7(c))")


class WithdrawInput(VersionedInput):
    position = serializers.IntegerField()
    wager = serializers.CharField(max_length=20)


#: a manual shoe's attestations (x.8(a), 579.8(c)), stated by the dealer, never assumed:
#: omitted there, the deal is refused (placed_by_required, card_hand_required)
PLACED_BY_HELP = ("Manual shoe only, and required there: who placed the deck in the shoe, "
                  "dealer or shuffler.")
CARD_HAND_HELP = ("Manual shoe only, and required there: the dealer attests each card was "
                  "taken with the hand closest to the shoe: closest_to_shoe.")


class DealInput(VersionedInput):
    hands = serializers.DictField(child=CardsField(), help_text='{"1": ["As", "Ks", ...]}: '
                                  "five cards for each position with an Ante")
    dealer = CardsField(help_text="the dealer's five cards, the face-up card last (Lunar)")
    dealer_face_up = serializers.CharField(required=False, allow_null=True, default=None,
                                           max_length=3)
    method = serializers.ChoiceField(
        choices=["by_card", "stacks"], required=False, allow_null=True, default=None,
        help_text="the table's dealing method's when omitted; another is refused "
                  "(deal_method_mismatch)")
    placed_by = serializers.CharField(required=False, allow_null=True, default=None,
                                      max_length=10, help_text=PLACED_BY_HELP)
    card_hand = serializers.CharField(required=False, allow_null=True, default=None,
                                      max_length=20, help_text=CARD_HAND_HELP)


class DealFromShuffleInput(VersionedInput):
    """Dealt mode: the server's shuffle; a manual shoe's attestations as in ``DealInput``."""

    placed_by = serializers.CharField(required=False, allow_null=True, default=None,
                                      max_length=10, help_text=PLACED_BY_HELP)
    card_hand = serializers.CharField(required=False, allow_null=True, default=None,
                                      max_length=20, help_text=CARD_HAND_HELP)


class DecisionInput(VersionedInput):
    position = serializers.IntegerField()
    decision = serializers.CharField(max_length=20, help_text="Lunar: fold, bet, buy, "
                                     "exchange, declare_instant, declare_super, "
                                     "force_dealer, no_force; Hi-Lo: play, forfeit")
    amount = serializers.IntegerField(required=False, allow_null=True, default=None,
                                      help_text="cents, checked (a Bet is 2 x Ante)")
    high = CardsField(required=False, allow_null=True, default=None)
    low = CardsField(required=False, allow_null=True, default=None)


class LockItem(serializers.Serializer):
    """A decision (``decision``), or a Hi-Lo player's setting (``high`` and ``low``
    without ``decision``, 579.11(d))."""

    position = serializers.IntegerField()
    decision = serializers.CharField(required=False, allow_null=True, default=None,
                                     max_length=20)
    amount = serializers.IntegerField(required=False, allow_null=True, default=None,
                                      help_text="cents, checked (a Bet is 2 x Ante)")
    high = CardsField(required=False, allow_null=True, default=None)
    low = CardsField(required=False, allow_null=True, default=None)


class LockInput(VersionedInput):
    decisions = serializers.ListField(
        child=LockItem(), required=False, default=list, max_length=BATCH_LIMIT,
        help_text="every position's decision or setting, recorded first in the same "
                  "command (one commit, one event each); empty: lock what was recorded")


class SetHandsInput(VersionedInput):
    position = serializers.IntegerField()
    high = CardsField(help_text="three cards")
    low = CardsField(help_text="two cards")


class DrawInput(VersionedInput):
    position = serializers.IntegerField()
    discard = CardsField(required=False, default=list, help_text="exchange: 2 to 5 cards")
    cards = CardsField(required=False, default=list, help_text="the cards drawn (recorded)")


class DealerDrawInput(VersionedInput):
    card = serializers.CharField(required=False, allow_null=True, default=None, max_length=3)
    discard = serializers.CharField(required=False, allow_null=True, default=None,
                                    max_length=3)


class IrregularityInput(VersionedInput):
    kind = serializers.CharField(max_length=30, help_text="card_face_up, wrong_card_count, "
                                 "dealer_card_exposed, shuffler_jam, shoe_jam, "
                                 "stub_count_wrong, card_drawn_in_error, abandoned")
    card = serializers.CharField(required=False, allow_null=True, default=None, max_length=3)
    position = serializers.IntegerField(required=False, allow_null=True, default=None)
    misdealt = serializers.BooleanField(required=False, allow_null=True, default=None)
    face_exposed = serializers.BooleanField(required=False, allow_null=True, default=None,
                                            help_text="card_drawn_in_error: its face "
                                            "exposed (refused: that is card_face_up)")


class StubInput(VersionedInput):
    """Five Card Hi-Lo after the deal: the stub to the discard rack, counted or not."""

    cards = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="the cards counted in the stub (579.8(f), 579.9(d), 579.10(d)); omitted: "
                  "the stub goes to the discard rack uncounted")
    misdealt = serializers.BooleanField(required=False, allow_null=True, default=None)
    held = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="with misdealt: the cards the players and the dealer hold, counted on the "
                  "layout; the deck stays only if they and the stub make 52 (579.8(h), "
                  "579.9(f), 579.10(f))")


class SettleScriptInput(serializers.Serializer):
    """A round script (tests/tables/banked/scripts/README.md)."""

    game = serializers.CharField(max_length=40)
    options = serializers.JSONField()
    positions = serializers.JSONField(help_text="each position's wagers (amounts in cents) "
                                                "and cards")
    dealer = serializers.JSONField()
    irregularities = serializers.JSONField(required=False)
    expected = serializers.JSONField(required=False, help_text="the amounts worked by hand, "
                                     "in cents: returned by position and wager, "
                                     "house_win_cents")
    cite = serializers.JSONField(required=False)
    description = serializers.CharField(required=False, allow_blank=True)


class BankedEventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.JSONField()


class DomainEventSerializer(serializers.Serializer):
    type = serializers.CharField()
    data = serializers.JSONField()


class BankedPositionSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    wagered_cents = serializers.DictField(child=serializers.IntegerField(),
                                          help_text="cents wagered, by wager")
    returned_cents = serializers.DictField(child=serializers.IntegerField(),
                                           help_text="cents returned to the player, by wager")
    cards = serializers.ListField(child=serializers.CharField())
    decision = serializers.CharField(allow_null=True)
    final = serializers.CharField(allow_null=True)


class BankedRoundSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    table = serializers.UUIDField()
    number = serializers.IntegerField()
    game = serializers.CharField()
    state = serializers.CharField(help_text="open / closed (the round gate)")
    phase = serializers.CharField(help_text="where the round is: betting, dealing, "
                                  "decisions, drawing, forcing, dealer_draw, showdown, "
                                  "settled (every wager settled: close the round), closed")
    settled = serializers.BooleanField(help_text="every wager settled: the round may close")
    version = serializers.IntegerField()
    positions = BankedPositionSerializer(many=True)
    dealer_up_card = serializers.CharField(allow_null=True)
    dealer = serializers.ListField(child=serializers.CharField(),
                                   help_text="shown once revealed")
    events = BankedEventSerializer(many=True, help_text="what this command appended")

    def to_representation(self, instance: object) -> dict:
        # What the terminal may see is the domain's rule (tables.domain.banked.visibility),
        # applied by the service's BankedRound; this only formats it.
        b = instance
        st = b.state  # type: ignore[attr-defined]
        rnd = b.round  # type: ignore[attr-defined]
        return {
            "id": str(rnd.pk), "table": str(rnd.table_id), "number": rnd.number,
            "game": st.game, "state": rnd.state, "phase": reported_phase(st),
            "settled": b.settled, "version": b.version,  # type: ignore[attr-defined]
            "positions": [{"position": n, "player": p.player, "wagered_cents": dict(p.wagered),
                           "returned_cents": dict(p.returned),
                           "cards": [format_card(c) for c in p.cards],
                           "decision": p.decision, "final": p.final}
                          for n, p in sorted(st.positions.items())],
            "dealer_up_card": format_card(st.dealer_up) if st.dealer_up is not None else None,
            "dealer": [format_card(c) for c in b.dealer_shown()],  # type: ignore
            "events": [{"version": e.version, "type": e.type, "data": cards_as_text(data)}
                       for e, data in b.events_shown()],  # type: ignore[attr-defined]
        }


class SettlementLineSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    wager = serializers.CharField()
    wagered_cents = serializers.IntegerField()
    returned_cents = serializers.IntegerField()
    outcome = serializers.CharField()
    why = serializers.CharField()


class StepSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    at = serializers.DateTimeField()
    actor = serializers.CharField()
    role = serializers.CharField()
    event = serializers.CharField()
    text = serializers.CharField()
    details = serializers.JSONField()


class ReconstructionSerializer(serializers.Serializer):
    round = serializers.UUIDField()
    table = serializers.UUIDField()
    number = serializers.IntegerField()
    game = serializers.CharField()
    phase = serializers.CharField()
    version = serializers.IntegerField()
    steps = StepSerializer(many=True)
    hands = serializers.JSONField()
    dealer = serializers.ListField(child=serializers.CharField())
    lines = SettlementLineSerializer(many=True)
    void = serializers.JSONField(allow_null=True)
    wagered_cents = serializers.IntegerField()
    returned_cents = serializers.IntegerField()
    house_win_cents = serializers.IntegerField()


class SettlementSerializer(serializers.Serializer):
    lines = SettlementLineSerializer(many=True)
    returned_by_position_cents = serializers.JSONField(
        help_text='cents returned, by position and wager: {"1": {"ante": 2000, ...}}')
    wagered_cents = serializers.IntegerField()
    returned_cents = serializers.IntegerField()
    house_win_cents = serializers.IntegerField()
    void = serializers.JSONField(allow_null=True)
    matches_expected = serializers.BooleanField(required=False, help_text="when the script "
                                                "gives expected amounts")
    events = DomainEventSerializer(many=True, help_text="the events the round would record "
                                   "(cards as text); nothing is recorded")


class TableResultRowSerializer(serializers.Serializer):
    wager = serializers.CharField()
    wagered_cents = serializers.IntegerField(source="wagered")
    returned_cents = serializers.IntegerField(source="returned")
    house_win_cents = serializers.IntegerField(source="house_win")
    rounds = serializers.IntegerField()


class TableResultsSerializer(serializers.Serializer):
    table = serializers.UUIDField()
    gaming_day = serializers.DateField()
    rows = TableResultRowSerializer(many=True, help_text="per wager type; 'all' adds them up "
                                    "and counts each round once")
