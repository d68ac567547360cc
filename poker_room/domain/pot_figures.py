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
fund's, not the hand's). What a supervisor settling a dispute reads (637a.18(a)) is
here too: each pot with the seats that may win it, who acted first in each betting round,
the Forced Bet's seat and the Kill in force next (:func:`dispute_figures`). Pure: reads
the engine's events and state, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from poker_room.domain.pots import side_pots

if TYPE_CHECKING:
    from poker_room.domain.hand import Hand


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


# --- what a supervisor reads to settle a dispute (637a.18(a)) ------------------------------

#: a player's own decision in a betting round (637a.8(c)); the Forced Bet and the blinds
#: are not decisions
DECISIONS = frozenset({"PlayerFolded", "PlayerChecked", "PlayerCalled", "PlayerBet",
                       "PlayerRaised"})
FORCED_BET_EVENTS = ("BringInDue", "BringInPosted")


def dispute_figures(hand: Hand, withheld: Iterable[Mapping[str, Any]] = ()
                    ) -> dict[str, Any]:
    """The figures a dispute turns on, read from the hand without its events: each pot
    (:func:`pots`), the first player to act in each betting round (:func:`first_to_act`),
    the Forced Bet's seat (:func:`forced_bet_seat`), the Kill in force for the next
    hand (:func:`kill_for_next_hand`) and the jackpot funds the hand paid nothing into
    for want of their box at the table (``withheld``: :func:`jackpots_withheld`)."""
    return {"pots": pots(hand), "first_to_act": first_to_act(hand),
            "forced_bet_seat": forced_bet_seat(hand.events),
            "next_hand_kill": kill_for_next_hand(hand),
            "jackpots_withheld": jackpots_withheld(withheld)}


def jackpots_withheld(withheld: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """637a.2(e): each fund of the Rules Submission a hand paid nothing into because its
    jackpot box is not registered at the table, ``{"fund", "kind", "reason"}`` (as the
    hand's ``HandDealtAtTable`` records it): the pot kept that money."""
    return [{"fund": w["fund"], "kind": w["kind"], "reason": w["reason"]} for w in withheld]


def pots(hand: Hand) -> list[dict[str, Any]]:
    """Each pot of a finished hand, the main pot first (637a.8(b)(5)): what the players
    put in it (``gross_pot_cents``), the rake taken from it (637a.17(b)(1)), what each fund
    took from it (637a.15(c), 637a.16(c)), the Pot after them (``pot_cents``, 637a.1),
    the seats that may win it (an all-in player only the pots he reached, a folded player
    none) and what each winner was awarded. A hand in play or void has none yet."""
    result = hand.result
    if result is None or result.get("voided"):
        return []
    snap = hand.snapshot()
    seats = snap["seats"]
    made = side_pots(snap["contrib"], snap["live"], snap["dead"])
    rake = list(result.get("rake_by_pot") or []) + [0] * len(made)
    taken: list[dict[str, int]] = [{} for _ in made]
    awards: list[list[dict[str, Any]]] = [[] for _ in made]
    for e in hand.events:
        d = e["data"]
        if e["type"] == "JackpotContributionTaken":
            name = d.get("fund_name", d["fund"])
            taken[d["pot"]][name] = taken[d["pot"]].get(name, 0) + d["amount"]
        elif e["type"] == "PotAwarded":
            awards[d["pot"]].append({"seat": d["seat"], "amount_cents": d["amount"],
                                     "share": d.get("share"),
                                     "odd_chips_cents": d.get("odd_chips", 0)})
    out = []
    for k, (gross, eligible) in enumerate(made):
        funds = as_list(taken[k])
        out.append({"pot_number": k + 1, "gross_pot_cents": gross, "rake_cents": rake[k],
                    "contributions": funds,
                    "pot_cents": pot_after(gross, rake[k], contributed(funds)),
                    "eligible_seats": [seats[i] for i in eligible], "awards": awards[k]})
    return out


def first_to_act(hand: Hand) -> list[dict[str, Any]]:
    """Each betting round the hand reached (``betting_round`` 1 the first) and the seat
    that acted first in it: left of the Forced Bet (637a.10(e)), of the blinds or the
    Straddle (637a.11(g)), the best hand showing (637a.10(f)) or the first player left of
    the button still in (637a.11(h)). A round no one has acted in yet names the seat whose
    turn it is; a round every player is all in for is not played and not listed."""
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for e in hand.events:
        kind, d = e["type"], e["data"]
        if kind == "BettingRoundStarted" or (kind in FORCED_BET_EVENTS and current is None):
            # the stud Forced Bet opens the first round (637a.10(d)); no event starts it
            current = {"betting_round": d.get("round", 0) + 1, "seat": None}
            rounds.append(current)
        elif kind in DECISIONS and current is not None and current["seat"] is None:
            current["seat"] = d["seat"]
        elif kind == "BettingRoundClosed":
            current = None
    if current is not None and current["seat"] is None and not hand.is_complete:
        current["seat"] = hand.to_act
    return rounds


def forced_bet_seat(events: Iterable[Mapping[str, Any]]) -> int | None:
    """The seat that owed the Forced Bet (637a.1 "Forced Bet", 637a.10(d), 637a.14):
    the stud player the up cards named, whether he posted it or completed instead. None
    in a game with blinds, or before the first up cards are dealt."""
    return next((e["data"]["seat"] for e in events if e["type"] in FORCED_BET_EVENTS),
                None)


def kill_for_next_hand(hand: Hand) -> dict[str, Any] | None:
    """The Kill or Half-kill in force for the next hand once this one is over (637a.1
    "Kill option", "Half-kill option", 637a.12(n)): which, the seat whose winning of an
    entire qualifying pot put it in force (None when it carries on from an earlier hand),
    the qualifying pot, and the limits the next hand is played at, the posted limits
    doubled or raised by half (the blinds and the Forced Bet stay as posted: the chapter
    raises the betting limits only). None when no Kill is in force next."""
    result = hand.result
    if result is None or not result.get("kill_next"):
        return None
    posted = hand.base_rules
    killed = posted.with_kill(True)
    winners = result.get("winners") or []
    fixed = posted.structure == "fixed-limit"
    return {"option": posted.kill,
            "scooped_by_seat": winners[0] if len(winners) == 1 else None,
            "qualifying_pot_cents": posted.kill_qualifying_pot_cents,
            "small_bet_cents": killed.small_bet_cents if fixed else None,
            "big_bet_cents": killed.big_bet_cents if fixed else None,
            "minimum_bet_cents": None if fixed else killed.min_bet_cents}
