"""Deck procedures as pure rules: what a deck must go through before play, when it must be
cut, counted and changed, and which deck of a pair deals next.

Chapter references: 589.3-589.5, 671a.3-671a.5, 579.3-579.5 (banked games) and
637a.3-637a.5, 637a.7(e)(4)-(5) (poker).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from casino.domain.cards import DECK_SIZE, MIN_CUT_DEPTH, CutTooShallowError
from casino.domain.errors import ConflictError, DomainError
from tables.domain.catalogue import TableGame

ROUNDS_PER_COUNT = 5  # 637a.7(e)(4)(i): count the deck at least once every 5 rounds


class DealingMethod(StrEnum):
    HAND = "hand"
    MANUAL_SHOE = "manual-shoe"
    AUTOMATED_SHOE = "automated-shoe"


class Shuffler(StrEnum):
    NONE = "none"
    AUTOMATED = "automated"
    AUTOMATED_COUNTING = "automated-counting"  # counts 52 after each shuffle (589.5(b))


class ShuffleMethod(StrEnum):
    MANUAL = "manual"
    AUTOMATED = "automated"
    PRESHUFFLED = "preshuffled"  # 603a.16(u)/(v), received ready from the supplier


class RemovalReason(StrEnum):
    COUNT_WRONG = "count-wrong"  # 637a.7(e)(5)
    SHUFFLER_COUNT = "shuffler-count"  # 589.5(b), 671a.5(b), 579.5(b)
    TIME_LIMIT = "time-limit"  # 589.3(c), 671a.3(c), 579.3(c), 637a.3(c)
    DEFECT = "defect"  # 589.4(a), 637a.4(a)
    END_OF_DAY = "end-of-day"
    OTHER = "other"


class DeckError(DomainError):
    code = "invalid_deck_step"


class DeckConflict(ConflictError):
    code = "deck_wrong_state"


@dataclass(frozen=True)
class TableSetup:
    """What a table's equipment is right now (out-of-order devices switch it to manual
    procedures, 589.13(g))."""

    game: TableGame
    dealing_method: DealingMethod
    shuffler: Shuffler
    shuffler_out_of_order: bool = False
    shoe_out_of_order: bool = False

    @property
    def shuffler_working(self) -> bool:
        return self.shuffler is not Shuffler.NONE and not self.shuffler_out_of_order

    @property
    def counting_shuffler(self) -> bool:
        """A working shuffler that counts the cards after each shuffle replaces the dealer's
        count (637a.7(e)(4)(ii))."""
        return self.shuffler is Shuffler.AUTOMATED_COUNTING and not self.shuffler_out_of_order

    @property
    def effective_dealing(self) -> DealingMethod:
        """An automated shoe out of order leaves dealing by hand (589.13(g))."""
        if self.dealing_method is DealingMethod.AUTOMATED_SHOE and self.shoe_out_of_order:
            return DealingMethod.HAND
        return self.dealing_method

    @property
    def two_decks(self) -> bool:
        """Two decks alternate: always at poker (637a.3(a)); at a banked game only with a
        shuffler (589.3(b), 671a.3(b), 579.3(b))."""
        return self.game.is_poker or self.shuffler_working

    @property
    def decks_in_play_allowed(self) -> int:
        return 2 if self.two_decks else 1

    @property
    def players_to_spread_for(self) -> int:
        """Spread for the first player (589.4(b)) or the first two at poker (637a.4(b))."""
        return 2 if self.game.is_poker else 1


def check_table_setup(game: TableGame, dealing: DealingMethod, shuffler: Shuffler,
                      positions: int) -> None:
    """Refuse a table the chapter does not allow."""
    if not 1 <= positions <= game.max_positions:
        raise DomainError(f"{game.name} has at most {game.max_positions} positions "
                          f"({game.positions_rule}); got {positions}",
                          code="too_many_positions", field="positions")
    if game.is_poker and dealing is not DealingMethod.HAND:
        # 637a.7(e)(1): the poker dealer holds the deck in one hand.
        raise DomainError("poker is dealt from the dealer's hand", code="invalid_dealing_method",
                          field="dealing_method")
    if not game.is_poker and dealing is DealingMethod.HAND and shuffler is Shuffler.NONE:
        # 589.9(a)(1), 671a.9(a)(1), 579.9(a)(1)
        raise DomainError("dealing a banked game by hand needs an automated shuffler",
                          code="hand_dealing_needs_shuffler", field="shuffler")


def time_limit(setup: TableSetup, limits: dict[str, int]) -> tuple[str, int]:
    """The basis and seconds a deck may stay in play: 12 h at poker (637a.3(c)); at banked
    games 4 h dealt by hand, 8 h from a manual or automated shoe (589.3(c))."""
    if setup.game.is_poker:
        return "poker", limits["poker"]
    if setup.effective_dealing is DealingMethod.HAND:
        return "hand", limits["hand"]
    return "shoe", limits["shoe"]


def deadline(entered_play_at: datetime, seconds: int) -> datetime:
    return entered_play_at + timedelta(seconds=seconds)


def cut_required(setup: TableSetup, method: ShuffleMethod) -> bool:
    """Whether the shuffled stack must be cut before play.

    Automated shuffle: no (589.5(c)(1), 637a.5(b)(1)). Manual shuffle: yes. Preshuffled
    decks: cut at Lunar Poker and poker (589.5(c)(2), 671a.5(c)(2), 637a.5(b)(2)); Five
    Card Hi-Lo names only the manual shuffle (579.5(c)(2)).
    """
    if method is ShuffleMethod.AUTOMATED:
        return False
    if method is ShuffleMethod.PRESHUFFLED:
        return setup.game.chapter != "579"
    return True


def check_shuffle(setup: TableSetup, method: ShuffleMethod) -> None:
    """An automated shuffle needs a working shuffler. At a table with an automated shuffler
    the cards are shuffled by hand only once it is recorded out of order, covered or
    signed (637a.18(r), 589.13(g), 671a.13(g), 579.13(f))."""
    if method is ShuffleMethod.AUTOMATED and not setup.shuffler_working:
        raise DeckConflict("this table has no working automated shuffler",
                           code="shuffler_unavailable")
    if method is ShuffleMethod.MANUAL and setup.shuffler_working:
        raise DeckConflict("the table's automated shuffler is in service: record it out of "
                           "order, covered or signed, before shuffling by hand",
                           code="shuffler_not_out_of_order")
    if method is ShuffleMethod.PRESHUFFLED:
        raise DeckError("a preshuffled deck is recorded when it is received",
                        code="invalid_shuffle_method", field="method")


def check_jam(setup: TableSetup) -> None:
    """Only an automated shuffler in service jams mid-shuffle (637a.18(q), 589.13(e),
    671a.13(e), 579.13(d))."""
    if not setup.shuffler_working:
        raise DeckConflict("this table has no automated shuffler in service to jam",
                           code="shuffler_unavailable")


def check_cut(depth: object) -> int:
    """589.5(d), 671a.5(d), 579.5(d), 637a.5(b)(2): the cover card at least ten cards in."""
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise DeckError("depth must be a whole number of cards", code="invalid_input",
                        field="depth")
    if depth < MIN_CUT_DEPTH:
        raise CutTooShallowError(f"the cover card must go at least {MIN_CUT_DEPTH} cards in "
                                 f"from the top, not {depth}", field="depth")
    if depth >= DECK_SIZE:
        raise CutTooShallowError(f"a cut {depth} deep does not fit a {DECK_SIZE}-card deck",
                                 code="cut_too_deep", field="depth")
    return depth


def check_spread(setup: TableSetup, players: object) -> int:
    needed = setup.players_to_spread_for
    if players != needed:
        raise DeckError(f"the cards are spread for the first {needed} player(s) "
                        f"({'637a.4(b)' if setup.game.is_poker else setup.game.chapter + '.4(b)'})",
                        code="wrong_spread", field="players")
    return needed


def count_is_right(cards: object) -> bool:
    if not isinstance(cards, int) or isinstance(cards, bool) or not 0 <= cards <= 200:
        raise DeckError("cards must be the whole number of cards counted", code="invalid_input",
                        field="cards")
    return cards == DECK_SIZE


def count_due(setup: TableSetup, rounds_since_count: int) -> bool:
    """637a.7(e)(4), 589.11(g), 671a.11(h): a deck in play at a table where 5 rounds have
    been played since its last count (whichever deck of the pair dealt them: the stricter
    reading of "every 5 rounds of play") is counted before it deals again, unless a working
    counting shuffler counts it after every shuffle."""
    return not setup.counting_shuffler and rounds_since_count >= ROUNDS_PER_COUNT


def expected_deck(in_play: list[str], last_used: str | None) -> str | None:
    """With two decks in play the one not used last deals (589.3(b)(3), 637a.3(a));
    None means either may."""
    if len(in_play) == 2 and last_used in in_play:
        return in_play[0] if in_play[1] == last_used else in_play[1]
    return None
