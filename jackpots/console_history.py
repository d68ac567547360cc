"""Sentences for the jackpot funds' event types (:mod:`console.history`): Bad Beat hits
(637a.15(f)-(g)), box counts (637a.15(d)), the displayed amount (637a.15(h)), High Hand
slips, periods and awards (637a.16), a fund's discontinuance (637a.15(i)). No sentence
names a player: the event log is read by roles the slips' details are not for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.personal_data import is_sealed, unseal
from console.history import NOTHING, money, say, sentences, who

D = Mapping[str, Any]
#: who a sentence names once the details were erased
ERASED_WORDS = "a player (details erased)"


def _player(value: Any) -> str:
    """Who a sentence names: never the player (every role that sees the event log reads
    it; the slips' and payouts' pages, gated by role, show the name), only whether the
    details, sealed under the slip's or payout's key (casino.personal_data), were
    erased."""
    return ERASED_WORDS if is_sealed(value) and unseal(value) is None else "a player"


def _recorded(data: D, metadata: D) -> str:
    cards = data.get("cards")
    held = " ".join(cards) if isinstance(cards, list) else ""
    return (f"{who(metadata)} recorded High Hand slip {data.get('slip')}: "
            f"{_player(data.get('player'))} at {data.get('table')} seat {data.get('seat')}, "
            f"{data.get('hand')} {held}".rstrip())


def _award_paid(data: D, metadata: D) -> str:
    payee = (_player(data["payee"]) if "payee" in data
             else "a player" if data.get("name") else NOTHING)
    return (f"{who(metadata)} paid High Hand award {data.get('slip')} of period "
            f"{data.get('period')}: {money(data.get('amount_cents'))} to {payee}")


def _period_closed(data: D, metadata: D) -> str:
    awards = data.get("awards") or []
    return (f"{who(metadata)} closed the High Hand period {data.get('period')}: "
            f"{money(data.get('amount_cents'))} to {len(awards)} award(s) for "
            f"{data.get('hand')}")


def _checked(data: D, metadata: D) -> str:
    return (f"{who(metadata)} checked the displayed amount: "
            f"{money(data.get('displayed_cents'))} shown, {money(data.get('record_cents'))} "
            "on record")


sentences({
    "BadBeatVerified": say("{who} verified the Bad Beat hit: {amount_cents:$} to be paid "
                           "({rule})"),
    "BadBeatRejected": say("{who} rejected the Bad Beat hit: {reason}"),
    "BadBeatPaid": say("{who} paid the Bad Beat hit: {amount_cents:$} ({where:w}; {rule})"),
    "CountOpened": say("{who} opened a box count in the {place:w} ({reason:w}; {rule})"),
    "BoxCounted": say("{who} counted {counted_cents:$} in a table's box"),
    "CountWitnessed": say("{who} witnessed the box count"),
    "BoxesAccountedFor": say("{who} accounted for every box of the count"),
    "CountCarriedToCage": say("{who} carried the count to the cage"),
    "CountVerified": say("{who} verified the count: {counted_cents:$} counted, "
                         "{expected_cents:$} expected, variance {variance_cents:$}"),
    "CountVarianceExplained": say("{who} explained the count's variance: {explanation}"),
    "CountVarianceSignedOff": say("{who} signed off the count's variance"),
    "CountEscalated": say("{who} escalated a count open for {open_minutes} minutes"),
    "CountReminded": say("{who} sent reminder {reminder} of an open count"),
    "DisplayAdjustmentStarted": say("{who} began adjusting the displayed amount to "
                                    "{amount_cents:$} ({rule})"),
    "DisplayedAmountAdjusted": say("{who} witnessed {adjusted_by} adjust the displayed "
                                   "amount to {amount_cents:$} ({rule})"),
    "DisplayChecked": _checked,
    "FundDiscontinuanceProposed": say("{who} proposed discontinuing the fund, its money to "
                                      "go to {transfer_to} ({rule})"),
    "FundDiscontinued": say("{who} discontinued the fund: {amount_cents:$} to "
                            "{transfer_to} ({rule})"),
    "HighHandRecorded": _recorded,
    "HighHandPeriodClosed": _period_closed,
    "HighHandPaid": _award_paid,
    "HighHandAwardUncollected": say("{who} recorded High Hand award {slip} of period "
                                    "{period} ({amount_cents:$}) as not collected in time: "
                                    "{procedure:w} ({rule})"),
})
