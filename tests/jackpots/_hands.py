"""Hold'em hands through the dealer terminal's API that pay into both funds."""

from __future__ import annotations

from typing import Any

#: 637a.11: three players, the example Rules Submission ($4/$8 fixed limit, blinds $2 and
#: $4, 10 % rake capped at $5 in $1 chips, $1 to each fund from pots of $20 (Bad Beat)
#: and $10 (High Hand)). Before the flop the first player raises to $8 and both others
#: call: a $24 pot; then every round is checked. Rake 10 % of $24 = $2.40, $2 in chips;
#: $22 left, $1 to the bad-beat fund and $1 to the high-hand fund, one pot.
HOLE = [["As", "Ad"], ["Ks", "Kd"], ["2c", "7d"], ["4h", "6d"]]  # (the fourth for four seats)
BOARD = [["Ac", "5h", "9s"], ["Jd"], ["3c"]]


def seat_three(client: Any, table: Any) -> None:
    for seat in (1, 2, 3):
        r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                        format="json")
        assert r.status_code == 201, r.json()


def _send(client: Any, h: dict[str, Any], command: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/v1/hands/{h['round_id']}/commands/",
                    {"commands": [command], "expected_version": h["version"]}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()


def play_hand(client: Any, table: Any) -> dict[str, Any]:
    """One hand from the start (the deck due) to the pot; the last answer."""
    r = client.post(f"/api/v1/poker-tables/{table.pk}/hands/", {}, format="json")
    assert r.status_code == 201, r.json()
    h = r.json()
    h = _send(client, h, {"type": "deal", "cards": {
        str(s["seat"]): HOLE[k] for k, s in enumerate(h["seats"])}})
    board, raised = list(BOARD), False
    while not h["over"]:
        if h["phase"] == "dealing":
            h = _send(client, h, {"type": "deal", "cards": board.pop(0)})
            continue
        acts = h["legal_actions"]["actions"]
        action = "raise" if not raised and "raise" in acts else \
            "check" if "check" in acts else "call"
        raised = raised or action == "raise"
        h = _send(client, h, {"type": "act", "seat": h["to_act"], "action": action})
    return h


def seat_four(client: Any, table: Any) -> None:
    for seat in (1, 2, 3, 4):
        r = client.post(f"/api/v1/poker-tables/{table.pk}/seats/take/",
                        {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                        format="json")
        assert r.status_code == 201, r.json()


def _act(seat: int, action: str) -> dict[str, Any]:
    return {"type": "act", "seat": seat, "action": action}


def play_bad_beat(client: Any, table: Any, qualifies: bool = True) -> dict[str, Any]:
    """637a.15(b)(3): the example submission's Bad Beat (four eights or better beaten, both
    hole cards playing, four players dealt in, a pot of $20). Four players, button seat 4
    on the first hand (tests/poker_room/test_hands_api.py): seat 1 (8s 8h) makes four
    eights, seat 2 (As Ts) a royal flush; seats 3 and 4 fold. Pot $72: rake $5, $1 to
    each fund. The button moves each hand, so the actions follow ``to_act``."""
    r = client.post(f"/api/v1/poker-tables/{table.pk}/hands/", {}, format="json")
    assert r.status_code == 201, r.json()
    h = r.json()
    h = _send(client, h, {"type": "deal", "cards": {
        "1": ["8s", "8h"], "2": ["As", "Ts"], "3": ["2c", "7d"], "4": ["3c", "9d"]}})
    # before the flop: 3 and 4 fold, 1 and 2 see the flop; then 1 bets and 2 raises on
    # every street and 1 calls
    board = [["8c", "8d", "Ks"], ["Qs"], ["Js"]]
    while not h["over"]:
        if h["phase"] == "dealing":
            h = _send(client, h, {"type": "deal", "cards": board.pop(0)})
            continue
        seat, acts = h["to_act"], h["legal_actions"]["actions"]
        if seat in (3, 4):
            action = "fold" if "fold" in acts else "check"
        elif not h["board"]:
            action = "check" if "check" in acts else "call"
        elif seat == 1:
            action = next(a for a in ("bet", "call", "check") if a in acts)
        else:
            action = next(a for a in ("raise", "bet", "call", "check") if a in acts)
        h = _send(client, h, _act(seat, action))
    # (``qualifies=False``: at a table that does not offer the Bad Beat, 637a.2(e))
    assert any(e["type"] == "BadBeatQualified" for e in h["events"]) is qualifies, \
        h["events"]
    return h
