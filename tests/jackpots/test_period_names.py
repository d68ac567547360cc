"""A High Hand period as the API names it (issue 22): its local start with the property's
offset, never a naive local string; the inputs take that name or the bare local start
(§ 637a.16(b)(1): periods on the property's clock)."""

from __future__ import annotations

from jackpots.domain.periods import period_key, period_name

NY = "America/New_York"


def test_a_period_is_named_by_its_local_start_with_the_offset() -> None:
    """§ 637a.16(b)(1): 8 p.m. on Nov 25, 2026 in New York is EST, five hours behind UTC."""
    assert period_name("2026-11-25T20:00", time_zone=NY) == "2026-11-25T20:00:00-05:00"


def test_a_start_lived_twice_is_named_by_its_first_instant() -> None:
    """Nov 1, 2026, clocks go back at 2 a.m. EDT: 1:00 is lived first at -04:00."""
    assert period_name("2026-11-01T01:00", time_zone=NY) == "2026-11-01T01:00:00-04:00"


def test_an_input_names_the_period_either_way() -> None:
    """The answer's name, the same instant in UTC, or the bare local start: one key."""
    for given in ("2026-11-25T20:00:00-05:00", "2026-11-26T01:00:00+00:00",
                  "2026-11-25T20:00"):
        assert period_key(given, time_zone=NY) == "2026-11-25T20:00"
    assert period_key("2026-11-01T01:00:00-05:00", time_zone=NY) == "2026-11-01T01:00"
    assert period_key("yesterday", time_zone=NY) == "yesterday"
