"""The chip ledger of a hand: every chip that enters the pot leaves it, to a player, the
rake (637a.17) or a jackpot fund (637a.15(c), 637a.16(c)).

Built from the events alone, so finance can reconcile any hand from the record.
Accounts are ``"seat:N"``, ``"pot"``, ``"rake"`` and ``"fund:bad_beat"`` /
``"fund:high_hand"``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

_INTO_POT = ("BlindPosted", "BringInPosted", "PlayerCalled", "PlayerBet", "PlayerRaised")


def ledger(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Transfers ``{"from", "to", "amount", "event"}`` in event order."""
    out: list[dict[str, Any]] = []

    def move(src: str, dst: str, amount: int, type_: str) -> None:
        if amount:
            out.append({"from": src, "to": dst, "amount": amount, "event": type_})

    for e in events:
        t, d = e["type"], e["data"]
        if t == "AntesPosted":
            for seat, a in d["amounts"]:
                move(f"seat:{seat}", "pot", a, t)
        elif t in _INTO_POT:
            move(f"seat:{d['seat']}", "pot", d["amount"], t)
        elif t in ("UncalledBetReturned", "PlayerHandVoided"):
            move("pot", f"seat:{d['seat']}", d.get("amount", d.get("returned", 0)), t)
        elif t == "HandFouled":  # 637a.18(k)(3): the victim's money back from the pot
            move("rake", "pot", d.get("rake_returned", 0), t)  # 637a.17(b)(1): its rake
            move("pot", f"seat:{d['seat']}", d.get("refunded", 0), t)
        elif t == "RakeTaken":
            move("pot", "rake", d["amount"], t)
        elif t == "JackpotContributionTaken":
            move("pot", f"fund:{d['fund']}", d["amount"], t)
        elif t == "PotAwarded":
            move("pot", f"seat:{d['seat']}", d["amount"], t)
        elif t in ("MisdealDeclared", "HandVoided"):
            move("rake", "pot", d["rake_returned"], t)
            for seat, a in d["returned"]:
                move("pot", f"seat:{seat}", a, t)
    return out


def balances(events: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Net change of every account over the hand; ``pot`` is 0 once the hand is over."""
    acc: dict[str, int] = defaultdict(int)
    for m in ledger(events):
        acc[m["from"]] -= m["amount"]
        acc[m["to"]] += m["amount"]
    acc.setdefault("pot", 0)
    return dict(acc)
