"""Batch commands through the API (issue 12, item 2): a terminal holding several commands
sends them as one — every wager then "no more bets", every decision with "lock". One
command, one commit, one event per fact; refused whole if any part is. The amounts are
the hand-worked rounds of ``test_banked_api`` (same deals, same chapters), so a batch
must settle exactly as the same commands sent one at a time."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from casino.eventstore.store import head, read_stream
from tests.tables._api import ok as _ok
from tests.tables._api import problem as _problem
from tests.tables.test_banked_api import V1, _post, _returned, at_table  # noqa: F401

pytestmark = pytest.mark.django_db

DEAL_671A = {"hands": {"1": ["9s", "9d", "Kc", "8h", "4c"],
                       "2": ["5c", "5d", "Ah", "Ts", "7d"],
                       "3": ["2c", "4d", "8s", "Tc", "Jh"]},
             "dealer": ["6c", "6h", "Qd", "Js", "3s"], "dealer_face_up": "3s"}


def _one_commit(stream_id: str, versions: range) -> bool:
    """The events at ``versions`` were appended by one transaction (PostgreSQL: one
    transaction id in their positions, migration casino/0006). SQLite has one writer and
    gapless positions, so there the batch's single version step is what is checked."""
    events = [e for e in read_stream(stream_id) if e.version in versions]
    assert [e.version for e in events] == list(versions)
    if connection.vendor != "postgresql":
        return True
    return len({e.position >> 16 for e in events}) == 1


def test_lunar_671a_round_in_two_batches_settles_as_one_at_a_time(at_table) -> None:
    """§ 671a.7(c)(2), § 671a.11(c)(1), § 671a.11(f)(2)(i), § 671a.12(d).

    The round of ``test_lunar_671a_pair_wins_pair_loses_and_fold``: three players with
    Ante 10.00 and Super 10.00 each, sent as one batch with "no more bets" (6 wagers + 1
    announcement = 7 events, one commit); the three decisions (bet, bet, fold) sent with
    "lock". P1 9-9-K-8-4 beats the dealer's qualifying 6-6-Q-J-3: Ante returned, Bet
    20.00 paid 1 to 1 = 40.00; P2 loses Ante and Bet; P3 folds. Put up 100.00, returned
    50.00, house 50.00.
    """
    dealer, floor, rid, _ = at_table("lunar-poker-671a")
    r = _post(dealer, rid, "wagers/batch/", {
        "expected_version": 1, "no_more_bets": True,
        "wagers": [{"position": n, "wager": w, "amount": 1000}
                   for n in (1, 2, 3) for w in ("ante", "super")]})
    assert r["version"] == 1 + 7 and r["phase"] == "dealing"
    assert _one_commit(f"round-{rid}", range(2, 9))
    _post(dealer, rid, "deal/", DEAL_671A)
    r = _post(dealer, rid, "lock/", {"decisions": [
        {"position": 1, "decision": "bet"}, {"position": 2, "decision": "bet"},
        {"position": 3, "decision": "fold"}]})
    assert r["settled"]
    _ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    rec = _ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))
    assert _returned(rec) == {"1": {"ante": 1000, "super": 0, "bet": 4000},
                              "2": {"ante": 0, "super": 0, "bet": 0},
                              "3": {"ante": 0, "super": 0}}
    assert rec["house_win_cents"] == 5000
    decided = [e for e in read_stream(f"round-{rid}") if e.type == "DecisionMade"]
    assert [(e.data["position"], e.data["decision"]) for e in decided] == [
        (1, "bet"), (2, "bet"), (3, "fold")]  # one event per decision


def test_hilo_play_and_setting_sent_with_lock(at_table) -> None:
    """§ 579.11(d), § 579.11(g)(1), § 579.12(a).

    The round of ``test_hilo_player_wins_both_hands``: Ante 10.00 and Tie 5.00 (one
    batch with "no more bets"); the player's play and its setting, K-Q-9 high (29) and
    3-2 low (5) against J-10-8 (28) and 6-4 (10), sent with "lock": Ante and Play paid
    1 to 1 (20.00 each), the Tie Wager collected.
    """
    dealer, _, rid, _ = at_table("five-card-hi-lo")
    _post(dealer, rid, "wagers/batch/", {"no_more_bets": True, "wagers": [
        {"position": 1, "wager": "ante", "amount": 1000},
        {"position": 1, "wager": "tie", "amount": 500}]})
    _post(dealer, rid, "deal/", {"hands": {"1": ["Ks", "Qd", "9c", "3h", "2d"]},
                                 "dealer": ["Jh", "Tc", "8s", "6d", "4c"]})
    r = _post(dealer, rid, "lock/", {"decisions": [
        {"position": 1, "decision": "play"},
        {"position": 1, "high": ["Ks", "Qd", "9c"], "low": ["3h", "2d"]}]})
    assert r["positions"][0]["returned_cents"] == {"ante": 2000, "tie": 0, "play": 2000}


def _refused(client: Any, rid: str, path: str, body: dict, status: int, code: str) -> None:
    before = head()
    _problem(client.post(f"{V1}/rounds/{rid}/{path}", body, format="json"), status, code)
    assert head() == before


def test_a_batch_with_one_refused_wager_appends_nothing(at_table) -> None:
    """§ 589.7: the second Ante at position 1 is refused, so none of the batch is kept,
    not the wagers before it and not "no more bets"."""
    dealer, _, rid, _ = at_table("lunar-poker-589")
    _refused(dealer, rid, "wagers/batch/", {"no_more_bets": True, "wagers": [
        {"position": 1, "wager": "ante", "amount": 1000},
        {"position": 2, "wager": "ante", "amount": 1000},
        {"position": 1, "wager": "ante", "amount": 1000}]}, 409, "wager_already_placed")
    assert [e.type for e in read_stream(f"round-{rid}")] == ["RoundOpened"]


def test_a_lock_with_one_refused_decision_appends_nothing(at_table) -> None:
    """§ 589.11(b)(3): a Bet is twice the Ante; the second decision's 15.00 is refused, so
    neither decision is recorded and nothing is locked."""
    dealer, _, rid, _ = at_table("lunar-poker-589")
    _post(dealer, rid, "wagers/batch/", {"no_more_bets": True, "wagers": [
        {"position": n, "wager": "ante", "amount": 1000} for n in (1, 2)]})
    _post(dealer, rid, "deal/", {"hands": {"1": ["2c", "3d", "7h", "9s", "Qc"],
                                           "2": ["9h", "9d", "Kc", "6h", "3s"]},
                                 "dealer": ["Jc", "Jh", "5s", "4d", "3h"]})
    _refused(dealer, rid, "lock/", {"decisions": [
        {"position": 1, "decision": "fold"},
        {"position": 2, "decision": "bet", "amount": 1500}]}, 400, "bet_not_twice_ante")


@pytest.mark.parametrize("body", [
    {"wagers": []},
    {"wagers": [{"position": 1, "wager": "ante", "amount": 100}] * 61},
    {"wagers": [{"position": 1, "wager": "ante"}]},
    {"wagers": "ante"},
])
def test_malformed_batches_are_a_400(at_table, body: dict) -> None:
    dealer, _, rid, _ = at_table("lunar-poker-589")
    _refused(dealer, rid, "wagers/batch/", body, 400, "invalid_input")
