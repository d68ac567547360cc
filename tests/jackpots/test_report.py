"""The fund ledger report (§ 637a.15(e), § 637a.16(e): the finance department's official
record), as JSON, CSV and a printable page; figures worked by hand from a small day."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from casino.eventstore import projections
from jackpots import services
from tests.jackpots._hands import play_bad_beat, play_hand, seat_four

pytestmark = pytest.mark.django_db
IDS = [{"seat": s, "name": f"Player {s}", "identification": f"PA DL {s}"} for s in (1, 2, 3, 4)]


@pytest.mark.regulation("637a.15(e)")
def test_a_day_of_the_bad_beat_fund(crew, poker_table: Callable, as_actor: Callable,
                                    staff: Callable) -> None:
    """Two hands today: the first pays $1 into each fund (a $24 pot), the Bad Beat hand
    another $1 (§ 637a.15(c)); the Bad Beat is verified and its $2 paid (§ 637a.15(g)).
    The day: opening $0, contributions $2, payouts $2, closing $0, one table."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    play_hand(dealer, setup["table"])
    h = play_bad_beat(dealer, setup["table"])
    projections.catch_up("jackpot_funds")
    supervisor, finance = staff("poker_shift_supervisor"), staff("finance")
    services.bad_beat_verify(actor=supervisor, fund="bad-beat", hand_id=h["round_id"])
    services.bad_beat_pay(actor=finance, fund="bad-beat", hand_id=h["round_id"], payees=IDS)
    day = crew["dealer"].gaming_day().isoformat()
    client = as_actor(finance)
    r = client.get(f"/api/v1/jackpot-funds/bad-beat/report/?first={day}")
    assert r.status_code == 200, r.json()
    assert r.json()["rows"] == [{
        "gaming_day": day, "opening_cents": 0, "contributions_cents": 200,
        "transfers_in_cents": 0, "payouts_cents": 200, "transfers_out_cents": 0,
        "closing_cents": 0, "counted_cents": 0, "tables": 1}]
    r = client.get(f"/api/v1/jackpot-funds/bad-beat/report/?first={day}&as=csv")
    assert r["Content-Type"].startswith("text/csv")
    # the CSV a person reads (issue 22): words with the unit, dollars to the cent; text
    # quoted, figures bare (issue 35: no cell a formula)
    assert r.content.decode().splitlines() == [
        '"Gaming day","Opening ($)","Contributions ($)","Transfers in ($)","Payouts ($)",'
        '"Transfers out ($)","Closing ($)","Counted to the cage ($)","Tables contributing"',
        f'"{day}",0.00,2.00,0.00,2.00,0.00,0.00,0.00,1']
    page = Client()
    page.force_login(get_user_model().objects.get(pk=finance.user_id))
    html = page.get(f"/jackpots/report/bad-beat/?first={day}")
    assert html.status_code == 200 and "Fund ledger: bad-beat" in html.content.decode()
    assert page.get("/jackpots/report/bad-beat/?first=yesterday").status_code == 400
    denied = Client()
    denied.force_login(get_user_model().objects.get(pk=crew["dealer"].user_id))
    assert denied.get(f"/jackpots/report/bad-beat/?first={day}").status_code == 403


def test_the_reference_declares_both_shapes_of_the_report(
        crew, poker_table: Callable, as_actor: Callable, staff: Callable) -> None:
    """§ 637a.15(e), § 637a.16(e): the fund's ledger by gaming day, or with ``by=period``
    a High Hand fund's ledger by qualifying period (§ 637a.16(g)-(i)): the API reference
    declares the answer as one of the two, and each answer has exactly the fields of the
    shape it is (the reference listed only the first)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    ok = schema["paths"]["/api/v1/jackpot-funds/{name}/report/"]["get"]["responses"]["200"]
    union = ok["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    shapes = [ref["$ref"].rsplit("/", 1)[1]
              for ref in schema["components"]["schemas"][union]["oneOf"]]
    assert shapes == ["ReportOut", "PeriodReportOut"]
    fields = {name: set(schema["components"]["schemas"][name]["properties"])
              for name in shapes}
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    seat_four(dealer, setup["table"])
    play_hand(dealer, setup["table"])  # its contribution opens the high-hand fund
    projections.catch_up("jackpot_funds")
    client = as_actor(staff("finance"))
    by_day = client.get("/api/v1/jackpot-funds/high-hand/report/").json()
    by_period = client.get("/api/v1/jackpot-funds/high-hand/report/?by=period").json()
    assert (set(by_day), set(by_period)) == (fields["ReportOut"], fields["PeriodReportOut"])
    assert fields["ReportOut"] != fields["PeriodReportOut"]
