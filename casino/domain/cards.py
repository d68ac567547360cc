"""Playing cards, the 52-card deck, the secure shuffle and the cut.

A card is an ``int`` 0..51: ``rank = card >> 2`` (0 = deuce … 12 = ace) and
``suit = card & 3`` with clubs 0, diamonds 1, hearts 2, spades 3, so that a larger suit
number is the higher suit in the order spades > hearts > diamonds > clubs that
637a.10(d) and 637a.10(i) use for forced bets and odd chips.

Text form is rank then suit, case-insensitive: ``As``, ``Td``, ``10d``, ``2c``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from numbers import Integral

from casino.domain.errors import DomainError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king", "ace")
RANK_PLURALS = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                "tens", "jacks", "queens", "kings", "aces")
ACE = 12
DECK_SIZE = 52
#: The cover card goes at least this many cards in from the top (589.5(d), 637a.5(b)(2)).
MIN_CUT_DEPTH = 10

Card = int


class CardError(DomainError):
    code = "invalid_card"


class DuplicateCardError(CardError):
    code = "duplicate_card"


class CardCountError(CardError):
    code = "wrong_card_count"


class CutTooShallowError(DomainError):
    code = "cut_too_shallow"


def card(rank: int, suit: int) -> Card:
    return (rank << 2) | suit


def rank_of(c: Card) -> int:
    return c >> 2


def suit_of(c: Card) -> int:
    return c & 3


def parse_card(text: str) -> Card:
    """Parse ``As``, ``td``, ``10D`` into a card; anything else is a :class:`CardError`."""
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise CardError(f"'{text}' is not a card: expected a rank (2-9, T or 10, J, Q, K, A) "
                        "followed by a suit (c, d, h, s), e.g. 'As' or '10d'")
    r = RANKS.find(t[0].upper())
    s = SUITS.find(t[1].lower())
    if r < 0 or s < 0:
        raise CardError(f"'{text}' is not a card: expected a rank (2-9, T or 10, J, Q, K, A) "
                        "followed by a suit (c, d, h, s), e.g. 'As' or '10d'")
    return card(r, s)


def parse_cards(text: str | Iterable[str], *, count: int | Sequence[int] | None = None,
                unique: bool = True) -> list[Card]:
    """Parse ``"AsKd10h"``, ``"As Kd Th"``, ``"As,Kd"`` or a list of card strings.

    ``count`` (one number or the allowed numbers) and ``unique`` are checked here so every
    caller reports a wrong count or a duplicate the same way.
    """
    if isinstance(text, str):
        tokens = _split(text)
    else:
        tokens = list(text)
    cards = [parse_card(t) for t in tokens]
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise CardCountError(f"expected {want} cards, got {len(cards)}")
    if unique:
        check_unique(cards)
    return cards


def _split(text: str) -> list[str]:
    cleaned = text.replace(",", " ").split()
    tokens: list[str] = []
    for chunk in cleaned:
        i = 0
        while i < len(chunk):
            if chunk.startswith("10", i):
                tokens.append(chunk[i:i + 3])
                i += 3
            else:
                tokens.append(chunk[i:i + 2])
                i += 2
    return tokens


def check_cards(cards: Iterable[Card], *, count: int | Sequence[int] | None = None
                ) -> list[Card]:
    """Check raw card values at a public entry point and return them as a list.

    Each card must be an ``int`` 0..51 (not a ``bool``, a ``float`` or text such as
    ``"As"`` — parse text with :func:`parse_cards`; a numpy integer is taken as its
    ``int``), else :class:`CardError` ``invalid_card``. ``count`` (one number or the
    allowed numbers), when given, is checked first (:class:`CardCountError`); a card
    given twice is a :class:`DuplicateCardError`. Not for the inner loops: the rankings'
    unchecked helpers stay fast.
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise CardError(f"expected a list of card numbers (0-51), not {cards!r}")
    cards = list(cards)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise CardCountError(f"expected {want} cards, got {len(cards)}")
    seen = 0
    for i, c in enumerate(cards):
        if type(c) is not int:
            # an int subclass or a numpy integer is accepted as its int value; a bool,
            # a float or text is not a card
            if isinstance(c, bool) or not isinstance(c, Integral):
                raise CardError(f"{c!r} is not a card number (0-51)")
            c = cards[i] = int(c)
        if not 0 <= c < DECK_SIZE:
            raise CardError(f"{c!r} is not a card number (0-51)")
        bit = 1 << c
        if seen & bit:
            raise DuplicateCardError(f"card {format_card(c)} appears more than once")
        seen |= bit
    return cards


def check_unique(cards: Iterable[Card]) -> None:
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise DuplicateCardError(f"card {format_card(c)} appears more than once")
        seen.add(c)


def format_card(c: Card) -> str:
    if not 0 <= c < DECK_SIZE:
        raise CardError(f"{c} is not a card number (0-51)")
    return RANKS[c >> 2] + SUITS[c & 3]


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    return sep.join(format_card(c) for c in cards)


def new_deck() -> list[Card]:
    """A 52-card deck in a fixed order (deuces first, clubs before spades)."""
    return list(range(DECK_SIZE))


_rng = secrets.SystemRandom()


def shuffle_permutation(n: int = DECK_SIZE) -> list[int]:
    """A uniformly random permutation of ``range(n)`` from the OS CSPRNG.

    The permutation (not the RNG state) is what an event stores, so the deal can be
    replayed exactly from the record.
    """
    perm = list(range(n))
    _rng.shuffle(perm)
    return perm


def apply_permutation(deck: Sequence[Card], permutation: Sequence[int]) -> list[Card]:
    if sorted(permutation) != list(range(len(deck))):
        raise DomainError("the permutation is not a rearrangement of the deck",
                          code="invalid_permutation")
    return [deck[i] for i in permutation]


def shuffled_deck() -> tuple[list[Card], list[int]]:
    """A freshly shuffled deck and the permutation that produced it."""
    perm = shuffle_permutation()
    return apply_permutation(new_deck(), perm), perm


def cut(deck: Sequence[Card], depth: int) -> list[Card]:
    """Cut with the cover card ``depth`` cards in from the top (589.5(d), 671a.5(d),
    579.5(d), 637a.5(b)(2)): the cards above the cover card go to the bottom.

    ``deck[0]`` is the top card. A depth under ten, or one that leaves no card below the
    cover card, is refused.
    """
    if depth < MIN_CUT_DEPTH:
        raise CutTooShallowError(
            f"the cover card must go at least {MIN_CUT_DEPTH} cards in from the top "
            f"of the stack, not {depth}")
    if depth >= len(deck):
        raise CutTooShallowError(f"a cut {depth} deep does not fit a {len(deck)}-card stack",
                                 code="cut_too_deep")
    return list(deck[depth:]) + list(deck[:depth])
