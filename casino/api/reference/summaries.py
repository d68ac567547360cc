"""The API reference's summaries: for each operation (by operationId) one whole sentence
saying what it does, in the words of the people who do it. The Swagger UI lists these
beside the URLs; the rule citations and the finer points stay in the description (the
view's docstring). An operation not listed here falls back to its view's own summary,
else the first sentence of its description (:func:`first_sentence`).

Pure data and one pure function.
"""

from __future__ import annotations

import re

#: A sentence ends at a period followed by a space or the end — not inside a citation
#: ("589.4(a)") nor a parenthesis. Cutting at the first "." is what once left
#: "Record a deck received at a table (589" as a summary.
_SENTENCE_END = re.compile(r"\.(?=\s|$)")


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` on one line, with its period: the text up to the
    first period that ends a sentence outside any parenthesis."""
    flat = " ".join(text.split())
    depth = 0
    for index, char in enumerate(flat):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and _SENTENCE_END.match(flat, index):
            return flat[:index + 1]
    return flat if not flat or flat.endswith(".") else flat + "."


SUMMARIES: dict[str, str] = {
    # --- Logins and tokens
    "auth_token": "Log in with a username and password and get an API token.",
    "auth_logout": "Log out: revoke the token this request was made with.",
    "auth_logout_all": "Log out everywhere: revoke every one of your tokens.",
    "login_unlock": "Lift a lock-out of an account or an address before it ends.",
    "api_v1_me_retrieve": "Show who you are logged in as and which roles you hold.",
    "password_change": "Change your own password.",
    "staff_tokens_revoke": "Revoke every API token of a member of staff.",
    # --- Staff and roles
    "api_v1_staff_list": "List the staff of this property with their roles.",
    "staff_enrol": "Enrol a new member of staff.",
    "api_v1_staff_retrieve": "Show one member of staff and their roles.",
    "staff_credential_number_change": "Record a member of staff's new Board credential number.",
    "staff_deactivate": "Deactivate a member of staff's login.",
    "staff_password_reset": "Set another member of staff's password.",
    "role_grant_request": "Ask for a role for a member of staff, for a second person to approve.",
    "role_revoke": "Take a role away from a member of staff, with the reason.",
    "api_v1_role_grants_list": "List the role requests of this property.",
    "role_grant_approve": "Approve a role request as the second person.",
    "role_grant_reject": "Turn a role request down, with the reason.",
    # --- Tables
    "api_v1_tables_list": "List the gaming tables of this property.",
    "table_configure_post": "Configure a new gaming table (it starts closed).",
    "api_v1_tables_retrieve": "Show one gaming table.",
    "table_reconfigure_patch": "Change a closed table's name, positions or equipment.",
    "table_assign_dealer": "Assign the dealer who deals at a table.",
    "table_open": "Open a table for gaming under the Rules Submission in effect.",
    "table_close": "Close a table.",
    "table_equipment": "Record a shuffler or shoe out of order, or back in order.",
    "api_v1_tables_results_retrieve": "Show a house-banked table's results for a gaming day.",
    "api_v1_tables_signage_retrieve": "Show what must be posted on the table sign.",
    # --- Rules Submissions
    "api_v1_rules_submissions_list": "List the Rules Submission versions of this property.",
    "rules_draft_post": "Write a new draft of a game's Rules Submission.",
    "api_v1_rules_submissions_retrieve": "Show one Rules Submission version.",
    "rules_revise": "Edit a draft Rules Submission.",
    "rules_submit": "Submit a draft Rules Submission for approval.",
    "rules_return": "Send a submitted Rules Submission back to draft, with the reason.",
    "rules_approve": "Approve a submitted Rules Submission as a second compliance officer.",
    "rules_withdraw": "Withdraw a Rules Submission version, or ask to withdraw the one in effect.",
    "rules_withdraw_confirm": "Confirm the withdrawal of the Rules Submission in effect.",
    "rules_withdraw_cancel": "Cancel a requested withdrawal; the version stays in effect.",
    # --- Decks
    "api_v1_decks_list": "List the decks of this property.",
    "deck_receive_post": "Record a deck received at a table.",
    "api_v1_decks_retrieve": "Show one deck and where it stands.",
    "api_v1_decks_inventory_retrieve": "Show a gaming day's card inventory report.",
    "deck_inspect": "Record the dealer's inspection of a deck, with any defects.",
    "deck_inspection_verify": "Verify a deck's inspection as the second person.",
    "deck_spread": "Spread a deck face up for the players to see.",
    "deck_wash": "Wash and stack a deck.",
    "deck_shuffle": "Shuffle a deck by hand or in the automated shuffler.",
    "deck_cut": "Cut a deck with the cover card.",
    "deck_recut": "Have a deck cut again before any card is dealt.",
    "deck_put_in_play": "Put a deck in play.",
    "deck_count": "Record the dealer's count of a deck.",
    "deck_shuffler_count": "Record the counting shuffler's count of a deck.",
    "deck_count_verify": "Sign a deck's last count as the floorperson.",
    "deck_remove": "Take a deck out of play, with the reason.",
    "deck_cancel": "Cancel a removed deck.",
    "deck_destroy": "Destroy a removed deck.",
    # --- House-banked rounds
    "round_open": "Open a house-banked round at a table with a deck in play.",
    "api_v1_rounds_retrieve": "Show one round.",
    "round_play": "Show a house-banked round as it stands, for the terminal to pick it up.",
    "round_place_wager": "Place a player's wager before no more bets.",
    "round_place_wagers": "Place every wager the terminal holds at once, optionally closing bets.",
    "round_withdraw_wager": "Withdraw a player's wager before no more bets.",
    "round_no_more_bets": "Call no more bets.",
    "round_deal": "Record the cards dealt to each position and the dealer.",
    "round_deal_from_shuffle": "Deal the round from a deck the server shuffles.",
    "round_decide": "Record a player's decision.",
    "round_draw": "Record a Lunar Poker player's sixth card or exchange.",
    "round_set_hands": "Record how a Hi-Lo player sets the high and low hands.",
    "round_draw_dealer": "Record the dealer's replacement card after a player forces it.",
    "round_report_irregularity": "Report an irregularity or abandoned wagers in a round.",
    "round_lock_decisions": "Lock in every decision and settle the round's wagers.",
    "round_close": "Close a round.",
    "round_reconstruction": "Replay a house-banked round step by step, with every payout.",
    "round_settle_script": "Work out a disputed house-banked round without recording anything.",
    # --- Poker room: seats
    "seats_list": "Show a poker table's seats and its state between hands.",
    "seat_player": "Seat a player and record the buy-in.",
    "chips_add": "Add chips to a player's table stakes between hands.",
    "sit_out": "Sit a player out: still seated, not dealt in.",
    "sit_in": "Deal a player who sat out back in from the next hand.",
    "step_away": "Record the table stakes of a player stepping away from the seat.",
    "player_return": "Record a player's return to the seat, the stakes checked.",
    "seat_leave": "Record a player leaving the table with the table stakes.",
    "player_remove": "Remove a player from the game for helping another player.",
    "minimum_bet_raise": "Raise the table's minimum bet with every player's agreement.",
    # --- Poker room: hands
    "hand_start": "Start a poker hand at a table.",
    "hand_detail": "Show a hand as the dealer terminal sees it.",
    "hand_command": "Record one dealer action on a hand.",
    "hand_commands": "Record several dealer actions on a hand, all or nothing.",
    "floor_ruling": "Record a floor ruling on a hand.",
    "hand_history": "Show a hand's whole record.",
    "hand_steps": "Show a hand step by step, with who recorded each step.",
    "hand_phh": "Download a finished hand as a PHH hand history.",
    "table_phh": "Download a poker table's finished hands of a gaming day as PHH.",
    "hand_settle_script": "Work out a disputed poker hand without recording anything.",
    # --- Poker room: rake and time charges
    "rake_ledger": "Show a poker table's rake ledger for a gaming day.",
    "time_charges_list": "List a poker table's time-charge periods for a gaming day.",
    "time_charge_verify": "Verify a period's time charges as the floorperson.",
    # --- Jackpots: funds
    "jackpot_funds_list": "List the jackpot funds and each table's payout box.",
    "jackpot_fund_ledger": "Show a jackpot fund's contributions by table and gaming day.",
    "jackpot_fund_report": "Show a jackpot fund's ledger report by gaming day.",
    "jackpot_display_checks_list": "List the daily checks of a fund's displayed amount.",
    "display_adjust": "Start adjusting a fund's displayed amount to the official record.",
    "display_witness": "Sign for a display adjustment made in your presence.",
    "fund_discontinue": "Propose discontinuing a jackpot fund.",
    "fund_discontinue_approve": "Approve discontinuing a jackpot fund as compliance.",
    # --- Jackpots: Bad Beat
    "bad_beat_hits_list": "List a fund's Bad Beat hands and where each stands.",
    "bad_beat_verify": "Verify a hand held as a Bad Beat.",
    "bad_beat_reject": "Reject a hand held as a Bad Beat, with the reason.",
    "bad_beat_pay": "Pay a verified Bad Beat to each player with a share.",
    # --- Jackpots: High Hand
    "high_hand_slips_list": "List a fund's High Hand Tracking Slips, period by period.",
    "high_hand_record": "Record a qualifying hand on the High Hand Tracking Slip.",
    "high_hand_period_close": "Close an ended High Hand period and award its amount.",
    "high_hand_pay": "Pay a High Hand award at the cage.",
    # --- Jackpots: box counts
    "jackpot_counts_list": "List a fund's payout-box counts, newest first.",
    "count_open": "Open a count of a fund's payout boxes.",
    "count_account": "Account for every locked box going to the cage.",
    "count_carry": "Carry the payout boxes to the cage as security.",
    "count_box": "Record the count of one payout box.",
    "count_witness": "Sign a table count of payout boxes as its witness.",
    "count_verify": "Verify a payout-box count at the cage.",
    "count_variance_explain": "Explain a payout-box count's variance.",
    "count_variance_sign_off": "Sign off an explained payout-box count variance.",
    # --- Finance: chips and slips
    "inventory_record": "Record the chip tray's opening or closing inventory.",
    "inventory_sign": "Sign the chip tray's inventory slip as the floorperson.",
    "chips_sell": "Record a chip sale for cash at the table.",
    "slip_request": "Request a fill or a credit for a table.",
    "slip_prepare": "Prepare a fill or credit slip at the cage.",
    "slip_carry": "Sign for carrying a fill or credit to the table.",
    "slip_complete": "Sign at the table that a fill or credit is made.",
    "slip_void": "Void a fill or credit slip not used, with the reason.",
    # --- Finance: drop
    "drop_remove": "Remove a table's drop box at the end of the gaming day.",
    "drop_count": "Enter the count of a table's drop box.",
    "drop_count_sign": "Sign a drop count as the second member of the count team.",
    "drop_accept": "Accept a signed drop count at the cage.",
    # --- Finance: gaming days
    "finance_gaming_day": "Show a gaming day's reconciliation.",
    "gaming_day_close": "Close a gaming day that has ended.",
    "finance_table_day": "Show a table's gaming day: tray slips, chip sales, fills, credits, drop.",
    "finance_table_day_behind": "Show the rounds, hands and steps behind a table's day.",
    "finance_exceptions": "List the exceptions of a span of gaming days.",
    "variance_explain": "Explain a finance exception.",
    "variance_sign_off": "Sign off an explained finance exception as the second person.",
    # --- Finance: reports
    "finance_report": "Show a finance report for a span of gaming days.",
    # --- Event log
    "api_v1_events_retrieve": "Read the event log in order.",
    "api_v1_streams_events_retrieve": "Read every event of one stream.",
    "api_v1_tables_events_retrieve": "Read the events of one table.",
    "api_v1_decks_events_retrieve": "Read the events of one deck.",
    "api_v1_events_chain_retrieve": "Check the event log's hash chain for a broken link.",
    "api_v1_events_digests_retrieve": "List the signed digests of the event log.",
    "api_v1_events_digests_create": "Sign a digest of the event log's head now.",
    # --- Health
    "health_retrieve": "Check that the database and the broker answer.",
}
