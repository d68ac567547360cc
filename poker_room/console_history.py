"""Sentences for the poker room's event types (:mod:`console.history`): seats and stakes,
time charges, and each step of a hand, worded as the hand's history words them
(:func:`poker_room.services.hand_steps._words`, one wording for both pages) with the person
who recorded it. A sentence is read by every role that sees the event log, so it never
names a player (a seat's page, gated by role, does). A poker hand's ``RoundOpened``,
``RoundClosed`` and ``CardsDealt`` (types tables registered for the round gate) are refined
here for the hand's shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.personal_data import is_sealed, unseal
from console.history import money, refine, say, sentences, who
from poker_room.services.hand_steps import _WORDS, _words

D = Mapping[str, Any]
#: the round gate's types: tables' sentences, refined below for a hand's shape
_SHARED = frozenset({"RoundOpened", "RoundClosed", "CardsDealt"})


def _step(type_: str) -> Any:
    def sentence(data: D, metadata: D) -> str:
        return f"{who(metadata)} recorded: {_words(type_, data)}"
    return sentence


def _seated(data: D, metadata: D) -> str:
    # Any role that reads the event log reads this sentence: it never names the player
    # (the seat's page, gated by role, does). Sealed details whose key was erased are
    # said to be so.
    player = data.get("player")
    erased = is_sealed(player) and unseal(player) is None
    name = "a player (details erased)" if erased else "a player"
    carried = data.get("carried_from")
    if isinstance(carried, Mapping):  # moved from another table by the poker floor
        return (f"{who(metadata)} moved {name} to seat {data.get('seat')} "
                f"from seat {carried.get('seat')} at another table, with the table stakes "
                f"of {money(data.get('buy_in_cents'))}")
    paid = "chips from the cage" if data.get("paid_with") == "chips" else "cash at the table"
    return (f"{who(metadata)} seated {name} at seat {data.get('seat')} with a "
            f"buy-in of {money(data.get('buy_in_cents'))} ({paid})")


def _added(data: D, metadata: D) -> str:
    paid = "chips from the cage" if data.get("paid_with") == "chips" else "cash at the table"
    return (f"{who(metadata)} added {money(data.get('amount_cents'))} to seat "
            f"{data.get('seat')}'s stakes ({paid})")


def _charges(data: D, metadata: D) -> str:
    return (f"{who(metadata)} assessed time charges of {money(data.get('total_cents'))} for "
            f"the period from {say('{period_start:t}')(data, metadata)} "
            f"({money(data.get('hourly_cents'))} an hour)")


def _withheld(data: D) -> str:
    """637a.2(e): the funds the hand paid nothing into for want of their box, with why."""
    withheld = data.get("jackpots_withheld") or []
    return "".join(f"; no contribution to {w.get('fund')}: {w.get('reason')}"
                   for w in withheld)


sentences({
    **{t: _step(t) for t in _WORDS if t not in _SHARED},
    "HandDealtAtTable": say("{who} dealt hand {number} at the table (button at seat "
                            "{button_seat}; seats {seats}{withheld})", withheld=_withheld),
    "HandSettled": say("{who} settled the hand at the table: rake {rake_cents:$}"),
    "PlayerSeated": _seated,
    "ChipsAdded": _added,
    "PlayerSatOut": say("{who} recorded seat {seat} sitting out"),
    "PlayerSatIn": say("{who} recorded seat {seat} back in play"),
    "PlayerSteppedAway": say("{who} recorded seat {seat} stepping away ({covered_cents:$} "
                             "covered, {method:w})"),
    "PlayerReturned": say("{who} recorded seat {seat} back from away"),
    "PlayerLeft": say("{who} recorded seat {seat} leaving with {cashed_out_cents:$}"),
    "PlayerRemoved": say("{who} removed the player at seat {seat} ({cashed_out_cents:$} "
                         "cashed out): {reason}"),
    "PlayerRemovalAcknowledged": say("{who} acknowledged the notice of the player removed "
                                     "from seat {seat} (637a.18(c))"),
    "MinimumBetRaised": say("{who} raised the minimum bet to {amount_cents:$} "
                            "({agreement_method:w}; seats {players})"),
    "TimeChargeAssessed": _charges,
    "TimeChargeVerified": say("{who} verified the time charges of {total_cents:$} for the "
                              "period from {period_start:t}"),
    "JackpotBoxRegistered": say("{who} registered jackpot box {box} for {fund}: "
                                "transparent, locked, on the drop box's side (637a.2(e))"),
    "JackpotBoxRemoved": say("{who} removed jackpot box {box} of {fund}: {reason}"),
})

refine("CardsDealt", lambda d: "street" in d, _step("CardsDealt"))
refine("RoundOpened", lambda d: "game" not in d or "max_positions" not in d,
       _step("RoundOpened"))
refine("RoundClosed", lambda d: "wagered" not in d, _step("RoundClosed"))
