"""What everyone but the floor sees of a listed player (review #1): the first letter of
each word with a period, whatever the case the name was typed in; initials given as such
are kept. No database."""

from __future__ import annotations

import pytest

from poker_floor.projections import initials


@pytest.mark.parametrize(("name", "shown"), [
    ("John Smith", "J.S."),
    ("JOHN SMITH", "J.S."),
    ("BOB LEE", "B.L."),
    ("JOHN", "J."),
    ("Mary-Jane O'Neil", "M.J.O."),
    ("  ann   lee ", "A.L."),
])
def test_a_name_is_shown_as_its_initials(name: str, shown: str) -> None:
    assert initials(name) == shown


@pytest.mark.parametrize(("given", "shown"), [
    ("JS", "JS"),
    ("J.S.", "J.S."),
    ("J. S.", "J.S."),
    ("J.F.K.", "J.F.K."),
])
def test_initials_given_as_such_are_kept(given: str, shown: str) -> None:
    assert initials(given) == shown


def test_no_name_has_no_initials() -> None:
    assert initials("") == ""
