"""The poker dispute calculator (§ 637a.18(a): in every dispute the poker shift
supervisor's decision is final). The supervisor posts the disputed hand's script and gets
the pots, the awards, the rake, the contributions and the stacks, worked by the same
engine as the table and recorded nowhere. Figures are worked by hand from the chapter."""

from __future__ import annotations

import random
from typing import Any

import pytest

from casino.domain.cards import format_card
from casino.models import Event
from tables.domain.rules_options import example_options
from tables.models import Round, RulesSubmission

pytestmark = pytest.mark.django_db
URL = "/api/v1/poker-settle-script/"

A = lambda seat, action, to=None: {  # noqa: E731
    "type": "act", "seat": seat, "action": action, **({"amount": to} if to else {})}
#: the example Rules Submission's $4/$8 fixed-limit Hold'em (test_hand_histories' hand)
HOLDEM = [
    {"type": "deal", "cards": {"1": ["As", "Ad"], "2": ["Ks", "Kd"], "3": ["Qc", "Jc"],
                               "4": ["7h", "2s"]}},
    A(3, "raise"), A(4, "fold"), A(1, "call"), A(2, "call"),
    {"type": "deal", "cards": ["Ah", "9c", "4d"]}, A(1, "bet"), A(2, "call"), A(3, "fold"),
    {"type": "deal", "cards": ["5s"]}, A(1, "check"), A(2, "check"),
    {"type": "deal", "cards": ["Tc"]}, A(1, "bet"), A(2, "call")]
FOUR = {"1": 10_000, "2": 10_000, "3": 10_000, "4": 10_000}
#: the example options as no-limit, $4 minimum bet (637a.8(k))
NO_LIMIT = {**example_options("holdem"), "structure": "no-limit", "minimum_bet_cents": 400,
            "small_bet_cents": None, "big_bet_cents": None, "table_maximum_cents": 40_000}


def _deck(*named: str) -> list[str]:
    return list(named) + [format_card(c) for c in range(52) if format_card(c) not in named]


@pytest.fixture
def supervisor(staff, as_actor) -> Any:
    return as_actor(staff("poker_shift_supervisor"))


@pytest.fixture
def rules_id(poker_table) -> str:
    """The Rules Submission in effect at a Hold'em table of the property."""
    poker_table("holdem")
    return str(RulesSubmission.objects.filter(game="holdem").order_by("-version_number")
               .values_list("pk", flat=True).first())


def _unchanged() -> tuple[int, int]:
    return Event.objects.count(), Round.objects.count()


def test_a_hand_worked_out_under_the_tables_rules_submission(supervisor, rules_id) -> None:
    """§ 637a.18(a), § 637a.17(b)(1), § 637a.15(c), § 637a.16(c). Blinds $2 and $4; seat 3
    raises to $8, seat 4 folds, seats 1 and 2 call ($24); flop: seat 1 bets $4, seat 2
    calls, seat 3 folds ($32); turn checked; river: $8 bet and called: $48. Rake 10 % =
    $4.80, in $1 chips $4; $1 to the Bad Beat fund (the pot is over $20) and $1 to the High
    Hand fund (over $10); seat 1's three aces take $42: $122, $80, $92, $100."""
    before = _unchanged()
    script = {"rules_submission_id": rules_id, "button": 4, "stacks": FOUR,
              "commands": HOLDEM}
    r = supervisor.post(URL, script, format="json")
    assert r.status_code == 200, r.json()
    out = r.json()
    # the gross pot $48 and the Pot after the rake and the contributions (637a.1) $42
    assert (out["complete"], out["gross_pot_cents"], out["rake_cents"], out["pot_cents"]
            ) == (True, 4_800, 400, 4_200)
    assert out["contributions"] == [{"fund": "bad-beat", "amount_cents": 100},
                                    {"fund": "high-hand", "amount_cents": 100}]
    # seats 3 and 4 folded: only seats 1 and 2 may win the pot (§ 637a.8(b)(5))
    assert out["pots"] == [{"pot_number": 1, "gross_pot_cents": 4_800, "rake_cents": 400,
                            "contributions": out["contributions"], "pot_cents": 4_200,
                            "eligible_seats": [1, 2],
                            "awards": [{"seat": 1, "amount_cents": 4_200, "share": "whole",
                                        "odd_chips_cents": 0}]}]
    # § 637a.11(g): seat 3, left of the big blind, first; § 637a.11(h): then seat 1, the
    # first player left of the button (seat 4, folded) still in. Blinds: no Forced Bet.
    assert [(r["betting_round"], r["seat"]) for r in out["first_to_act"]] == [
        (1, 3), (2, 1), (3, 1), (4, 1)]
    assert (out["forced_bet_seat"], out["next_hand_kill"], out["time_charge"]) == (
        None, None, None)
    assert out["awards"] == [{"pot_number": 1, "seat": 1, "amount_cents": 4_200, "share": "whole",
                              "odd_chips_cents": 0}]
    assert out["stacks_cents"] == {"1": 12_200, "2": 8_000, "3": 9_200, "4": 10_000}
    assert out["net_cents"] == {"1": 2_200, "2": -2_000, "3": -800, "4": 0}
    assert out["board"] == ["Ah", "9c", "4d", "5s", "Tc"]
    dealt = next(e for e in out["events"] if e["type"] == "CardsDealt")["data"]["cards"]
    assert dealt[0] == [1, ["As", "Ad"]]
    assert _unchanged() == before  # nothing recorded, no round opened


REASON = "no jackpot box registered at this table (637a.2(e))"


def test_a_table_named_is_worked_out_with_its_jackpot_boxes(
        supervisor, poker_table, crew, as_actor, make_staff) -> None:
    """§ 637a.2(e), § 637a.18(a), § 637a.15(c), § 637a.16(c). The hand above worked out
    for a Hold'em table (its Rules Submission in force) with no jackpot box registered:
    $48 gross, $4 rake, nothing to either fund, so the Pot is $44 and seat 1 ends with
    $100 - $20 + $44 = $124; the answer names both funds withheld and why. Once the Bad
    Beat box is registered there: $1 to the Bad Beat fund (the pot is over $20), the Pot
    $43, seat 1 $123, only the High Hand fund withheld. Nothing recorded by the
    calculator; another property's table is not found, and a table takes no options."""
    from casino.services import property_register
    from tests.conftest import token_client

    table = poker_table("holdem", jackpot_boxes=False)["table"]
    other = property_register(licence_number="PA-TEST-2", name="Other Casino",
                              system="test")
    stranger = token_client(make_staff("poker_shift_supervisor", property=other))
    script = {"table_id": str(table.pk), "button": 4, "stacks": FOUR, "commands": HOLDEM}
    before = _unchanged()
    r = supervisor.post(URL, script, format="json")
    assert r.status_code == 200, r.json()
    out = r.json()
    assert (out["gross_pot_cents"], out["rake_cents"], out["contributions"],
            out["pot_cents"], out["stacks_cents"]["1"]) == (4_800, 400, [], 4_400, 12_400)
    assert out["jackpots_withheld"] == [
        {"fund": "bad-beat", "kind": "bad_beat", "reason": REASON},
        {"fund": "high-hand", "kind": "high_hand", "reason": REASON}]
    assert _unchanged() == before
    r = as_actor(crew["floor"]).post(
        f"/api/v1/poker-tables/{table.pk}/jackpot-boxes/register/",
        {"fund": "bad-beat", "box": "B-7", "transparent": True, "locked": True,
         "beside_drop_box": True}, format="json")
    assert r.status_code == 201, r.json()
    before = _unchanged()
    out = supervisor.post(URL, script, format="json").json()
    assert (out["contributions"], out["pot_cents"], out["stacks_cents"]["1"]) == (
        [{"fund": "bad-beat", "amount_cents": 100}], 4_300, 12_300)
    assert out["pots"][0]["awards"][0]["amount_cents"] == 4_300
    assert out["jackpots_withheld"] == [
        {"fund": "high-hand", "kind": "high_hand", "reason": REASON}]
    for client, body, code, field in (
            (stranger, script, "table_not_found", "table_id"),
            (supervisor, {**script, "game": "holdem", "options": NO_LIMIT},
             "options_with_table", "options")):
        r = client.post(URL, body, format="json")
        assert (r.status_code, r.json()["code"], r.json()["field"]) == (400, code, field)
    assert _unchanged() == before


def test_a_side_pot_from_a_deck_order_with_the_rules_given_as_options(supervisor) -> None:
    """§ 637a.17(a)(3), (b)(1), § 637a.15(c), § 637a.16(c), no-limit. Seat 1 has $20, seats
    2 and 3 $100; the button at seat 3, blinds $2 (seat 1) and $4 (seat 2). The deck deals
    one card at a time from seat 1: As Ks Qs, Ad Kd Qd; burn, flop 7h 8c 3d; burn, turn
    9s; burn, river Jd. Seat 3 raises to $20, seat 1 calls all in, seat 2 calls: the main
    pot $60. Flop: seat 2 bets $15, seat 3 calls: a side pot of $30. The rest is checked.
    Rake 10 % of the round's $90 = $9, capped at $5 a round of play, taken from the main
    pot first; $1 to each fund out of the $85 left, main pot first: seat 1's aces take
    the main pot's $53, seat 2's kings the side pot's $30. Stacks: $53, $100 - $35 + $30
    = $95, $65."""
    before = _unchanged()
    script = {"game": "holdem", "options": NO_LIMIT, "button": 3,
              "stacks": {"1": 2_000, "2": 10_000, "3": 10_000},
              "deck": _deck("As", "Ks", "Qs", "Ad", "Kd", "Qd", "2c", "7h", "8c", "3d",
                            "4c", "9s", "5c", "Jd"),
              "commands": [A(3, "raise", 2_000), A(1, "call"), A(2, "call"),
                           A(2, "bet", 1_500), A(3, "call"), A(2, "check"), A(3, "check"),
                           A(2, "check"), A(3, "check")]}
    r = supervisor.post(URL, script, format="json")
    assert r.status_code == 200, r.json()
    out = r.json()
    # the main pot: $60 less the $5 rake and the two $1 contributions; seat 1, all in,
    # may win only the main pot (§ 637a.8(b)(5)(i)); seats 2 and 3 play for the side pot
    assert [(p["gross_pot_cents"], p["rake_cents"], p["contributions"], p["pot_cents"],
             p["eligible_seats"], p["awards"][0]["seat"], p["awards"][0]["amount_cents"])
            for p in out["pots"]] == [
        (6_000, 500, [{"fund": "bad-beat", "amount_cents": 100},
                      {"fund": "high-hand", "amount_cents": 100}], 5_300, [1, 2, 3], 1, 5_300),
        (3_000, 0, [], 3_000, [2, 3], 2, 3_000)]
    # § 637a.11(g): seat 3 (the button; left of the big blind at seat 2) first; after the
    # flop seat 1, left of the button, is all in: seat 2 bets first (§ 637a.11(h))
    assert [(r["betting_round"], r["seat"]) for r in out["first_to_act"]] == [
        (1, 3), (2, 2), (3, 2), (4, 2)]
    # $90 gross; the Pot after the $5 rake and the two $1 contributions: $83
    assert (out["gross_pot_cents"], out["rake_cents"], out["rake_by_pot_cents"],
            out["pot_cents"]) == (9_000, 500, [500, 0], 8_300)
    assert out["stacks_cents"] == {"1": 5_300, "2": 9_500, "3": 6_500}
    assert _unchanged() == before


def test_an_unfinished_script_says_where_the_hand_stands(supervisor, rules_id) -> None:
    """A script that stops mid-hand (the dispute is about what happens next): whose turn
    it is, and no pots yet. After the forced bets of § 637a.11(d) and the deal, seat 3
    (left of the big blind, § 637a.11(g)) is to act."""
    r = supervisor.post(URL, {"rules_submission_id": rules_id, "button": 4, "stacks": FOUR,
                              "commands": HOLDEM[:1]}, format="json")
    out = r.json()
    assert (r.status_code, out["complete"], out["to_act"], out["pots"]) == (
        200, False, 3, [])
    # the round no one has acted in yet names the seat to act; no Kill known before the end
    assert (out["first_to_act"], out["next_hand_kill"]) == (
        [{"betting_round": 1, "seat": 3}], None)
    assert out["stacks_cents"] == {"1": 9_800, "2": 9_600, "3": 10_000, "4": 10_000}


BAD = [
    # (what is wrong, the script's changes, code, field)
    ("an unknown game", {"rules_submission_id": None, "game": "snap", "options": NO_LIMIT},
     "unknown_game", "game"),
    ("options that are not an object", {"rules_submission_id": None, "game": "holdem",
                                        "options": [1]}, "invalid_script", "options"),
    ("neither options nor a Rules Submission", {"rules_submission_id": None},
     "invalid_script", "options"),
    ("an option the schema refuses", {"rules_submission_id": None, "game": "holdem",
                                      "options": {**NO_LIMIT, "structure": "spread"}},
     None, "options.structure"),
    ("a Rules Submission of no game of this property",
     {"rules_submission_id": "00000000-0000-0000-0000-000000000001"},
     "rules_submission_not_found", "rules_submission_id"),
    ("a game other than the Rules Submission's", {"game": "omaha"}, "game_mismatch",
     "game"),
    ("an action out of turn (§ 637a.11(g): seat 3 acts first)",
     {"commands": HOLDEM[:1] + [A(1, "call")]}, "not_your_turn", "commands[1].seat"),
    ("a card dealt twice (§ 637a.18(i))",
     {"commands": [{"type": "deal", "cards": {"1": ["As", "As"], "2": ["Ks", "Kd"],
                                              "3": ["Qc", "Jc"], "4": ["7h", "2s"]}}]},
     "card_already_dealt", "commands[0].cards"),
    ("a board card already in a hand",
     {"commands": HOLDEM[:5] + [{"type": "deal", "cards": ["Ad", "9c", "4d"]}]},
     "card_already_dealt", "commands[5].cards"),
    ("a card that is not one", {"commands": [{"type": "deal", "cards": {
        "1": ["As", "Zz"], "2": ["Ks", "Kd"], "3": ["Qc", "Jc"], "4": ["7h", "2s"]}}]},
     "card_not_in_deck", "commands[0].cards.1[1]"),
    ("a command without its seat", {"commands": HOLDEM[:1] + [{"type": "act"}]},
     "invalid_action", "commands[1]"),
    ("an unknown command", {"commands": [{"type": "shuffle"}]}, "invalid_action",
     "commands[0].type"),
    ("commands that are not a list", {"commands": {"type": "deal"}}, "invalid_script",
     "commands"),
    ("a deck with a card twice", {"deck": ["As"] * 52, "commands": []}, "invalid_deck",
     "deck"),
    ("a deck card that is not one", {"deck": ["Zz"] + _deck()[1:], "commands": []},
     "card_not_in_deck", "deck[0]"),
    ("one player (§ 637a.7(b))", {"stacks": {"1": 10_000}}, "too_few_players", "stacks"),
    ("stakes that are not cents", {"stacks": {**FOUR, "2": "lots"}}, "invalid_stacks",
     "stacks.2"),
    ("no stakes", {"stacks": {**FOUR, "2": 0}}, "invalid_stacks", "stacks.2"),
    ("a seat the table does not have", {"stacks": {**FOUR, "11": 10_000}},
     "invalid_stacks", "stacks.11"),
    ("the button at no seat in the hand (§ 637a.11(c))", {"button": 7}, "invalid_button",
     "button"),
]


@pytest.mark.parametrize("why,changes,code,field", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_400_naming_the_field(supervisor, rules_id, why, changes, code,
                                             field) -> None:
    """Bad input is a problem+json 400 whose code says what and whose field says where,
    never a 500 (nor a 409: a script is not a hand in play); nothing is recorded."""
    before = _unchanged()
    script = {"rules_submission_id": rules_id, "button": 4, "stacks": FOUR,
              "commands": HOLDEM, **changes}
    script = {k: v for k, v in script.items() if v is not None}
    r = supervisor.post(URL, script, format="json")
    body = r.json()
    assert (r.status_code, r["Content-Type"]) == (400, "application/problem+json"), body
    assert body["field"] == field, body
    if code:
        assert body["code"] == code, body
    assert _unchanged() == before


def test_a_banked_games_rules_submission_is_not_a_poker_script(supervisor, put_rules_in_effect
                                                                ) -> None:
    rs = put_rules_in_effect("five-card-hi-lo")  # house-banked
    r = supervisor.post(URL, {"rules_submission_id": str(rs.pk), "stacks": FOUR,
                              "commands": []}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["field"]) == (
        400, "not_a_poker_game", "rules_submission_id")


def test_scrambled_scripts_never_answer_500(supervisor, rules_id) -> None:
    """Scripts with the right shape and random parts (seats, actions, amounts, cards):
    each is worked out or refused with a 400, never a server error."""
    rng = random.Random(637)
    values = [None, 0, -1, 1, 3, 400, 10**12, "x", "As", [], {}, ["As"], True, 2.5]
    kinds = ["act", "deal", "draw", "discard", "misdeal", "void", "card_discard",
             "hole_card_exposed", "nope"]
    actions = ["fold", "check", "call", "bet", "raise", "complete", "bring_in", "x"]
    before = _unchanged()
    for _ in range(150):
        commands: list[Any] = list(HOLDEM[:rng.randrange(len(HOLDEM))])
        for _ in range(rng.randrange(1, 4)):
            command = {"type": rng.choice(kinds), "seat": rng.choice([1, 2, 3, 4, 9, "1"]),
                       "action": rng.choice(actions)}
            for key in rng.sample(["amount", "cards", "card", "reason", "discard",
                                   "replacement", "burn"], rng.randrange(3)):
                command[key] = rng.choice(values)
            commands.append(command)
        script = {"rules_submission_id": rules_id, "button": rng.choice([4, 1, None]),
                  "stacks": FOUR, "commands": commands}
        r = supervisor.post(URL, script, format="json")
        assert r.status_code in (200, 400), (r.status_code, commands, r.content[:300])
    assert _unchanged() == before


@pytest.mark.parametrize("role,status", [("poker_shift_supervisor", 200),
                                         ("floorperson", 200), ("compliance", 200),
                                         ("dealer", 403), ("finance", 403)])
def test_the_dispute_roles(staff, as_actor, rules_id, role, status) -> None:
    """§ 637a.18(a): the supervisor's tool; the floor and compliance may work a hand out
    too; a dealer (a party at the table) and finance may not."""
    r = as_actor(staff(role)).post(URL, {"rules_submission_id": rules_id, "button": 4,
                                         "stacks": FOUR, "commands": HOLDEM}, format="json")
    assert r.status_code == status
