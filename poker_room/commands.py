"""The poker room's commands, each declared once (issue 23, DESIGN §7): seats and stakes
(637a.8), hands through the dealer terminal, floor rulings, time charges and the dispute
calculator. The API operation, the API reference and the console form are made from
these."""

from __future__ import annotations

from typing import Any

from casino.declared import declare
from casino.roles import Role
from poker_room.api import serializers as s
from poker_room.api.cards import command_in
from poker_room.api.conduct_serializers import RemovalAcknowledgedOut, RemovalAcknowledgeIn
from poker_room.api.history_views import SettleScriptIn, SettlementOut, hand_settle_script
from poker_room.api.jackpot_box_serializers import (
    JackpotBoxesOut,
    JackpotBoxRegisterIn,
    JackpotBoxRemoveIn,
)
from poker_room.api.rake_views import TimeChargeOut, VerifyIn
from poker_room.services import disputes, hands, jackpot_boxes, seats, time_charges

SEATING = seats.SEATING
FLOOR = seats.FLOOR
DEALING = hands.DEALING
T = "poker-tables/<str:pk>/"
H = "hands/<str:pk>/"


def hand_stream(pk: Any) -> str:
    """A hand's events are its round's stream."""
    return f"round-{pk}"


def _seat(service: Any, roles: tuple[Any, ...], input: type, output: type, route: str,
          url_name: str, label: str, summary: str, doc: str, created: bool = False) -> Any:
    # stream=None: a seat's events share the poker table's stream with every hand dealt
    # and settled (HandDealtAtTable, HandSettled), so a form carrying that stream's
    # version would go stale at each hand during play; no narrower stream exists (a seat
    # has none of its own). The services' own rules refuse a seat in the wrong state
    # (taken, empty, in a hand, away ...) with their codes, as the API's.
    return declare(service=service, input=input, output=output, roles=roles,
                   path=T + route, url_name=url_name, id_arg="table_id", created=created,
                   stream=None, label=label, summary=summary, doc=doc)


seat_player = _seat(
    seats.seat_player, SEATING, s.SeatIn, s.SeatOut, "seats/take/", "poker-seat-take",
    "Seat the player", "Seat a player and record the buy-in.",
    "Seat a player and record the buy-in (637a.8(a), (b)(1)): a free seat, a named player "
    "seated nowhere else in the room, a buy-in within the posted limits.", created=True)
chips_add = _seat(
    seats.chips_add, SEATING, s.ChipsIn, s.SeatOut, "seats/chips/", "poker-chips-add",
    "Add the chips", "Add chips to a player's table stakes between hands.",
    "Add to a player's table stakes, only between hands (637a.8(b)(2)).")
sit_out = _seat(
    seats.sit_out, SEATING, s.SeatNumberIn, s.SeatOut, "seats/sit-out/", "poker-sit-out",
    "Sit the player out", "Sit a player out: still seated, not dealt in.",
    "The player stays seated and is not dealt in (a per-player time charge still applies, "
    "637a.17(b)(3)(i)).")
sit_in = _seat(
    seats.sit_in, SEATING, s.SeatNumberIn, s.SeatOut, "seats/sit-in/", "poker-sit-in",
    "Deal the player back in", "Deal a player who sat out back in from the next hand.",
    "A player sitting out is dealt in again from the next hand.")
step_away = _seat(
    seats.step_away, FLOOR, s.StepAwayIn, s.SeatOut, "seats/step-away/", "poker-step-away",
    "Record the stakes of the player stepping away",
    "Record the table stakes of a player stepping away from the seat.",
    "A floorperson records the table stakes of a player stepping away without giving up "
    "the seat (637a.8(b)(6)).")
player_return = _seat(
    seats.player_return, FLOOR, s.ReturnIn, s.SeatOut, "seats/return/", "poker-return",
    "Record the player back", "Record a player's return to the seat, the stakes checked.",
    "The player returns; the floorperson has verified the stakes are unchanged "
    "(637a.8(b)(6)(i)).")
seat_leave = _seat(
    seats.seat_leave, SEATING, s.SeatNumberIn, s.LeftOut, "seats/leave/", "poker-leave",
    "Record the player leaving",
    "Record a player leaving the table with the table stakes.",
    "The player leaves with the table stakes (not during a hand the player is in, "
    "637a.8(b)(2)).")
player_remove = _seat(
    seats.player_remove, FLOOR, s.RemoveIn, s.LeftOut, "seats/remove/", "poker-remove",
    "Remove the player from the game",
    "Remove a player from the game for helping another player.",
    "The floor requires a player to leave the game for playing to help another "
    "(637a.18(b)-(c)); the event is the notice to compliance.")
player_removal_acknowledge = declare(
    service=seats.player_removal_acknowledge, input=RemovalAcknowledgeIn,
    output=RemovalAcknowledgedOut, roles=seats.COMPLIANCE,
    path=T + "seats/removal-acknowledge/", url_name="poker-removal-acknowledge",
    id_arg="table_id", stream=None,  # as the seats' (_seat): the table's stream moves
    label="Acknowledge the notice",
    summary="Acknowledge the notice of a player required to leave.",
    doc="A compliance officer records that the notice of a player required to leave the "
        "game was received and reviewed (637a.18(c)); not the person who removed the "
        "player.",
    refusals={"removal_not_found": "That table records no player removed at that number.",
              "already_acknowledged": "Another compliance officer acknowledged this "
                                      "notice already; nothing was recorded.",
              "invalid_removal": "Give the number of the removal as the list shows it.",
              "invalid_note": "The note is too long (2000 characters at most)."})
minimum_bet_raise = _seat(
    seats.minimum_bet_raise, SEATING, s.MinimumBetIn, s.PokerTableOut, "minimum-bet/",
    "poker-minimum-bet", "Raise the minimum bet",
    "Raise the table's minimum bet with every player's agreement.",
    "Raise the minimum bet by every player's agreement, within the Rules Submission's "
    "maximum increase (637a.8(k)).")
hand_start = declare(
    service=hands.hand_start, input=s.HandStartIn, output=s.HandOut, roles=DEALING,
    path=T + "hands/", url_name="poker-hand-start", id_arg="table_id", created=True,
    label="Start the hand", summary="Start a poker hand at a table.",
    doc="Start a hand: the round opens through the deck and rules gate, the players seated "
        "and playing are dealt in, the button moves (637a.11(c)), the forced bets are "
        "posted (637a.10(d), 637a.11(d)).")
time_charge_verify = declare(
    service=time_charges.time_charge_verify, input=VerifyIn, output=TimeChargeOut,
    roles=(Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR),
    path=T + "time-charges/verify/", url_name="poker-time-charge-verify", id_arg="table_id",
    # stream=None as the seats' (above): the table's stream moves at every hand; the
    # service refuses a period verified already or not assessed
    stream=None, label="Verify the time charges",
    summary="Verify a period's time charges as the floorperson.",
    doc="A floorperson verifies a period's time charges; they go in the drop box "
        "(637a.17(b)(3)(v)).")
jackpot_box_register = declare(
    service=jackpot_boxes.jackpot_box_register, input=JackpotBoxRegisterIn,
    output=JackpotBoxesOut, roles=jackpot_boxes.BOX_ROLES,
    path=T + "jackpot-boxes/register/",
    url_name="poker-jackpot-box-register", id_arg="table_id", created=True,
    # stream=None as the seats' (above): the table's stream moves at every hand
    stream=None, label="Register the jackpot box",
    summary="Register the jackpot box attached to the table for a fund.",
    doc="The transparent locked box on the drop box's side that holds the table's "
        "contributions to a Bad Beat or High Hand fund (637a.2(e)); without it a hand pays "
        "nothing into that fund.",
    refusals={"fund_not_offered": "The rules in effect at this table pay into no such fund.",
              "invalid_jackpot_box": "Give the tag or number the box carries.",
              "jackpot_box_already_registered": "That fund has a box at this table already.",
              "jackpot_box_tag_in_use": "Another box at this table carries that tag.",
              "jackpot_box_not_transparent": "The box must be transparent: confirm it.",
              "jackpot_box_not_locked": "The box must be locked: confirm it.",
              "jackpot_box_not_beside_drop_box": "The box must be attached on the drop "
                                                 "box's side of the table: confirm it."})
jackpot_box_remove = declare(
    service=jackpot_boxes.jackpot_box_remove, input=JackpotBoxRemoveIn,
    output=JackpotBoxesOut, roles=jackpot_boxes.BOX_ROLES,
    path=T + "jackpot-boxes/remove/",
    url_name="poker-jackpot-box-remove", id_arg="table_id", stream=None,
    label="Remove the jackpot box", summary="Remove a fund's jackpot box from the table.",
    doc="The fund's box taken off the table between hands, with why; from the next hand "
        "the table pays nothing into that fund (637a.2(e)).",
    refusals={"no_jackpot_box": "No box is registered at this table for that fund."})


# --- hands ----------------------------------------------------------------------------------

def hand_command(*, actor: Any, round_id: Any, command: Any,
                 expected_version: Any = None) -> hands.PokerHand:
    """One dealer action, its cards read from their codes."""
    return hands.hand_command(actor=actor, round_id=round_id, commands=[command_in(command)],
                              expected_version=expected_version)


def hand_commands(*, actor: Any, round_id: Any, commands: Any,
                  expected_version: Any = None) -> hands.PokerHand:
    """Several dealer actions, each's cards read from their codes."""
    batch = [command_in(c) for c in commands] if isinstance(commands, list) else commands
    return hands.hand_command(actor=actor, round_id=round_id, commands=batch,
                              expected_version=expected_version)


#: the refusals of the dealer's records of the players' conduct (637a.18(d), (k))
_CONDUCT_REFUSALS = {
    "seat_folded": "That seat is no longer in the hand.",
    "no_cards_dealt": "That seat has no cards yet.",
    "step_in_progress": "Finish the forced bet, the deal to the players, the draw or the "
                        "discards first.",
    "stud_hole_cards_protected": "Stud hole cards fouled by the discards are protected: "
                                 "record the hand as protected.",
    "hand_protected": "A player who left without a word is folded only with an "
                      "unprotected hand.",
    "no_redress": "An unprotected hand has no redress: it is not put back together.",
    "refund_exceeds_pot": "The pot holds less than the refund after the rake taken; "
                          "the poker shift supervisor rules on it.",
}
hand_command_ = declare(
    service=hand_command, input=s.HandCommandIn, output=s.HandOut, roles=DEALING,
    refusals=_CONDUCT_REFUSALS,
    path=H + "command/", url_name="poker-hand-command", id_arg="round_id",
    stream=hand_stream, label="Record the action",
    summary="Record one dealer action on a hand.",
    doc="One dealer action on the hand: act, deal, draw, discard, card_discard, "
        "hole_card_exposed, cards_not_in_view, hand_fouled, misdeal or void (637a.7, "
        "637a.10-637a.21, 637a.18).")
hand_commands_ = declare(
    service=hand_commands, input=s.HandBatchIn, output=s.HandOut, roles=DEALING,
    path=H + "commands/", url_name="poker-hand-commands", id_arg="round_id",
    stream=hand_stream, label="Record the actions",
    summary="Record several dealer actions on a hand, all or nothing.",
    doc="Several dealer actions in order, all or nothing (the forced bets; a whole betting "
        "round from a terminal that buffers).")
floor_ruling = declare(
    service=hands.floor_ruling, input=s.RulingIn, output=s.HandOut, roles=hands.RULING,
    path=H + "ruling/", url_name="poker-hand-ruling", id_arg="round_id", stream=hand_stream,
    label="Record the ruling", summary="Record a floor ruling on a hand.",
    doc="A floor ruling on the hand, recorded in its stream (637a.18(a), (s)).")
hand_settle_script_ = declare(
    service=hand_settle_script, input=SettleScriptIn, output=SettlementOut,
    roles=disputes.DISPUTE_ROLES, path="poker-settle-script/", url_name="poker-settle-script",
    label="Work it out",
    summary="Work out a disputed poker hand without recording anything.",
    doc="The poker dispute calculator: work a hand out from its script (rules, seats and "
        "stacks, button, the cards, the dealer's commands) and get the pots, awards, rake, "
        "contributions and stacks; nothing is recorded (637a.18(a)).",
    refusals={"options_with_table": "A table's hand is worked out under its Rules "
                                    "Submission: name the table or give the options, not "
                                    "both."})
