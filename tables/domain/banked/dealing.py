"""Cards coming out of the deck: the deal, a Lunar player's draw and the forced dealer's
replacement card.

Two modes, fixed by the deal:

* **recorded** — the cards are given (read by a card-reading shoe or keyed at the
  console) and checked: real cards, none twice, five per hand, none already out this
  round or found face up (x.13(a)).
* **dealt** — the domain deals from a shuffled deck it is given (the service passes a
  secure shuffle, :func:`casino.domain.cards.shuffled_deck`), in the order of the
  chapter: one card at a time clockwise from the player farthest to the dealer's left,
  then the dealer, until each has five (589.8(c), 589.9(b), 579.8(d), 579.9(b)), or in
  stacks of five to each player and then the dealer from an automated dealing shoe
  (589.10(b), 579.10(b)). A card found face up (x.13(a)) is skipped.

Under Lunar Poker the dealer's last card is turned face up (589.8(c), 671a.8(c)).

**The table's dealing method wins.** A round opened by the round gate knows the table's
dealing method (``RoundOpened.dealing_method``): from a manual shoe or by hand the cards
come one at a time (``by_card``, x.8, x.9), from an automated shoe in stacks of five
(``stacks``, x.10); a deal naming the other method is refused (``deal_method_mismatch``).
From a manual shoe the deal records who placed the stacked deck in the shoe
(``placed_by``: the dealer, or the automated shuffler when the table has a working one,
x.8(a)) and the dealer's attestation that each card is removed with the hand closest to
the shoe (``card_hand``, 579.8(c), 589.8(b), 671a.8(b)), each only as the dealer states
it: unsaid, the deal is refused (``placed_by_required``, ``card_hand_required``), never
recorded on the dealer's behalf; any other hand is refused (``wrong_dealing_hand``), and
the attestation is no step of another dealing method.

**A card drawn in error** face down (x.13(b), :mod:`.irregularities`) is the next card: the
deal, draw or dealer's card that follows must begin with it (``drawn_card_not_next``), in
either mode; the service puts it on top of the deck it shuffles.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from casino.domain.cards import CardCountError, check_cards, format_card, parse_card
from tables.domain.hands.lunar import forced_dealer_discard
from tables.domain.banked.errors import bad, conflict
from tables.domain.banked.events import Recorder
from tables.domain.banked.lunar_settlement import after_dealer_draw, dealer_hand
from tables.domain.banked.state import Phase, Position, RoundState
from tables.domain.banked.turns import next_to_draw
from tables.domain.banked.wagers import position_number

HAND_SIZE = 5
DEAL_METHODS = ("by_card", "stacks")
#: the table's dealing method (tables.domain.decks.DealingMethod) -> how the cards come out
METHOD_OF_TABLE = {"manual-shoe": "by_card", "hand": "by_card", "automated-shoe": "stacks"}
PLACED_BY = ("dealer", "shuffler")
#: the dealer's hand that takes each card from a manual shoe (579.8(c), 589.8(b), 671a.8(b))
NEAR_HAND = "closest_to_shoe"


def read_cards(value: Any, field: str) -> list[int]:
    """Card numbers 0..51 or text such as ``"As"``/``"10d"``, as a list of numbers."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise bad("invalid_card", f"{field} must be a list of cards", field=field)
    return check_cards([parse_card(c) if isinstance(c, str) else c for c in value])


def _check_fresh(state: RoundState, cards: Iterable[int], field: str) -> None:
    """A recorded card must still be in the deck."""
    out = state.cards_out()
    for c in cards:
        if c in state.face_up_found:
            raise bad("card_not_in_deck", f"card {format_card(c)} was found face up and may "
                      "not be used this round (x.13(a))", field=field)
        if c in out:
            raise bad("card_already_dealt", f"card {format_card(c)} has already been dealt "
                      "this round", field=field)


def _take(deck: tuple[int, ...] | list[int], start: int, count: int, skip: Iterable[int]
          ) -> tuple[list[int], int]:
    """Dealt mode: the next ``count`` cards of ``deck`` from ``start``, skipping any found
    face up (x.13(a)), and the index just past the last one."""
    i = start
    out: list[int] = []
    while len(out) < count:
        if i >= len(deck):
            raise conflict("deck_exhausted", "the deck has no more cards to deal")
        c = deck[i]
        i += 1
        if c not in skip:
            out.append(c)
    return out, i


def _next_cards(state: RoundState, count: int) -> tuple[list[int], int]:
    return _take(state.deck, state.next_card, count, state.face_up_found)


def next_cards_from(state: RoundState, count: int) -> list[int]:
    """Dealt mode: the next ``count`` cards the deck will give (nothing taken)."""
    return _next_cards(state, count)[0]


def _method(state: RoundState, cmd: dict[str, Any]) -> str:
    """The table's method when the round knows it (a method given must agree), else the
    one given (``by_card`` by default)."""
    given = cmd.get("method")
    if given is not None and given not in DEAL_METHODS:
        raise bad("invalid_deal_method", f"method is one of {DEAL_METHODS}", field="method")
    table = METHOD_OF_TABLE.get(state.dealing_method or "")
    if table is None:
        return given or "by_card"
    if given is not None and given != table:
        raise conflict("deal_method_mismatch", f"this table deals from {state.dealing_method}"
                       f": {table}, not {given} (x.8-x.10)", field="method")
    return table


def _procedure(state: RoundState, cmd: dict[str, Any]) -> dict[str, Any]:
    """The dealer's recorded steps the table's dealing method adds to the deal."""
    placed = cmd.get("placed_by")
    if state.dealing_method != "manual-shoe":
        if placed is not None:
            raise bad("placed_by_not_applicable", "only a manual dealing shoe is loaded by "
                      "the dealer or the shuffler (x.8(a))", field="placed_by")
        if cmd.get("card_hand") is not None:
            raise bad("card_hand_not_applicable", "the hand that takes each card is "
                      "recorded from a manual dealing shoe only (579.8(c), 589.8(b), "
                      "671a.8(b))", field="card_hand")
        return {"dealing_method": state.dealing_method} if state.dealing_method else {}
    if placed is None:
        raise bad("placed_by_required", "579.8(a), 589.8(a), 671a.8(a): say who placed the "
                  f"stacked deck in the manual shoe, one of {PLACED_BY}", field="placed_by")
    if placed not in PLACED_BY:
        raise bad("invalid_placed_by", f"placed_by is one of {PLACED_BY}", field="placed_by")
    if placed == "shuffler" and state.shuffler in (None, "none"):
        raise conflict("no_working_shuffler", "579.8(a), 589.8(a), 671a.8(a): this table has "
                       "no working automated shuffler to place the deck in the shoe",
                       field="placed_by")
    return {"dealing_method": "manual-shoe", "placed_by": placed,
            "card_hand": _card_hand(cmd.get("card_hand"))}


def _card_hand(given: Any) -> str:
    """579.8(c), 589.8(b), 671a.8(b): the dealer attests each card left the manual shoe
    in the hand closest to it; unsaid, refused (never assumed); another hand, refused."""
    if given is None:
        raise bad("card_hand_required", "579.8(c), 589.8(b), 671a.8(b): attest the hand "
                  f"that removed each card from the manual shoe ({NEAR_HAND})",
                  field="card_hand")
    hand = given
    if hand != NEAR_HAND:
        raise bad("wrong_dealing_hand", "579.8(c), 589.8(b), 671a.8(b): each card is removed "
                  "from the manual dealing shoe with the dealer's hand closest to it "
                  f"({NEAR_HAND})", field="card_hand")
    return hand


def _drawn_in_error_first(state: RoundState, cards: list[int], field: str) -> None:
    """x.13(b): the cards drawn in error are the next cards out, in the order drawn."""
    pending = state.drawn_in_error[:len(cards)]
    if pending and tuple(cards[:len(pending)]) != pending:
        shown = ", ".join(format_card(c) for c in pending)
        raise bad("drawn_card_not_next", f"x.13(b): {shown} drawn in error is used as the "
                  "next card from the shoe or the deck", field=field)


def _deal_order(takers: list[int], got: dict[int, list[int]], method: str) -> list[int]:
    """The cards in the order they left the deck: one per taker per pass, or a stack of
    five per taker."""
    if method == "by_card":
        return [got[t][i] for i in range(HAND_SIZE) for t in takers]
    return [c for t in takers for c in got[t]]


# --- the deal ---------------------------------------------------------------------------

def deal(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    if state.phase is not Phase.DEALING:
        if state.phase is Phase.BETTING:
            raise conflict("no_more_bets_first", "announce \"no more bets\" before dealing")
        raise conflict("already_dealt", "the cards have been dealt")
    seats = state.clockwise()
    if "deck" in cmd:
        if "hands" in cmd or "dealer" in cmd:
            raise bad("deal_mode_ambiguous", "give either the deck to deal from or the "
                      "cards dealt, not both")
        hands, dealer, deck, nxt, method = _deal_from_deck(state, seats, cmd)
        mode = "dealt"
    else:
        hands, dealer, method = _recorded_deal(state, seats, cmd)
        deck, nxt, mode = None, 0, "recorded"
    up = dealer[-1] if state.lunar else None
    if state.lunar and cmd.get("dealer_face_up") is not None:
        given = read_cards([cmd["dealer_face_up"]], "dealer_face_up")[0]
        if given != up:
            raise bad("dealer_up_card_not_last", "589.8(c), 671a.8(c): the dealer's face-up "
                      "card is the dealer's last card", field="dealer_face_up")
    elif not state.lunar and cmd.get("dealer_face_up") is not None:
        raise bad("no_dealer_up_card", "579.8(d): the dealer's five cards are dealt face down",
                  field="dealer_face_up")
    takers = [p.number for p in seats] + [0]
    order = _deal_order(takers, {**hands, 0: dealer}, method)
    _drawn_in_error_first(state, order, "deck" if deck is not None else "hands")
    data: dict[str, Any] = {"mode": mode, "method": method,
                            "hands": {str(n): h for n, h in hands.items()}, "dealer": dealer,
                            "dealer_up_card": up, **_procedure(state, cmd)}
    if deck is not None:
        data.update(deck=deck, next_card=nxt)
    rec.emit("CardsDealt", **data)


def _recorded_deal(state: RoundState, seats: list[Position], cmd: dict[str, Any]
                   ) -> tuple[dict[int, list[int]], list[int], str]:
    given = cmd.get("hands")
    if not isinstance(given, dict):
        raise bad("invalid_deal", "hands must map each position with an Ante to its cards",
                  field="hands")
    by_number: dict[int, Any] = {}
    for key, cards in given.items():
        try:
            n = int(key)
        except (TypeError, ValueError):
            raise bad("invalid_position", f"{key!r} is not a position", field="hands") from None
        if n not in state.positions or not state.positions[n].in_round:
            raise bad("position_not_in_round", f"position {n} placed no Ante and is dealt no "
                      "cards (589.8(c), 579.8(d))", field=f"hands.{key}")
        if n in by_number:  # "1" and "01": never let one of two hands win silently
            raise bad("duplicate_position", f"position {n} is given twice",
                      field=f"hands.{key}")
        by_number[n] = cards
    hands: dict[int, list[int]] = {}
    for p in seats:
        if p.number not in by_number:
            raise CardCountError(f"position {p.number} placed an Ante but was given no cards")
        hands[p.number] = _five(by_number[p.number], f"hands.{p.number}")
    dealer = _five(cmd.get("dealer"), "dealer")
    every = [c for h in hands.values() for c in h] + dealer
    check_cards(every)  # the same card twice in the deal
    _check_fresh(state, every, "hands")
    return hands, dealer, _method(state, cmd)


def _five(value: Any, field: str) -> list[int]:
    cards = read_cards(value if value is not None else [], field)
    if len(cards) != HAND_SIZE:
        raise CardCountError(f"{field}: each hand is dealt five cards, got {len(cards)}")
    return cards


def _deal_from_deck(state: RoundState, seats: list[Position], cmd: dict[str, Any]):
    deck = read_cards(cmd["deck"], "deck")
    if len(deck) != 52:
        raise CardCountError(f"a deck to deal from has 52 cards, got {len(deck)}")
    method = _method(state, cmd)
    takers = [p.number for p in seats] + [0]  # 0 = the dealer, dealt last in each pass
    k = len(takers)
    out, nxt = _take(deck, 0, HAND_SIZE * k, state.face_up_found)
    if method == "by_card":  # one card per taker per pass
        got = {t: out[i::k] for i, t in enumerate(takers)}
    else:  # a stack of five per taker
        got = {t: out[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i, t in enumerate(takers)}
    dealer = got.pop(0)
    return got, dealer, deck, nxt, method


# --- Lunar: the draw after an Options fee (589.11(d)(2), 671a.11(d)) ------------------------

def draw(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    if not state.lunar:
        raise bad("no_draw_in_game", "Five Card Hi-Lo has no draw")
    if state.phase is not Phase.DRAWING:
        raise conflict("not_drawing", "cards are drawn after \"all decisions are locked "
                       "in\", in turn (589.11(d), 671a.11(d))")
    n = position_number(state, cmd)
    p = state.positions.get(n)
    if p is None or not p.in_round:
        raise bad("position_not_in_round", f"position {n} has no hand", field="position")
    if p.decision not in ("buy", "exchange"):
        if p.out_of_play:
            raise conflict("position_folded", f"position {n} is out of the round")
        raise conflict("no_options_fee", f"position {n} placed no Options fee")
    if p.drawn:
        raise conflict("already_drawn", f"position {n} has drawn")
    turn = next_to_draw(state)
    if turn != n:
        raise conflict("out_of_turn", f"position {turn} draws first: draws go clockwise from "
                       "the dealer's left (589.11(d), 671a.11(d))", field="position")
    discard = read_cards(cmd.get("discard") or [], "discard")
    if p.decision == "buy":
        if discard:
            raise bad("buy_has_no_discard", "a sixth card is bought without discarding",
                      field="discard")
        count = 1
    else:
        if not 2 <= len(discard) <= 5:
            raise bad("exchange_count", "589.11(d)(2)(i)(B), 671a.11(d)(1)(ii): the player "
                      f"discards between two and five cards, not {len(discard)}",
                      field="discard")
        for c in discard:
            if c not in p.cards:
                raise bad("card_not_in_hand", f"{format_card(c)} is not one of position {n}'s "
                          "cards", field="discard")
        count = len(discard)
    data: dict[str, Any] = {"position": n, "draw": p.decision, "discard": discard}
    if state.mode == "dealt":
        if cmd.get("cards"):
            raise bad("cards_not_expected", "the deal is from the deck: the domain draws the "
                      "cards", field="cards")
        cards, nxt = _next_cards(state, count)
        data.update(cards=cards, next_card=nxt)
    else:
        cards = read_cards(cmd.get("cards") or [], "cards")
        if len(cards) != count:
            raise CardCountError(f"position {n} draws {count} card(s), {len(cards)} given")
        _check_fresh(state, cards, "cards")
        data["cards"] = cards
    _drawn_in_error_first(state, cards, "cards")
    rec.emit("CardsDrawn", **data)


# --- 589: the forced dealer's replacement card (589.11(e)(2)(ii)) ---------------------

def draw_dealer(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    if state.phase is not Phase.DEALER_DRAW:
        raise conflict("dealer_not_forced", "the dealer draws only when forced to try to "
                       "qualify (589.11(e)(2)(ii))")
    discard = forced_dealer_discard(state.dealer_cards)
    if cmd.get("discard") is not None:
        said = read_cards([cmd["discard"]], "discard")[0]
        if said != discard:
            raise bad("wrong_dealer_discard", "589.11(e)(2)(ii): the dealer discards the "
                      f"highest ranking card, {format_card(discard)}, not "
                      f"{format_card(said)}", field="discard")
    data: dict[str, Any] = {"discard": discard}
    if state.mode == "dealt":
        if cmd.get("card") is not None:
            raise bad("cards_not_expected", "the deal is from the deck: the domain draws the "
                      "card", field="card")
        (card,), nxt = _next_cards(state, 1)
        data.update(card=card, next_card=nxt)
    else:
        if cmd.get("card") is None:
            raise CardCountError("the dealer's replacement card is required")
        card = read_cards([cmd["card"]], "card")[0]
        _check_fresh(state, [card], "card")
        data["card"] = card
    _drawn_in_error_first(state, [data["card"]], "card")
    new = [data["card"] if c == discard else c for c in state.dealer_cards]
    hand, qualifies = dealer_hand(new)
    rec.emit("DealerCardReplaced", **data, hand=hand, qualifies=qualifies)
    after_dealer_draw(rec)
