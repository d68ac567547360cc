"""The event log browser, a stream's history and the chain's state (issue 23 item 4) for
compliance: scoped to the property as /api/v1/events/ is, filtered by stream, type, person,
table and gaming day in a constant number of queries, each event as its sentence."""

from __future__ import annotations

from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.eventstore.store import NewEvent, append, register_stream_type
from tests.conftest import suspended_append_only_triggers

register_stream_type("console_test")


def _events(n: int, *, licence: str, actor: str = "dana", table: str = "t-1",
            day: str = "2026-11-24", stream: str = "s-1") -> list:
    out = []
    for i in range(n):
        out += append(("console_test", stream), i, [NewEvent("TwoFactorReset", {"username": "pat", "reason": "lost phone"})],
                      {"actor": actor, "role": "dealer", "property": licence, "table": table,
                       "gaming_day": day})
    return out


@pytest.fixture
def officer(console_client):  # noqa: ANN001, ANN201
    return console_client("compliance")


def test_compliance_sees_the_log_in_sentences(officer, demo_property) -> None:  # noqa: ANN001
    _events(2, licence=demo_property.licence_number)
    html = unescape(officer.get("/console/events/?stream_id=s-1").content.decode())
    assert html.count("dana (dealer) reset pat's second factor") == 2
    assert 'href="/console/events/stream/s-1/"' in html


def test_a_dealer_is_refused_and_not_shown_the_nav_item(console_client) -> None:  # noqa: ANN001
    dealer = console_client("dealer")
    assert dealer.get("/console/events/").status_code == 403
    assert dealer.get("/console/events/verification/").status_code == 403
    home = dealer.get("/console/")
    assert home.status_code == 200
    assert "/console/events/" not in home.content.decode()


def test_the_nav_shows_the_event_log_to_compliance(officer) -> None:  # noqa: ANN001
    assert 'href="/console/events/"' in officer.get("/console/").content.decode()


def test_another_propertys_events_are_never_shown(officer, demo_property) -> None:  # noqa: ANN001
    from casino.services import property_register

    other = property_register(licence_number="PA-OTHER-9", name="Other", system="test")
    _events(1, licence=other.licence_number, actor="olga", stream="other-1")
    _events(1, licence=demo_property.licence_number, actor="dana")
    html = officer.get("/console/events/").content.decode()
    assert "dana (dealer)" in html and "olga" not in html
    # a stream of another property is answered as one that does not exist
    assert officer.get("/console/events/stream/other-1/").status_code == 404


@pytest.mark.parametrize("query, expected", [
    ("stream_id=s-2", {"sam"}), ("type=TwoFactorReset", {"dana", "sam", "kim", "lee"}),
    ("person=kim", {"kim"}), ("table=t-9", {"lee"}), ("gaming_day=2026-11-23", {"sam"}),
])
def test_each_filter_narrows_the_log(officer, demo_property, query, expected) -> None:  # noqa: ANN001
    lic = demo_property.licence_number
    _events(1, licence=lic, actor="dana")
    _events(1, licence=lic, actor="sam", stream="s-2", day="2026-11-23")
    _events(1, licence=lic, actor="kim", stream="s-3")
    _events(1, licence=lic, actor="lee", stream="s-4", table="t-9")
    html = officer.get(f"/console/events/?{query}").content.decode()
    shown = {name for name in ("dana", "sam", "kim", "lee") if f"{name} (dealer)" in html}
    assert shown == expected


def test_a_bad_gaming_day_is_a_sentence_not_an_error(officer) -> None:  # noqa: ANN001
    r = officer.get("/console/events/?gaming_day=yesterday")
    assert r.status_code == 400
    assert "Give the gaming day as a date" in r.content.decode()


def test_htmx_gets_the_results_only(officer, demo_property) -> None:  # noqa: ANN001
    _events(1, licence=demo_property.licence_number)
    html = officer.get("/console/events/", HTTP_HX_REQUEST="true").content.decode()
    assert '<section id="event-results"' in html and "<html" not in html


def test_the_number_of_queries_does_not_grow_with_the_events(officer, demo_property) -> None:  # noqa: ANN001
    lic = demo_property.licence_number

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert officer.get("/console/events/?type=TwoFactorReset").status_code == 200
        return len(ctx.captured_queries)

    _events(2, licence=lic)
    few = count()
    _events(40, licence=lic, stream="s-many")
    assert count() == few


def test_paging_goes_on_from_the_last_position(officer, demo_property) -> None:  # noqa: ANN001
    from console.event_log_pages import PAGE_SIZE

    rows = _events(PAGE_SIZE + 3, licence=demo_property.licence_number)
    html = officer.get("/console/events/?stream_id=s-1").content.decode()
    assert f"from_position={rows[PAGE_SIZE - 1].position + 1}" in html
    later = unescape(officer.get(f"/console/events/?stream_id=s-1&from_position="
                                 f"{rows[PAGE_SIZE - 1].position + 1}").content.decode())
    assert later.count("reset pat's second factor") == 3


def test_verification_runs_on_post_and_shows_a_tampered_chain_as_bad(officer, demo_property) -> None:  # noqa: ANN001
    rows = _events(4, licence=demo_property.licence_number)
    good = officer.post("/console/events/verification/").content.decode()
    assert "Good</strong>: every chain intact" in good or "the log does not verify" in good
    chain_ok_before = "Chain broken at" not in good
    assert chain_ok_before
    target = rows[2].position
    # as the database owner could (tests/casino/test_verify_events.py): lift the trigger,
    # edit one event, put it back
    with suspended_append_only_triggers(), connection.cursor() as cur:
        # the JSON as text: PostgreSQL casts it to jsonb itself, SQLite stores it as is
        cur.execute("UPDATE casino_event SET data = %s WHERE position = %s",
                    ['{"x": 1}', target])
    bad = officer.post("/console/events/verification/").content.decode()
    assert "Bad</strong>: the log does not verify" in bad
    assert f"position {target}" in bad
    # the last result is shown to the next GET, and the GET appended nothing
    again = officer.get("/console/events/verification/").content.decode()
    assert f"position {target}" in again and "Last verified" in again


@pytest.mark.parametrize("query", ["type=Type%00", "person=da%00na", "table=t%00", "stream_id=s%00"])
def test_a_nul_in_a_filter_is_a_sentence_not_an_error(officer, query) -> None:  # noqa: ANN001
    # PostgreSQL's text holds no NUL: the filter is refused in words before any query
    r = officer.get(f"/console/events/?{query}")
    assert r.status_code == 400
    assert "cannot hold" in unescape(r.content.decode())


def test_a_nul_in_a_stream_id_is_no_such_stream(officer) -> None:  # noqa: ANN001
    assert officer.get("/console/events/stream/s%00/").status_code == 404
