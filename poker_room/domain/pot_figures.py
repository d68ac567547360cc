"""A hand's pot in the two figures a person asks about, and its jackpot contributions in
the one shape every answer gives them (issue 22).

637a.1 defines the Pot as what is left after the rake; the jackpot contributions are
taken after the rake (637a.15(c), 637a.16(c)) and before the award. So a hand has:

* ``gross_pot_cents``: every chip the players put in the pot, before anything is taken;
* ``pot_cents``: the Pot after the rake (637a.17) and the contributions — what is
  awarded to the winners.

Contributions are a list of ``{"fund": <the fund's posted name>, "amount_cents": n}``,
one per fund in the order taken: the fund's name and the amount as the public
``JackpotContributed`` record names them (the kind, ``bad_beat`` or ``high_hand``, is the
fund's, not the hand's). Pure: reads the engine's events, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def contributions(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What each fund took from the hand's pots (637a.15(c), 637a.16(c)), by the fund's
    posted name, in the order first taken."""
    funds: dict[str, int] = {}
    for e in events:
        if e["type"] == "JackpotContributionTaken":
            name = e["data"].get("fund_name", e["data"]["fund"])
            funds[name] = funds.get(name, 0) + e["data"]["amount"]
    return as_list(funds)


def as_list(by_fund: Mapping[str, int]) -> list[dict[str, Any]]:
    """Cents by fund name as the one shape of contributions: ``[{"fund", "amount_cents"}]``
    in the mapping's order."""
    return [{"fund": f, "amount_cents": a} for f, a in by_fund.items()]


def pot_after(gross_cents: int, rake_cents: int, contributions_cents: int) -> int:
    """The Pot (637a.1): what is left of the chips the players put in (a hand's or one
    pot's) after the rake (637a.17) and the jackpot contributions taken after it
    (637a.15(c), 637a.16(c)) — what is awarded to the winners. The one place it is
    worked out: the hand's answer, its history, the dispute calculator, its steps in words
    and finance's hands behind a day all ask here."""
    return gross_cents - rake_cents - contributions_cents


def contributed(taken: Iterable[Mapping[str, Any]]) -> int:
    """The cents taken for the funds, from contributions in the one shape (:func:`as_list`)."""
    return sum(c["amount_cents"] for c in taken)


def hand_result(result: Mapping[str, Any] | None,
                events: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The finished hand (its ``HandCompleted``) as the API answers it: the gross pot, the
    rake, the contributions, the Pot after them (637a.1), the stacks, the winners."""
    if result is None:
        return None
    taken = contributions(events)
    gross, rake = result.get("pot", 0), result.get("rake", 0)
    return {"gross_pot_cents": gross, "rake_cents": rake,
            "rake_by_pot_cents": list(result.get("rake_by_pot") or []),
            "contributions": taken,
            "pot_cents": pot_after(gross, rake, contributed(taken)),
            "stacks": [{"seat": s, "stack_cents": v} for s, v in result.get("stacks", [])],
            "winners": list(result.get("winners", [])),
            "kill_next": result.get("kill_next"), "voided": bool(result.get("voided"))}


def live_pot(gross: int, rake_taken: int) -> dict[str, int]:
    """A hand in play: the chips in the pot (this round's bets included), and the Pot after
    the rake taken so far (the contributions are taken only at the end)."""
    return {"gross_pot_cents": gross, "pot_cents": pot_after(gross, rake_taken, 0)}
