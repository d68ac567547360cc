"""The API reference's summaries: for each operation (by operationId) one whole sentence
saying what it does, in the words of the people who do it. A declared command's summary
is in its declaration (``<app>/commands.py``, casino.declared); this table holds the
reads' and the logins'. The Swagger UI lists these beside the URLs; the rule citations and
the finer points stay in the description (the view's docstring). An operation not listed here falls back to its view's own summary,
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
    "api_v1_me_retrieve": "Show who you are logged in as and which roles you hold.",
    # --- Staff and roles
    "api_v1_staff_list": "List the staff of this property with their roles.",
    "api_v1_staff_retrieve": "Show one member of staff and their roles.",
    "api_v1_role_grants_list": "List the role requests of this property.",
    # --- Tables
    "api_v1_tables_list": "List the gaming tables of this property.",
    "api_v1_tables_retrieve": "Show one gaming table.",
    "api_v1_tables_results_retrieve": "Show a house-banked table's results for a gaming day.",
    "api_v1_tables_signage_retrieve": "Show what must be posted on the table sign.",
    # --- Rules Submissions
    "api_v1_rules_submissions_list": "List the Rules Submission versions of this property.",
    "api_v1_rules_submissions_retrieve": "Show one Rules Submission version.",
    # --- Decks
    "api_v1_decks_list": "List the decks of this property.",
    "api_v1_decks_retrieve": "Show one deck and where it stands.",
    "api_v1_decks_inventory_retrieve": "Show a gaming day's card inventory report.",
    # --- House-banked rounds
    "api_v1_rounds_retrieve": "Show one round.",
    "round_play": "Show a house-banked round as it stands, for the terminal to pick it up.",
    "round_reconstruction": "Replay a house-banked round step by step, with every payout.",
    # --- Poker room: seats
    "seats_list": "Show a poker table's seats and its state between hands.",
    # --- Poker room: hands
    "hand_detail": "Show a hand as the dealer terminal sees it.",
    "hand_history": "Show a hand's whole record.",
    "hand_steps": "Show a hand step by step, with who recorded each step.",
    "hand_phh": "Download a finished hand as a PHH hand history.",
    "table_phh": "Download a poker table's finished hands of a gaming day as PHH.",
    # --- Poker room: rake and time charges
    "rake_ledger": "Show a poker table's rake ledger for a gaming day.",
    "time_charges_list": "List a poker table's time-charge periods for a gaming day.",
    # --- Jackpots: funds
    "jackpot_funds_list": "List the jackpot funds and each table's payout box.",
    "jackpot_fund_ledger": "Show a jackpot fund's contributions by table and gaming day.",
    "jackpot_fund_report": "Show a jackpot fund's ledger report by gaming day.",
    "jackpot_display_checks_list": "List the daily checks of a fund's displayed amount.",
    # --- Jackpots: Bad Beat
    "bad_beat_hits_list": "List a fund's Bad Beat hands and where each stands.",
    # --- Jackpots: High Hand
    "high_hand_slips_list": "List a fund's High Hand Tracking Slips, period by period.",
    # --- Jackpots: box counts
    "jackpot_counts_list": "List a fund's payout-box counts, newest first.",
    # --- Finance: gaming days
    "finance_gaming_day": "Show a gaming day's reconciliation.",
    "finance_table_day": "Show a table's gaming day: tray slips, chip sales, fills, credits, drop.",
    "finance_table_day_behind": "Show the rounds, hands and steps behind a table's day.",
    "finance_exceptions": "List the exceptions of a span of gaming days.",
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
