"""The tables API end to end, as a new user would drive it from /api/docs/."""

from __future__ import annotations

from typing import Any

import pytest

from casino.eventstore.store import head
from tables.domain.rules_options import example_options
from tests.tables._api import ok as _ok
from tests.tables._api import problem as _problem

pytestmark = pytest.mark.django_db
V1 = "/api/v1"


@pytest.fixture
def team(api_as: Any) -> dict[str, Any]:
    return {"admin": api_as("admin"), "compliance": api_as("compliance"),
            "approver": api_as("compliance"), "floor": api_as("floorperson"),
            "dealer": api_as("dealer"), "security": api_as("security")}


def _file_and_approve(team: dict[str, Any], game: str, **changes: Any) -> dict:
    rs = _ok(team["compliance"].post(f"{V1}/rules-submissions/", {
        "game": game, "options": {**example_options(game), **changes}}, format="json"), 201)
    _ok(team["compliance"].post(f"{V1}/rules-submissions/{rs['id']}/submit/"))
    # 589's example Super Wager paytable has a negative house edge: acknowledged
    return _ok(team["approver"].post(f"{V1}/rules-submissions/{rs['id']}/approve/",
                                     {"acknowledge_negative_house_edge": True},
                                     format="json"))


def test_file_approve_and_put_in_effect_through_the_api(team) -> None:
    rs = _file_and_approve(team, "five-card-hi-lo")
    assert rs["state"] == "in_effect" and rs["approved_by"] == team["approver"].user.username
    listed = _ok(team["dealer"].get(f"{V1}/rules-submissions/?game=five-card-hi-lo"))
    assert [r["id"] for r in listed["results"]] == [rs["id"]]


def test_illegal_option_is_a_400_naming_the_field(team) -> None:
    before = head()
    body = _problem(team["compliance"].post(f"{V1}/rules-submissions/", {
        "game": "holdem", "options": {**example_options("holdem"), "rake": {
            "types": ["percentage"], "percentage_bp": 1500, "collection": "end-of-round",
            "maximum_per_round_cents": 500}}}, format="json"), 400, "rake_percentage_too_high")
    assert body["field"] == "options.rake.percentage_bp"
    assert head() == before


def test_malformed_options_are_a_400_not_a_500(team) -> None:
    for options in ([1, 2], {**example_options("holdem"), "rake": {"types": [{"x": 1}]}},
                    {**example_options("holdem"), "blinds_cents": "200/400"}):
        body = team["compliance"].post(f"{V1}/rules-submissions/", {
            "game": "holdem", "options": options}, format="json")
        assert body.status_code == 400, body.content


def test_effective_time_without_offset_is_a_400(team) -> None:
    rs = _ok(team["compliance"].post(f"{V1}/rules-submissions/", {
        "game": "badugi", "options": example_options("badugi")}, format="json"), 201)
    _ok(team["compliance"].post(f"{V1}/rules-submissions/{rs['id']}/submit/"))
    body = _problem(team["approver"].post(f"{V1}/rules-submissions/{rs['id']}/approve/",
                                          {"effective_at": "2030-01-01T06:00:00"},
                                          format="json"), 400, "invalid_input")
    assert body["field"] == "effective_at"


def test_approval_by_the_submitter_is_a_409(team) -> None:
    rs = _ok(team["compliance"].post(f"{V1}/rules-submissions/", {
        "game": "badugi", "options": example_options("badugi")}, format="json"), 201)
    _ok(team["compliance"].post(f"{V1}/rules-submissions/{rs['id']}/submit/"))
    _problem(team["compliance"].post(f"{V1}/rules-submissions/{rs['id']}/approve/"), 409,
             "approver_is_submitter")


def test_editing_a_version_in_effect_is_a_409(team) -> None:
    rs = _file_and_approve(team, "holdem")
    _problem(team["compliance"].post(f"{V1}/rules-submissions/{rs['id']}/revise/",
                                     {"notes": "x"}, format="json"), 409,
             "rules_version_in_effect")


def test_a_dealer_cannot_file_rules(team) -> None:
    _problem(team["dealer"].post(f"{V1}/rules-submissions/", {
        "game": "holdem", "options": example_options("holdem")}, format="json"), 403,
        "role_required")


def test_unauthenticated_is_401() -> None:
    from rest_framework.test import APIClient

    assert APIClient().get(f"{V1}/tables/").status_code == 401


def _table(team: dict[str, Any], game: str, **kw: Any) -> dict:
    body = {"name": kw.pop("name", game[:12]), "game": game, "positions": 5,
            "dealing_method": "automated-shoe", "shuffler": "automated", **kw}
    t = _ok(team["admin"].post(f"{V1}/tables/", body, format="json"), 201)
    _ok(team["floor"].post(f"{V1}/tables/{t['id']}/assign-dealer/",
                           {"dealer": team["dealer"].user.username}, format="json"))
    return t


def _deck_in_play(team: dict[str, Any], table: dict, colour: str = "red") -> dict:
    d, f = team["dealer"], team["floor"]
    deck = _ok(f.post(f"{V1}/decks/", {"table": table["id"], "back_colour": colour,
                                       "batch": "API-1"}, format="json"), 201)
    url = f"{V1}/decks/{deck['id']}"
    _ok(d.post(f"{url}/inspect/", {"defects": []}, format="json"))
    _ok(f.post(f"{url}/verify-inspection/", {"accepted": True}, format="json"))
    _ok(d.post(f"{url}/spread/", {"players": 1}, format="json"))
    _ok(d.post(f"{url}/wash/"))
    _ok(d.post(f"{url}/shuffle/", {"method": "automated"}, format="json"))
    return _ok(d.post(f"{url}/put-in-play/"))


def test_table_deck_and_round_through_the_api(team) -> None:
    _file_and_approve(team, "lunar-poker-671a")
    table = _table(team, "lunar-poker-671a")
    _problem(team["dealer"].post(f"{V1}/rounds/", {"table": table["id"], "deck": table["id"]},
                                 format="json"), 409, "table_closed")
    _ok(team["floor"].post(f"{V1}/tables/{table['id']}/open/"))
    deck = _deck_in_play(team, table)
    assert deck["state"] == "in_play" and deck["deadline_at"]
    rnd = _ok(team["dealer"].post(f"{V1}/rounds/", {"table": table["id"], "deck": deck["id"]},
                                  format="json"), 201)
    assert rnd["rules_version_number"] == 1 and rnd["number"] == 1
    _ok(team["dealer"].post(f"{V1}/rounds/{rnd['id']}/close/"))
    history = _ok(team["floor"].get(f"{V1}/decks/{deck['id']}/events/"))
    assert history["results"][-1]["type"] == "DeckDealtRound"
    table_events = _ok(team["floor"].get(f"{V1}/tables/{table['id']}/events/"))
    assert [e["type"] for e in table_events["results"]] == [
        "TableConfigured", "DealerAssigned", "TableOpened"]


def test_cut_nine_deep_is_a_400(team) -> None:
    _file_and_approve(team, "lunar-poker-589")
    table = _table(team, "lunar-poker-589", dealing_method="manual-shoe", shuffler="none")
    d, f = team["dealer"], team["floor"]
    deck = _ok(f.post(f"{V1}/decks/", {"table": table["id"], "back_colour": "red",
                                       "batch": "X"}, format="json"), 201)
    url = f"{V1}/decks/{deck['id']}"
    for step, body in (("inspect", {}), ("spread", {"players": 1}), ("wash", {}),
                       ("shuffle", {"method": "manual"})):
        client = f if step == "verify-inspection" else d
        _ok(client.post(f"{url}/{step}/", body, format="json"))
        if step == "inspect":
            _ok(f.post(f"{url}/verify-inspection/", {"accepted": True}, format="json"))
    body = _problem(d.post(f"{url}/cut/", {"depth": 9}, format="json"), 400, "cut_too_shallow")
    assert body["field"] == "depth"


def test_a_dealer_acting_at_another_table_is_403(team, api_as) -> None:
    _file_and_approve(team, "five-card-hi-lo")
    table = _table(team, "five-card-hi-lo")
    stranger = api_as("dealer")
    deck = _ok(team["floor"].post(f"{V1}/decks/", {"table": table["id"], "back_colour": "red",
                                                   "batch": "X"}, format="json"), 201)
    _problem(stranger.post(f"{V1}/decks/{deck['id']}/inspect/", {}, format="json"), 403,
             "not_assigned_to_table")


def test_unknown_ids_are_404_problems(team) -> None:
    missing = "00000000-0000-0000-0000-000000000000"
    _problem(team["floor"].post(f"{V1}/decks/{missing}/count/", {"cards": 52}, format="json"),
             404, "deck_not_found")
    _problem(team["floor"].get(f"{V1}/tables/{missing}/signage"), 404, "table_not_found")


def test_bad_body_is_a_400_not_a_500(team) -> None:
    _file_and_approve(team, "holdem")
    body = _problem(team["admin"].post(f"{V1}/tables/", {"name": "H", "game": "holdem",
                                                         "positions": "many"}, format="json"),
                    400, "invalid_input")
    assert "positions" in body["errors"]
    _problem(team["admin"].post(f"{V1}/tables/", {"name": "H", "game": "holdem", "positions": 11,
                                                  "dealing_method": "hand",
                                                  "shuffler": "none"}, format="json"),
             400, "too_many_positions")


def test_signage_json_prints_odds_as_written(team) -> None:
    """§ 579.2(b)(7), § 579.12(b): "for 1" odds on the Ante Bonus, "to 1" elsewhere."""
    _file_and_approve(team, "five-card-hi-lo", ante_bonus_paytable="A")
    table = _table(team, "five-card-hi-lo")
    sign = _ok(team["dealer"].get(f"{V1}/tables/{table['id']}/signage"))
    lines = {(s["title"], ln["label"]): ln["value"] for s in sign["sections"] for ln in s["lines"]}
    assert lines[("Ante (bonus payout): Ante Bonus Paytable A", "Four aces and one 2")] == \
        "1,000 for 1"
    assert lines[("Tie Wager: Tie Wager payouts", "Both hands tie")] == "20 to 1"
    assert len(sign["odds_legend"]) == 2 and sign["rules_version_number"] == 1


def test_signage_lunar_shows_dealer_qualification_and_instant_payouts(team) -> None:
    """§ 589.2(b)(6)(i)-(ii)."""
    _file_and_approve(team, "lunar-poker-589", instant_paytable="H")
    table = _table(team, "lunar-poker-589")
    sign = _ok(team["dealer"].get(f"{V1}/tables/{table['id']}/signage"))
    text = str(sign)
    assert "Dealer qualifies with an ace-king or better." in text
    instant = next(s for s in sign["sections"] if s["title"].startswith("Instant payout"))
    assert [ln["value"] for ln in instant["lines"]] == ["600 to 1", "300 to 1"]


def test_signage_html_is_a_printable_page(team) -> None:
    """§ 637a.17(c): the rake is posted; § 637a.15(b): the Bad Beat notice."""
    _file_and_approve(team, "holdem")
    table = _table(team, "holdem", positions=10, dealing_method="hand")
    page = team["dealer"].get(f"{V1}/tables/{table['id']}/signage?format=html")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert "Maximum rake per round" in html and "Bad Beat payout" in html
    assert "An uncalled final bet is not raked." in html


def test_signage_without_rules_in_effect_is_a_409(team) -> None:
    _file_and_approve(team, "badugi")
    table = _table(team, "badugi", positions=9, dealing_method="hand")
    rs = _ok(team["dealer"].get(f"{V1}/rules-submissions/?game=badugi"))["results"][0]
    _ok(team["approver"].post(f"{V1}/rules-submissions/{rs['id']}/withdraw/",
                              {"reason": "discontinued"}, format="json"))
    _ok(team["dealer"].get(f"{V1}/tables/{table['id']}/signage"))  # asked, not yet confirmed
    _ok(team["compliance"].post(f"{V1}/rules-submissions/{rs['id']}/withdraw/confirm/"))
    body = _problem(team["dealer"].get(f"{V1}/tables/{table['id']}/signage"), 409,
                    "no_rules_in_effect")
    assert body["rules_notice"]["code"] == "rules_withdrawn"


def test_inventory_report_api(team) -> None:
    _file_and_approve(team, "lunar-poker-671a")
    table = _table(team, "lunar-poker-671a")
    _ok(team["floor"].post(f"{V1}/tables/{table['id']}/open/"))
    _deck_in_play(team, table)
    report = _ok(team["security"].get(f"{V1}/decks/inventory/"))
    assert len(report["received"]) == 1 and len(report["in_play"]) == 1
    _problem(team["security"].get(f"{V1}/decks/inventory/?gaming_day=yesterday"), 400,
             "invalid_gaming_day")
    _problem(team["dealer"].get(f"{V1}/decks/inventory/"), 403, "role_required")


def test_admin_pages_show_history_read_only(team, admin_client) -> None:
    _file_and_approve(team, "lunar-poker-671a")
    table = _table(team, "lunar-poker-671a")
    page = admin_client.get(f"/admin/tables/gametable/{table['id']}/change/")
    assert page.status_code == 200
    assert b"TableConfigured" in page.content and b"DealerAssigned" in page.content
    assert admin_client.post(f"/admin/tables/gametable/{table['id']}/change/",
                             {"positions": 1}).status_code == 403
    assert admin_client.get("/admin/tables/deck/add/").status_code == 403


def test_schema_lists_the_commands() -> None:
    from rest_framework.test import APIClient

    schema = APIClient().get("/api/schema/").content.decode()
    for op in ("rules_approve", "deck_cut", "round_open", "table_open", "deck_put_in_play"):
        assert f"operationId: {op}" in schema
