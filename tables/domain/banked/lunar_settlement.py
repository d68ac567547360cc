"""Lunar Poker settlement in the order of 589.11(c)-(e) and 671a.11(c)-(f).

1. "All decisions are locked in", then clockwise from the dealer's left: instant payouts
   and Super Wagers (589.11(c); 671a.11(c)(1)-(3), with the Super Wagers other players
   placed on each hand right after that hand's own), and under 671a the folded Antes
   (671a.11(c)(4)).
2. Clockwise again: folded Antes (589.11(d)(1)); each Options fee collected, the draw,
   then fold or Bet (589.11(d)(2), 671a.11(d)). The round waits for each draw in turn.
3. The dealer's cards are revealed; under 671a the Super Wagers on the dealer's hand are
   settled clockwise (671a.11(e)); then the Antes and Bets counterclockwise from the
   dealer's right (589.11(e)(1), 671a.11(f)(2)).
4. 589 only: a dealer who does not qualify may be forced (589.11(e)(2)): non-forcers are
   settled, the Options fees for forcing collected, the dealer's highest card replaced,
   and the forcers settled against the new hand.

Where the chapter names no order for a step of the showdown (the Antes when the dealer
does not qualify, 589.11(e)(2)(i), 671a.11(f)(1)), the showdown's own order,
counterclockwise from the dealer's right, is kept.
"""

from __future__ import annotations

from tables.domain.hands.lunar import (
    Outcome,
    Rulebook,
    dealer_qualifies,
    describe_lunar,
    instant_payout_hand,
    lunar_value,
    settle_ante_and_bet,
    super_hand,
)
from tables.domain.paytables import get_paytable
from tables.domain.banked.events import Recorder
from tables.domain.banked.payouts import close, collect, push, settle
from tables.domain.banked.state import Phase, RoundState


def _r(state: RoundState, c589: str, c671a: str) -> str:
    return c589 if state.rulebook is Rulebook.CH589 else c671a


def dealer_hand(cards: list[int] | tuple[int, ...]) -> tuple[str, bool]:
    value = lunar_value(cards)
    return describe_lunar(value), dealer_qualifies(value)


def _instant_table(state: RoundState):
    return get_paytable(f"{state.chapter}-instant-{state.options['instant_paytable']}")


def _super_table(state: RoundState):
    if state.rulebook is Rulebook.CH589:
        return get_paytable(f"589-super-{state.options['super_paytable']}")
    return get_paytable("671a-super")


# --- 1. after "all decisions are locked in" ------------------------------------------

def _pay_instant(rec: Recorder, n: int) -> None:
    s = rec.state
    p = s.positions[n]
    hand = instant_payout_hand(p.dealt)
    table = _instant_table(s)
    odds = table.odds_for(hand)
    settle(rec, n, "ante", "instant_payout", odds.total_returned(p.ante),
           f"{hand.label} in the first five cards: instant payout {odds} on the Ante "
           f"({table.title})", _r(s, "589.11(c)(1)(i)", "671a.11(c)(3)"))


def _settle_super(rec: Recorder, owner: int, hand_of: int, wager: str) -> None:
    """A Super Wager placed at ``owner`` on the hand of position ``hand_of``."""
    s = rec.state
    target = s.positions[hand_of]
    table = _super_table(s)
    hand = super_hand(s.rulebook, target.dealt) if "super" in target.declared else None
    whose = "the player's" if owner == hand_of else f"position {hand_of}'s"
    if hand is None:
        why = (f"{whose} hand was not declared for the Super Wager"
               if "super" not in target.declared else f"{whose} hand pays no Super Wager")
        collect(rec, owner, wager, why, _r(s, "589.11(c)(2)(i)", "671a.11(c)(1)"))
        return
    odds = table.odds_for(hand)
    stake = s.positions[owner].wagered[wager]
    settle(rec, owner, wager, "won", odds.total_returned(stake),
           f"{whose} {hand.label}: Super Wager paid {odds} ({table.title})",
           _r(s, "589.11(c)(2)(ii)", "671a.11(c)(2)"))


def after_lock(rec: Recorder) -> None:
    step = _after_lock_589 if rec.state.rulebook is Rulebook.CH589 else _after_lock_671a
    for n in [p.number for p in rec.state.clockwise()]:
        step(rec, n)
    advance(rec)


def _after_lock_589(rec: Recorder, n: int) -> None:
    """589.11(c): the instant payout, then the Super Wager."""
    p = rec.state.positions[n]
    if p.abandoned:
        return
    if "instant" in p.declared:
        _pay_instant(rec, n)
    if "super" in p.wagered:
        _settle_super(rec, n, n, "super")


def _after_lock_671a(rec: Recorder, n: int) -> None:
    """671a.11(c)(1)-(4): the player's own Super Wager, then those others placed on that
    hand, then the instant payout or the folded Ante."""
    if not rec.state.positions[n].abandoned:
        _settle_super(rec, n, n, "super")
    key = f"super_on_{n}"
    for q in rec.state.clockwise():
        if key in q.wagered and key not in q.settled:
            _settle_super(rec, q.number, n, key)
    p = rec.state.positions[n]
    if p.abandoned:
        return
    if "instant" in p.declared:  # 671a.11(c)(3)
        _pay_instant(rec, n)
    elif p.decision == "fold":  # 671a.11(c)(4)
        collect(rec, n, "ante", "the player folded", "671a.11(c)(4)")


# --- 2. the draws, in turn --------------------------------------------------------------

def advance(rec: Recorder) -> None:
    """Carry the round as far as it goes without another player's command."""
    phase = rec.state.phase
    if phase is Phase.DRAWING:
        _advance_draws(rec)
    elif phase is Phase.FORCING:
        _after_force_answers(rec)
    elif phase is Phase.DEALER_DRAW and not _open_forcers(rec.state):
        close(rec)  # every forcer abandoned: nothing is left to settle against the dealer


def _advance_draws(rec: Recorder) -> None:
    ch589 = rec.state.rulebook is Rulebook.CH589
    for n in [p.number for p in rec.state.clockwise()]:
        p = rec.state.positions[n]
        if p.abandoned:
            continue
        if ch589 and p.decision == "fold" and "ante" not in p.settled:
            collect(rec, n, "ante", "the player folded", "589.11(d)(1)")
        elif p.decision in ("buy", "exchange"):
            if "options_fee" not in p.settled:
                what = "buy a sixth card" if p.decision == "buy" else "exchange cards"
                settle(rec, n, "options_fee", "collected", 0,
                       f"Options fee to {what}", _r(rec.state, "589.11(d)(2)(i)",
                                                    "671a.11(d)(1)"))
            p = rec.state.positions[n]
            if not p.drawn or p.final is None:
                return  # this player's draw and decision come next
            if p.final == "fold" and "ante" not in p.settled:
                collect(rec, n, "ante", "the player folded after the draw",
                        _r(rec.state, "589.11(d)(2)(iv)", "671a.11(d)(4)"))
    _showdown(rec)


# --- 3. the dealer's hand --------------------------------------------------------------

def _showdown(rec: Recorder) -> None:
    s = rec.state
    hand, qualifies = dealer_hand(s.dealer_cards)
    rec.emit("DealerRevealed", cards=list(s.dealer_cards), hand=hand, qualifies=qualifies)
    if s.rulebook is Rulebook.CH671A:
        _settle_super_on_dealer(rec)
    bettors = _open_bettors(rec.state)
    if qualifies or s.rulebook is Rulebook.CH671A:
        for n in bettors:
            _settle_bettor(rec, n, forced=False, dealer_desc=hand)
    elif bettors:  # 589.11(e)(2): each player may force the dealer to try to qualify
        rec.emit("ForceOffered", positions=bettors)
        return
    close(rec)


def _settle_super_on_dealer(rec: Recorder) -> None:
    """671a.11(e): clockwise from the first player at the dealer's left."""
    s = rec.state
    hand = super_hand(Rulebook.CH671A, s.dealer_cards)
    table = _super_table(s)
    for p in s.clockwise():
        if "super_dealer" not in p.wagered or "super_dealer" in p.settled:
            continue
        if hand is None:
            collect(rec, p.number, "super_dealer", "the dealer's hand pays no Super Wager",
                    "671a.11(e)(1)")
        else:
            odds = table.odds_for(hand)
            settle(rec, p.number, "super_dealer", "won",
                   odds.total_returned(p.wagered["super_dealer"]),
                   f"the dealer's {hand.label}: Super Wager paid {odds}", "671a.11(e)(2)")


def _open_bettors(state: RoundState) -> list[int]:
    """Positions with a Bet still to settle, counterclockwise from the dealer's right."""
    return [p.number for p in state.counterclockwise()
            if p.has_bet and "bet" not in p.settled]


def _open_forcers(state: RoundState) -> list[int]:
    return [n for n in _open_bettors(state) if state.positions[n].force]


def _settle_bettor(rec: Recorder, n: int, *, forced: bool, dealer_desc: str) -> None:
    s = rec.state
    p = s.positions[n]
    rb = s.rulebook
    result = settle_ante_and_bet(rb, p.cards, s.dealer_cards, p.ante, p.wagered["bet"],
                                 dealer_was_forced=forced)
    if result.outcome is Outcome.DEALER_DOES_NOT_QUALIFY:
        if forced:
            cite = "589.11(e)(2)(ii)(A)"
            push(rec, n, "ante", "the forced dealer still does not qualify", cite)
            push(rec, n, "bet", "the forced dealer still does not qualify", cite)
            return
        cite = _r(s, "589.11(e)(2)(i)", "671a.11(f)(1)")
        ante_rule = _r(s, "589.12(d)", "671a.12(c)")
        odds = (result.ante_returned - p.ante) // p.ante
        settle(rec, n, "ante", "won", result.ante_returned,
               f"the dealer does not qualify ({dealer_desc}): Ante paid {odds} to 1 "
               f"({ante_rule})", cite)
        push(rec, n, "bet", "the dealer does not qualify: Bet returned", cite)
        return
    if forced:
        base = "589.11(e)(2)(ii)(B)"
        cites = {Outcome.DEALER_WINS: base + "(I)", Outcome.PLAYER_WINS: base + "(II)",
                 Outcome.TIE: base + "(III)"}
    else:
        base = _r(s, "589.11(e)(1)", "671a.11(f)(2)")
        cites = {Outcome.DEALER_WINS: base + "(i)", Outcome.PLAYER_WINS: base + "(ii)",
                 Outcome.TIE: base + "(iii)"}
    cite = cites[result.outcome]
    player_desc = describe_lunar(result.payout.value) if result.payout else None
    if result.outcome is Outcome.DEALER_WINS:
        collect(rec, n, "ante", f"the dealer's {dealer_desc} beats the player's hand", cite)
        collect(rec, n, "bet", f"the dealer's {dealer_desc} beats the player's hand", cite)
        return
    if result.outcome is Outcome.TIE:
        push(rec, n, "ante", f"the player's hand ties the dealer's {dealer_desc}", cite)
        push(rec, n, "bet", f"the player's hand ties the dealer's {dealer_desc}", cite)
        return
    payout = result.payout
    win_odds, second_odds = payout.odds(rb)
    bet = p.wagered["bet"]
    table = _r(s, "589.12(c)", "671a.12(d)")
    push(rec, n, "ante", f"the player's {player_desc} beats the dealer's {dealer_desc}: "
         "Ante returned", cite)
    settle(rec, n, "bet", "won", win_odds.total_returned(bet),
           f"the player's {payout.winning.describe()} beats the dealer's {dealer_desc}: "
           f"Bet paid {win_odds} ({table})", cite)
    if second_odds is not None:
        settle(rec, n, "bet", "second_combination", second_odds.winnings(bet),
               f"second combination {payout.second.describe()}: Bet paid {second_odds} "
               f"again ({table})", cite)
    paid = rec.state.positions[n].returned["bet"]
    if paid != result.bet_returned:  # the split must add up to the shared settlement
        raise RuntimeError(f"internal error: Bet returned {paid} != {result.bet_returned}")


# --- 4. 589: forcing the dealer ---------------------------------------------------------

def _after_force_answers(rec: Recorder) -> None:
    s = rec.state
    bettors = _open_bettors(s)
    if any(s.positions[n].force is None for n in bettors):
        return  # a player has still to say whether he forces the dealer
    forcers = [n for n in bettors if s.positions[n].force]
    dealer_desc = describe_lunar(lunar_value(s.dealer_cards))
    for n in bettors:  # 589.11(e)(2)(i), settled first as (e)(2)(ii) says
        if not s.positions[n].force:
            _settle_bettor(rec, n, forced=False, dealer_desc=dealer_desc)
    for n in forcers:
        settle(rec, n, "force_fee", "collected", 0, "Options fee to force the dealer",
               "589.11(e)(2)(ii)")
    if forcers:
        rec.emit("DealerForced", positions=forcers)
    else:
        close(rec)


def after_dealer_draw(rec: Recorder) -> None:
    """589.11(e)(2)(ii)(A)-(B): settle those who forced, against the dealer's new hand."""
    dealer_desc = describe_lunar(lunar_value(rec.state.dealer_cards))
    for n in _open_forcers(rec.state):
        _settle_bettor(rec, n, forced=True, dealer_desc=dealer_desc)
    close(rec)
