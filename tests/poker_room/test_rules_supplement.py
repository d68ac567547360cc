"""The Rules Submission's own irregularity procedures (§ 637a.18(s), issue 27 item 1): text
recorded with the version and shown to the floor beside the table's seats."""

from __future__ import annotations

import re

import pytest

from casino.domain.errors import DomainError
from casino.eventstore.store import head, read_stream
from tables.domain.rules_options import example_options
from tables.selectors import rules_in_force
from poker_room.services import hands
from tables.services import rules
from tests.console.conftest import console_client  # noqa: F401  (the signed-in client)
from tests.poker_room._play import _next_deck, poker_table_ready

pytestmark = pytest.mark.postgres

PROCEDURES = ("A card exposed by the dealer before the flop is shown to all & replaced.\n"
              "A misdeal is called by the floorperson <only>.")


def _text(response) -> str:  # noqa: ANN001
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.mark.regulation("637a.18(s)")
def test_procedures_recorded_on_the_version_and_shown_on_the_floor(
        crew, poker_table, console_client) -> None:
    """§ 637a.18(s): the house's supplement, as written, on the version in effect; the
    floor and the table's page show it, each line a paragraph, escaped."""
    table = poker_table("holdem", irregularity_procedures=f"  {PROCEDURES}\n")["table"]
    in_force = rules_in_force(table.property, "holdem")
    assert in_force.options["irregularity_procedures"] == PROCEDURES  # trimmed, kept
    drafted = read_stream(in_force.stream_id)[0]
    assert drafted.data["options"]["irregularity_procedures"] == PROCEDURES
    for url in ("/console/poker/", f"/console/tables/{table.pk}/"):
        r = console_client("floorperson").get(url)
        assert r.status_code == 200
        html = r.content.decode()
        assert "House irregularity procedures (637a.18(s))" in html
        assert "<p>A misdeal is called by the floorperson &lt;only&gt;.</p>" in html
        assert "shown to all &amp; replaced." in _text(r)


@pytest.mark.regulation("637a.18(s)")
def test_a_hand_records_its_rules_without_the_supplement(
        crew, poker_table, console_client) -> None:
    """§ 637a.18(s): the supplement is for the floor, not the deal: a hand started under
    a version with one records every other option of that version and not the text; the
    floor still reads it from the version in force."""
    table = poker_table("holdem", irregularity_procedures=PROCEDURES)["table"]
    poker_table_ready(table, crew, players=2)
    ph = hands.hand_start(actor=crew["dealer"], table_id=table.pk,
                          deck_id=_next_deck(table), deck=list(range(52)))
    started = next(e for e in read_stream(f"round-{ph.round_id}")
                   if e.type == "HandStarted").data["rules"]
    options = dict(rules_in_force(table.property, "holdem").options)
    assert options.pop("irregularity_procedures") == PROCEDURES
    assert started == {"game": "holdem", **options}
    html = console_client("floorperson").get("/console/poker/").content.decode()
    assert "<p>A misdeal is called by the floorperson &lt;only&gt;.</p>" in html


@pytest.mark.regulation("637a.18(s)")
def test_a_table_without_a_supplement_shows_none(crew, poker_table, console_client) -> None:
    """§ 637a.18(s) "may": a submission without one shows no such block."""
    poker_table("holdem")
    html = console_client("floorperson").get("/console/poker/").content.decode()
    assert "House irregularity procedures" not in html


@pytest.mark.parametrize(("value", "code"), [
    ("x" * 4001, "option_out_of_range"),
    (["a card exposed"], "invalid_option_type"),
    ("   ", "invalid_option_type"),
])
@pytest.mark.regulation("637a.18(s)")
def test_procedures_too_long_or_not_text_are_refused(crew, value, code) -> None:
    """§ 637a.18(s): text of at most 4,000 characters; anything else refused by name,
    nothing recorded."""
    before = head()
    with pytest.raises(DomainError) as err:
        rules.rules_draft(actor=crew["compliance"], game="omaha-high",
                          options={**example_options("omaha-high"),
                                   "irregularity_procedures": value})
    assert (err.value.code, err.value.field) == (code, "options.irregularity_procedures")
    assert head() == before
