"""A Bad Beat payout divided by the posted shares (637a.15(b)(3), (f)-(g))."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LOSING, WINNING, TABLE = "losing_hand", "winning_hand", "table_share"


def payout_shares(amount_cents: int, shares_bp: Mapping[str, int], losing_seat: int,
                  winning_seat: int, players_dealt: Sequence[int]) -> list[dict[str, Any]]:
    """``amount_cents`` divided as the Rules Submission posts it: the losing hand's and
    the winning hand's shares, and the table share divided equally among the other
    players dealt in, each in whole cents. The chapter is silent on what is left by the
    division (at most a few cents) and on a table share with nobody else dealt in: both
    go to the losing hand, the hand the payout is for. Returns ``{"share", "seat",
    "cents"}`` per player, the losing hand first; the cents add up to the amount."""
    if amount_cents < 0:
        raise ValueError("a payout is not negative")
    losing = amount_cents * shares_bp.get(LOSING, 0) // 10_000
    winning = amount_cents * shares_bp.get(WINNING, 0) // 10_000
    table = amount_cents - losing - winning
    others = [s for s in players_dealt if s not in (losing_seat, winning_seat)]
    each = table // len(others) if others else 0
    losing += table - each * len(others)
    out = [{"share": LOSING, "seat": losing_seat, "cents": losing},
           {"share": WINNING, "seat": winning_seat, "cents": winning}]
    out += [{"share": TABLE, "seat": s, "cents": each} for s in others]
    return out


def high_hand_awards(amount_cents: int, best: list[dict[str, Any]], tie_division: str
                     ) -> list[dict[str, Any]]:
    """637a.16(h), (b)(5): the period's pooled amount to the highest hand; equal hands
    share it as posted: ``split-equally`` (whole cents, what is left to the first made)
    or ``first-made`` (all to the first recorded). ``best``: the slips holding the
    highest value, in the order they were recorded. ``{"slip", "seat", "table_id",
    "cents"}`` per award."""
    if not best:
        return []
    winners = best[:1] if tie_division == "first-made" else best
    each = amount_cents // len(winners)
    out = [{"slip": w["slip"], "seat": w["seat"], "table_id": w["table_id"], "cents": each}
           for w in winners]
    out[0]["cents"] += amount_cents - each * len(winners)
    return out
