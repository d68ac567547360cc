"""What a person may see is a domain rule (DESIGN §2): the dealer's face-down cards of a
house-banked round appear in no interface until the dealer turns them up or the round is
over (tables.domain.banked.visibility), the same for the command answers, GET play, the
reconstruction and the admin's event history."""

from __future__ import annotations

import json
from typing import Any

import pytest

from casino.eventstore.store import read_stream
from tables.domain.banked import rebuild
from tables.domain.banked.visibility import (
    Audience,
    dealer_cards,
    dealer_visible,
    deck_visible,
    event_data,
)
from tables.services import banked
from tests.tables._api import ok
from tests.tables.test_banked_api import _client, _post, at_table  # noqa: F401  fixture
from tests.console.conftest import verified_login  # the second factor given

pytestmark = pytest.mark.django_db
V1 = "/api/v1"
FACE_DOWN = ("6c", "6h", "Qd", "Js")
FACE_UP = "3s"


def _shows_face_down(body: Any) -> list[str]:
    text = json.dumps(body)
    return [c for c in FACE_DOWN if f'"{c}"' in text]


def _dealt(at_table: Any) -> tuple[Any, Any, str, dict]:  # noqa: F811
    dealer, floor, rid, _ = at_table("lunar-poker-671a")
    for w in ("ante", "super"):  # 671a.7(c)(2): a Super Wager on one's hand
        _post(dealer, rid, "wagers/", {"position": 1, "wager": w, "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    answer = _post(dealer, rid, "deal/", {"hands": {"1": ["9s", "9d", "Kc", "8h", "4c"]},
                                          "dealer": [*FACE_DOWN, FACE_UP],
                                          "dealer_face_up": FACE_UP})
    return dealer, floor, rid, answer


@pytest.fixture
def admin_client(make_staff, client) -> Any:  # noqa: ANN001
    verified_login(client, make_staff("admin", admin_site=True))
    return client


def _admin_history(admin_client: Any, rid: str) -> str:
    page = admin_client.get(f"/admin/tables/round/{rid}/change/")
    assert page.status_code == 200
    return page.content.decode()


def test_dealt_not_locked_the_face_down_cards_appear_nowhere(
        at_table, admin_client, staff) -> None:  # noqa: ANN001, F811
    dealer, floor, rid, answer = _dealt(at_table)
    # the command's answer
    assert answer["dealer"] == [] and answer["dealer_up_card"] == FACE_UP
    assert _shows_face_down(answer) == []
    assert [e["type"] for e in answer["events"]] == ["CardsDealt"]
    assert "dealer" not in answer["events"][0]["data"]
    # GET play
    play = ok(dealer.get(f"{V1}/rounds/{rid}/play/"))
    assert play["dealer"] == [] and _shows_face_down(play) == []
    # the reconstruction, for audit roles, before settlement
    for who in (floor, _client(staff("compliance")), _client(staff("finance"))):
        rec = ok(who.get(f"{V1}/rounds/{rid}/reconstruction"))
        assert rec["dealer"] == [] and _shows_face_down(rec) == []
        dealt = next(s for s in rec["steps"] if s["event"] == "CardsDealt")
        assert "dealer: face down (face up 3s)" in dealt["text"]
    # the admin's event history of the round
    assert "&quot;dealer&quot;:" not in _admin_history(admin_client, rid)


def test_after_the_lock_the_dealer_is_shown_everywhere(
        at_table, admin_client) -> None:  # noqa: ANN001, F811
    dealer, floor, rid, _ = _dealt(at_table)
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "bet"})
    locked = _post(dealer, rid, "lock/")
    assert locked["settled"] and locked["dealer"] == [*FACE_DOWN, FACE_UP]
    assert ok(dealer.get(f"{V1}/rounds/{rid}/play/"))["dealer"] == [*FACE_DOWN, FACE_UP]
    rec = ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))
    assert rec["dealer"] == [*FACE_DOWN, FACE_UP]
    dealt = next(s for s in rec["steps"] if s["event"] == "CardsDealt")
    assert dealt["details"]["dealer"] == [*FACE_DOWN, FACE_UP]
    assert "&quot;dealer&quot;:" in _admin_history(admin_client, rid)
    ok(dealer.post(f"{V1}/rounds/{rid}/close/"))
    assert ok(floor.get(f"{V1}/rounds/{rid}/reconstruction"))["dealer"] == [
        *FACE_DOWN, FACE_UP]


def test_a_dealt_deck_is_audit_only_and_only_once_the_round_is_over(
        at_table) -> None:  # noqa: F811
    """A round the server deals: the shuffled deck (the dealer's cards and every card to
    come) is never in a terminal's answer; audit roles see it once the round is over."""
    dealer, floor, rid, _ = at_table("five-card-hi-lo")
    _post(dealer, rid, "wagers/", {"position": 1, "wager": "ante", "amount": 1000})
    _post(dealer, rid, "no-more-bets/")
    answer = _post(dealer, rid, "deal-from-shuffle/")
    assert "deck" not in answer["events"][0]["data"]
    assert "dealer" not in answer["events"][0]["data"]
    recorded = read_stream(f"round-{rid}")
    state = rebuild(banked.domain_events(recorded))
    dealt = next(e for e in recorded if e.type == "CardsDealt")
    for audience in Audience:
        assert not dealer_visible(state, audience) and not deck_visible(state, audience)
        assert dealer_cards(state, audience) == ()
        assert {"deck", "dealer"}.isdisjoint(event_data(dealt.type, dealt.data, state,
                                                        audience))
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "forfeit"})
    _post(dealer, rid, "lock/")
    recorded = read_stream(f"round-{rid}")
    state = rebuild(banked.domain_events(recorded))
    assert banked.awaiting_close(state)
    terminal = event_data(dealt.type, dealt.data, state, Audience.TERMINAL)
    audit = event_data(dealt.type, dealt.data, state, Audience.AUDIT)
    assert "dealer" in terminal and "deck" not in terminal
    assert "dealer" in audit and "deck" in audit


def _dealt_event(client: Any, path: str) -> dict:
    body = ok(client.get(path))
    return next(e for e in body["results"] if e["type"] == "CardsDealt")["data"]


def test_the_event_log_shows_the_dealer_to_audit_roles_only_once_over(
        at_table, staff) -> None:  # noqa: ANN001, F811
    """Compliance and finance read the event log as audit roles: everything, but the
    dealer's face-down cards only once turned up or the round is over."""
    dealer, floor, rid, _ = _dealt(at_table)
    readers = [_client(staff("compliance")), _client(staff("finance"))]
    paths = [f"{V1}/streams/round-{rid}/events/", f"{V1}/events/?stream_type=round&limit=500",
             f"{V1}/events/?type=CardsDealt&limit=500"]
    for who in readers:
        for path in paths:
            data = _dealt_event(who, path)
            assert "dealer" not in data and data["dealer_up_card"] is not None
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "bet"})
    _post(dealer, rid, "lock/")
    for who in readers:
        for path in paths:
            assert len(_dealt_event(who, path)["dealer"]) == 5


def test_the_event_admin_page_hides_the_dealer_until_over(
        at_table, admin_client) -> None:  # noqa: ANN001, F811
    from casino.eventstore.models import Event

    dealer, floor, rid, _ = _dealt(at_table)
    dealt = Event.objects.get(stream_id=f"round-{rid}", type="CardsDealt")
    url = f"/admin/casino/event/{dealt.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    assert "&quot;dealer&quot;:" not in page.content.decode()
    _post(dealer, rid, "decisions/", {"position": 1, "decision": "bet"})
    _post(dealer, rid, "lock/")
    assert "&quot;dealer&quot;:" in admin_client.get(url).content.decode()
