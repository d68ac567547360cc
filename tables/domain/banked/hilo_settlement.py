"""Five Card Hi-Lo settlement in the order of 579.11(c) and 579.11(e)-(k).

* Once every position has played or forfeited, the forfeited Antes and Tie Wagers are
  collected (579.11(b)(1), (c)); a Poker Bonus Wager stays on the table with the cards
  (579.11(b)(2), (c)).
* After every player has set his hands, the dealer sets his (579.11(e)) and, beginning
  with the player farthest to the dealer's right and going counterclockwise (579.11(f)),
  settles each position: the Ante and Play Wagers (579.11(g)), the Ante Bonus whatever
  their outcome (579.11(h)), then the Tie Wager and the Poker Bonus Wager (579.11(j)-(k)).
  A forfeited position's Poker Bonus is settled at its turn in the same round.

The player's cards go to the discard rack as the dealer finishes with them
(``CardsToDiscardRack``): after the Ante and Play Wagers are settled (579.11(i)), or, when
the player has an optional wager, after it is settled too (579.11(j)-(k)); a forfeited
hand's with its forfeited wagers (579.11(c)), or after its Poker Bonus Wager.

The Ante Bonus pays "X for 1" on the amount of the Ante (579.12(b)): X times the Ante,
paid on the Ante line on top of whatever the Ante itself did.
"""

from __future__ import annotations

from tables.domain.hands.hilo import (
    Result,
    ante_bonus_hand,
    ante_play_result,
    dealer_setting,
    poker_bonus_hand,
    settle_ante_play,
    tie_wager_hand,
)
from tables.domain.paytables import get_paytable
from tables.domain.banked.events import Recorder
from tables.domain.banked.payouts import close, collect, settle
from tables.domain.banked.turns import next_to_answer

_OUTCOME = {Result.WIN: ("won", "579.11(g)(1)"), Result.LOSE: ("lost", "579.11(g)(2)"),
            Result.TIE: ("push", "579.11(g)(3)")}


def collect_forfeits(rec: Recorder) -> None:
    """579.11(c): after every position has played or forfeited."""
    if next_to_answer(rec.state) is not None:
        return
    for p in rec.state.clockwise():
        if p.abandoned or p.decision != "forfeit" or "ante" in p.settled:
            continue
        collect(rec, p.number, "ante", "the player forfeited", "579.11(c)", "forfeited")
        if "tie" in p.wagered:
            collect(rec, p.number, "tie", "the player did not make a Play Wager",
                    "579.11(b)(1)", "forfeited")
        if "poker_bonus" not in p.wagered:  # else the cards stay until it is settled
            to_discard_rack(rec, p.number, "579.11(c)")


def to_discard_rack(rec: Recorder, n: int, cite: str) -> None:
    """The dealer places the position's cards in the discard rack."""
    rec.emit("CardsToDiscardRack", position=n, cards=list(rec.state.positions[n].cards),
             cite=cite)


def showdown(rec: Recorder) -> None:
    s = rec.state
    o = s.options
    dealer = dealer_setting(s.dealer_cards)
    theirs = dh, dl = dealer.high_total, dealer.low_total
    rec.emit("DealerHandsSet", cards=list(s.dealer_cards), high=list(dealer.high),
             low=list(dealer.low), high_total=dh, low_total=dl)
    bonus_table = get_paytable(f"579-ante-bonus-{o['ante_bonus_paytable']}")
    tie_table = get_paytable("579-tie")
    poker_table = (get_paytable(f"579-poker-bonus-{o['poker_bonus_paytable']}")
                   if o["poker_bonus_offered"] else None)
    for p in s.counterclockwise():
        n = p.number
        if p.abandoned:
            continue
        if p.decision == "play":
            mine = p.totals  # the (high, low) points recorded when the hands were set
            ph, pl = mine
            ante_ret, play_ret = settle_ante_play(mine, theirs, p.ante)
            outcome, cite = _OUTCOME[ante_play_result(mine, theirs)]
            why = f"player {ph}/{pl} against dealer {dh}/{dl} (high/low)"
            settle(rec, n, "ante", outcome, ante_ret, why, cite)
            settle(rec, n, "play", outcome, play_ret, why, cite)
            bonus = ante_bonus_hand(p.dealt)
            if bonus is not None:
                odds = bonus_table.odds_for(bonus)
                settle(rec, n, "ante", "ante_bonus", odds.total_returned(p.ante),
                       f"{bonus.label}: Ante Bonus {odds} on the Ante ({bonus_table.title})",
                       "579.11(h)")
            if "tie" not in p.wagered and "poker_bonus" not in p.wagered:
                to_discard_rack(rec, n, "579.11(i)")
            if "tie" in p.wagered:
                hand = tie_wager_hand(mine, theirs)
                if hand is None:
                    collect(rec, n, "tie", "neither hand ties the dealer's", "579.11(j)(1)(ii)")
                else:
                    odds = tie_table.odds_for(hand)
                    settle(rec, n, "tie", "won", odds.total_returned(p.wagered["tie"]),
                           f"{hand.label}: Tie Wager paid {odds}", "579.11(j)(1)(i)")
        if "poker_bonus" in p.wagered and "poker_bonus" not in p.settled:
            hand = poker_bonus_hand(p.dealt, poker_table.name)
            if hand is None:
                collect(rec, n, "poker_bonus", "no qualifying Poker hand", "579.11(j)(2)(ii)")
            else:
                odds = poker_table.odds_for(hand)
                settle(rec, n, "poker_bonus", "won",
                       odds.total_returned(p.wagered["poker_bonus"]),
                       f"{hand.label}: Poker Bonus paid {odds} ({poker_table.title})",
                       "579.11(j)(2)(i)")
        if p.decision == "play" and ("tie" in p.wagered or "poker_bonus" in p.wagered):
            to_discard_rack(rec, n, "579.11(k)")
        elif p.decision == "forfeit" and "poker_bonus" in p.wagered:
            to_discard_rack(rec, n, "579.11(c)")
    close(rec)
