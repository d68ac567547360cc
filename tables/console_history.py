"""Sentences for the tables app's event types (:mod:`console.history`): tables, decks,
Rules Submissions and the house-banked rounds. ``RoundOpened``, ``RoundClosed`` and
``CardsDealt`` are shared with the poker room's hands (one round gate); poker_room adds
its own wording for its shape of them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from console.history import NOTHING, cards, money, say, sentences, who, words

D = Mapping[str, Any]


def _disposed(verb: str) -> Any:
    def sentence(data: D, metadata: D) -> str:
        why = f": {words(data['reason'])}" if data.get("reason") else ""
        note = f" ({data['note']})" if data.get("note") else ""
        return f"{who(metadata)} {verb}{why}{note}"
    return sentence


def _reconfigured(data: D, metadata: D) -> str:
    changed = ", ".join(f"{words(k)} to {words(v)}" for k, v in data.items()) or "nothing"
    return f"{who(metadata)} reconfigured the table: {changed}"


def _inspected(data: D, metadata: D) -> str:
    defects = data.get("defects") or []
    found = "no defects" if not defects else "defects: " + "; ".join(map(str, defects))
    return f"{who(metadata)} inspected the deck ({found})"


def _verified(data: D, metadata: D) -> str:
    verdict = "accepted it" if data.get("accepted") else "rejected it"
    note = f" ({data['note']})" if data.get("note") else ""
    return f"{who(metadata)} verified the inspection of the deck and {verdict}{note}"


def _counted(shuffler: bool) -> Any:
    def sentence(data: D, metadata: D) -> str:
        by = " with the shuffler" if shuffler else ""
        verdict = "right" if data.get("correct") else "wrong"
        return f"{who(metadata)} counted the deck{by}: {data.get('cards')} cards ({verdict})"
    return sentence


def _round_opened(data: D, metadata: D) -> str:
    return (f"{who(metadata)} opened round {data.get('number', NOTHING)} of "
            f"{words(data.get('game'))} under Rules Submission version "
            f"{data.get('rules_version_number', NOTHING)}")


def _round_closed(data: D, metadata: D) -> str:
    if "wagered" not in data:
        return f"{who(metadata)} closed the round"
    if data.get("void"):
        return f"{who(metadata)} closed the void round: every wager returned"
    return (f"{who(metadata)} closed the round: {money(data.get('wagered'))} wagered, "
            f"{money(data.get('returned'))} returned, house win "
            f"{money(data.get('house_win'))}")


def _cards_dealt(data: D, metadata: D) -> str:
    hands = data.get("hands")
    if isinstance(hands, Mapping):
        dealt = "; ".join(f"position {p} {cards(c)}" for p, c in hands.items())
        dealer = data.get("dealer")
        shown = f"; dealer {cards(dealer)}" if isinstance(dealer, list) else ""
        return f"{who(metadata)} dealt: {dealt}{shown}"
    per = data.get("cards")
    if isinstance(per, list):
        dealt = "; ".join(f"seat {s} {cards(c)}" for s, c in per
                          if isinstance(c, list)) or NOTHING
        return f"{who(metadata)} dealt: {dealt}"
    return f"{who(metadata)} dealt the cards"


def _settled(data: D, metadata: D) -> str:
    return (f"{who(metadata)} settled position {data.get('position')}'s "
            f"{words(data.get('wager'))}: {words(data.get('outcome'))}, "
            f"{money(data.get('returned'))} handed back ({data.get('why') or NOTHING}, "
            f"{data.get('cite') or NOTHING})")


def _withdrawn(data: D, metadata: D) -> str:
    if data.get("requested_by"):
        return (f"{who(metadata)} confirmed the withdrawal of the Rules Submission asked "
                f"for by {data['requested_by']}: {data.get('reason') or NOTHING}")
    return f"{who(metadata)} withdrew the Rules Submission: {data.get('reason') or NOTHING}"


def _approved(data: D, metadata: D) -> str:
    """601a.2: the approval, naming any negative house edge its approver acknowledged."""
    text = say("{who} approved the Rules Submission, in effect from {effective_at:t}")(
        data, metadata)
    flagged = data.get("negative_house_edges_acknowledged") or []
    if flagged:
        text += ", acknowledging the negative house edge of " + ", ".join(
            f"{e['paytable']} ({e['house_edge_percent']})" for e in flagged)
    return text


def _superseded(data: D, metadata: D) -> str:
    before = " before it took effect" if data.get("before_taking_effect") else ""
    return (f"the Rules Submission was superseded{before} at "
            f"{say('{at:t}')(data, metadata)}")


sentences({
    # tables
    "TableConfigured": say("{who} configured the table {name}: {game:w}, {positions} "
                           "positions, dealt by {dealing_method:w}, shuffler {shuffler:w}"),
    "TableReconfigured": _reconfigured,
    "TableOpened": say("{who} opened the table under Rules Submission version "
                       "{rules_version_number}"),
    "TableClosed": say("{who} closed the table"),
    "DealerAssigned": say("{who} assigned {dealer} to deal at the table"),
    "EquipmentOutOfOrder": say("{who} took the {device:w} out of order: {note}"),
    "EquipmentRestored": say("{who} put the {device:w} back in order: {note}"),
    # decks
    "DeckReceived": say("{who} received a {back_colour} deck (batch {batch})"),
    "DeckInspected": _inspected,
    "DeckInspectionVerified": _verified,
    "DeckSpread": say("{who} spread the deck for {players} player(s)"),
    "DeckWashed": say("{who} washed the deck"),
    "DeckShuffled": say("{who} shuffled the deck ({method:w})"),
    "DeckShuffleJammed": say("{who} recorded the shuffler jammed on the deck; it is "
                             "shuffled again: {note}"),
    "DeckCut": say("{who} cut the deck {depth} cards deep"),
    "DeckRecutOrdered": say("{who} ordered the deck cut again: {reason}"),
    "DeckPutInPlay": say("{who} put the deck in play until {deadline_at:t} "
                         "({limit_basis:w} limit)"),
    "DeckDealtRound": say("{who} dealt round {number} from the deck"),
    "DeckCounted": _counted(False),
    "DeckShufflerCounted": _counted(True),
    "DeckCountVerified": say("{who} verified the deck count of {cards} cards"),
    "DeckRemoved": _disposed("took the deck out of play"),
    "DeckDestroyed": _disposed("destroyed the deck"),
    "DeckCancelled": _disposed("cancelled the deck"),
    "DeckDeadlineChanged": say("{who} moved the deck's change-by time to {deadline_at:t} "
                               "({limit_basis:w} limit)"),
    "DeckChangeWarning": say("{who} warned the deck is due for a change at "
                             "{deadline_at:t}"),
    "DeckChangeDue": say("{who} marked the deck due for a change (it was due at "
                         "{deadline_at:t})"),
    # Rules Submissions
    "RulesSubmissionDrafted": say("{who} drafted version {version_number} of a Rules "
                                  "Submission for {game:w}: {notes}"),
    "RulesSubmissionRevised": say("{who} revised the Rules Submission: {notes}"),
    "RulesSubmissionSubmitted": say("{who} submitted the Rules Submission for approval"),
    "RulesSubmissionReturned": say("{who} returned the Rules Submission to draft: {reason}"),
    "RulesSubmissionApproved": _approved,
    "RulesSubmissionTookEffect": say("the Rules Submission took effect at {at:t}"),
    "RulesSubmissionSuperseded": _superseded,
    "RulesSubmissionWithdrawalRequested": say("{who} asked for the Rules Submission to be "
                                              "withdrawn: {reason}"),
    "RulesSubmissionWithdrawalCancelled": say("{who} cancelled the withdrawal of the Rules "
                                              "Submission: {reason}"),
    "RulesSubmissionWithdrawn": _withdrawn,
    # rounds (house-banked; the round gate for poker hands too)
    "RoundOpened": _round_opened,
    "RoundClosed": _round_closed,
    "WagerPlaced": say("{who} took position {position}'s {wager:w} wager of {amount:$}"),
    "WagerWithdrawn": say("{who} took back position {position}'s {wager:w} wager"),
    "NoMoreBets": say("{who} called no more bets"),
    "CardFoundFaceUp": say("{who} found {card:cards} face up; it is not used this round "
                           "({cite})"),
    "IrregularityRecorded": say("{who} recorded an irregularity: {kind:w}, {action:w} "
                                "({cite})"),
    "CardDrawnInError": say("{who} recorded {card:cards} drawn in error face down; it is "
                            "the next card ({cite})"),
    "StubCounted": say("{who} counted {cards} cards in the stub, {deck_cards} in the deck "
                       "({cite})"),
    "StubDiscarded": say("{who} put the stub in the discard rack ({cite})"),
    "CardsToDiscardRack": say("{who} put position {position}'s {cards:cards} in the discard "
                              "rack ({cite})"),
    "CardsDealt": _cards_dealt,
    "HandDeclared": say("{who} recorded position {position}'s declaration: {declaration:w} "
                        "({hand:w})"),
    "DecisionMade": say("{who} recorded position {position}'s decision: {decision:w} "
                        "{amount:$}"),
    "HandsSet": say("{who} set position {position}'s hands: high {high:cards} "
                    "({high_total}), low {low:cards} ({low_total})"),
    "DecisionsLocked": say("{who} locked in every decision"),
    "CardsDrawn": say("{who} recorded position {position}'s {draw:w}: gave {discard:cards}, "
                      "took {cards:cards}"),
    "DealerRevealed": say("{who} turned up the dealer's {cards:cards}: {hand}"),
    "DealerHandsSet": say("{who} set the dealer's hands: high {high:cards} ({high_total}), "
                          "low {low:cards} ({low_total})"),
    "ForceOffered": say("{who} offered positions {positions} to force the dealer"),
    "DealerForced": say("{who} recorded that positions {positions} forced the dealer"),
    "DealerCardReplaced": say("{who} replaced the dealer's {discard:cards} with "
                              "{card:cards}: {hand}"),
    "WagerSettled": _settled,
    "WagersAbandoned": say("{who} recorded position {position}'s wagers as abandoned "
                           "({cite})"),
    "RoundVoided": say("{who} voided the round: {reason:w} ({cite})"),
})
