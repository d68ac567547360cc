"""The API reference's example requests: for every command (a POST, PUT or PATCH with a
body), by operationId, one body as the demo would send it — its tables, players, funds
and figures (`make run`; README), money in integer cents. An id the reader replaces is a
placeholder UUID (:data:`TABLE_ID` …), never a row of anyone's database.

Schemathesis reads these as requests, so each must validate against its operation's
request schema; tests/casino/test_api_reference.py checks that every one does.

Pure data.
"""

from __future__ import annotations

from typing import Any

#: Placeholders for the ids a request names (all share the prefix the test looks for).
PLACEHOLDER_PREFIX = "00000000-0000-4000-8000-"
TABLE_ID = PLACEHOLDER_PREFIX + "000000000001"
DECK_ID = PLACEHOLDER_PREFIX + "000000000002"
HAND_ID = PLACEHOLDER_PREFIX + "000000000003"   # a poker hand's id is its round's
COUNT_ID = PLACEHOLDER_PREFIX + "000000000004"
SLIP_ID = PLACEHOLDER_PREFIX + "000000000005"
RULES_ID = PLACEHOLDER_PREFIX + "000000000006"
ENTRY_ID = PLACEHOLDER_PREFIX + "000000000007"   # a player's entry on a poker floor list

#: The gaming day of the demo's examples, and a moment in it (Eastern time).
GAMING_DAY = "2026-11-25"

#: The demo's Five Card Hi-Lo Rules Submission options (README, "Rules Submissions").
HILO_OPTIONS: dict[str, Any] = {
    "table_minimum_cents": 500, "table_maximum_cents": 50000, "ante_bonus_paytable": "A",
    "tie_wager_offered": True, "poker_bonus_offered": True, "poker_bonus_paytable": "B",
    "adjacent_betting_areas_permitted": False}

#: The demo's Lunar Poker (chapter 589) options.
LUNAR_OPTIONS: dict[str, Any] = {
    "table_minimum_cents": 1000, "table_maximum_cents": 50000, "instant_paytable": "A",
    "super_wager_offered": True, "super_paytable": "B"}

#: The Hold'em hand of the README at P-HOLDEM: the first betting round and the flop.
HOLDEM_DEAL = {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                         "3": ["Qc", "Jc"], "4": ["7h", "2s"]}}
HOLDEM_PREFLOP = [
    {"type": "act", "seat": 3, "action": "raise"}, {"type": "act", "seat": 4, "action": "fold"},
    {"type": "act", "seat": 1, "action": "call"}, {"type": "act", "seat": 2, "action": "call"},
    {"type": "deal", "cards": ["Ah", "9c", "4d"]}]

EXAMPLES: dict[str, dict[str, Any]] = {
    # --- Logins and tokens
    "auth_token": {"username": "demo_dealer", "password": "<from var/demo_logins.txt>"},
    "auth_two_factor_enrol": {"username": "demo_compliance",
                              "password": "<from var/demo_logins.txt>",
                              "secret": "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
                              "code": "492039"},
    "login_unlock_request": {"username": "demo_dealer",
                             "reason": "Dealer mistyped the password after the break; "
                                       "identity checked in person."},
    "login_unlock_reject": {"reason": "The failures came from a terminal the dealer never "
                                      "used; security is looking into it."},
    "password_change": {"old_password": "<your current password>",
                        "new_password": "a-long-new-secret-2"},
    "staff_tokens_revoke": {"reason": "Terminal at P-HOLDEM reported lost."},
    # --- Staff and roles
    "staff_enrol": {"username": "jdoe", "password": "a-long-secret-1",
                    "credential_number": "GCB-4411", "display_name": "Jamie Doe"},
    "staff_credential_number_change": {"credential_number": "GCB-4412",
                                       "reason": "The Board reissued the credential."},
    "staff_deactivate": {"reason": "Left the property's employment."},
    "credential_reset_request": {"what": "both",
                                 "reason": "Phone lost and password forgotten; identity "
                                           "checked in person against the Board credential."},
    "credential_reset_reject": {"reason": "Identity not checked in person yet."},
    "role_grant_request": {"role": "floorperson", "reason": "Completed floor training."},
    "role_revoke": {"role": "dealer", "reason": "Moved to the cage."},
    "role_grant_reject": {"reason": "Floor training not yet completed."},
    # --- Tables
    "table_configure_post": {"name": "HL-2", "game": "five-card-hi-lo", "positions": 6,
                             "dealing_method": "hand", "shuffler": "automated"},
    "table_reconfigure_patch": {"positions": 7, "shuffler": "automated-counting"},
    "table_assign_dealer": {"dealer": "demo_dealer"},
    "table_equipment": {"device": "shuffler", "out_of_order": True, "covered_or_signed": True,
                        "note": "Shuffler jammed; cards shuffled by hand until repaired."},
    # --- Rules Submissions
    "rules_draft_post": {"game": "five-card-hi-lo", "options": HILO_OPTIONS,
                         "notes": "Paytable A for the Ante Bonus."},
    "rules_revise": {"options": {**HILO_OPTIONS, "table_minimum_cents": 1000},
                     "notes": "Table minimum raised to $10.00."},
    "rules_approve": {"effective_at": "2026-12-01T06:00:00-05:00"},
    "rules_return": {"reason": "The Poker Bonus paytable is not the one filed."},
    "rules_withdraw": {"reason": "The game leaves the floor at the end of the month."},
    "rules_withdraw_cancel": {"reason": "The game stays: the replacement is not approved."},
    # --- Decks
    "deck_receive_post": {"table": TABLE_ID, "back_colour": "red", "batch": "DEMO-20261125",
                          "preinspected_preshuffled": False},
    "deck_inspect": {"defects": []},
    "deck_inspection_verify": {"accepted": True, "note": ""},
    "deck_spread": {"players": 2},
    "deck_shuffle": {"method": "automated"},
    "deck_shuffle_jam": {"note": "The shuffler stopped mid-cycle; the cards go in again."},
    "deck_cut": {"depth": 23},
    "deck_recut": {"reason": "The cover card showed before the cut was complete."},
    "deck_count": {"cards": 52},
    "deck_shuffler_count": {"cards": 52},
    "deck_remove": {"reason": "time-limit", "note": "Four hours in play."},
    "deck_cancel": {"note": "Cancelled with the day's removed decks."},
    "deck_destroy": {"note": "Destroyed with the day's removed decks."},
    # --- House-banked rounds (a Lunar Poker round at the demo's L-589 table)
    "round_open": {"table": TABLE_ID, "deck": DECK_ID},
    "round_place_wager": {"position": 1, "wager": "ante", "amount": 1000},
    "round_place_wagers": {"no_more_bets": True, "wagers": [
        {"position": 1, "wager": "ante", "amount": 1000},
        {"position": 2, "wager": "ante", "amount": 2500}]},
    "round_withdraw_wager": {"position": 2, "wager": "ante"},
    "round_no_more_bets": {"expected_version": 2},
    # the walkthrough's manual shoe: the dealer states both (x.8(a), 579.8(c))
    "round_deal": {"hands": {"1": ["2c", "3d", "7h", "9s", "Qc"]},
                   "dealer": ["Jc", "Jh", "5s", "4d", "3h"],
                   "placed_by": "dealer", "card_hand": "closest_to_shoe"},
    "round_deal_from_shuffle": {"expected_version": 3, "placed_by": "dealer",
                                "card_hand": "closest_to_shoe"},
    "round_decide": {"position": 1, "decision": "exchange", "amount": 1000},
    "round_draw": {"position": 1, "discard": ["2c", "3d", "7h", "9s", "Qc"],
                   "cards": ["6h", "7d", "8c", "9d", "Ts"]},
    "round_set_hands": {"position": 1, "high": ["As", "Ks", "Kd"], "low": ["7c", "4h"]},
    "round_draw_dealer": {"card": "Qd", "discard": "3h"},
    "round_report_irregularity": {"kind": "card_face_up", "card": "7h", "position": 2,
                                  "misdealt": False},
    "round_stub": {"cards": 42},
    "round_lock_decisions": {"decisions": [{"position": 1, "decision": "bet"},
                                           {"position": 2, "decision": "fold"}]},
    "round_settle_script": {
        "game": "lunar-poker-589", "options": LUNAR_OPTIONS,
        "positions": [{"position": 1, "wagers": {"ante": 1000},
                       "cards": ["As", "Kd", "9h", "6c", "3d"],
                       "decisions": [{"decision": "bet"}]}],
        "dealer": {"cards": ["Ac", "Kh", "8d", "5s", "2h"]}},
    # --- Poker room: seats (P-HOLDEM, $4/$8, buy-ins $40.00 to $400.00)
    "seat_player": {"seat": 1, "buy_in_cents": 10000, "paid_with": "cash",
                    "player": {"name": "Avery Demo", "phone": "555-0101"}},
    "chips_add": {"seat": 1, "amount_cents": 5000, "paid_with": "cash"},
    "sit_out": {"seat": 2},
    "sit_in": {"seat": 2},
    "step_away": {"seat": 3, "covered_cents": 9200, "method": "stakes-counted"},
    "player_return": {"seat": 3, "stakes_verified": True},
    "seat_leave": {"seat": 4},
    "player_remove": {"seat": 2, "reason": "Showed hole cards to seat 3 during the hand."},
    "player_removal_acknowledge": {"removal": 14, "note": "Reviewed with surveillance."},
    "minimum_bet_raise": {"amount_cents": 600, "all_players_agreed": True},
    "jackpot_box_register": {"fund": "bad-beat", "box": "BB-07", "transparent": True,
                             "locked": True, "beside_drop_box": True},
    "jackpot_box_remove": {"fund": "bad-beat", "reason": "The lid's lock is broken."},
    # --- Poker room: hands
    "hand_start": {"deck_id": DECK_ID},
    "hand_command": {"command": HOLDEM_DEAL},
    "hand_commands": {"commands": HOLDEM_PREFLOP},
    "floor_ruling": {"ruling": "Seat 4's cards touched the muck: the hand is dead."},
    "hand_settle_script": {"rules_submission_id": RULES_ID, "button": 4,
                           "stacks": {"1": 10000, "2": 10000, "3": 10000, "4": 10000},
                           "commands": [HOLDEM_DEAL, *HOLDEM_PREFLOP]},
    # --- Poker room: time charges
    "time_charge_verify": {"period_start": "2026-11-25T06:00:00-05:00"},
    # --- Poker floor: lists and calls
    "waitlist_open": {"game": "holdem", "open_table_at": 8},
    "waitlist_configure": {"open_table_at": 10},
    "player_list": {"name": "Ann Lee", "phone": "201-555-0123", "email": ""},
    "player_delist": {"entry_id": ENTRY_ID, "reason": "Left the room."},
    "call_next": {"table_id": TABLE_ID, "seat": 9},
    "call_player": {"entry_id": ENTRY_ID, "table_id": TABLE_ID, "seat": 9,
                    "reason": "The first two asked to wait for the other table."},
    "call_seat": {"buy_in_cents": 10000, "paid_with": "cash", "stays_listed": False},
    "call_cancel": {"reason": "The seat is held for a player returning from a break."},
    # --- Poker floor: must-move games, table changes, tables by lot (the list's id in
    # the URL; the Hold'em tables of the demo)
    "must_move_set": {"main_table_id": TABLE_ID,
                      "feeder_table_ids": [PLACEHOLDER_PREFIX + "000000000011",
                                           PLACEHOLDER_PREFIX + "000000000012"]},
    "must_move": {"to_seat": 4},
    "table_change_request": {"table_id": TABLE_ID, "seat": 6},
    "table_open_by_lot": {"table_id": PLACEHOLDER_PREFIX + "000000000011"},
    "table_break_by_lot": {"table_id": PLACEHOLDER_PREFIX + "000000000012"},
    # --- Jackpots
    "fund_discontinue": {"transfer_to": "bad-beat-2"},
    "bad_beat_verify": {"hand_id": HAND_ID},
    "bad_beat_reject": {"hand_id": HAND_ID,
                        "reason": "Seat 1's four of a kind used one hole card only."},
    "bad_beat_pay": {"hand_id": HAND_ID, "where": "table", "payees": [
        {"seat": 1, "name": "Ann Lee", "identification": "PA DL 1111"},
        {"seat": 2, "name": "Bo Kim", "identification": "PA DL 2222"},
        {"seat": 3, "name": "Cy Ray", "identification": "PA DL 3333"},
        {"seat": 4, "name": "Di Fox", "identification": "PA DL 4444"}]},
    "high_hand_record": {"table_id": TABLE_ID, "seat": 2,
                         "cards": ["As", "Ts", "Ks", "Qs", "Js"],
                         "player": {"name": "Bo Kim", "phone": "555-0102"},
                         "dealer": "demo_dealer", "hand_id": HAND_ID},
    # a period named as the answers name it: its local start with the property's offset
    # (8 PM on the Nov 25 gaming day, New York)
    "high_hand_period_close": {"period": "2026-11-25T20:00:00-05:00"},
    "high_hand_pay": {"period": "2026-11-25T20:00:00-05:00", "slip": 1, "name": "Bo Kim",
                      "identification": "PA DL 2222"},
    "count_open": {"place": "cage"},
    "count_account": {"count_id": COUNT_ID},
    "count_carry": {"count_id": COUNT_ID},
    "count_box": {"count_id": COUNT_ID, "table_id": TABLE_ID, "counted_cents": 2400},
    "count_witness": {"count_id": COUNT_ID},
    "count_verify": {"count_id": COUNT_ID, "counted_cents": 2400},
    "count_variance_explain": {
        "count_id": COUNT_ID,
        "explanation": "A $1.00 chip was found under the box's lid after the count."},
    "count_variance_sign_off": {"count_id": COUNT_ID},
    # --- Finance (a table day of the demo; pieces by denomination in cents)
    "inventory_record": {"slip": "opener", "pieces": {"2500": 40, "500": 100}},
    "inventory_sign": {"slip": "opener"},
    "chips_sell": {"amount_cents": 20000},
    "slip_request": {"kind": "fill", "pieces": {"10000": 5}},
    "slip_prepare": {"slip_id": SLIP_ID},
    "slip_carry": {"slip_id": SLIP_ID},
    "slip_complete": {"slip_id": SLIP_ID},
    "slip_void": {"slip_id": SLIP_ID, "reason": "Requested twice; this one was not filled."},
    "drop_remove": {"gaming_day": GAMING_DAY},
    "drop_count": {"gaming_day": GAMING_DAY, "cash": {"10000": 1, "5000": 1, "2000": 2}},
    "drop_count_sign": {"gaming_day": GAMING_DAY},
    "drop_accept": {"gaming_day": GAMING_DAY},
    "gaming_day_close": {"gaming_day": GAMING_DAY, "with_open_items": False},
    "variance_explain": {
        "explanation": "A $50 note was found in the count room after the count; re-counted."},
}
