"""The tables app's commands, each declared once (issue 23, DESIGN §7): Rules
Submissions, tables, decks, rounds and house-banked rounds. The API operation
(casino.api.commands), the API reference and the console form are made from these.

A declaration names the service the API calls; where the body's shape differs from the
service's keywords a small adapter here says how (never a rule of its own)."""

from __future__ import annotations

from typing import Any

from casino.declared import declare
from casino.roles import Role
from tables.api import banked_serializers as b
from tables.api import serializers as s
from tables.domain.banked.commands import Decide, PlaceWager, SetHands
from tables.reconstruction import cards_as_text
from tables.services import banked, decks, rounds, rules, tables

AT_TABLE = (Role.DEALER, Role.FLOORPERSON)
RULES_WRITERS = (Role.COMPLIANCE, Role.ADMIN)


def rules_stream(pk: Any) -> str:
    return f"rules-{pk}"


def table_stream(pk: Any) -> str:
    return f"table-{pk}"


def deck_stream(pk: Any) -> str:
    return f"deck-{pk}"


def round_stream(pk: Any) -> str:
    return f"round-{pk}"


# --- Rules Submissions -----------------------------------------------------------------

R = "rules-submissions/<uuid:pk>/"


def _rules(service: Any, input: type, route: str, url_name: str, label: str, summary: str,
           doc: str, roles: tuple[Role, ...] = (Role.COMPLIANCE,), **more: Any) -> Any:
    return declare(service=service, input=input, output=s.RulesSubmissionSerializer,
                   roles=roles, path=R + route, url_name=url_name, id_arg="rules_id",
                   stream=rules_stream, label=label, summary=summary, doc=doc, **more)


rules_draft = declare(
    service=rules.rules_draft, input=s.RulesDraftInput, output=s.RulesSubmissionSerializer,
    roles=RULES_WRITERS, created=True, label="Write the draft",
    summary="Write a new draft of a game's Rules Submission.",
    doc="File a new draft version of the Rules Submission for a game.")
rules_revise = _rules(
    rules.rules_revise, s.RulesReviseInput, "revise/", "rules-revise", "Save the draft",
    "Edit a draft Rules Submission.",
    "Edit a draft. A version past the draft is never edited.", roles=RULES_WRITERS)
rules_submit = _rules(
    rules.rules_submit, s.EmptyInput, "submit/", "rules-submit", "Submit for approval",
    "Submit a draft Rules Submission for approval.",
    "Submit a draft for approval.", roles=RULES_WRITERS)
rules_return = _rules(
    rules.rules_return, s.ReasonInput, "return/", "rules-return", "Send it back to draft",
    "Send a submitted Rules Submission back to draft, with the reason.",
    "Return a submitted version to draft.")
rules_approve = _rules(
    rules.rules_approve, s.ApproveInput, "approve/", "rules-approve",
    "Approve the Rules Submission",
    "Approve a submitted Rules Submission as a second compliance officer.",
    "Approve a submitted version (by a compliance officer who did not write or submit "
    "it); it takes effect at effective_at or now. A version selecting a paytable with a "
    "negative house edge (its paytables list) is approved only with "
    "acknowledge_negative_house_edge, recorded on the approval.",
    refusals={"negative_house_edge_unacknowledged":
              "A paytable of this version pays back more than is wagered on it (a "
              "negative house edge); tick the acknowledgement to approve it anyway.",
              "invalid_acknowledgement":
              "The acknowledgement of a negative house edge is a yes or a no: tick the box "
              "or leave it unticked."})
rules_withdraw = _rules(
    rules.rules_withdraw, s.ReasonInput, "withdraw/", "rules-withdraw",
    "Withdraw this version",
    "Withdraw a Rules Submission version, or ask to withdraw the one in effect.",
    "Withdraw a version. One not in effect is withdrawn at once; for the version in "
    "effect this asks for its withdrawal, which a second compliance officer confirms "
    "(withdraw/confirm/).")
rules_withdraw_confirm = _rules(
    rules.rules_withdraw_confirm, s.EmptyInput, "withdraw/confirm/",
    "rules-withdraw-confirm", "Confirm the withdrawal",
    "Confirm the withdrawal of the Rules Submission in effect.",
    "Confirm the requested withdrawal of the version in effect (by a compliance officer "
    "other than the one who asked); it leaves effect and rounds of its game are refused.")
rules_withdraw_cancel = _rules(
    rules.rules_withdraw_cancel, s.ReasonInput, "withdraw/cancel/", "rules-withdraw-cancel",
    "Keep it in effect", "Cancel a requested withdrawal; the version stays in effect.",
    "Cancel the requested withdrawal of the version in effect (any compliance officer); "
    "it stays in effect.")

# --- tables ----------------------------------------------------------------------------

T = "tables/<uuid:pk>/"


def table_reconfigure(*, actor: Any, table_id: Any, **changes: Any) -> Any:
    """The PATCH body's fields are the changes."""
    return tables.table_reconfigure(actor=actor, table_id=table_id, changes=changes)


table_configure = declare(
    service=tables.table_configure, input=s.TableConfigureInput, output=s.TableSerializer,
    roles=(Role.ADMIN,), created=True, label="Configure the table",
    summary="Configure a new gaming table (it starts closed).",
    doc="Configure a new table (closed).")
table_reconfigure_ = declare(
    "table_reconfigure", service=table_reconfigure, input=s.TableReconfigureInput,
    output=s.TableSerializer, roles=(Role.ADMIN,), id_arg="table_id", stream=table_stream,
    label="Save the changes",
    summary="Change a closed table's name, positions or equipment.",
    doc="Change a closed table's name, positions or equipment.")


def _table(service: Any, input: type, roles: tuple[Role, ...], route: str, url_name: str,
           label: str, summary: str, doc: str) -> Any:
    return declare(service=service, input=input, output=s.TableSerializer, roles=roles,
                   path=T + route, url_name=url_name, id_arg="table_id", stream=table_stream,
                   label=label, summary=summary, doc=doc)


table_open = _table(
    tables.table_open, s.EmptyInput, (Role.FLOORPERSON,), "open/", "table-open",
    "Open the table", "Open a table for gaming under the Rules Submission in effect.",
    "Open the table for gaming under the Rules Submission in effect.")
table_close = _table(
    tables.table_close, s.EmptyInput, (Role.FLOORPERSON,), "close/", "table-close",
    "Close the table", "Close a table.", "Close the table.")
table_assign_dealer = _table(
    tables.table_assign_dealer, s.AssignDealerInput, (Role.FLOORPERSON,), "assign-dealer/",
    "table-assign-dealer", "Assign the dealer", "Assign the dealer who deals at a table.",
    "Assign the dealer who acts at this table.")
table_equipment = _table(
    tables.table_equipment, s.EquipmentInput, (Role.FLOORPERSON, Role.DEALER), "equipment/",
    "table-equipment", "Record the equipment's state",
    "Record a shuffler or shoe out of order, or back in order.",
    "Record a shuffler or shoe out of order once covered or signed (589.13(g)), or back in "
    "service (by another floorperson than the reporter while the house's control is on).")

# --- decks -----------------------------------------------------------------------------

D = "decks/<uuid:pk>/"


def _deck(service: Any, input: type, roles: tuple[Role, ...], route: str, url_name: str,
          label: str, summary: str, doc: str, **more: Any) -> Any:
    return declare(service=service, input=input, output=s.DeckSerializer, roles=roles,
                   path=D + route, url_name=url_name, id_arg="deck_id", stream=deck_stream,
                   label=label, summary=summary, doc=doc, **more)


#: a deck the automated shuffler jammed on is shuffled again first (637a.18(q), 589.13(e))
_RESHUFFLE = {"reshuffle_required": "The shuffler jammed on this deck: shuffle it again "
                                    "first."}


deck_receive = declare(
    service=decks.deck_receive, input=s.DeckReceiveInput, output=s.DeckSerializer,
    roles=(Role.DEALER, Role.FLOORPERSON, Role.SECURITY), created=True,
    rename={"table": "table_id"}, label="Record the deck received",
    summary="Record a deck received at a table.",
    doc="Record a deck received at a table (589.4(a), 637a.4(a)).")
deck_inspect = _deck(
    decks.deck_inspect, s.InspectInput, (Role.DEALER,), "inspect/", "deck-inspect",
    "Record the inspection", "Record the dealer's inspection of a deck, with any defects.",
    "The dealer's inspection, listing any defects.")
deck_inspection_verify = _deck(
    decks.deck_inspection_verify, s.VerifyInput, (Role.FLOORPERSON,), "verify-inspection/",
    "deck-verify", "Verify the inspection",
    "Verify a deck's inspection as the second person.",
    "The floorperson verifies the inspection; a rejected deck is removed.")
deck_spread = _deck(
    decks.deck_spread, s.SpreadInput, (Role.DEALER,), "spread/", "deck-spread",
    "Record the spread", "Spread a deck face up for the players to see.",
    "Spread face up for the first player (two at poker).")
deck_wash = _deck(
    decks.deck_wash, s.EmptyInput, (Role.DEALER,), "wash/", "deck-wash",
    "Record the wash", "Wash and stack a deck.", "Washed and stacked.")
deck_shuffle = _deck(
    decks.deck_shuffle, s.ShuffleInput, (Role.DEALER,), "shuffle/", "deck-shuffle",
    "Record the shuffle", "Shuffle a deck by hand or in the automated shuffler.",
    "Shuffled by hand or by the automated shuffler.",
    refusals={"shuffler_not_out_of_order": "The table's automated shuffler is in service: "
              "shuffle with it, or record it out of order with its sign first."})
deck_shuffle_jam = _deck(
    decks.deck_shuffle_jam, s.NoteInput, AT_TABLE, "shuffle-jam/", "deck-shuffle-jam",
    "Record the shuffler jammed", "Record that the automated shuffler jammed on a deck.",
    "The automated shuffler jammed, stopped or did not finish its cycle; the deck is "
    "shuffled again before it is cut or put in play (637a.18(q), 589.13(e)).")
deck_cut = _deck(
    decks.deck_cut, s.CutInput, (Role.DEALER,), "cut/", "deck-cut",
    "Record the cut", "Cut a deck with the cover card.",
    "Cut with the cover card at least ten cards deep.", refusals=_RESHUFFLE)
deck_recut = _deck(
    decks.deck_recut, s.ReasonInput, (Role.FLOORPERSON,), "recut/", "deck-recut",
    "Have the cards cut again", "Have a deck cut again before any card is dealt.",
    "A floorperson has the cards cut again before any is dealt.")
deck_put_in_play = _deck(
    decks.deck_put_in_play, s.EmptyInput, AT_TABLE, "put-in-play/", "deck-put-in-play",
    "Put the deck in play", "Put a deck in play.",
    "Put the deck in play; its change-due timer starts.", refusals=_RESHUFFLE)
deck_count = _deck(
    decks.deck_count, s.CountInput, AT_TABLE, "count/", "deck-count",
    "Record the count", "Record the dealer's count of a deck.",
    "The dealer's count; anything but 52 removes the deck.")
deck_count_verify = _deck(
    decks.deck_count_verify, s.EmptyInput, (Role.FLOORPERSON,), "verify-count/",
    "deck-verify-count", "Sign the count", "Sign a deck's last count as the floorperson.",
    "The floorperson signs the last count.")
deck_shuffler_count = _deck(
    decks.deck_shuffler_count, s.CountInput, AT_TABLE, "shuffler-count/",
    "deck-shuffler-count", "Record the shuffler's count",
    "Record the counting shuffler's count of a deck.",
    "The counting shuffler's count; a wrong count removes the deck.")
deck_remove = _deck(
    decks.deck_remove, s.RemoveInput, AT_TABLE, "remove/", "deck-remove",
    "Take the deck out of play", "Take a deck out of play, with the reason.",
    "Remove the deck from the table, with the reason.")
deck_destroy = _deck(
    decks.deck_destroy, s.NoteInput, (Role.SECURITY, Role.FLOORPERSON), "destroy/",
    "deck-destroy", "Record the deck destroyed", "Destroy a removed deck.",
    "A removed deck destroyed.")
deck_cancel = _deck(
    decks.deck_cancel, s.NoteInput, (Role.SECURITY, Role.FLOORPERSON), "cancel/",
    "deck-cancel", "Record the deck cancelled", "Cancel a removed deck.",
    "A removed deck cancelled.")

# --- rounds ----------------------------------------------------------------------------

RD = "rounds/<uuid:pk>/"


def round_open(*, actor: Any, table: Any, deck: Any) -> Any:
    """The body names the table and the deck."""
    return rounds.round_open(actor=actor, table_id=table, deck_id=deck)


round_open_ = declare(
    "round_open", service=round_open, input=s.RoundOpenInput, output=s.RoundSerializer,
    roles=AT_TABLE, path="rounds/", url_name="round-open", created=True,
    label="Open the round",
    summary="Open a house-banked round at a table with a deck in play.",
    doc="Open a round: refused at a closed table, without rules in effect, or with a deck "
        "that is due for change or a count, or out of turn.")
round_close = declare(
    service=rounds.round_close, input=s.EmptyInput, output=s.RoundSerializer,
    roles=AT_TABLE, path=RD + "close/", url_name="round-close", id_arg="round_id",
    stream=round_stream, label="Close the round",
    summary="Close a round.", doc="Close the round.")


# --- house-banked rounds -------------------------------------------------------------------

def round_place_wagers(*, actor: Any, round_id: Any, wagers: list[dict[str, Any]],
                       no_more_bets: bool = False, expected_version: int | None = None) -> Any:
    """The body's wagers as the service's PlaceWager commands."""
    return banked.round_place_wagers(
        actor=actor, round_id=round_id, no_more_bets=no_more_bets,
        expected_version=expected_version, wagers=[PlaceWager(**w) for w in wagers])


def round_lock_decisions(*, actor: Any, round_id: Any, decisions: list[dict[str, Any]],
                         expected_version: int | None = None) -> Any:
    """The body's decisions as the service's Decide or SetHands commands."""
    return banked.round_lock_decisions(
        actor=actor, round_id=round_id, expected_version=expected_version,
        decisions=[Decide(**d) if d["decision"] is not None
                   else SetHands(d["position"], d["high"], d["low"]) for d in decisions])


def round_settle_script(*, actor: Any, **script: Any) -> dict[str, Any]:
    """The settlement with each event's cards as text."""
    out = banked.round_settle_script(actor=actor, script=script)
    out["events"] = [{"type": e["type"], "data": cards_as_text(e["data"])}
                     for e in out["events"]]
    return out


def _banked(service: Any, input: type, route: str, url_name: str, label: str, summary: str,
            doc: str, roles: tuple[Role, ...] = AT_TABLE, name: str | None = None) -> Any:
    return declare(name, service=service, input=input, output=b.BankedRoundSerializer,
                   roles=roles, path=RD + route, url_name=url_name, id_arg="round_id",
                   stream=round_stream, label=label, summary=summary, doc=doc)


round_place_wager = _banked(
    banked.round_place_wager, b.WagerInput, "wagers/", "round-wagers", "Place the wager",
    "Place a player's wager before no more bets.",
    "Place a wager before no more bets (589.7, 671a.7, 579.7).")
round_place_wagers_ = _banked(
    round_place_wagers, b.WagersInput, "wagers/batch/", "round-wagers-batch",
    "Place the wagers", "Place every wager the terminal holds at once, optionally closing bets.",
    "Every wager a terminal holds, then optionally no more bets, as one command: one "
    "commit, one event per wager; refused whole if any part is.")
round_withdraw_wager = _banked(
    banked.round_withdraw_wager, b.WithdrawInput, "wagers/withdraw/", "round-wager-withdraw",
    "Withdraw the wager", "Withdraw a player's wager before no more bets.",
    "Withdraw a wager before no more bets.")
round_no_more_bets = _banked(
    banked.round_no_more_bets, b.VersionedInput, "no-more-bets/", "round-no-more-bets",
    "Call no more bets", "Call no more bets.",
    "Announce no more bets (589.7(d), 579.7(c)).")
round_deal = _banked(
    banked.round_deal, b.DealInput, "deal/", "round-deal", "Record the deal",
    "Record the cards dealt to each position and the dealer.",
    "Record the deal read by a card-reading shoe or keyed at the console.")
round_deal_from_shuffle = _banked(
    banked.round_deal_from_shuffle, b.DealFromShuffleInput, "deal-from-shuffle/",
    "round-deal-from-shuffle", "Deal from the server's shuffle",
    "Deal the round from a deck the server shuffles.",
    "Deal from a deck the server shuffles with a secure RNG.")
round_decide = _banked(
    banked.round_decide, b.DecisionInput, "decisions/", "round-decisions",
    "Record the decision", "Record a player's decision.",
    "Record a player's decision (fold, bet, buy, exchange, declare, force; Hi-Lo play or "
    "forfeit).")
round_set_hands = _banked(
    banked.round_set_hands, b.SetHandsInput, "hands/", "round-hands", "Record the hands set",
    "Record how a Hi-Lo player sets the high and low hands.",
    "Set a Hi-Lo player's high and low hands (579.11(d)).")
round_draw = _banked(
    banked.round_draw, b.DrawInput, "draws/", "round-draws", "Record the draw",
    "Record a Lunar Poker player's sixth card or exchange.",
    "A Lunar player's sixth card or exchange (589.11(d)(2), 671a.11(d)).")
round_draw_dealer = _banked(
    banked.round_draw_dealer, b.DealerDrawInput, "dealer-draw/", "round-dealer-draw",
    "Record the dealer's card",
    "Record the dealer's replacement card after a player forces it.",
    "The forced dealer's replacement card (589.11(e)(2)(ii)).")
round_lock_decisions_ = _banked(
    round_lock_decisions, b.LockInput, "lock/", "round-lock", "Lock in and settle",
    "Lock in every decision and settle the round's wagers.",
    "All decisions are locked in: reveal and settle every wager. With decisions, each "
    "position's decision (or Hi-Lo setting) is recorded first, in the same command.")
round_report_irregularity = _banked(
    banked.round_report_irregularity, b.IrregularityInput, "irregularities/",
    "round-irregularities", "Report the irregularity",
    "Report an irregularity or abandoned wagers in a round.",
    "Report an irregularity (x.13) or abandoned wagers (x.7(b)); a void returns every "
    "wager.", roles=(Role.FLOORPERSON,))
round_stub = _banked(
    banked.round_stub, b.StubInput, "stub/", "round-stub", "Record the stub",
    "Record the stub put in the discard rack, or counted first.",
    "Five Card Hi-Lo after the deal: the stub to the discard rack (579.8(e), 579.9(c), "
    "579.10(c)), or counted face down first (579.8(f)-(h); allowed, not required, where a "
    "counting shuffler is used): 52 in the deck counts the deck, another number voids the "
    "round and removes the deck unless the cards were misdealt and the stub and the cards "
    "held make 52.")
round_settle_script_ = declare(
    service=round_settle_script, input=b.SettleScriptInput, output=b.SettlementSerializer,
    roles=banked.DISPUTE_ROLES, path="rounds/settle-script/", url_name="round-settle-script",
    label="Work it out",
    summary="Work out a disputed house-banked round without recording anything.",
    doc="The dispute calculator: settle a round script (the format of "
        "tests/tables/banked/scripts) without recording anything.")
