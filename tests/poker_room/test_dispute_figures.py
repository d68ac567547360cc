"""What a supervisor settling a dispute reads without opening the events (§ 637a.18(a)):
each pot's gross, rake, contributions, the Pot after them (§ 637a.1) and the seats that
may win it; the first player to act in each betting round; the Forced Bet's seat; the
Kill in force for the next hand with its limits. The dispute calculator's answer and a
hand's answer carry them alike; a hand without pot rake is worked out without a time
charge the script did not give. Figures are worked by hand from the chapter."""

from __future__ import annotations

import random
from typing import Any

import pytest

from casino.models import Event
from poker_room.api.history_views import SettlementOut
from poker_room.domain.games import POKER_SPECS
from poker_room.domain.hand import Hand
from poker_room.services.disputes import settlement
from tables.domain.catalogue import POKER_GAMES
from tables.domain.rules_options import example_options
from tests.poker_room._helpers import C, hand, rules
from tests.poker_room.test_dispute_calculator import HOLDEM, URL

A = lambda seat, action: {"type": "act", "seat": seat, "action": action}  # noqa: E731
FIGURES = ("pots", "first_to_act", "forced_bet_seat", "next_hand_kill", "jackpots_withheld")
POT_FIELDS = {"pot_number", "gross_pot_cents", "rake_cents", "contributions", "pot_cents",
              "eligible_seats", "awards"}
#: the betting rounds of a hand every player checks or calls to the end, by the chapter:
#: Seven-card Stud's five streets (§ 637a.10(d)-(h)), Five-card Stud's four (§ 637a.14),
#: Hold'em's and Omaha's four (§ 637a.11(g)-(j), § 637a.12), Five-card Draw's two
#: (§ 637a.13), Triple Draw's and Badugi's four (§ 637a.20, § 637a.21)
ROUNDS = {"stud-high": 5, "stud-low": 5, "stud-hilo": 5, "stud-hilo8": 5,
          "super-stud-hilo8": 5, "five-card-stud": 4, "holdem": 4, "omaha-high": 4,
          "omaha-hilo8": 4, "five-card-omaha-high": 4, "five-card-omaha-hilo8": 4,
          "draw-high": 2, "draw-low": 2, "triple-draw-27": 4, "triple-draw-a5": 4,
          "badeucey": 4, "badacey": 4, "badugi": 4}
#: the games that start with a Forced Bet, not blinds (§ 637a.1 "Forced Bet")
STUD = {"stud-high", "stud-low", "stud-hilo", "stud-hilo8", "super-stud-hilo8",
        "five-card-stud"}


def _played_out(game: str) -> Hand:
    """Three players with $100 and a shuffled deck the engine deals from; each checks or
    calls, draws nothing, and (Super Stud) throws his first two cards."""
    deck = list(range(52))
    random.Random(7).shuffle(deck)
    stud = POKER_SPECS[game].family == "stud"
    h = Hand.start(rules(game), {1: 10_000, 2: 10_000, 3: 10_000},
                   button=None if stud else 1, deck=deck)
    while not h.is_complete:
        legal = h.legal_actions()
        acts = legal["actions"]
        if "discard" in acts:
            for seat in legal["seats"]:
                h.discard(seat, h.cards(seat)[:2])
        elif "draw" in acts:
            h.draw(legal["seat"], [])
        else:
            h.act(legal["seat"], "check" if "check" in acts else "call")
    return h


def test_every_poker_game_is_in_the_table() -> None:
    assert set(ROUNDS) == set(POKER_GAMES)


@pytest.mark.parametrize("game", POKER_GAMES)
def test_every_games_answer_carries_what_a_dispute_turns_on(game: str) -> None:
    """§ 637a.18(a). The calculator's answer for a hand of every game names each pot with
    its figures and the seats that may win it, the first player to act in each betting
    round the chapter's game has, the Forced Bet's seat at stud only (§ 637a.1 "Forced
    Bet"), and no Kill (none offered). The time charge is the rules' own: $6.00 an hour
    per table, every 30 minutes; no pot rake is taken."""
    out = settlement(_played_out(game))
    assert set(FIGURES) <= set(SettlementOut().fields) and set(FIGURES) <= set(out)
    assert out["pots"] and all(set(p) == POT_FIELDS for p in out["pots"])
    # what the winners were paid is each pot's Pot (§ 637a.1), no rake taken from any
    for p in out["pots"]:
        assert sum(a["amount_cents"] for a in p["awards"]) == p["pot_cents"]
        assert p["rake_cents"] == 0 and set(p["eligible_seats"]) <= {1, 2, 3}
    assert sum(p["gross_pot_cents"] for p in out["pots"]) == out["gross_pot_cents"]
    assert [r["betting_round"] for r in out["first_to_act"]] == list(
        range(1, ROUNDS[game] + 1))
    assert all(r["seat"] in (1, 2, 3) for r in out["first_to_act"])
    assert (out["forced_bet_seat"] in (1, 2, 3)) is (game in STUD)
    assert out["next_hand_kill"] is None
    assert out["jackpots_withheld"] == []  # rules given, no table: no box withholds a fund
    assert out["time_charge"] == {"basis": "per-table", "hourly_cents": 600,
                                  "interval_minutes": 30}
    SettlementOut(out).data  # the answer serializes as the schema says


# --- the Kill in force for the next hand (§ 637a.1 "Kill option", § 637a.12(n)) ---------

def _omaha_scooped(kill: dict[str, Any]) -> dict[str, Any]:
    """Omaha High-low Split Eight or Better, $2/$4, blinds $1 and $2, no pot rake, no
    jackpot. Button at seat 1: seat 1 calls, seat 2 completes the small blind, seat 3
    checks: $6; every later round is checked. Board Kh Kc Qd Js 9h: no three cards of 8
    or below, so no low hand qualifies (§ 637a.12(k)); seat 2's Ks Tc with Qd Js 9h is a
    king-high straight, the best high hand: seat 2 wins the entire $6 Pot."""
    h = hand("omaha-hilo8", kill=kill)
    h.deal({2: C("KsTc8c8d"), 3: C("7h7s6c6d"), 1: C("2c3c4d5d")})
    h.act(1, "call"), h.act(2, "call"), h.act(3, "check")
    for board in ("KhKcQd", "Js", "9h"):
        h.deal(C(board))
        for seat in (2, 3, 1):
            h.act(seat, "check")
    return settlement(h)


@pytest.mark.parametrize("option,limits", [("kill", (400, 800)), ("half-kill", (300, 600))])
def test_a_qualifying_pot_won_whole_puts_the_kill_in_force_with_its_limits(option, limits
                                                                          ) -> None:
    """§ 637a.1 "Kill option" (the limits twice the posted $2/$4: $4/$8) and "Half-kill
    option" (raised by half: $3/$6), § 637a.12(n): seat 2 won the entire $6 Pot, which
    equals or exceeds the $5 qualifying pot. The blinds stay as posted."""
    out = _omaha_scooped({"option": option, "qualifying_pot_cents": 500})
    assert (out["pot_cents"], out["awards"][0]["seat"]) == (600, 2)
    assert out["next_hand_kill"] == {
        "option": option, "scooped_by_seat": 2, "qualifying_pot_cents": 500,
        "small_bet_cents": limits[0], "big_bet_cents": limits[1], "minimum_bet_cents": None}
    # a game with blinds: no Forced Bet; § 637a.11(g) via § 637a.12: seat 1, left of the
    # big blind, first; then seat 2, left of the button (§ 637a.11(h))
    assert out["forced_bet_seat"] is None
    assert [r["seat"] for r in out["first_to_act"]] == [1, 2, 2, 2]


def test_a_kill_carries_on_at_the_posted_limits_doubled_once() -> None:
    """§ 637a.1 "Kill option": the Kill in force stays "until a pot is split between one
    player winning the high hand and another player winning the low hand" or a pot falls
    short. A hand played under the Kill ($4/$8; the blinds stay $1/$2): seats 2 and 3
    both make the king-high straight (Ks Tc and Kd Th with Qd Js 9h), no low qualifies:
    the $6 Pot, over the $5 qualifying pot, is split for the high only, so the Kill goes
    on, won by no one seat, at twice the posted $2/$4 ($4/$8, not twice the Kill's)."""
    h = Hand.start(rules("omaha-hilo8", kill={"option": "kill", "qualifying_pot_cents": 500}),
                   {1: 10_000, 2: 10_000, 3: 10_000}, button=1, kill_active=True)
    h.deal({2: C("KsTc8c8d"), 3: C("KdTh7s6c"), 1: C("2c3c4d5d")})
    h.act(1, "call"), h.act(2, "call"), h.act(3, "check")
    for board in ("KhKcQd", "Js", "9h"):
        h.deal(C(board))
        for seat in (2, 3, 1):
            h.act(seat, "check")
    out = settlement(h)
    assert [(a["seat"], a["amount_cents"]) for a in out["awards"]] == [(2, 300), (3, 300)]
    assert out["next_hand_kill"] == {
        "option": "kill", "scooped_by_seat": None, "qualifying_pot_cents": 500,
        "small_bet_cents": 400, "big_bet_cents": 800, "minimum_bet_cents": None}


def test_a_pot_short_of_the_qualifying_pot_puts_no_kill_in_force() -> None:
    """§ 637a.1 "Kill option": the $6 Pot does not equal or exceed a $7 qualifying pot."""
    assert _omaha_scooped({"option": "kill", "qualifying_pot_cents": 700}
                          )["next_hand_kill"] is None


# --- through the API ----------------------------------------------------------------------

@pytest.fixture
def supervisor(staff, as_actor) -> Any:
    return as_actor(staff("poker_shift_supervisor"))


@pytest.mark.django_db
def test_a_stud_hand_names_its_forced_bet_seat_and_who_acted_first(supervisor) -> None:
    """§ 637a.10(d) (stud high: the lowest up card makes the Forced Bet), (e) (the player
    to its left acts first), (f) (then the best hand showing), § 637a.17(b)(1). The
    example Seven-card Stud: $1 ante each, $2 Forced Bet, $4/$8, 10 % rake in $1 chips.
    Up cards 4h (seat 1), Qh (2), 8h (3): seat 1 owes the Forced Bet; seat 2 calls first,
    seat 3 calls ($3 + $6 = $9). Fourth street: seat 2's Qh Qc shows best: bets $4, seat
    3 folds, seat 1 calls ($17). Fifth: Q-Q-3 beats 4-9-9: seat 2 first, both check.
    Sixth: seat 1's three nines show best: seat 1 first, checked; seventh (down) the same.
    Seat 1's nines full of aces win: rake 10 % of $17 = $1.70, in $1 chips $1; the Pot
    $16. Stacks $100 - $7 + $16 = $109, $93, $97."""
    before = Event.objects.count()
    script = {"game": "stud-high", "options": example_options("stud-high"),
              "stacks": {"1": 10_000, "2": 10_000, "3": 10_000}, "commands": [
                  {"type": "deal", "cards": {"1": ["As", "Ad", "4h"], "2": ["Ks", "Kd", "Qh"],
                                             "3": ["2c", "3c", "8h"]}},
                  A(2, "call"), A(3, "call"),
                  {"type": "deal", "cards": {"1": ["9d"], "2": ["Qc"], "3": ["5s"]}},
                  A(2, "bet"), A(3, "fold"), A(1, "call"),
                  {"type": "deal", "cards": {"1": ["9c"], "2": ["3d"]}},
                  A(2, "check"), A(1, "check"),
                  {"type": "deal", "cards": {"1": ["9h"], "2": ["5d"]}},
                  A(1, "check"), A(2, "check"),
                  {"type": "deal", "cards": {"1": ["Js"], "2": ["6c"]}},
                  A(1, "check"), A(2, "check")]}
    r = supervisor.post(URL, script, format="json")
    assert r.status_code == 200, r.json()
    out = r.json()
    assert out["forced_bet_seat"] == 1
    assert [(x["betting_round"], x["seat"]) for x in out["first_to_act"]] == [
        (1, 2), (2, 2), (3, 2), (4, 1), (5, 1)]
    assert out["pots"] == [{"pot_number": 1, "gross_pot_cents": 1_700, "rake_cents": 100,
                            "contributions": [], "pot_cents": 1_600, "eligible_seats": [1, 2],
                            "awards": [{"seat": 1, "amount_cents": 1_600, "share": "whole",
                                        "odd_chips_cents": 0}]}]
    assert out["stacks_cents"] == {"1": 10_900, "2": 9_300, "3": 9_700}
    assert (out["next_hand_kill"], Event.objects.count()) == (None, before)


NO_RAKE = {k: v for k, v in example_options("holdem").items() if k != "rake"}
TIME_CHARGE = {"types": ["time-charge"], "time_charge": {
    "basis": "per-table", "hourly_cents": 1_200, "assessed_every_minutes": 30}}


@pytest.mark.django_db
@pytest.mark.parametrize("rake,time_charge", [
    (None, None),
    (TIME_CHARGE, {"basis": "per-table", "hourly_cents": 1_200, "interval_minutes": 30})])
def test_a_hand_without_pot_rake_is_charged_no_time_the_script_did_not_give(
        supervisor, rake, time_charge) -> None:
    """§ 637a.17(a)-(b), § 637a.1 ("Pot"), § 637a.15(c), § 637a.16(c). The Hold'em hand of
    the calculator's test at a table taking no pot rake: the players' $48 less nothing for
    the house, $1 to each jackpot fund: the Pot $46. Options without a rake: no rake and
    no time charge; options with a time charge ($12 an hour per table): that one, as
    given (a hand pays none itself, § 637a.17(b)(3)). Stacks $100 - $20 + $46 = $126,
    $80, $92, $100."""
    options = NO_RAKE if rake is None else {**NO_RAKE, "rake": rake}
    r = supervisor.post(URL, {"game": "holdem", "options": options, "button": 4,
                              "stacks": {"1": 10_000, "2": 10_000, "3": 10_000, "4": 10_000},
                              "commands": HOLDEM}, format="json")
    assert r.status_code == 200, r.json()
    out = r.json()
    assert (out["gross_pot_cents"], out["rake_cents"], out["rake_by_pot_cents"],
            out["pot_cents"]) == (4_800, 0, [0], 4_600)
    assert [(p["rake_cents"], p["pot_cents"]) for p in out["pots"]] == [(0, 4_600)]
    assert out["time_charge"] == time_charge
    assert out["stacks_cents"] == {"1": 12_600, "2": 8_000, "3": 9_200, "4": 10_000}
    started = out["events"][0]["data"]["rules"]["rake"]
    assert started == (None if rake is None else {**rake, "maximum_per_round_cents": None,
                                                  "methodology": None})


@pytest.mark.django_db
def test_a_hands_answer_carries_the_same_figures(crew, poker_table, as_actor) -> None:
    """§ 637a.18(a), § 637a.1 ("Pot"), § 637a.17(b)(1), § 637a.11(g)-(h). The calculator's
    Hold'em hand dealt at the table (the example rules: 10 % rake in $1 chips, $1 to each
    fund): the hand's answer and its history name the one pot, $48 gross, $4 rake, the
    two $1 contributions, the $42 Pot, seats 1 and 2 able to win it (3 and 4 folded);
    seat 3 first before the flop, then seat 1; no Forced Bet, no Kill."""
    setup = poker_table("holdem")
    dealer = as_actor(crew["dealer"])
    for seat in (1, 2, 3, 4):
        assert dealer.post(f"/api/v1/poker-tables/{setup['table'].pk}/seats/take/",
                           {"seat": seat, "buy_in_cents": 10_000, "paid_with": "chips"},
                           format="json").status_code == 201
    r = dealer.post(f"/api/v1/poker-tables/{setup['table'].pk}/hands/",
                    {"deck_id": str(setup["decks"][0].pk)}, format="json")
    assert r.status_code == 201, r.json()
    hand_id = r.json()["round_id"]
    r = dealer.post(f"/api/v1/hands/{hand_id}/commands/", {"commands": HOLDEM}, format="json")
    assert r.status_code == 200 and r.json()["over"], r.json()
    funds = [{"fund": "bad-beat", "amount_cents": 100}, {"fund": "high-hand", "amount_cents": 100}]
    floor = as_actor(crew["floor"])
    for path in (f"/api/v1/hands/{hand_id}/", f"/api/v1/hands/{hand_id}/history/"):
        h = floor.get(path).json()
        assert h["pots"] == [{"pot_number": 1, "gross_pot_cents": 4_800, "rake_cents": 400,
                              "contributions": funds, "pot_cents": 4_200,
                              "eligible_seats": [1, 2],
                              "awards": [{"seat": 1, "amount_cents": 4_200,
                                          "share": "whole", "odd_chips_cents": 0}]}]
        assert [(x["betting_round"], x["seat"]) for x in h["first_to_act"]] == [
            (1, 3), (2, 1), (3, 1), (4, 1)]
        assert (h["forced_bet_seat"], h["next_hand_kill"]) == (None, None)
