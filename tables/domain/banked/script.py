"""Round scripts: a whole round written down as JSON, played through ``decide``/``evolve``.

This is the core of the dispute calculator and the format of the hand-worked test
fixtures (tests/tables/banked/scripts/*.json). :func:`settle_script` does no I/O.

The script (cards as text, money as integer cents)::

    {"game": "lunar-poker-589" | "lunar-poker-671a" | "five-card-hi-lo",
     "options": {...Rules Submission options...},
     "cite": ["589.11(e)(2)", ...], "description": "one line",
     "positions": [{"position": 1, "player": "optional id",
                    "wagers": {"ante": 1000, "super": 1000, ...},
                    "cards": ["As", "Ks", "Qs", "Js", "9d"],
                    "decisions": [{"decision": "fold"}, ...]}],
     "dealer": {"cards": [5 cards], "forced": {"discard": "Kd", "card": "5s"}},
     "irregularities": [{"kind": "shoe_jam", "at": "after_deal"}],   # optional
     "expected": {"returned": {...}, "house_win_cents": 0, "notes": "..."}}

Lunar decisions: ``fold``, ``bet``, ``buy`` (with ``card``), ``exchange`` (with
``discard`` and ``cards``), ``declare_instant``, ``declare_super``, ``force_dealer``. The
declarations and the first of fold / bet / buy / exchange are made before "all decisions
are locked in"; a ``fold`` or ``bet`` after a buy or exchange is the decision after the draw
(589.11(d)(2)(iii)); ``force_dealer`` answers 589.11(e)(2) (every other bettor declines).
Hi-Lo decisions: ``play`` with ``high`` (3 cards) and ``low`` (2 cards), or ``forfeit``;
the runner asks clockwise (579.11(b)) and sets hands in the order of 579.7(f).

``irregularities`` (optional, not part of the fixture format) reports x.13 events at a
point of the round: ``at`` is ``before_deal``, ``after_deal``, ``after_decisions`` or
``after_lock``; other keys (``card``, ``position``, ``misdealt``) go to the command.

:func:`settle_script` returns ``{"lines": [{"position", "wager", "wagered_cents",
"returned_cents", "outcome", "why"}], "returned_by_position_cents": {"1": {"ante": ...,
...}}, "house_win_cents", "wagered_cents", "returned_cents", "void", "events"}`` (money in
integer cents, in fields named ``…_cents``; the script's own ``expected.returned`` keeps its
name). "returned_cents" per line is what goes
back to the player on that line, the Ante Bonus (579.11(h)) included on the Ante line and
a second Bet combination on the Bet line. A bad script raises the coded DomainError the
command it leads to raises.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from tables.domain.banked.errors import bad, conflict
from tables.domain.banked.events import EXTRA_PAYOUTS, Event
from tables.domain.banked.round import execute
from tables.domain.banked.state import LUNAR_GAMES, Phase, RoundState, line_sort_key
from tables.domain.banked.turns import next_to_draw, setting_order

STAGES = ("before_deal", "after_deal", "after_decisions", "after_lock")
_MAIN = ("fold", "bet", "buy", "exchange")
_DECLARE = ("declare_instant", "declare_super")


class _Runner:
    def __init__(self) -> None:
        self.state: RoundState | None = None
        self.events: list[Event] = []

    def run(self, cmd: dict[str, Any]) -> None:
        self.state, evs = execute(self.state, cmd)
        self.events.extend(evs)

    @property
    def phase(self) -> Phase:
        return self.state.phase if self.state is not None else Phase.NEW

    @property
    def over(self) -> bool:
        return self.phase is Phase.CLOSED


def _require(script: Any, key: str, kind: type, where: str = "script") -> Any:
    value = script.get(key) if isinstance(script, dict) else None
    if not isinstance(value, kind):
        raise bad("invalid_script", f"{where}.{key} must be a {kind.__name__}",
                  field=f"{where}.{key}")
    return value


def _read(script: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    if not isinstance(script, dict):
        raise bad("invalid_script", "a round script is an object")
    positions = _require(script, "positions", list)
    dealer = _require(script, "dealer", dict)
    seen: set[Any] = set()
    for i, sp in enumerate(positions):
        where = f"positions[{i}]"
        if not isinstance(sp, dict):
            raise bad("invalid_script", f"{where} must be an object", field=where)
        n = sp.get("position")
        if isinstance(n, Hashable):  # a list or an object: place_wager refuses it
            if n in seen:
                raise bad("invalid_script", f"position {n} appears twice", field=where)
            seen.add(n)
        _require(sp, "wagers", dict, where)
        if not isinstance(sp.get("decisions") or [], list):
            raise bad("invalid_script", f"{where}.decisions must be a list",
                      field=f"{where}.decisions")
        for d in sp.get("decisions") or []:
            if not isinstance(d, dict) or not isinstance(d.get("decision"), str):
                raise bad("invalid_script", f"{where}.decisions: each is an object with a "
                          "'decision'", field=f"{where}.decisions")
    # clockwise; a position that is not a number is left for place_wager to refuse
    return sorted(positions, key=lambda sp: sp["position"]
                  if isinstance(sp.get("position"), int) else 10**6), dealer


def settle_script(script: dict[str, Any]) -> dict[str, Any]:
    """Play the scripted round and return its settlement (see the module docstring)."""
    positions, dealer = _read(script)
    irregular = _irregularities(script)
    r = _Runner()
    r.run({"type": "open_round", "game": script.get("game"), "options": script.get("options"),
           "round_id": script.get("round_id")})
    for sp in positions:
        placed = sp["wagers"]
        for w in sorted(placed, key=lambda w: (w != "ante", _order(w))):
            r.run({"type": "place_wager", "position": sp["position"], "wager": w,
                   "amount": placed[w], "player": sp.get("player")})
    r.run({"type": "no_more_bets"})
    stages = _Stages(r, irregular)
    stages.at("before_deal")
    if not r.over:
        r.run({"type": "deal", "dealer": dealer.get("cards"),
               "hands": {str(sp["position"]): sp.get("cards") for sp in positions
                         if "ante" in sp["wagers"]}})
        stages.at("after_deal")
    if not r.over:
        if script.get("game") in LUNAR_GAMES:
            _play_lunar(r, positions, dealer, stages)
        else:
            _play_hilo(r, positions, stages)
    for stage in STAGES:
        stages.at(stage)  # an irregularity for a point the round never reached
    if not r.over:
        raise conflict("decisions_pending", f"the script ends with the round in phase "
                       f"{r.phase.value}: a decision or card is missing")
    return result(r.state, r.events)


def _order(w: Any) -> tuple[int, int]:
    try:
        return line_sort_key(w)
    except (ValueError, AttributeError):
        return (99, 0)  # an unknown wager: place_wager names it


def _irregularities(script: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in STAGES}
    items = script.get("irregularities") or []
    if not isinstance(items, list):
        raise bad("invalid_script", "irregularities must be a list", field="irregularities")
    for i, item in enumerate(items):
        at = item.get("at") if isinstance(item, dict) else None
        if at not in out:
            raise bad("invalid_script", f"irregularities[{i}].at is one of {STAGES}",
                      field=f"irregularities[{i}].at")
        out[at].append(item)
    return out


class _Stages:
    def __init__(self, runner: _Runner, items: dict[str, list[dict[str, Any]]]):
        self.r, self.items = runner, items

    def at(self, stage: str) -> None:
        while self.items[stage]:
            item = self.items[stage].pop(0)
            cmd = {k: v for k, v in item.items() if k != "at"}
            self.r.run({**cmd, "type": "report_irregularity"})


def _play_lunar(r: _Runner, positions: list[dict[str, Any]], dealer: dict[str, Any],
                stages: _Stages) -> None:
    later: dict[int, list[dict[str, Any]]] = {}
    draws: dict[int, dict[str, Any]] = {}
    for sp in positions:
        n = sp["position"]
        items = list(sp.get("decisions") or [])
        main = None
        while items and main is None:
            d = items.pop(0)
            if d["decision"] in _MAIN and main is None:
                main = d
                r.run({"type": "decision", "position": n, "decision": d["decision"]})
                if d["decision"] in ("buy", "exchange"):
                    draws[n] = d
            else:
                r.run({"type": "decision", "position": n, "decision": d["decision"]})
        # declarations written after the decision are still made before the lock
        while items and items[0]["decision"] in _DECLARE:
            r.run({"type": "decision", "position": n, "decision": items.pop(0)["decision"]})
        if n not in draws:  # nothing follows fold or bet but forcing the dealer
            while items and items[0]["decision"] != "force_dealer":
                r.run({"type": "decision", "position": n, "decision": items.pop(0)["decision"]})
        later[n] = items
    stages.at("after_decisions")
    if r.over:
        return
    r.run({"type": "lock_decisions"})
    stages.at("after_lock")
    while r.phase is Phase.DRAWING:
        n = next_to_draw(r.state)
        d = draws[n]
        if d["decision"] == "buy":
            r.run({"type": "draw", "position": n, "cards": [d["card"]] if "card" in d else []})
        else:
            r.run({"type": "draw", "position": n, "discard": d.get("discard") or [],
                   "cards": d.get("cards") or []})
        items = later[n]
        if not items or items[0]["decision"] not in ("fold", "bet"):
            raise conflict("decisions_pending", f"position {n} drew; the script must say "
                           "whether it then folds or bets (589.11(d)(2)(iii))",
                           field=f"positions.{n}.decisions")
        r.run({"type": "decision", "position": n, "decision": items.pop(0)["decision"]})
    if r.phase is Phase.FORCING:
        for p in r.state.counterclockwise():
            if p.has_bet and "bet" not in p.settled and p.force is None:
                forces = [d for d in later[p.number] if d["decision"] == "force_dealer"]
                if forces:
                    later[p.number].remove(forces[0])
                r.run({"type": "decision", "position": p.number,
                       "decision": "force_dealer" if forces else "no_force"})
    forced = dealer.get("forced")
    if r.phase is Phase.DEALER_DRAW:
        if not isinstance(forced, dict):
            raise conflict("decisions_pending", "the dealer was forced: dealer.forced must "
                           "give the replacement card (589.11(e)(2)(ii))",
                           field="dealer.forced")
        r.run({"type": "draw_dealer", "card": forced.get("card"),
               "discard": forced.get("discard")})
    elif forced is not None and r.state.void is None:
        raise bad("unexpected_forced_draw", "dealer.forced is given but no player forced "
                  "the dealer", field="dealer.forced")
    if r.state.void is not None:
        return  # a void round: what the script says would have happened next did not
    for n, items in later.items():  # anything left over is refused by the round itself
        for d in items:
            r.run({"type": "decision", "position": n, "decision": d["decision"]})


def _play_hilo(r: _Runner, positions: list[dict[str, Any]], stages: _Stages) -> None:
    plays: dict[int, dict[str, Any]] = {}
    for sp in positions:
        n = sp["position"]
        for d in sp.get("decisions") or []:
            # the setting comes after, in the order 579.7(f) requires
            r.run({"type": "decision", "position": n, "decision": d["decision"]})
            if d["decision"] == "play":
                plays[n] = d
    stages.at("after_decisions")
    if r.over:
        return
    for n in setting_order(r.state):
        d = plays[n]
        r.run({"type": "set_hands", "position": n, "high": d.get("high"), "low": d.get("low")})
    r.run({"type": "lock_decisions"})
    stages.at("after_lock")


# --- the settlement ------------------------------------------------------------------------

def result(state: RoundState, events: list[Event]) -> dict[str, Any]:
    """Lines, per-position returns and the house win of a closed round."""
    outcome: dict[tuple[int, str], str] = {}
    why: dict[tuple[int, str], list[str]] = {}
    for ev in events:
        if ev["type"] == "WagerSettled":
            d = ev["data"]
            key = (d["position"], d["wager"])
            if d["outcome"] not in EXTRA_PAYOUTS:
                outcome[key] = d["outcome"]
            why.setdefault(key, []).append(f"{d['why']} ({d['cite']})")
    lines: list[dict[str, Any]] = []
    returned: dict[str, dict[str, int]] = {}
    for n in sorted(state.positions):
        p = state.positions[n]
        mine = returned.setdefault(str(n), {})
        for w in sorted(p.wagered, key=line_sort_key):
            key = (n, w)
            if state.void is not None:
                out, text = "void", f"round void: {state.void['reason']} ({state.void['cite']})"
            else:
                out, text = outcome.get(key, "open"), "; ".join(why.get(key, []))
            lines.append({"position": n, "wager": w, "wagered_cents": p.wagered[w],
                          "returned_cents": p.returned.get(w, 0), "outcome": out,
                          "why": text})
            mine[w] = p.returned.get(w, 0)
    totals = state.totals or {"wagered": 0, "returned": 0, "house_win": 0}
    return {"lines": lines, "returned_by_position_cents": returned,
            "house_win_cents": totals["house_win"],
            "wagered_cents": totals["wagered"], "returned_cents": totals["returned"],
            "void": state.void, "events": events}
