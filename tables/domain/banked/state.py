"""What a house-banked round knows at any moment: the phase, each betting position's
wagers, cards and decisions, the dealer's cards and the deck, and what has been paid.

The state is only ever *built* by :func:`tables.domain.banked.events.evolve` from events;
nothing here decides anything. Dataclasses are frozen and their dicts are never changed in
place (evolve copies what it changes with :func:`amend`), so an old state stays valid after
a new one is built.

Positions are numbered as the chapters count them: 1 is the first position at the dealer's
left, and "clockwise" (589.11(c), 671a.11(c), 579.11(b)) is ascending position numbers;
"counterclockwise from the dealer's right" (589.11(e)(1), 671a.11(f)(2), 579.11(f)) is
descending.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from tables.domain.catalogue import BANKED_GAMES, GAMES, Family
from tables.domain.hands.lunar import Rulebook


class Phase(StrEnum):
    NEW = "new"                  # nothing recorded yet
    BETTING = "betting"          # round opened; wagers may be placed and withdrawn
    DEALING = "dealing"          # "no more bets" announced (589.7(d), 579.7(c)); no cards yet
    DECISIONS = "decisions"      # cards dealt; players fold / bet / buy / play / set hands
    DRAWING = "drawing"          # Lunar, "all decisions are locked in": draws in turn (x.11(d))
    SHOWDOWN = "showdown"        # dealer's cards revealed, wagers being settled
    FORCING = "forcing"          # 589.11(e)(2): the dealer did not qualify; force or not
    DEALER_DRAW = "dealer_draw"  # 589.11(e)(2)(ii): forced; the dealer's replacement card
    CLOSED = "closed"            # settled or void; nothing more may happen
    # (a round every wager of which is settled is *reported* as "settled" while the dealer
    # is yet to close it: visibility.SETTLED, never a phase the state holds)


# The house-banked games of the one registry (tables.domain.catalogue), by the rulebook
# they are dealt under.
_RULEBOOKS = {Family.LUNAR_589: Rulebook.CH589, Family.LUNAR_671A: Rulebook.CH671A}
LUNAR_GAMES = {g: _RULEBOOKS[GAMES[g].family] for g in BANKED_GAMES
               if GAMES[g].family in _RULEBOOKS}
HILO_GAME = next(g for g in BANKED_GAMES if GAMES[g].family is Family.HILO)

# Wager lines, in the order results are listed. ``super_on_<P>`` (671a.7(c)(3)) sits
# between ``super_dealer`` and ``tie``.
LINE_ORDER = ("ante", "super", "super_dealer", "super_on_", "tie", "poker_bonus", "bet",
              "play", "options_fee", "force_fee")


T = TypeVar("T")
_new = object.__new__


def amend(obj: T, **changes: Any) -> T:
    """A copy of a frozen state record with ``changes``: ``dataclasses.replace`` without
    re-running ``__init__`` (evolve runs once per event; replace was its largest cost)."""
    new = _new(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    return new


def line_sort_key(wager: str) -> tuple[int, int]:
    if wager.startswith("super_on_"):
        return LINE_ORDER.index("super_on_"), int(wager[9:])
    return LINE_ORDER.index(wager), 0


@dataclass(frozen=True)
class Position:
    """One betting position in the round (the player's seat at the layout)."""

    number: int
    player: str | None = None
    #: every wager line at this position in cents: ante, super, bet, options_fee, ...
    wagered: dict[str, int] = field(default_factory=dict)
    #: cents handed back so far on each line (0 when collected)
    returned: dict[str, int] = field(default_factory=dict)
    #: lines whose fate is decided (paid, pushed or collected)
    settled: frozenset[str] = frozenset()
    dealt: tuple[int, ...] = ()       # the five cards first dealt
    cards: tuple[int, ...] = ()       # the cards now held (after an exchange or a sixth card)
    discards: tuple[int, ...] = ()    # cards given up in an exchange
    #: Lunar first decision: fold | bet | buy | exchange | instant; Hi-Lo: play | forfeit
    decision: str | None = None
    final: str | None = None          # Lunar, after the draw: fold | bet (x.11(d)(2)(iii))
    drawn: bool = False
    declared: frozenset[str] = frozenset()   # Lunar: "instant", "super"
    force: bool | None = None          # 589.11(e)(2): True forced, False declined
    setting: tuple[tuple[int, ...], tuple[int, ...]] | None = None   # Hi-Lo (high, low)
    totals: tuple[int, int] | None = None   # Hi-Lo points of the high and low hands
    abandoned: bool = False

    @property
    def ante(self) -> int:
        return self.wagered.get("ante", 0)

    @property
    def in_round(self) -> bool:
        """Placed an Ante: cards are dealt only to these positions (589.8(c), 579.8(d))."""
        return "ante" in self.wagered

    @property
    def out_of_play(self) -> bool:
        """No longer competing against the dealer: folded, forfeited, paid an instant
        payout (589.11(c)(1)(ii)(A), 671a.11(c)(3)) or abandoned (589.7(b))."""
        return (self.abandoned or self.decision in ("fold", "forfeit", "instant")
                or self.final == "fold")

    @property
    def has_bet(self) -> bool:
        return "bet" in self.wagered and not self.abandoned

    def unsettled(self) -> list[str]:
        return [w for w in self.wagered if w not in self.settled]


@dataclass(frozen=True)
class RoundState:
    phase: Phase = Phase.NEW
    round_id: str | None = None
    game: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    max_positions: int = 0
    positions: dict[int, Position] = field(default_factory=dict)
    mode: str | None = None            # "recorded" (shoe/console) or "dealt" (from a deck)
    #: "by_card" (manual shoe or by hand) or "stacks" (automated dealing shoe, x.10(b))
    method: str | None = None
    deck: tuple[int, ...] = ()         # dealt mode: the shuffled deck, top card first
    next_card: int = 0                 # dealt mode: index of the next card to come out
    dealer_cards: tuple[int, ...] = ()
    dealer_up: int | None = None       # Lunar: the dealer's last card, dealt face up
    dealer_discard: int | None = None  # 589.11(e)(2)(ii): the card the forced dealer gave up
    face_up_found: tuple[int, ...] = ()   # x.13(a): cards found face up, not used
    #: x.13(b): cards drawn in error, face down, not yet dealt or drawn: the next cards
    drawn_in_error: tuple[int, ...] = ()
    #: the table's equipment as the round gate opened the round (RoundOpened), None when
    #: the round was opened without it (the dispute calculator, the domain's own tests):
    #: "hand" | "manual-shoe" | "automated-shoe" and "none" | "automated" |
    #: "automated-counting" (a working shuffler only)
    dealing_method: str | None = None
    shuffler: str | None = None
    #: 579.8(e)-(g), 579.9(c)-(e), 579.10(c)-(e): "discarded" once the stub is in the
    #: discard rack; the number of cards counted in it when it was counted
    stub: str | None = None
    stub_count: int | None = None
    forcers: tuple[int, ...] = ()      # 589: positions that forced the dealer
    void: dict[str, Any] | None = None   # reason and cite when the round was voided
    totals: dict[str, int] | None = None  # wagered / returned / house_win once closed

    # --- what the game is --------------------------------------------------------
    @property
    def lunar(self) -> bool:
        return self.game in LUNAR_GAMES

    @property
    def rulebook(self) -> Rulebook | None:
        return LUNAR_GAMES.get(self.game or "")

    @property
    def counting_shuffler(self) -> bool:
        """A working shuffler that counts 52 after each shuffle spares the dealer the stub
        count (579.8(f), 579.9(d), 579.10(d), 671a.11(h))."""
        return self.shuffler == "automated-counting"

    @property
    def chapter(self) -> str:
        return {"lunar-poker-589": "589", "lunar-poker-671a": "671a"}.get(self.game or "", "579")

    # --- positions ---------------------------------------------------------------
    def clockwise(self) -> list[Position]:
        """Positions holding an Ante, from the dealer's left (589.11(c), 579.11(b))."""
        return [self.positions[n] for n in sorted(self.positions)
                if self.positions[n].in_round]

    def counterclockwise(self) -> list[Position]:
        """Positions holding an Ante, from the dealer's right (589.11(e)(1), 579.11(f))."""
        return self.clockwise()[::-1]

    def cards_out(self) -> set[int]:
        """Every card that has left the deck this round (hands, discards, dealer, face up)."""
        out: set[int] = set(self.dealer_cards) | set(self.face_up_found)
        if self.dealer_discard is not None:
            out.add(self.dealer_discard)
        for p in self.positions.values():
            out.update(p.cards)
            out.update(p.discards)
        return out
