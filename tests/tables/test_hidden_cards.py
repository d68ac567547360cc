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


# --- the console's pages that read stored events themselves (issue 23 item 4) --------------

def _console(actor: Any) -> Any:
    """A browser session (Django's test client) of ``actor``'s login, the second factor
    given where the role needs it."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    return verified_login(Client(), get_user_model().objects.get(pk=actor.user_id))


def _history(client: Any, person: Any) -> str:
    """The History section of ``person``'s page in the console (staff managers)."""
    page = client.get(f"/console/staff/{person.user_id}/")
    assert page.status_code == 200
    html = page.content.decode()
    return html.split('id="history-heading"', 1)[1]


def _changed(client: Any, url: str, hidden: dict[str, str]) -> str:
    """POST a form opened before its stream moved on: 409 and the "what changed" list."""
    from casino.eventstore.models import Event

    before = Event.objects.count()
    r = client.post(url, hidden)
    assert r.status_code == 409
    assert Event.objects.count() == before
    html = r.content.decode()
    assert "This changed since you opened it." in html
    return html.split('class="command-changes"', 1)[1].split("</ul>", 1)[0]


def _hidden(response: Any) -> dict[str, str]:
    import re

    assert response.status_code == 200
    return dict(re.findall(r'<input type="hidden" name="(_\w+)" value="([^"]*)"',
                           response.content.decode()))


def _cards_in(text: str, cards: tuple[str, ...]) -> list[str]:
    import re

    return [c for c in cards if re.search(rf"(?<![\w]){c}(?![\w])", text)]


def test_the_console_hides_a_live_rounds_dealer_cards_from_a_person_page_and_a_stale_form(
        at_table, crew, staff) -> None:  # noqa: ANN001, F811
    """A compliance officer or administrator reading the dealer's page in the console, and
    a dealer whose "close the round" form went stale on the deal, read the deal as the
    event log shows it: the dealer's face-down cards only once the round is locked."""
    dealer_api, _, rid, _ = at_table("lunar-poker-671a")
    dealer = _console(crew["dealer"])
    url = f"/console/do/round_close/{rid}/"
    opened = _hidden(dealer.get(url))  # before the deal
    for w in ("ante", "super"):
        _post(dealer_api, rid, "wagers/", {"position": 1, "wager": w, "amount": 1000})
    _post(dealer_api, rid, "no-more-bets/")
    _post(dealer_api, rid, "deal/", {"hands": {"1": ["9s", "9d", "Kc", "8h", "4c"]},
                                     "dealer": [*FACE_DOWN, FACE_UP],
                                     "dealer_face_up": FACE_UP})
    changed = _changed(dealer, url, opened)
    assert "dealt: position 1 9s 9d Kc 8h 4c" in changed  # the deal is named ...
    assert _cards_in(changed, FACE_DOWN) == []  # ... never its face-down cards
    readers = [_console(staff("compliance")), _console(staff("admin"))]
    for reader in readers:
        history = _history(reader, crew["dealer"])
        assert "dealt: position 1 9s 9d Kc 8h 4c" in history
        assert _cards_in(history, FACE_DOWN) == []
    # locked: the dealer's cards are turned up, every page shows them
    _post(dealer_api, rid, "decisions/", {"position": 1, "decision": "bet"})
    _post(dealer_api, rid, "lock/")
    assert _cards_in(_history(readers[0], crew["dealer"]), FACE_DOWN) == list(FACE_DOWN)


HOLE = ("As", "Ad", "Ks", "Kd", "2c", "7d")


def test_the_console_hides_a_poker_hands_hole_cards_until_it_is_over(
        crew, staff, open_table, put_rules_in_effect) -> None:  # noqa: ANN001, F811
    """A poker hand's hole cards (637a.11) are face down until the hand is over: the
    dealer's page read by compliance and a floor ruling form that went stale on the deal
    name the deal without its cards."""
    from tables.demo import deck_ready

    table = open_table("holdem")
    deck, _ = (deck_ready(table, crew["dealer"], crew["floor"], colour, batch=colour)
               for colour in ("red", "blue"))  # 637a.3(a): two decks in play
    api = _client(crew["dealer"])
    for seat in (1, 2, 3):
        ok(api.post(f"{V1}/poker-tables/{table.pk}/seats/take/",
                    {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                    format="json"), 201)
    hand = ok(api.post(f"{V1}/poker-tables/{table.pk}/hands/", {"deck_id": str(deck.pk)},
                       format="json"), 201)
    floor = _console(crew["floor"])
    url = f"/console/do/floor_ruling/{hand['round_id']}/"
    opened = {**_hidden(floor.get(url)), "ruling": "Seat 2's cards stand."}
    ok(api.post(f"{V1}/hands/{hand['round_id']}/commands/", {
        "commands": [{"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"],
                                                "3": ["2c", "7d"]}}],
        "expected_version": hand["version"]}, format="json"))
    changed = _changed(floor, url, opened)
    assert "Dealt: seat 1 ?? ??" in changed and _cards_in(changed, HOLE) == []
    history = _history(_console(staff("compliance")), crew["dealer"])
    assert "Dealt: seat 1 ?? ??" in history and _cards_in(history, HOLE) == []
