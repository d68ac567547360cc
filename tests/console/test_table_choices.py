"""Tables chosen by name in the console's forms (casino.api.table_field, console.forms): a
poker list's form offers the tables of the list's game at the caller's property, by name
and game, ordered by name (a select for one table, checkboxes for several), and sends the
ids chosen; a table of another game or property is neither offered nor taken (a refusal,
nothing appended); a table given in the link is the one selected (shown by name when the
link fixes it); the API still takes and documents a UUID; the form passes axe in Chromium.
Everything through the real services on PostgreSQL."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.http import QueryDict
from rest_framework import serializers

from casino.api.table_field import TableField, TableListField
from console.forms import FormFields
from console.registry import command_url
from tests.console.conftest import client_of, text_of
from tests.poker_floor._helpers import PEOPLE, Floor, event_count, list_events
from tests.poker_floor.conftest import (  # noqa: F401  (fixtures)
    as_actor,
    floor,
    make_floor,
    other_property,
)

ZONE = "America/New_York"


def _options(html: str, name: str) -> list[tuple[str, str]]:
    """The (value, text) of each option of the select ``name``, the empty one left out."""
    select = re.search(rf'<select [^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {name}"
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))
    return [(v, unescape(t)) for v, t in options if v]


def _boxes(html: str, name: str) -> list[tuple[str, str]]:
    """The (value, label text) of each checkbox named ``name``."""
    return [(v, unescape(t).strip()) for v, t in re.findall(
        rf'<input type="checkbox" id="[^"]*" name="{name}" value="([^"]*)"[^>]*>([^<]*)</label>',
        html)]


def _hidden(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="(_\w+)" value="([^"]*)"', html))


@pytest.fixture
def room(floor: Floor, make_floor: Any, other_property: Any) -> dict[str, Any]:  # noqa: F811
    """Three Hold'em tables named out of order, an Omaha table, the Hold'em list, and a
    Hold'em table at another property."""
    c = floor.table(name="Table C")
    a = floor.table(name="Table A")
    b = floor.table(name="Table B", open=False)
    omaha = floor.table("omaha-high", name="Omaha 1")
    far = make_floor(other_property).table(name="Table A")
    return {"floor": floor, "a": a, "b": b, "c": c, "omaha": omaha, "far": far,
            "list": floor.waitlist()}


@pytest.mark.postgres
def test_the_must_move_form_offers_the_games_tables_by_name(room: dict[str, Any]) -> None:
    a, b, c = room["a"], room["b"], room["c"]
    html = client_of(room["floor"]["supervisor"]).get(
        command_url("must_move_set", room["list"].pk)).content.decode()
    offered = [(str(a.pk), "Table A (Hold'em)"), (str(b.pk), "Table B (Hold'em, closed)"),
               (str(c.pk), "Table C (Hold'em)")]
    assert _options(html, "main_table_id") == offered
    assert _boxes(html, "feeder_table_ids") == offered
    # the group of boxes is a fieldset under its legend, each box with its label
    assert re.search(r'<fieldset class="field field-checks"[^>]*>\s*<legend>Feeder table ids',
                     html)
    assert f'<label for="f-feeder_table_ids-1"><input type="checkbox" ' \
           f'id="f-feeder_table_ids-1" name="feeder_table_ids" value="{a.pk}"' in html
    assert str(room["omaha"].pk) not in html and str(room["far"].pk) not in html


@pytest.mark.postgres
def test_the_tables_chosen_are_sent_as_their_ids(room: dict[str, Any]) -> None:
    a, b, c, wl = room["a"], room["b"], room["c"], room["list"]
    client = client_of(room["floor"]["supervisor"])
    url = command_url("must_move_set", wl.pk)
    key = _hidden(client.get(url).content.decode())["_key"]
    response = client.post(url, {"_key": key, "main_table_id": str(a.pk),
                                 "feeder_table_ids": [str(c.pk), str(b.pk)]})
    assert response.status_code == 303, response.content.decode()[:2000]
    last = list_events(wl)[-1]
    assert (last.type, last.data) == ("MustMoveSet", {
        "main_table": str(a.pk), "feeders": [str(c.pk), str(b.pk)]})


@pytest.mark.postgres
def test_a_table_of_another_game_is_refused_on_its_field(room: dict[str, Any]) -> None:
    client = client_of(room["floor"]["supervisor"])
    url = command_url("must_move_set", room["list"].pk)
    key = _hidden(client.get(url).content.decode())["_key"]
    before = event_count()
    response = client.post(url, {"_key": key, "main_table_id": str(room["a"].pk),
                                 "feeder_table_ids": [str(room["omaha"].pk)]})
    html = response.content.decode()
    assert response.status_code == 409
    assert 'data-code="table_not_in_game"' in html
    assert 'id="f-feeder_table_ids-error"' in html
    assert event_count() == before
    # the form comes back offering the game's tables, nothing of the other game's ticked
    assert [v for v, _ in _boxes(html, "feeder_table_ids")] == [
        str(room["a"].pk), str(room["b"].pk), str(room["c"].pk)]
    assert " checked" not in re.sub(r"^.*?feeder_table_ids", "", html, flags=re.S)


@pytest.mark.postgres
def test_a_table_of_another_property_is_refused(room: dict[str, Any]) -> None:
    client = client_of(room["floor"]["supervisor"])
    url = command_url("must_move_set", room["list"].pk)
    key = _hidden(client.get(url).content.decode())["_key"]
    before = event_count()
    response = client.post(url, {"_key": key, "main_table_id": str(room["far"].pk),
                                 "feeder_table_ids": [str(room["c"].pk)]})
    assert response.status_code == 404  # as the API answers another property's row
    assert event_count() == before


@pytest.mark.postgres
def test_a_table_given_in_the_link_is_selected(room: dict[str, Any]) -> None:
    """``offer(..., table_id=...)``: fixed by the link (an id given), the table's name is
    shown read-only and its id sent; left free (``fixed=``), its option is selected."""
    f, a, c, wl = room["floor"], room["a"], room["c"], room["list"]
    f.fill(c, leave=(9,))
    client = client_of(f["floor"])
    fixed = client.get(command_url("call_next", wl.pk, table_id=c.pk, seat=9)).content.decode()
    assert re.search(r'<input type="text" id="f-table_id" value="Table C \(Hold&#x27;em\)" '
                     r'readonly', fixed)
    assert f'<input type="hidden" name="table_id" value="{c.pk}">' in fixed
    free = client.get(command_url("call_next", wl.pk, table_id=str(a.pk).upper(), seat=9,
                                  fixed="seat")).content.decode()
    assert f'<option value="{a.pk}" selected>Table A (Hold&#x27;em)</option>' in free

    f.list_player(wl, "Ann Lee")
    response = client.post(command_url("call_next", wl.pk), {
        "_key": _hidden(fixed)["_key"], "_fixed": _hidden(fixed)["_fixed"],
        "table_id": str(c.pk), "seat": "9"})
    assert response.status_code == 303, text_of(response.content.decode())[:2000]
    assert list_events(wl)[-1].type == "SeatOffered"
    assert list_events(wl)[-1].data["table"] == str(c.pk)


@pytest.mark.postgres
def test_the_api_still_takes_a_uuid(room: dict[str, Any], as_actor: Any) -> None:  # noqa: F811
    api = as_actor(room["floor"]["supervisor"])
    path = f"/api/v1/waitlists/{room['list'].pk}/must-move/"
    before = event_count()
    typed = api.post(path, {"main_table_id": "Table A", "feeder_table_ids": ["Table C"]},
                     format="json")
    assert typed.status_code == 400
    assert event_count() == before
    response = api.post(path, {"main_table_id": str(room["a"].pk),
                               "feeder_table_ids": [str(room["c"].pk)]}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["main_table"] == str(room["a"].pk)
    assert response.json()["feeders"] == [str(room["c"].pk)]


def test_the_api_reference_documents_uuids() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["components"]["schemas"]["MustMoveSetIn"]["properties"]
    assert body["main_table_id"] == {"type": "string", "format": "uuid",
                                     "description": "the main game's table"}
    assert body["feeder_table_ids"]["items"] == {"type": "string", "format": "uuid"}


def test_without_an_actor_a_table_is_typed_as_its_id() -> None:
    """A form built for no one (no actor: nothing to read the choices for) keeps the API's
    boxes: a text box for the id, rows of ids."""
    class Both(serializers.Serializer):
        main = TableField(tables=_Shared())
        others = TableListField(tables=_Shared(), required=False)

    form = FormFields(Both, zone=ZONE, source=QueryDict())
    assert [(fl.key, fl.widget) for fl in form.fields] == [("main", "text"),
                                                           ("others", "rows")]


def test_each_callable_gives_its_choices_once_per_form() -> None:
    shared = _Shared()

    class Both(serializers.Serializer):
        main = TableField(tables=shared)
        others = TableListField(tables=shared, required=False)

    form = FormFields(Both, zone=ZONE, source=QueryDict(), actor="the actor", pk="the row")
    assert shared.calls == [("the actor", "the row")]
    assert [(fl.widget, fl.choices) for fl in form.fields] == [
        ("select", [("7a6ba1e1-0000-4000-8000-000000000001", "T1 (Hold'em)")]),
        ("checks", [("7a6ba1e1-0000-4000-8000-000000000001", "T1 (Hold'em)")])]


class _Shared:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, Any]] = []

    def __call__(self, actor: Any, pk: Any) -> list[tuple[str, str]]:
        self.calls.append((actor, pk))
        return [("7a6ba1e1-0000-4000-8000-000000000001", "T1 (Hold'em)")]


def test_no_box_ticked_sends_no_list_and_boxes_ticked_send_their_ids() -> None:
    shared = _Shared()

    class Both(serializers.Serializer):
        main = TableField(tables=shared)
        others = TableListField(tables=shared, required=False)

    blank = FormFields(Both, zone=ZONE, source=QueryDict(), actor="a", pk=None)
    assert blank.body() == ({}, True)
    ticked = FormFields(Both, zone=ZONE, actor="a", pk=None, source=QueryDict(
        "main=7A6BA1E1-0000-4000-8000-000000000001"
        "&others=7a6ba1e1-0000-4000-8000-000000000001&others=x"))
    assert ticked.body() == ({"main": "7a6ba1e1-0000-4000-8000-000000000001",
                              "others": ["7a6ba1e1-0000-4000-8000-000000000001", "x"]}, True)


# --- in Chromium -----------------------------------------------------------------------------

@pytest.mark.browser
@pytest.mark.postgres
def test_the_must_move_form_passes_axe_and_records_the_tables_chosen(console_page) -> None:
    from casino.actors import actor_of
    from tests.console._axe import serious_violations

    people = {who: actor_of(console_page.staff(*roles, username=f"tc-{who}"))
              for who, roles in PEOPLE.items() if roles}
    f = Floor(property=people["floor"].property, people=people, make_staff=None)
    main = f.table(name="Main 1")
    feeder = f.table(name="Feeder 1")
    f.table("omaha-high", name="Omaha 1")
    wl = f.waitlist()

    page = console_page("poker_shift_supervisor")
    page.set_viewport_size({"width": 768, "height": 1024})
    response = page.goto(page.server + command_url("must_move_set", wl.pk))
    assert response.status == 200
    assert serious_violations(page) == []
    assert page.locator("#f-main_table_id option").all_inner_texts() == [
        "Choose…", "Feeder 1 (Hold'em)", "Main 1 (Hold'em)"]
    page.select_option("#f-main_table_id", label="Main 1 (Hold'em)")
    page.get_by_label("Feeder 1 (Hold'em)").check()
    page.get_by_role("button", name="Set the must-move tables").click()
    page.wait_for_load_state()
    assert "Recorded" in page.content()
    last = list_events(wl)[-1]
    assert (last.type, last.data) == ("MustMoveSet", {"main_table": str(main.pk),
                                                      "feeders": [str(feeder.pk)]})
