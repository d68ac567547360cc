"""The finance reports' CSV headers, written out by hand for the tests to compare."""

from __future__ import annotations

#: each report's CSV header, written out from its columns by hand: the words, and a money
#: column's unit "($)" (a percent column's words already say "%")
CSV_HEADERS = {
    "master-game": [
        "Table", "Game", "Gaming day", "Opener ($)", "Closer ($)", "Fills ($)",
        "Credits ($)", "Drop ($)", "Win ($)", "Hold %",
        "Rake (percentage + incremental) ($)", "Time charges ($)", "Status",
        "Adjustment to win since the close ($)", "Adjustments since the close"],
    "statistical": [
        "Period", "Gaming day", "Table", "Game", "Drop ($)", "Status", "Win ($)", "Hold %",
        "Banded win ($)", "Band low ($)", "Band high ($)", "Flag"],
    "poker-revenue": [
        "Table", "Game", "Gaming day", "Hands", "Percentage rake ($)",
        "Incremental rake ($)", "Time charges (verified) ($)",
        "Poker revenue (to the drop box) ($)", "Time charges pending verification ($)"],
    "jackpot-funds": [
        "Fund", "Kind", "Gaming day", "Opening balance ($)", "Contributions ($)",
        "Counted to the cage ($)", "Payouts ($)", "Transfers in ($)", "Transfers out ($)",
        "Closing balance ($)", "Displayed at the day's end ($)", "Tables contributing"],
    "exceptions": [
        "Kind", "Gaming day", "Table", "Figure", "Expected ($)", "Counted ($)",
        "Variance ($)", "State", "Explanation", "Explained by", "Explained at",
        "Signed off by", "Signed off at", "After the close"],
}
