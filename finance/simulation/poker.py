"""A poker table's play: players seated for cash, hold'em hands dealt through the poker
room's services, a fill and a credit (§ 637a.17 for the rake)."""

from __future__ import annotations

from typing import Any

from casino.domain.errors import ConflictError
from finance.simulation.crew import Crew
from finance.simulation.plan import (
    POKER_BUY_IN,
    POKER_CREDIT,
    POKER_FILL,
    POKER_LOW,
    POKER_PLAYERS,
    POKER_TOP_UP,
    Refused,
    Tick,
)
from finance.simulation.table_day import Played, _slip, keep_tray
from poker_room.demo import jackpot_boxes_ready
from poker_room.models import Seat
from poker_room.services import hands, seats
from tables.demo import keep_decks_in_play
from tables.models import GameTable


class PokerDealer:
    """Hold'em hands at one table through the poker room's services (the server
    shuffles, the engine deals), the dealer entering each betting round as one batch.

    The players are calling stations: nobody folds or raises; after the flop the first to
    act bets and everyone calls. Every pot so reaches the posted rake cap and the jackpot
    minimums (§ 637a.17(a), § 637a.15(c), § 637a.16(c)), which keeps the day's figures
    easy to follow."""

    def __init__(self, p: Played, crew: Crew) -> None:
        self.p, self.crew = p, crew
        self.table = p.table
        self.stacks: dict[int, int] = {}

    def seat_players(self) -> None:
        # 637a.2(e): the jackpot boxes on the table first, or its hands pay into no fund
        jackpot_boxes_ready(self.table, self.crew.floor)
        for seat in range(1, POKER_PLAYERS + 1):
            if not Seat.objects.filter(table=self.table, seat=seat).exists():
                # one record: the cash buy-in is the table's chip sale too
                seats.seat_player(actor=self.crew.dealer, table_id=self.table.pk, seat=seat,
                                  buy_in_cents=POKER_BUY_IN, paid_with="cash")
        self.stacks = {s.seat: s.stack_cents for s in Seat.objects.filter(table=self.table)}

    def _top_up(self) -> None:
        for seat, stack in sorted(self.stacks.items()):
            if stack < POKER_LOW:
                seats.chips_add(actor=self.crew.dealer, table_id=self.table.pk, seat=seat,
                                amount_cents=POKER_TOP_UP, paid_with="cash")
                self.stacks[seat] = stack + POKER_TOP_UP
                self.p.rebuys += 1

    def _start(self) -> Any:
        for _ in range(3):
            try:
                return hands.hand_start(actor=self.crew.dealer, table_id=self.table.pk,
                                        shuffle=True)
            except ConflictError as exc:
                if exc.code not in ("deck_change_due", "second_deck_missing",
                                    "no_deck_in_play", "deck_count_due"):
                    raise
                keep_decks_in_play(GameTable.objects.get(pk=self.table.pk), self.crew.dealer,
                                   self.crew.floor, batch="SIM")
        raise Refused("decks_not_in_play", f"the decks of {self.table.name} could not be "
                      "kept in play")

    @staticmethod
    def decide(hand: Any) -> dict[str, Any]:
        legal = hand.legal_actions()
        acts = legal["actions"]
        if "bet" in acts and hand.board:
            action = "bet"
        elif "check" in acts:
            action = "check"
        else:
            action = "call"
        return {"type": "act", "seat": legal["seat"], "action": action}

    def hand(self) -> None:
        self._top_up()
        ph = self._start()
        while not ph.hand.is_complete:
            local, batch = ph.hand, []
            street = list(local.board)
            while not local.is_complete and local.to_act is not None:
                command = self.decide(local)
                local.execute(command)
                batch.append(command)
                if local.board != street:
                    break
            if not batch:
                raise Refused("hand_stuck", f"a hand at {self.table.name} waits for "
                              "something this dealer does not do")
            ph = hands.hand_command(actor=self.crew.dealer, round_id=ph.round_id,
                                    commands=batch, expected_version=ph.version)
        self.stacks.update(ph.hand.stacks)
        self.p.hands += 1

    def players_leave(self) -> None:
        for s in Seat.objects.filter(table=self.table).order_by("seat"):
            seats.seat_leave(actor=self.crew.dealer, table_id=self.table.pk, seat=s.seat)


def play_poker(p: Played, crew: Crew, hands_n: int, tick: Tick) -> PokerDealer:
    """Six players buy in for cash, hands dealt, a fill halfway, a credit at the end; a
    fill whenever the tray runs low (the players' buy-ins and top-ups come out of it)."""
    dealer = PokerDealer(p, crew)
    dealer.seat_players()
    for n in range(hands_n):
        if n == hands_n // 2:
            _slip(crew, p.table, "fill", POKER_FILL)
        dealer.hand()
        keep_tray(p, crew)
        tick(p.spec.name)
    _slip(crew, p.table, "credit", POKER_CREDIT)
    return dealer
