"""Hand histories (§ 637a.18(a): the record a dispute is settled on): a hand dealt through
the API exports as a PHH file that pokerkit, an independent implementation, replays to the
same stacks; a table's gaming day as one .phhs file; the dispute calculator."""

from __future__ import annotations

import tomllib
from collections.abc import Callable

import pytest
from pokerkit import HandHistory

from casino.models import Event

pytestmark = pytest.mark.django_db

A = lambda seat, action: {"type": "act", "seat": seat, "action": action}  # noqa: E731
HOLDEM = [
    {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["Qc", "Jc"],
                               "4": ["7h", "2s"]}},
    A(3, "raise"), A(4, "fold"), A(1, "call"), A(2, "call"),
    {"type": "deal", "cards": ["Ah", "9c", "4d"]}, A(1, "bet"), A(2, "call"), A(3, "fold"),
    {"type": "deal", "cards": ["5s"]}, A(1, "check"), A(2, "check"),
    {"type": "deal", "cards": ["Tc"]}, A(1, "bet"), A(2, "call")]


def _dealt(crew, poker_table: Callable, as_actor: Callable) -> tuple:
    setup = poker_table("holdem")
    table, dealer = setup["table"], as_actor(crew["dealer"])
    for seat in (1, 2, 3, 4):
        dealer.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                    {"seat": seat, "buy_in_cents": 10_000}, format="json")
    h = dealer.post(f"/api/v1/poker-tables/{table.pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json").json()
    h = dealer.post(f"/api/v1/hands/{h['round_id']}/commands/",
                    {"commands": HOLDEM}, format="json").json()
    assert h["over"]
    return table, h["round_id"]


def _pokerkit_stacks(text: str) -> list[int]:
    """pokerkit plays the file; each pot loses what the file says we took from it."""
    phh = tomllib.loads(text)
    cut_of = dict(zip(phh["_pa_pot_cents"], phh["_pa_taken_by_pot"]))

    def rake(amount: int, state=None) -> tuple[int, int]:
        cut = cut_of.get(amount, 0)  # a pot complete as the file records it
        return cut, amount - cut

    state = None
    for state in HandHistory.loads(text, rake=rake):
        pass
    return list(state.stacks)


def test_a_dealt_hand_exports_as_phh_and_replays_in_pokerkit(crew, poker_table, as_actor
                                                              ) -> None:
    """§ 637a.11, § 637a.17(b)(1), § 637a.15(c): the walk-through's Hold'em hand (pot $48,
    rake $4, $2 to the funds): players from the button's left, seat 1 first; finishing
    stacks $122, $80, $92, $100, and pokerkit reaches the same from the file."""
    table, hand = _dealt(crew, poker_table, as_actor)
    floor = as_actor(crew["floor"])
    r = floor.get(f"/api/v1/hands/{hand}/phh/")
    assert r.status_code == 200
    text = r.json()["phh"]
    phh = tomllib.loads(text)
    assert phh["variant"] == "FT" and phh["starting_stacks"] == [10_000] * 4
    assert phh["finishing_stacks"] == [12_200, 8_000, 9_200, 10_000]
    assert (phh["_pa_pot_cents"], phh["_pa_rake_by_pot"], phh["_pa_taken_by_pot"]) == (
        [4_800], [400], [600])
    assert _pokerkit_stacks(text) == phh["finishing_stacks"]
    raw = floor.get(f"/api/v1/hands/{hand}/phh/?format=phh")
    assert raw["Content-Type"].startswith("text/plain") and raw.content.decode() == text
    day = floor.get(f"/api/v1/poker-tables/{table.pk}/phh/").json()
    assert day["hands"] == 1 and day["phh"].startswith("[1]\n")
    assert as_actor(crew["dealer"]).get(f"/api/v1/hands/{hand}/phh/").status_code == 403


def test_the_dispute_calculator_works_a_hand_out_and_records_nothing(crew, poker_table,
                                                                     as_actor, staff) -> None:
    """§ 637a.18(a): the supervisor posts the disputed hand and gets the pots, the rake and
    the stacks, worked as the table's Rules Submission says; nothing is appended. Bad
    input gets a code naming the step."""
    from tables.models import RulesSubmission

    setup = poker_table("holdem")
    rs = RulesSubmission.objects.filter(game="holdem").order_by("-version_number").first()
    supervisor = as_actor(staff("poker_shift_supervisor"))
    before = Event.objects.count()
    script = {"rules_submission_id": str(rs.pk), "button": 4,
              "stacks": {"1": 10_000, "2": 10_000, "3": 10_000, "4": 10_000},
              "commands": HOLDEM}
    r = supervisor.post("/api/v1/poker-settle-script/", script, format="json")
    assert r.status_code == 200, r.json()
    out = r.json()
    assert (out["pot_cents"], out["rake_cents"]) == (4_800, 400)
    assert out["stacks"] == {"1": 12_200, "2": 8_000, "3": 9_200, "4": 10_000}
    assert [(a["seat"], a["amount"]) for a in out["awards"]] == [(1, 4_200)]
    assert Event.objects.count() == before
    bad = {**script, "commands": HOLDEM[:1] + [A(1, "call")]}
    r = supervisor.post("/api/v1/poker-settle-script/", bad, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "not_your_turn")
    bad = {**script, "commands": [{"type": "deal", "cards": {"1": ["As", "As"], "2": ["Ks", "Kd"],
                                                             "3": ["Qc", "Jc"], "4": ["7h", "2s"]}}]}
    r = supervisor.post("/api/v1/poker-settle-script/", bad, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "card_already_dealt")
    assert Event.objects.count() == before
    assert setup  # the table's rules are the ones the script named


def test_the_dispute_calculator_refuses_a_malformed_script_with_a_code(as_actor, staff) -> None:
    """Bad input is a 400 naming the field, never a 500."""
    supervisor = as_actor(staff("poker_shift_supervisor"))
    for body, field in [({"game": "holdem", "options": [1], "stacks": {}, "commands": []},
                         "options"),
                        ({"game": "holdem", "stacks": {}, "commands": []}, "options"),
                        ({"game": "nope", "options": {}, "stacks": {}, "commands": []},
                         "game")]:
        r = supervisor.post("/api/v1/poker-settle-script/", body, format="json")
        assert r.status_code == 400 and r.json().get("field") == field, r.json()
