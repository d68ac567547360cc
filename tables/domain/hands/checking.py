"""The house-banked games' entries in the hand-checking registry
(:mod:`casino.domain.hands.games`): Lunar Poker under both chapters and Five Card Hi-Lo.
``tables.apps.TablesConfig.ready()`` registers :data:`BANKED_RANKINGS`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from casino.domain.cards import Card, format_cards
from casino.domain.hands.games import Game
from tables.domain.hands import hilo, lunar


def _lunar(rulebook: str) -> Callable[[Sequence[Card]], dict[str, Any]]:
    """Lunar Poker: the hand under 589.6(b) / 671a.6(b) (ace-king counts), what the Bet
    pays with its second combination (589.11(e)(1)(ii), 671a.11(f)(2)(ii)), and the
    Super Wager and instant-payout hands of the first five cards (589.6(d), 671a.6(d))."""
    def evaluate_lunar(cards: Sequence[Card]) -> dict[str, Any]:
        value, five = lunar.best_lunar(cards)
        payout = lunar.bet_payout(cards)
        first_five = cards[:5]
        super_hand = lunar.super_hand(rulebook, first_five)
        instant = lunar.instant_payout_hand(first_five)
        return {
            "category": lunar.lunar_category(value).label, "rank": value,
            "description": lunar.describe_lunar(value), "cards": format_cards(five),
            "qualifies_for_dealer": lunar.dealer_qualifies(value),
            "bet_combinations": None if payout is None else [
                c.describe() for c in (payout.winning, payout.second) if c is not None],
            "super_wager_hand": super_hand.label if super_hand else None,
            "instant_payout_hand": instant.label if instant else None,
        }

    return evaluate_lunar


def _eval_hilo(cards: Sequence[Card]) -> dict[str, Any]:
    """Five Card Hi-Lo: the legal settings' totals (579.11(d)), the setting the dealer
    would make of these cards (579.11(e)), and the bonus hands (579.12)."""
    dealer = hilo.dealer_setting(cards)
    ante_bonus = hilo.ante_bonus_hand(cards)
    poker_bonus = hilo.poker_bonus_hand(cards)
    return {
        "category": "Hi-Lo setting", "rank": None,
        "description": f"dealer would set {dealer.describe()}", "cards": format_cards(cards),
        "legal_setting_totals": [list(t) for t in hilo.distinct_setting_totals(cards)],
        "dealer_setting": {"high": format_cards(dealer.high), "low": format_cards(dealer.low),
                           "high_total": dealer.high_total, "low_total": dealer.low_total},
        "ante_bonus_hand": ante_bonus.label if ante_bonus else None,
        "poker_bonus_hand": poker_bonus.label if poker_bonus else None,
    }


BANKED_RANKINGS: tuple[Game, ...] = (
    Game("lunar-poker-589", "Lunar Poker (2013)", "589.6, 589.11(e)", {"cards": (5, 6)},
         _lunar("589")),
    Game("lunar-poker-671a", "Lunar Poker (2016)", "671a.6, 671a.11(f)", {"cards": (5, 6)},
         _lunar("671a")),
    Game("five-card-hi-lo", "Five Card Hi-Lo", "579.6, 579.11(d)-(e)", {"cards": (5,)},
         _eval_hilo),
)
