"""Properties of every round (Hypothesis): money is conserved, a void round returns
exactly what was wagered (§ 589.13(f), § 671a.13(f), § 579.13(e)), replay gives the
same state, and every wager line is settled once before the round closes."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tables.domain.hands.hilo import legal_settings
from tables.domain.hands.lunar import instant_payout_hand, super_hand
from tables.domain.banked import Phase, execute, rebuild
from tables.domain.banked.events import EXTRA_PAYOUTS
from tables.domain.banked.state import RoundState
from tables.domain.banked.turns import next_to_draw

GAMES = ("lunar-poker-589", "lunar-poker-671a", "five-card-hi-lo")


class _Voided(Exception):
    pass


class _Round:
    def __init__(self, data: st.DataObject, void: bool):
        self.data, self.void = data, void
        self.state: RoundState | None = None
        self.events: list[dict[str, Any]] = []
        self.in_play = False  # after "no more bets": a shoe jam may void the round

    def run(self, type_: str, **fields: Any) -> None:
        if self.in_play and self.void and self.state.phase is not Phase.CLOSED \
                and self.data.draw(st.booleans(), label="jam now"):
            self._do({"type": "report_irregularity", "kind": "shoe_jam"})
            raise _Voided
        self._do({"type": type_, **fields})

    def _do(self, cmd: dict[str, Any]) -> None:
        self.state, evs = execute(self.state, cmd)
        self.events.extend(evs)


def _options(data: st.DataObject, game: str) -> dict[str, Any]:
    d = data.draw
    limits = {"table_minimum_cents": 100, "table_maximum_cents": 100_000}
    if game == "lunar-poker-589":
        offered = d(st.booleans())
        return {**limits, "instant_paytable": d(st.sampled_from("ABCDEFGH")),
                "super_wager_offered": offered,
                "super_paytable": d(st.sampled_from("ABC")) if offered else None}
    if game == "lunar-poker-671a":
        return {**limits, "instant_paytable": d(st.sampled_from("ABC")),
                "super_on_other_hands_offered": d(st.booleans())}
    pb = d(st.booleans())
    return {**limits, "ante_bonus_paytable": d(st.sampled_from("ABCD")),
            "tie_wager_offered": d(st.booleans()), "poker_bonus_offered": pb,
            "poker_bonus_paytable": d(st.sampled_from("AB")) if pb else None,
            "adjacent_betting_areas_permitted": False}


def _wagers(r: _Round, game: str, options: dict[str, Any], seats: list[int]) -> None:
    d = r.data.draw
    amount = st.integers(100, 5_000)
    for n in seats:
        ante = d(amount)
        r.run("place_wager", position=n, wager="ante", amount=ante)
        extra: list[tuple[str, int]] = []
        if game == "lunar-poker-671a":
            extra.append(("super", d(st.integers(ante, 10_000))))
            if options["super_on_other_hands_offered"]:
                if d(st.booleans()):
                    extra.append(("super_dealer", d(amount)))
                others = [m for m in seats if m != n]
                if others and d(st.booleans()):
                    extra.append((f"super_on_{d(st.sampled_from(others))}", d(amount)))
        elif game == "lunar-poker-589":
            if options["super_wager_offered"] and d(st.booleans()):
                extra.append(("super", d(amount)))
        else:
            for w, key in (("tie", "tie_wager_offered"), ("poker_bonus", "poker_bonus_offered")):
                if options[key] and d(st.booleans()):
                    extra.append((w, d(amount)))
        for w, a in extra:
            r.run("place_wager", position=n, wager=w, amount=a)


def _lunar(r: _Round, seats: list[int]) -> None:
    d = r.data.draw
    # cards left for draws once the deal and the forced dealer's card are set aside
    spare = 52 - 5 * (len(seats) + 1) - 1
    for n in seats:
        p = r.state.positions[n]
        if "super" in p.wagered and super_hand(r.state.rulebook, p.dealt) and d(st.booleans()):
            r.run("decision", position=n, decision="declare_super")
        choices = ["fold"]
        choices.append("declare_instant" if instant_payout_hand(p.dealt) else "bet")
        if spare >= 1:
            choices.append("buy")
        if spare >= 5:
            choices.append("exchange")
        what = d(st.sampled_from(choices))
        spare -= {"buy": 1, "exchange": 5}.get(what, 0)
        r.run("decision", position=n, decision=what)
    r.run("lock_decisions")
    while r.state.phase is Phase.DRAWING:
        n = next_to_draw(r.state)
        p = r.state.positions[n]
        if p.decision == "exchange":
            k = d(st.integers(2, 5))
            r.run("draw", position=n, discard=list(p.cards[:k]))
        else:
            r.run("draw", position=n)
        r.run("decision", position=n, decision=d(st.sampled_from(["fold", "bet"])))
    if r.state.phase is Phase.FORCING:
        for p in r.state.counterclockwise():
            if p.has_bet and p.force is None:
                r.run("decision", position=p.number,
                      decision=d(st.sampled_from(["force_dealer", "no_force"])))
    if r.state.phase is Phase.DEALER_DRAW:
        r.run("draw_dealer")


def _hilo(r: _Round, seats: list[int]) -> None:
    d = r.data.draw
    for n in seats:
        p = r.state.positions[n]
        if d(st.booleans()):
            s = d(st.sampled_from(legal_settings(p.dealt)))
            r.run("decision", position=n, decision="play", high=list(s.high), low=list(s.low))
        else:
            r.run("decision", position=n, decision="forfeit")
    r.run("lock_decisions")


def _play(data: st.DataObject, void: bool) -> _Round:
    game = data.draw(st.sampled_from(GAMES), label="game")
    options = _options(data, game)
    most = 6 if game == "five-card-hi-lo" else 5
    seats = sorted(data.draw(st.lists(st.integers(1, most), min_size=1, max_size=most,
                                      unique=True), label="positions"))
    r = _Round(data, void)
    r.run("open_round", game=game, options=options)
    _wagers(r, game, options, seats)
    r.run("no_more_bets")
    r.in_play = True
    try:
        r.run("deal", deck=data.draw(st.permutations(range(52)), label="deck"))
        if r.state.lunar:
            _lunar(r, seats)
        else:
            _hilo(r, seats)
    except _Voided:
        pass
    return r


def _wagered_from_events(events: list[dict[str, Any]]) -> int:
    total = 0
    for e in events:
        if e["type"] == "WagerPlaced":
            total += e["data"]["amount"]
        elif e["type"] == "WagerWithdrawn":
            raise AssertionError("no withdrawals are generated")
        elif e["type"] == "DecisionMade" and e["data"].get("wager"):
            total += e["data"]["amount"]
    return total


SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(st.data())
def test_money_is_conserved_in_every_settled_round(data: st.DataObject) -> None:
    r = _play(data, void=False)
    s = r.state
    assert s.phase is Phase.CLOSED and s.void is None
    wagered = _wagered_from_events(r.events)
    paid = sum(e["data"]["returned"] for e in r.events if e["type"] == "WagerSettled")
    assert s.totals["wagered"] == wagered
    assert s.totals["returned"] == paid
    assert s.totals["wagered"] == s.totals["returned"] + s.totals["house_win"]
    deciding = [(e["data"]["position"], e["data"]["wager"]) for e in r.events
                if e["type"] == "WagerSettled" and e["data"]["outcome"] not in EXTRA_PAYOUTS]
    lines = [(p.number, w) for p in s.positions.values() for w in p.wagered]
    assert sorted(deciding) == sorted(lines)  # every line decided exactly once
    assert all(v >= 0 for p in s.positions.values() for v in p.returned.values())
    assert rebuild(r.events) == s


@SETTINGS
@given(st.data())
def test_a_void_round_returns_exactly_what_was_wagered(data: st.DataObject) -> None:
    r = _play(data, void=True)
    s = r.state
    assume(s.void is not None)
    assert s.phase is Phase.CLOSED
    assert s.void["reason"] == "shoe_jam"
    for p in s.positions.values():
        assert p.returned == p.wagered
    assert s.totals["returned"] == s.totals["wagered"] == _wagered_from_events(r.events)
    assert s.totals["house_win"] == 0
    assert rebuild(r.events) == s
