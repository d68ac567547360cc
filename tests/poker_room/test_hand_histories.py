"""Hand histories (§ 637a.18(a): the record a dispute is settled on). A hand dealt through
the API reads back step by step (who recorded what, under which role and credential, the
cards as codes) and exports as a PHH file that our engine (``phh.replay``) and pokerkit,
an independent implementation, both play back to the recorded stacks; a table's gaming
day exports as one ``.phhs`` file. Figures are worked by hand from the chapter."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from pokerkit import HandHistory
from rest_framework.test import APIClient

from casino.domain.cards import format_card
from poker_room.domain import phh

pytestmark = pytest.mark.django_db

A = lambda seat, action: {"type": "act", "seat": seat, "action": action}  # noqa: E731
#: the example Rules Submission's $4/$8 fixed-limit Hold'em, four players with $100, the
#: button at seat 4 (637a.11(c)(1): the dealer's right), the cards as the dealer records
HOLDEM = [
    {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["Qc", "Jc"],
                               "4": ["7h", "2s"]}},
    A(3, "raise"), A(4, "fold"), A(1, "call"), A(2, "call"),
    {"type": "deal", "cards": ["Ah", "9c", "4d"]}, A(1, "bet"), A(2, "call"), A(3, "fold"),
    {"type": "deal", "cards": ["5s"]}, A(1, "check"), A(2, "check"),
    {"type": "deal", "cards": ["Tc"]}, A(1, "bet"), A(2, "call")]
#: 637a.17(b)(3): a time charge is the only rake, and no jackpot is offered, so the
#: players' pots are the whole story and any PHH reader replays them as they are
TIME_CHARGE_ONLY = {"rake": {"types": ["time-charge"], "time_charge": {
    "basis": "per-table", "hourly_cents": 1200, "assessed_every_minutes": 30}},
    "bad_beat": None, "high_hand": None}


def _seat(dealer: APIClient, table: Any, buy_ins: dict[int, int]) -> None:
    for seat, cents in buy_ins.items():
        r = dealer.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": cents, "paid_with": "chips"}, format="json")
        assert r.status_code == 201, r.json()


def _start(dealer: APIClient, setup: dict, deck_no: int = 0, **body: Any) -> dict:
    r = dealer.post(f"/api/v1/poker-tables/{setup['table'].pk}/hands/",
                    {"deck_id": str(setup["decks"][deck_no].pk), **body}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def _play(dealer: APIClient, hand: str, commands: list[dict]) -> dict:
    r = dealer.post(f"/api/v1/hands/{hand}/commands/", {"commands": commands}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()


def _raked_hand(crew, poker_table: Callable, as_actor: Callable) -> tuple[Any, str]:
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    _seat(dealer, setup["table"], {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000})
    hand = _start(dealer, setup)["round_id"]
    assert _play(dealer, hand, HOLDEM)["over"]
    return setup["table"], hand


def _pokerkit_stacks(text: str) -> list[int]:
    """pokerkit plays the file; each pot loses what the file says we took from it (the
    ``_pa_`` fields: PHH itself has no rake)."""
    fields = tomllib.loads(text)
    cut_of = dict(zip(fields["_pa_gross_pot_cents"], fields["_pa_taken_by_pot"]))

    def rake(amount: int, state: Any = None) -> tuple[int, int]:
        cut = cut_of.get(amount, 0)
        return cut, amount - cut

    return _final(HandHistory.loads(text, rake=rake))


def _final(history: HandHistory) -> list[int]:
    state = None
    for state in history:
        pass
    assert state is not None and not state.status  # pokerkit reached the end of the hand
    return list(state.stacks)


def test_a_finished_hand_answers_its_gross_pot_and_its_pot_after_rake_and_contributions(
        crew, poker_table, as_actor) -> None:
    """§ 637a.1 ("Pot" is after the rake), § 637a.17(b)(1), § 637a.15(c), § 637a.16(c).
    The hand of the test below: the players put in $48 (the gross pot); the rake is 10 %
    = $4.80, in $1 chips $4; $1 goes to each fund; the Pot is $48 - $4 - $2 = $42, all of
    it awarded to seat 1. The hand, its history and its result name the two figures the
    same way, and the contributions are one list of {fund, amount_cents}."""
    table, hand = _raked_hand(crew, poker_table, as_actor)
    floor = as_actor(crew["floor"])
    ledger = floor.get(f"/api/v1/poker-tables/{table.pk}/rake-ledger/").json()
    assert ledger["contributions"] == [{"fund": "bad-beat", "amount_cents": 100},
                                       {"fund": "high-hand", "amount_cents": 100}]
    for path in (f"/api/v1/hands/{hand}/", f"/api/v1/hands/{hand}/history/"):
        h = floor.get(path).json()
        assert (h["gross_pot_cents"], h["pot_cents"]) == (4_800, 4_200)
        done = h["result"]
        assert (done["gross_pot_cents"], done["rake_cents"], done["pot_cents"]) == (
            4_800, 400, 4_200)
        assert done["contributions"] == [{"fund": "bad-beat", "amount_cents": 100},
                                         {"fund": "high-hand", "amount_cents": 100}]
        assert done["stacks"][0] == {"seat": 1, "stack_cents": 12_200}
        assert "pot" not in done and "rake" not in done
    steps = floor.get(f"/api/v1/hands/{hand}/history/steps/").json()["steps"]
    over = next(s["text"] for s in steps if s["type"] == "HandCompleted")
    assert over == ("Hand over: gross pot $48.00, rake $4.00, jackpot contributions $2.00, "
                    "Pot $42.00 won by seat 1; stacks seat 1 $122.00, seat 2 $80.00, "
                    "seat 3 $92.00, seat 4 $100.00")


def test_a_raked_hand_exports_as_phh_that_pokerkit_replays_to_the_recorded_stacks(
        crew, poker_table, as_actor) -> None:
    """§ 637a.11(c)-(k), § 637a.17(b)(1), § 637a.15(c), § 637a.16(c). Blinds $2 (seat 1)
    and $4 (seat 2); seat 3 raises to $8, seat 4 folds, seats 1 and 2 call: $24. Flop:
    seat 1 bets $4, seat 2 calls, seat 3 folds: $32. Turn checked; river: seat 1 bets
    $8, seat 2 calls: $48. Rake 10 % = $4.80, in $1 chips $4 (under the $5 cap); then $1
    to each fund: seat 1's three aces take $42. Stacks: seat 1 $100 - $20 + $42 = $122,
    seat 2 $80, seat 3 $92, seat 4 $100. Our own replay of the file, which has no rake,
    gives seat 1 the whole $48: $128."""
    table, hand = _raked_hand(crew, poker_table, as_actor)
    floor = as_actor(crew["floor"])
    r = floor.get(f"/api/v1/hands/{hand}/phh/")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/plain")
    assert r["Content-Disposition"].startswith("attachment; filename=")
    assert r["Content-Disposition"].endswith('-hand-1.phh"')
    text = r.content.decode()
    fields = tomllib.loads(text)
    assert fields["variant"] == "FT" and fields["blinds_or_straddles"] == [200, 400, 0, 0]
    assert (fields["small_bet"], fields["big_bet"]) == (400, 800)
    assert fields["starting_stacks"] == [10_000] * 4 and fields["seats"] == [1, 2, 3, 4]
    assert fields["finishing_stacks"] == [12_200, 8_000, 9_200, 10_000]
    # § 637a.1: the gross pot $48; rake $4 and $2 of contributions taken; the Pot $42
    assert (fields["_pa_gross_pot_cents"], fields["_pa_rake_by_pot"],
            fields["_pa_taken_by_pot"], fields["_pa_pot_cents"]) == ([4_800], [400], [600],
                                                                     [4_200])
    assert fields["table"] == table.name and fields["_pa_hand_number"] == 1
    assert _pokerkit_stacks(text) == [12_200, 8_000, 9_200, 10_000]
    assert phh.replay(text).stacks == {1: 12_800, 2: 8_000, 3: 9_200, 4: 10_000}
    toml = floor.get(f"/api/v1/hands/{hand}/phh/", HTTP_ACCEPT="application/toml")
    assert toml["Content-Type"].startswith("application/toml") and toml.content.decode() == text
    wrapped = floor.get(f"/api/v1/hands/{hand}/phh/?format=json").json()
    assert wrapped["phh"] == text and wrapped["filename"].endswith("-hand-1.phh")


def test_a_hand_at_a_table_with_no_pot_rake_replays_the_same_in_both_engines(
        crew, poker_table, as_actor) -> None:
    """§ 637a.17(b)(3) (a time charge only), § 637a.11, § 637a.17(d). Three players with
    $100, the button at seat 3, the engine dealing from the deck's recorded order: one
    card at a time from seat 1 (637a.11(f)), a burn before each board card(s). Hand 1:
    seat 1 Ah Kh, seat 2 Qs Qd, seat 3 7c 2d; seat 3 folds, seat 1 completes to $4, seat 2
    checks: $8. Flop Ac 9h 4s: seat 1 bets $4, seat 2 calls: $16. Turn Jh: seat 2 bets $8,
    seat 1 calls: $32. River 8c checked; seat 1's aces take $32: $116, seat 2 $84, seat 3
    $100. Hand 2 (the button to seat 1, blinds seats 2 and 3): seats 1 and 2 fold, seat
    3's uncalled $2 comes back and the $4 pot is seat 3's: $116, $82, $102."""
    setup = poker_table("holdem", **TIME_CHARGE_ONLY)
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    _seat(dealer, setup["table"], {1: 10_000, 2: 10_000, 3: 10_000})
    named = ["Ah", "Qs", "7c", "Kh", "Qd", "2d", "3c", "Ac", "9h", "4s", "5d", "Jh", "6d",
             "8c"]
    deck = named + [format_card(c) for c in range(52) if format_card(c) not in named]
    first = _start(dealer, setup, deck=deck)["round_id"]
    h = _play(dealer, first, [A(3, "fold"), A(1, "call"), A(2, "check"), A(1, "bet"),
                              A(2, "call"), A(1, "check"), A(2, "bet"), A(1, "call"),
                              A(1, "check"), A(2, "check")])
    assert h["over"] and h["result"]["rake_cents"] == 0
    text = floor.get(f"/api/v1/hands/{first}/phh/").content.decode()
    fields = tomllib.loads(text)
    assert [a for a in fields["actions"] if a.startswith("d ")] == [
        "d dh p1 AhKh", "d dh p2 QsQd", "d dh p3 7c2d", "d db Ac9h4s", "d db Jh", "d db 8c"]
    assert fields["finishing_stacks"] == [11_600, 8_400, 10_000]
    assert fields["_pa_taken_by_pot"] == [0]
    assert _final(HandHistory.loads(text)) == [11_600, 8_400, 10_000]
    assert phh.replay(text).stacks == {1: 11_600, 2: 8_400, 3: 10_000}

    second = _start(dealer, setup, deck_no=1)["round_id"]
    _play(dealer, second, [
        {"type": "deal", "cards": {"1": ["2c", "3d"], "2": ["4h", "9d"], "3": ["Kc", "Ks"]}},
        A(1, "fold"), A(2, "fold")])
    r = floor.get(f"/api/v1/poker-tables/{setup['table'].pk}/phh/")
    assert r.status_code == 200 and r["Content-Disposition"].endswith('.phhs"')
    day = r.content.decode()
    assert day.startswith("[1]\n") and "\n[2]\n" in day
    sections = tomllib.loads(day)
    assert [s["_pa_hand_number"] for s in sections.values()] == [1, 2]
    # PHH numbers players from the button's left: p1 is seat 2, p2 seat 3, the button p3
    assert sections["2"]["seats"] == [2, 3, 1]
    assert sections["2"]["finishing_stacks"] == [8_200, 10_200, 11_600]
    assert [_final(hh) for hh in HandHistory.loads_all(day)] == [
        [11_600, 8_400, 10_000], [8_200, 10_200, 11_600]]
    assert phh.replay(sections["2"]).stacks == {1: 8_200, 2: 10_200, 3: 11_600}


def test_a_tables_gaming_day_is_chosen_by_the_query(crew, poker_table, as_actor) -> None:
    """A day with no hands is an empty file; a day that is not a date is a 400 naming it;
    the current gaming day is the default (the hand's own ``gaming_day``)."""
    table, _ = _raked_hand(crew, poker_table, as_actor)
    floor = as_actor(crew["floor"])
    url = f"/api/v1/poker-tables/{table.pk}/phh/"
    today = crew["floor"].gaming_day().isoformat()
    out = floor.get(url, {"gaming_day": today, "format": "json"}).json()
    assert (out["hands"], out["gaming_day"], out["filename"]) == (
        1, today, f"{table.name}-{today}.phhs")
    assert floor.get(url, {"gaming_day": "2001-01-01", "format": "json"}).json()["hands"] == 0
    r = floor.get(url, {"gaming_day": "yesterday"})
    assert (r.status_code, r.json()["code"], r.json()["field"]) == (
        400, "invalid_gaming_day", "gaming_day")
    assert r["Content-Type"] == "application/problem+json"


def test_the_history_reads_each_step_with_who_recorded_it(crew, poker_table, as_actor
                                                          ) -> None:
    """§ 637a.18(a), § 637a.16(f)(4): each step in words with the login, role and Board
    credential number that recorded it, the cards as codes; the hand's figures as worked
    in the first test (pot $48, rake $4, $42 to seat 1)."""
    _, hand = _raked_hand(crew, poker_table, as_actor)
    r = as_actor(crew["compliance"]).get(f"/api/v1/hands/{hand}/history/steps/")
    assert r.status_code == 200, r.json()
    out = r.json()
    assert out["over"] is True and out["number"] == 1
    steps = out["steps"]
    dealer = crew["dealer"]
    assert {(s["actor"], s["role"], s["credential_number"]) for s in steps} == {
        (dealer.username, "dealer", dealer.credential_number)}
    said = [s["text"] for s in steps]
    for line in ["Dealt: seat 1 As Ad; seat 2 Ks Kd; seat 3 Qc Jc; seat 4 7h 2s",
                 "Seat 1 posts the blind $2.00", "Seat 3 raises to $8.00",
                 "Seat 1 calls $6.00", "Board: Ah 9c 4d", "Seat 1 shows As Ad",
                 "Rake $4.00 (percentage; $4.00 in all)",
                 "$1.00 from pot 1 to the bad-beat fund", "Pot 1: $42.00 to seat 1"]:
        assert line in said, line
    dealt = next(s for s in steps if s["type"] == "CardsDealt")
    assert dealt["data"]["cards"][0] == [1, ["As", "Ad"]]
    assert [s["version"] for s in steps] == list(range(1, len(steps) + 1))
    assert steps[-1]["type"] == "RoundClosed"


def test_a_hand_in_progress_has_no_phh_and_its_history_hides_the_hole_cards(
        crew, poker_table, as_actor) -> None:
    """The history of a hand still being played shows what the table sees (hole cards
    ``??``); its PHH file is written when it ends (409 ``hand_in_progress``)."""
    setup = poker_table("holdem")
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    _seat(dealer, setup["table"], {1: 10_000, 2: 10_000, 3: 10_000})
    hand = _start(dealer, setup)["round_id"]
    _play(dealer, hand, [{"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                    "3": ["2c", "7d"]}}])
    r = floor.get(f"/api/v1/hands/{hand}/phh/")
    assert (r.status_code, r.json()["code"]) == (409, "hand_in_progress")
    steps = floor.get(f"/api/v1/hands/{hand}/history/steps/").json()
    assert steps["over"] is False
    assert "Dealt: seat 1 ?? ??; seat 2 ?? ??; seat 3 ?? ??" in [s["text"] for s in
                                                              steps["steps"]]


def test_histories_are_for_the_history_roles_of_the_property(crew, poker_table, as_actor,
                                                             make_staff) -> None:
    """Floorperson, poker shift supervisor, compliance, finance, security read them; a
    dealer does not; another property's staff find nothing (404)."""
    from casino.services import property_register

    table, hand = _raked_hand(crew, poker_table, as_actor)
    urls = [f"/api/v1/hands/{hand}/phh/", f"/api/v1/hands/{hand}/history/steps/",
            f"/api/v1/poker-tables/{table.pk}/phh/"]
    for role in ("floorperson", "poker_shift_supervisor", "compliance", "finance",
                 "security"):
        client = APIClient()
        client.force_authenticate(make_staff(role))
        assert [client.get(u).status_code for u in urls] == [200] * 3, role
    assert [as_actor(crew["dealer"]).get(u).status_code for u in urls] == [403] * 3
    other = property_register(licence_number="PA-ELSEWHERE-9", name="Elsewhere",
                              system="test")
    outsider = APIClient()
    outsider.force_authenticate(make_staff("floorperson", property=other))
    assert [outsider.get(u).status_code for u in urls] == [404] * 3


def test_a_misdealt_hand_is_listed_as_void_and_left_out_of_the_days_file(
        crew, poker_table, as_actor) -> None:
    """§ 637a.18(g): misdealt cards go back for a reshuffle and every bet is returned; the
    hand was not played, so the day's file leaves it out and names it in ``voided``. Its
    own file still exists, marked ``_pa_voided``, its stacks the starting ones."""
    setup = poker_table("holdem", **TIME_CHARGE_ONLY)
    dealer, floor = as_actor(crew["dealer"]), as_actor(crew["floor"])
    _seat(dealer, setup["table"], {1: 10_000, 2: 10_000, 3: 10_000})
    void = _start(dealer, setup)["round_id"]
    _play(dealer, void, [{"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                    "3": ["2c", "7d"]}},
                         {"type": "misdeal", "reason": "wrong_starting_position"}])
    played = _start(dealer, setup, deck_no=1)["round_id"]
    h = _play(dealer, played, [{"type": "deal", "cards": {
        "1": ["2c", "3d"], "2": ["4h", "9d"], "3": ["Kc", "Ks"]}}])
    while not h["over"]:  # whoever is to act folds: the big blind takes the blinds
        h = _play(dealer, played, [A(h["to_act"], "fold")])
    out = floor.get(f"/api/v1/poker-tables/{setup['table'].pk}/phh/?format=json").json()
    assert (out["hands"], out["voided"]) == (1, [1])
    assert [s["_pa_hand_number"] for s in tomllib.loads(out["phh"]).values()] == [2]
    own = tomllib.loads(floor.get(f"/api/v1/hands/{void}/phh/").content.decode())
    assert own["_pa_voided"] is True and own["finishing_stacks"] == own["starting_stacks"]
