"""House-banked rounds through the API: from the round gate through wagers, the deal,
decisions and the lock to the close, the reconstruction and the table results. Amounts
are worked out by hand from the chapters (the working is in each docstring)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict
from rest_framework.test import APIClient

from casino.eventstore import projections
from casino.eventstore.store import head, read_stream
from tables.domain.banked import rebuild
from tables.models import TableResult
from tables.services import rounds
from tests.conftest import token_client
from tests.tables._api import ok as _ok
from tests.tables._api import problem as _problem

pytestmark = pytest.mark.django_db
V1 = "/api/v1"
SCRIPTS = Path(__file__).parent / "banked" / "scripts"


def _client(actor: Any) -> APIClient:
    return token_client(get_user_model().objects.get(username=actor.username))


@pytest.fixture
def at_table(crew, staff, open_table, deck_in_play) -> Any:
    """``at_table(game)`` → (dealer client, floorperson client, round id, table id), the
    round opened by the round gate on an open table with a deck in play."""
    def make(game: str) -> tuple[APIClient, APIClient, str, str]:
        table = open_table(game)
        deck = deck_in_play(table)
        rnd = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
        return _client(crew["dealer"]), _client(crew["floor"]), str(rnd.pk), str(table.pk)
    return make


def _post(c: APIClient, rid: str, path: str, body: dict | None = None, status: int = 200
          ) -> dict:
    return _ok(c.post(f"{V1}/rounds/{rid}/{path}", body or {}, format="json"), status)


def _hilo_dealt(c: APIClient, rid: str, tie: int | None = None) -> None:
    """Position 1 with an Ante of 10.00 (and a Tie Wager of ``tie``), dealt K-Q-9-3-2
    against the dealer's J-10-8-6-4: awaiting the player's decision."""
    _post(c, rid, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    if tie is not None:
        _post(c, rid, "wagers/", {"position": 1, "wager": "tie", "amount": tie})
    _post(c, rid, "no-more-bets/")
    _post(c, rid, "deal/", {"hands": {"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                            "dealer": ["Jh", "Tc", "8s", "6d", "4c"]})


def _returned(reconstruction: dict) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for line in reconstruction["lines"]:
        out.setdefault(str(line["position"]), {})[line["wager"]] = line["returned_cents"]
    return out


def _results(client: APIClient, table_id: str) -> dict[str, dict]:
    body = _ok(client.get(f"{V1}/tables/{table_id}/results/"))
    return {r["wager"]: {k: r[k] for k in ("wagered_cents", "returned_cents",
                                            "house_win_cents", "rounds")}
            for r in body["rows"]}


# --- full rounds, one per game ---------------------------------------------------------------

def test_lunar_589_exchange_of_five_makes_a_straight(at_table, staff) -> None:
    """§ 589.11(d)(2)(i)(B), § 589.11(d)(2)(iii), § 589.11(e)(1)(ii), § 589.12(c).

    Ante 10.00; the player pays the Options fee (= Ante, 10.00) and exchanges all five
    cards for 6-7-8-9-10 (a straight), then bets 2 x Ante = 20.00. The dealer's J-J-5-4-3
    qualifies (a pair); the straight wins: Ante returned (10.00), Bet paid 4 to 1
    (20.00 + 80.00 = 100.00), the fee is kept. Put up 40.00, returned 110.00, house -70.00.
    """
    dealer, floor, rid, tid = at_table("lunar-poker-589")
    r = _post(dealer, rid, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    assert (r["version"], r["phase"]) == (2, "betting")
    _post(dealer, rid, "no-more-bets/", {"expected_version": 2})
    r = _post(dealer, rid, "deal/", {"hands": {"1": ["2c", "3d", "7h", "9s", "Qc"]},
                                     "dealer": ["Jc", "Jh", "5s", "4d", "3h"]})
    assert r["positions"][0]["cards"] == ["2c", "3d", "7h", "9s", "Qc"]
    assert r["dealer_up_card"] == "3h" and r["dealer"] == []
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "exchange", "amount": 1000})
    assert _post(dealer, rid, "lock/")["phase"] == "drawing"
    _post(dealer, rid, "draws/", {"position": 1, "discard": ["2c", "3d", "7h", "9s", "Qc"],
                                  "cards": ["6h", "7d", "8c", "9d", "Ts"]})
    r = _post(dealer, rid, "decisions/", {"position": 1, "decision": "bet"})
    assert r["settled"] and r["positions"][0]["returned_cents"] == {
        "ante": 1000, "options_fee": 0, "bet": 10000}
    closed = _ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    assert closed["state"] == "closed"
    last = read_stream(f"round-{rid}")[-1]
    assert (last.type, last.data["wagered"], last.data["returned"],
            last.data["house_win"]) == ("RoundClosed", 4000, 11000, -7000)
    rec = _ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))
    assert _returned(rec) == {"1": {"ante": 1000, "bet": 10000, "options_fee": 0}}
    assert rec["house_win_cents"] == -7000 and rec["phase"] == "closed"
    assert rec["hands"][0]["cards"] == ["6h", "7d", "8c", "9d", "Ts"]
    assert _results(_client(staff("finance")), tid)["all"] == {
        "wagered_cents": 4000, "returned_cents": 11000, "house_win_cents": -7000, "rounds": 1}


def test_lunar_671a_pair_wins_pair_loses_and_fold(at_table, staff) -> None:
    """§ 671a.11(c)(1), § 671a.11(c)(4), § 671a.11(f)(2)(i), § 671a.11(f)(2)(ii), § 671a.12(d).

    Three players, Ante 10.00 and Super 10.00 each. No hand is eligible for the Super: all
    three collected. P3 folds: Ante collected. Dealer 6-6-Q-J-3 qualifies; P1 9-9-K-8-4
    beats it: Ante returned, Bet 20.00 paid 1 to 1 = 40.00. P2 5-5-A-10-7 loses Ante and
    Bet. Put up 100.00, returned 50.00, house 50.00.
    """
    dealer, floor, rid, tid = at_table("lunar-poker-671a")
    for n in (1, 2, 3):
        for w in ("ante", "super"):
            _post(dealer, rid, "wagers/", {"position": n, "wager": w, "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    _post(dealer, rid, "deal/", {"hands": {"1": ["9s", "9d", "Kc", "8h", "4c"],
                                           "2": ["5c", "5d", "Ah", "Ts", "7d"],
                                           "3": ["2c", "4d", "8s", "Tc", "Jh"]},
                                 "dealer": ["6c", "6h", "Qd", "Js", "3s"],
                                 "dealer_face_up": "3s"})
    for n, d in ((1, "bet"), (2, "bet"), (3, "fold")):
        _post(dealer, rid, "decisions/", {"position": n, "decision": d})
    r = _post(dealer, rid, "lock/")
    assert r["settled"] and r["dealer"] == ["6c", "6h", "Qd", "Js", "3s"]
    _ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    rec = _ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))
    assert _returned(rec) == {"1": {"ante": 1000, "super": 0, "bet": 4000},
                              "2": {"ante": 0, "super": 0, "bet": 0},
                              "3": {"ante": 0, "super": 0}}
    assert rec["house_win_cents"] == 5000
    assert _results(_client(staff("compliance")), tid) == {
        "ante": {"wagered_cents": 3000, "returned_cents": 1000, "house_win_cents": 2000,
                 "rounds": 1},
        "bet": {"wagered_cents": 4000, "returned_cents": 4000, "house_win_cents": 0,
                "rounds": 1},
        "super": {"wagered_cents": 3000, "returned_cents": 0, "house_win_cents": 3000,
                  "rounds": 1},
        "all": {"wagered_cents": 10000, "returned_cents": 5000, "house_win_cents": 5000,
                "rounds": 1}}


def test_hilo_player_wins_both_hands(at_table) -> None:
    """§ 579.6(a), § 579.11(d), § 579.11(g)(1), § 579.11(j)(1)(ii), § 579.12(a).

    Ante 10.00 and Tie 5.00; the player plays (Play = Ante, 10.00) and sets K-Q-9 high (29)
    and 3-2 low (5). Dealer J-10-8 (28) and 6-4 (10): 29 > 28 and 5 < 10, a win: Ante and
    Play paid 1 to 1 (20.00 each), the Tie Wager collected. Put up 25.00, returned 40.00,
    house -15.00.
    """
    dealer, floor, rid, _ = at_table("five-card-hi-lo")
    _hilo_dealt(dealer, rid, tie=500)
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "play"})
    r = _post(dealer, rid, "hands/", {"position": 1, "high": ["Ks", "Qd", "9c"],
                                      "low": ["3h", "2d"]})
    r = _post(dealer, rid, "lock/", {"expected_version": r["version"]})
    assert r["positions"][0]["returned_cents"] == {"ante": 2000, "tie": 0, "play": 2000}
    _ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    rec = _ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))
    assert rec["house_win_cents"] == -1500
    texts = [s["text"] for s in rec["steps"]]
    assert texts[0].startswith("round 1 opened: five-card-hi-lo")
    assert "position 1 set high Ks Qd 9c (29) and low 3h 2d (5)" in texts
    assert texts[-1] == "round closed: wagered $25.00, returned $40.00, house win -$15.00"
    steps = [s["event"] for s in rec["steps"]]
    assert steps.index("CardsDealt") < steps.index("DecisionMade") < steps.index(
        "DecisionsLocked") < steps.index("WagerSettled")
    assert all(s["actor"] for s in rec["steps"])
    why = {(ln["wager"], ln["outcome"]): ln["why"] for ln in rec["lines"]}
    assert "579.11(g)(1)" in why[("ante", "won")]


def test_deal_from_shuffle_deals_five_each_and_never_shows_the_deck(at_table) -> None:
    """§ 589.10(b): an automated dealing shoe deals stacks of five; the order is the
    server's secure shuffle."""
    dealer, floor, rid, _ = at_table("lunar-poker-589")
    _post(dealer, rid, "wagers/", {"position": 2, "wager": "ante", "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    r = _post(dealer, rid, "deal-from-shuffle/")
    assert r["phase"] == "decisions" and len(r["positions"][0]["cards"]) == 5
    assert "deck" not in r["events"][0]["data"]
    state = rebuild([{"type": e.type, "data": e.data} for e in read_stream(f"round-{rid}")])
    assert state.mode == "dealt" and len(state.deck) == 52
    rec = _ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))
    assert all("deck" not in s["details"] for s in rec["steps"])


def test_the_dealer_hole_cards_stay_hidden_until_revealed(at_table) -> None:
    """§ 589.10(b), § 589.11(e): only the dealer's last card is face up until the dealer's
    hand is revealed; the terminal's answer must not carry the others."""
    dealer, _, rid, _ = at_table("lunar-poker-589")
    _post(dealer, rid, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    r = _post(dealer, rid, "deal/", {"hands": {"1": ["9h", "9d", "Kc", "6h", "3s"]},
                                     "dealer": ["Jc", "Jh", "5s", "4d", "3h"]})
    assert r["dealer"] == [] and r["dealer_up_card"] == "3h"
    assert all("dealer" not in e["data"] for e in r["events"])
    play = _ok(dealer.get(f"{V1}/rounds/{rid}/play/"))
    assert play["dealer"] == [] and play["phase"] == "decisions"
    assert play["version"] == r["version"]
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "bet"})
    r = _post(dealer, rid, "lock/")  # the dealer's jacks qualify and beat the nines
    assert r["settled"] and r["dealer"] == ["Jc", "Jh", "5s", "4d", "3h"]


def test_a_position_given_twice_in_a_deal_is_refused(at_table) -> None:
    """§ 589.10(b): each position gets one hand; "1" and "01" are the same position."""
    dealer, _, rid, _ = at_table("lunar-poker-589")
    _post(dealer, rid, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    _refused(dealer, rid, "deal/", {"hands": {"1": ["2c", "3d", "7h", "9s", "Qc"],
                                              "01": ["As", "Ks", "Qs", "Js", "Ts"]},
                                    "dealer": ["Jc", "Jh", "5s", "4d", "3h"]},
             400, "duplicate_position")


def test_json_nested_too_deeply_is_a_400(api_as) -> None:
    """Input built to crash the parser is bad input, not a server error."""
    body = '{"game": "lunar-poker-589", "options": ' + "[" * 100_000 + "]" * 100_000 + "}"
    r = api_as("floorperson").post(f"{V1}/rounds/settle-script/", body,
                                   content_type="application/json")
    _problem(r, 400, "parse_error")


# --- refusals: a code, and nothing appended ---------------------------------------------------

@pytest.fixture
def lunar_dealt(at_table) -> Any:
    """A 589 round with two Antes of 10.00, dealt, awaiting decisions."""
    dealer, floor, rid, _ = at_table("lunar-poker-589")
    for n in (1, 2):
        _post(dealer, rid, "wagers/", {"position": n, "wager": "ante", "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    _post(dealer, rid, "deal/", {"hands": {"1": ["2c", "3d", "7h", "9s", "Qc"],
                                           "2": ["9h", "9d", "Kc", "6h", "3s"]},
                                 "dealer": ["Jc", "Jh", "5s", "4d", "3h"]})
    return dealer, floor, rid


def _refused(client: APIClient, rid: str, path: str, body: dict, status: int, code: str
             ) -> dict:
    before = head()
    problem = _problem(client.post(f"{V1}/rounds/{rid}/{path}", body, format="json"),
                       status, code)
    assert head() == before
    return problem


def test_wager_after_no_more_bets_is_refused(lunar_dealt) -> None:
    """§ 589.7(d): no wager is made after "no more bets"."""
    dealer, _, rid = lunar_dealt
    _refused(dealer, rid, "wagers/", {"position": 3, "wager": "ante", "amount": 1000},
             409, "wager_after_no_more_bets")


def test_a_bet_that_is_not_twice_the_ante_is_refused(lunar_dealt) -> None:
    """§ 589.11(b)(3): the Bet Wager equals twice the Ante."""
    dealer, _, rid = lunar_dealt
    _refused(dealer, rid, "decisions/", {"position": 1, "decision": "bet", "amount": 1500},
             400, "bet_not_twice_ante")


def test_exchanging_one_card_is_refused_and_so_is_a_card_already_dealt(lunar_dealt) -> None:
    """§ 589.11(d)(2)(i)(B): the player exchanges between two and five cards; a card
    already out this round cannot be drawn."""
    dealer, _, rid = lunar_dealt
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "exchange"})
    _post(dealer, rid, "decisions/", {"position": 2, "decision": "bet"})
    _post(dealer, rid, "lock/")
    _refused(dealer, rid, "draws/", {"position": 1, "discard": ["2c"], "cards": ["Ah"]},
             400, "exchange_count")
    _refused(dealer, rid, "draws/", {"position": 1, "discard": ["2c", "3d"],
                                     "cards": ["Ah", "9h"]}, 400, "card_already_dealt")


def test_a_decision_from_a_folded_position_is_refused(lunar_dealt) -> None:
    """§ 589.11(c)(1)(i): a fold forfeits the Ante; the position is out of the round."""
    dealer, _, rid = lunar_dealt
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "fold"})
    _refused(dealer, rid, "decisions/", {"position": 1, "decision": "bet"},
             409, "decision_already_made")


def test_lock_before_every_decision_is_refused(lunar_dealt) -> None:
    """§ 589.11(c): every player decides before all decisions are locked in."""
    dealer, _, rid = lunar_dealt
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "fold"})
    _refused(dealer, rid, "lock/", {}, 409, "decisions_pending")


def test_a_stale_version_is_refused(lunar_dealt) -> None:
    dealer, _, rid = lunar_dealt
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "fold",
                                      "expected_version": 5})
    _refused(dealer, rid, "decisions/", {"position": 2, "decision": "bet",
                                         "expected_version": 5}, 409, "stale_round_version")


def test_roles_are_checked(lunar_dealt, staff) -> None:
    """Wagers, cards and decisions: the assigned dealer or a floorperson; irregularities:
    a floorperson only."""
    dealer, floor, rid = lunar_dealt
    _refused(_client(staff("security")), rid, "decisions/",
             {"position": 1, "decision": "fold"}, 403, "role_required")
    _refused(_client(staff("dealer")), rid, "decisions/",
             {"position": 1, "decision": "fold"}, 403, "not_assigned_to_table")
    _refused(dealer, rid, "irregularities/", {"kind": "shoe_jam"}, 403, "role_required")
    r = _post(floor, rid, "irregularities/", {"kind": "shoe_jam"})
    assert r["settled"] and r["positions"][0]["returned_cents"] == {"ante": 1000}


def test_a_bad_hilo_setting_is_refused(at_table) -> None:
    """§ 579.11(d): three cards high, two low, from the player's own five."""
    dealer, _, rid, _ = at_table("five-card-hi-lo")
    _hilo_dealt(dealer, rid)
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "play"})
    _refused(dealer, rid, "hands/", {"position": 1, "high": ["Ks", "Qd"],
                                     "low": ["9c", "3h", "2d"]}, 400, "invalid_setting")
    _refused(dealer, rid, "hands/", {"position": 1, "high": ["Ks", "Qd", "As"],
                                     "low": ["3h", "2d"]}, 400, "invalid_setting")


def test_close_waits_for_settlement_and_commands_wait_for_close(lunar_dealt) -> None:
    """§ 589.11(f): the round ends when every wager is settled."""
    dealer, _, rid = lunar_dealt
    before = head()
    _problem(dealer.post(f"{V1}/rounds/{rid}/close/"), 409, "round_not_settled")
    assert head() == before
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "fold"})
    _post(dealer, rid, "decisions/", {"position": 2, "decision": "fold"})
    assert _post(dealer, rid, "lock/")["settled"]
    _refused(dealer, rid, "decisions/", {"position": 1, "decision": "bet"}, 409,
             "round_settled")
    _ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    for path, body in (("lock/", {}), ("deal/", {"hands": {}, "dealer": []}),
                       ("draws/", {"position": 1, "discard": [], "cards": []}),
                       ("wagers/", {"position": 1, "wager": "ante", "amount": 1000})):
        _refused(dealer, rid, path, body, 409, "round_closed")


def test_bad_cards_are_a_400_not_a_500(at_table) -> None:
    dealer, _, rid, _ = at_table("lunar-poker-671a")
    _post(dealer, rid, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    _post(dealer, rid, "wagers/", {"position": 1, "wager": "super", "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    _refused(dealer, rid, "deal/", {"hands": {"1": ["Xx", "Ks", "Qs", "Js", "9d"]},
                                    "dealer": ["2c", "3c", "4c", "5c", "7d"]}, 400,
             "invalid_card")
    _refused(dealer, rid, "deal/", {"hands": {"1": ["As", "Ks", "Qs", "Js", "9d"]},
                                    "dealer": ["As", "3c", "4c", "5c", "7d"]}, 400,
             "duplicate_card")


# --- the dispute calculator, the projection -------------------------------------------------

def test_dispute_calculator_settles_a_script_and_records_nothing(api_as) -> None:
    """§ 589.11(e)(1)(ii), § 589.12(c): the hand-worked fixture comes back exactly."""
    script = json.loads((SCRIPTS / "lunar589_dealer_qualifies_pair_beats_ace_king.json")
                        .read_text())
    supervisor, dealer, compliance = (api_as("poker_shift_supervisor"), api_as("dealer"),
                                      api_as("compliance"))
    before = head()
    body = _ok(supervisor.post(f"{V1}/rounds/settle-script/", script, format="json"))
    assert head() == before
    assert body["returned_by_position_cents"] == {"1": {"ante": 1000, "bet": 4000},
                                "2": {"ante": 2500, "bet": 10000}}
    assert (body["house_win_cents"], body["matches_expected"]) == (-7000, True)
    assert body["events"][0]["type"] == "RoundOpened"
    _problem(dealer.post(f"{V1}/rounds/settle-script/", script, format="json"),
             403, "role_required")
    bad = {**script, "positions": [{**script["positions"][0], "cards": ["As"]}]}
    _problem(compliance.post(f"{V1}/rounds/settle-script/", bad, format="json"),
             400, "wrong_card_count")
    _problem(compliance.post(f"{V1}/rounds/settle-script/", {**script, "positions": [7]},
                             format="json"), 400, "invalid_script")
    assert head() == before


def _result_rows() -> list[tuple]:
    return sorted(tuple(sorted(model_to_dict(r, exclude=["id"]).items()))
                  for r in TableResult.objects.all())


def test_table_results_rebuild_from_the_events(at_table, staff) -> None:
    dealer, floor, rid, tid = at_table("five-card-hi-lo")
    _hilo_dealt(dealer, rid)
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "forfeit"})
    _post(dealer, rid, "lock/")
    _ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    rows = _result_rows()
    assert len(rows) == 2  # ante and all
    projections.rebuild("tables")
    assert _result_rows() == rows
    assert _results(floor, tid)["ante"] == {"wagered_cents": 1000, "returned_cents": 0,
                                            "house_win_cents": 1000, "rounds": 1}
    _problem(_client(staff("dealer")).get(f"{V1}/tables/{tid}/results/"), 403,
             "role_required")


@pytest.mark.parametrize("path", sorted(SCRIPTS.glob("*.json")), ids=lambda p: p.stem)
def test_settled_is_exactly_where_the_domain_closes(path: Path) -> None:
    """The service holds back the domain's RoundClosed until round_close; it must see a
    round as settled exactly where the domain closed it, and never before the lock."""
    from tables.domain.banked import settle_script
    from tables.services.banked import awaiting_close

    events = settle_script(json.loads(path.read_text()))["events"]
    assert events[-1]["type"] == "RoundClosed"
    assert awaiting_close(rebuild(events[:-1]))
    if not any(e["type"] == "RoundVoided" for e in events):
        locked = next(i for i, e in enumerate(events) if e["type"] == "DecisionsLocked")
        assert not any(awaiting_close(rebuild(events[:k])) for k in range(1, locked + 1))


def test_after_no_force_the_round_answers_settled_589_11_e_2(at_table) -> None:
    """§ 589.11(e)(2)(i), § 589.11(f): the dealer's Q-J-7-5-4 does not qualify (ace-king or
    better is needed); the player with a pair of nines does not force, so the Ante is paid
    1 to 1 (10.00 + 10.00 = 20.00) and the Bet of 20.00 is returned. Every wager is then
    settled: the answer says "settled", not "forcing" beside ``settled: true``."""
    dealer, floor, rid, _ = at_table("lunar-poker-589")
    _post(dealer, rid, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    _post(dealer, rid, "deal/", {"hands": {"1": ["9h", "9d", "Kc", "6h", "3s"]},
                                 "dealer": ["Qh", "Js", "4h", "5s", "7d"]})
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "bet"})
    offered = _post(dealer, rid, "lock/")
    assert (offered["phase"], offered["settled"]) == ("forcing", False)
    r = _post(dealer, rid, "decisions/", {"position": 1, "decision": "no_force"})
    assert r["positions"][0]["returned_cents"] == {"ante": 2000, "bet": 2000}
    assert (r["phase"], r["settled"]) == ("settled", True)
    play = _ok(dealer.get(f"{V1}/rounds/{rid}/play/"))
    assert (play["phase"], play["settled"]) == ("settled", True)
    assert _ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))["phase"] == "settled"
    _ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    assert _ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))["phase"] == "closed"
