"""The gate a round passes to open, as pure rules on what one locked read of the table
saw: the table open and free, the Rules Submission in force, and the deck that deals it
in play, on time, counted and taking its turn (589.3, 637a.3, 637a.7(e)(4)).

The order of the checks is the order a dealer is told about them: the table first, then
the rules, then the deck. :mod:`tables.services.round_start` reads the table and runs
these on the command runner; nothing here touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from casino.domain.errors import ConflictError
from tables.domain.banked import decide as banked_decide
from tables.domain.catalogue import BANKED_GAMES, get_table_game
from tables.domain.decks import (
    DealingMethod,
    Shuffler,
    TableSetup,
    count_due,
    expected_deck,
)

#: the states of a Rules Submission that may be in force (tables.models.RulesState)
IN_EFFECT, APPROVED = "in_effect", "approved"


@dataclass(frozen=True)
class RulesVersion:
    """A Rules Submission version that is in effect, or approved with its effective time."""

    id: str
    version_number: int
    state: str
    effective_at: datetime | None
    options: dict[str, Any]


@dataclass(frozen=True)
class DeckInPlay:
    """A deck in play at the table, as the round's gate needs it."""

    id: str
    change_due: bool
    deadline_at: datetime | None
    rounds_since_count: int
    stream_version: int
    entered_play_at: datetime | None


@dataclass(frozen=True)
class TableAtStart:
    """The table as its locked read saw it: its row, the Rules versions that may be in
    force and its decks in play (oldest first)."""

    id: str
    name: str
    game: str
    status: str
    dealer_id: int | None
    positions: int
    current_round_id: str | None
    rounds_played: int
    last_deck_id: str | None
    dealing_method: str
    shuffler: str
    shuffler_out_of_order: bool
    shoe_out_of_order: bool
    rules: tuple[RulesVersion, ...]
    decks: tuple[DeckInPlay, ...]

    @property
    def setup(self) -> TableSetup:
        return TableSetup(game=get_table_game(self.game),
                          dealing_method=DealingMethod(self.dealing_method),
                          shuffler=Shuffler(self.shuffler),
                          shuffler_out_of_order=self.shuffler_out_of_order,
                          shoe_out_of_order=self.shoe_out_of_order)

    @property
    def pair(self) -> list[str]:
        """The ids of the decks in play, oldest first."""
        return [d.id for d in self.decks]


def rules_in_force(versions: tuple[RulesVersion, ...] | list[RulesVersion], now: datetime
                   ) -> RulesVersion | None:
    """The version in force as of ``now`` (the rule of
    :func:`tables.selectors.rules_in_force`): the newest by version number of the one in
    effect and the approved ones whose effective time has come; None without one."""
    due = [v for v in versions if v.state == IN_EFFECT or (
        v.state == APPROVED and v.effective_at is not None and v.effective_at <= now)]
    return max(due, key=lambda v: v.version_number, default=None)


def check_table_free(table: TableAtStart) -> None:
    """The table is open and no round is in progress there."""
    if table.status != "open":
        raise ConflictError(f"table {table.name} is closed", code="table_closed")
    if table.current_round_id:
        raise ConflictError("the round in progress must be closed first",
                            code="round_in_progress")


def rules_required(table: TableAtStart, now: datetime) -> RulesVersion:
    rules = rules_in_force(table.rules, now)
    if rules is None:
        raise ConflictError(f"no Rules Submission for {table.game} is in effect",
                            code="no_rules_in_effect")
    return rules


def deck_due(table: TableAtStart) -> DeckInPlay:
    """The deck in play that deals next when the dealer names none: the one not used
    last (589.3(b)(3), 637a.3(a)), else the first put in play."""
    if not table.decks:
        raise ConflictError(f"table {table.name} has no deck in play", code="no_deck_in_play")
    expected = expected_deck(table.pair, table.last_deck_id)
    return next((d for d in table.decks if d.id == expected), table.decks[0])


#: the subsection that has the cards counted every 5 rounds, by chapter; Five Card Hi-Lo's
#: by the table's dealing method (its stub count)
COUNT_CITES = {"637a": "637a.7(e)(4)", "589": "589.11(g)", "671a": "671a.11(h)"}
HILO_COUNT_CITES = {DealingMethod.MANUAL_SHOE: "579.8(f)", DealingMethod.HAND: "579.9(d)",
                    DealingMethod.AUTOMATED_SHOE: "579.10(d)"}


def count_cite(setup: TableSetup) -> str:
    """The subsection a table's five-round card count comes from."""
    if setup.game.chapter == "579":
        return HILO_COUNT_CITES[setup.effective_dealing]
    return COUNT_CITES.get(setup.game.chapter, "637a.7(e)(4)")


def check_deck(table: TableAtStart, deck: DeckInPlay | None, now: datetime) -> None:
    """The deck may deal the table's next round. ``deck`` None: the deck named is not one
    of the table's decks in play."""
    setup = table.setup
    if deck is None:
        raise ConflictError("that deck is not in play at this table", code="deck_not_in_play")
    if deck.change_due or (deck.deadline_at and now >= deck.deadline_at):
        # The timer may not have fired yet; the deadline itself is what counts.
        raise ConflictError("the deck has reached its time limit and must be changed "
                            "(589.3(c), 637a.3(c))", code="deck_change_due")
    if (not setup.game.is_poker and setup.effective_dealing is DealingMethod.HAND
            and not setup.shuffler_working):
        raise ConflictError("a banked game dealt by hand needs a working automated shuffler "
                            "(589.9(a)(1), 671a.9(a)(1), 579.9(a)(1))",
                            code="hand_dealing_needs_shuffler")
    if count_due(setup, deck.rounds_since_count):
        raise ConflictError("the deck must be counted before it deals again "
                            f"({count_cite(setup)})", code="deck_count_due")
    pair = table.pair
    if len(pair) > setup.decks_in_play_allowed:
        # e.g. the shuffler failed at a banked game: one deck only (589.3(a)).
        raise ConflictError(f"{len(pair)} decks are in play where {setup.decks_in_play_allowed} "
                            "is allowed now; remove one", code="too_many_decks_in_play")
    if setup.game.is_poker and len(pair) < 2:
        raise ConflictError("a poker table keeps two decks in play (637a.3(a))",
                            code="second_deck_missing")
    expected = expected_deck(pair, table.last_deck_id)
    if expected is not None and expected != deck.id:
        raise ConflictError("the decks alternate: this round is dealt with the other deck "
                            "(589.3(b)(3), 637a.3(a))", code="wrong_deck")


@dataclass(frozen=True)
class RoundOpening:
    """What opening the round records: ``RoundOpened`` in the new round's stream and
    ``DeckDealtRound`` in the deck's."""

    round_id: str
    number: int
    deck: DeckInPlay
    rules: RulesVersion
    opened: dict[str, Any]      # RoundOpened's data
    deck_dealt: dict[str, Any]  # DeckDealtRound's data


def round_opening(table: TableAtStart, rules: RulesVersion, deck: DeckInPlay, round_id: str
                  ) -> RoundOpening:
    """The table's next round, dealt by ``deck`` under ``rules`` (both checked). A
    house-banked round opens its domain on the same event: the canonical options of the
    version in force, the round id and the table's positions."""
    setup = table.setup
    number = table.rounds_played + 1
    data: dict[str, Any] = {}
    if table.game in BANKED_GAMES:
        opened = banked_decide(None, {"type": "open_round", "game": table.game,
                                      "options": rules.options, "round_id": round_id})[0]
        data = {**opened["data"], "max_positions": table.positions}
    return RoundOpening(round_id, number, deck, rules, {
        **data,
        "table_id": table.id, "number": number, "deck_id": deck.id,
        "rules_submission_id": rules.id, "rules_version_number": rules.version_number,
        "game": table.game, "dealing_method": setup.effective_dealing.value,
        "shuffler": table.shuffler if setup.shuffler_working else "none"},
        {"round_id": round_id, "number": number})


__all__ = ["DeckInPlay", "RoundOpening", "RulesVersion", "TableAtStart", "check_deck",
           "check_table_free", "deck_due", "round_opening", "rules_in_force",
           "rules_required"]
