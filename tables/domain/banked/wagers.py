"""Opening the round and taking wagers until the dealer announces "no more bets".

* Lunar Poker: the Ante; the Super Wager — optional under 589.7(c)(2) when the Rules
  Submission offers it, required and at least the Ante under 671a.7(c)(2); under 671a
  the Super Wager on the dealer's hand and on another position's hand when the Rules
  Submission offers them (671a.7(c)(3)).
* Five Card Hi-Lo: the Ante (579.7(d)), and the Tie and Poker Bonus Wagers when offered
  (579.7(e)).

Every wager is within the posted table minimum and maximum. A player wagers on one
position (589.7(e), 671a.7(e)), or on two adjacent ones at Hi-Lo where the Rules
Submission permits it (579.7(f)).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from casino.domain.money import check_wager, format_money, said_amount
from tables.domain.banked.errors import bad, conflict
from tables.domain.banked.events import Recorder
from tables.domain.banked.state import HILO_GAME, Phase, RoundState
from tables.domain.catalogue import BANKED_GAMES
from tables.domain.catalogue import get_table_game
from tables.domain.rules_options import validate_options

_SUPER_ON = re.compile(r"^super_on_([1-9])$")
#: wagers that come later from a decision, never from place_wager
_FROM_DECISIONS = ("bet", "play", "options_fee", "force_fee")


@lru_cache(maxsize=256)
def _validated(game: str, items: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    return validate_options(game, dict(items))


def canonical_options(game: str, options: Any) -> dict[str, Any]:
    """:func:`validate_options`, remembered for flat options (those of the banked games
    are): a table opens thousands of rounds with the same Rules Submission."""
    if isinstance(options, dict):
        try:
            return dict(_validated(game, tuple(sorted(options.items()))))
        except TypeError:  # an unhashable value: validate it the long way (and refuse it)
            pass
    return validate_options(game, options)


def open_round(rec: Recorder, cmd: dict[str, Any]) -> None:
    """Open the round with the Rules Submission options in effect (validated here)."""
    if rec.state.phase is not Phase.NEW:
        raise conflict("round_already_open", "this round is already open")
    game = cmd.get("game")
    if game not in BANKED_GAMES:
        raise bad("unknown_game", f"{game!r} is not a house-banked game; expected one of: "
                  + ", ".join(BANKED_GAMES), field="game")
    options = canonical_options(game, cmd.get("options"))
    round_id = cmd.get("round_id")
    if round_id is not None and not isinstance(round_id, str):
        raise bad("invalid_round_id", "round_id must be text", field="round_id")
    equipment = _equipment(cmd)
    rec.emit("RoundOpened", round_id=round_id, game=game, options=options,
             max_positions=get_table_game(game).max_positions, **equipment)


#: what RoundOpened may say of the table's equipment (tables.domain.decks' values)
_DEALING_METHODS = ("hand", "manual-shoe", "automated-shoe")
_SHUFFLERS = ("none", "automated", "automated-counting")


def _equipment(cmd: dict[str, Any]) -> dict[str, str]:
    """The table's dealing method and working shuffler when the command gives them (the
    round gate's RoundOpened carries them; a round opened without them deals by the
    method its deal names)."""
    out: dict[str, str] = {}
    for name, allowed, code in (
            ("dealing_method", _DEALING_METHODS, "invalid_dealing_method"),
            ("shuffler", _SHUFFLERS, "invalid_shuffler")):
        value = cmd.get(name)
        if value is None:
            continue
        if value not in allowed:
            raise bad(code, f"{name} is one of {allowed}", field=name)
        out[name] = value
    return out


#: x.7(a): the instruments a wager is made with; a verbal wager with cash is refused
INSTRUMENTS = ("chips", "plaque")


def position_number(state: RoundState, cmd: dict[str, Any]) -> int:
    n = cmd.get("position")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= state.max_positions:
        raise bad("invalid_position", f"position must be 1 to {state.max_positions} "
                  f"(1 is the first position at the dealer's left), not {n!r}",
                  field="position")
    return n


def _betting_phase(state: RoundState) -> None:
    if state.phase is Phase.BETTING:
        return
    if state.phase is Phase.NEW:
        raise conflict("round_not_open", "the round has not been opened")
    if state.phase is Phase.CLOSED:
        raise conflict("round_closed", "the round is closed")
    # 589.7(d), 671a.7(d), 579.7(c)
    raise conflict("wager_after_no_more_bets", "a wager may not be made, increased or "
                   "withdrawn after the dealer has announced \"no more bets\"")


def _check_offered(state: RoundState, n: int, wager: str) -> None:
    """Refuse a wager the game or the Rules Submission does not offer."""
    o = state.options
    if wager in _FROM_DECISIONS:
        raise bad("unknown_wager", f"the {wager} is made by a decision after the cards are "
                  "dealt, not placed before \"no more bets\"", field="wager")
    if state.game == HILO_GAME:
        allowed = {"ante": True, "tie": o["tie_wager_offered"],
                   "poker_bonus": o["poker_bonus_offered"]}
    elif state.game == "lunar-poker-589":
        allowed = {"ante": True, "super": o["super_wager_offered"]}
    else:
        others = o["super_on_other_hands_offered"]
        allowed = {"ante": True, "super": True, "super_dealer": others}
        m = _SUPER_ON.match(wager)
        if m:
            target = int(m.group(1))
            if target == n or target > state.max_positions:
                raise bad("invalid_super_target", "a Super Wager on another hand names "
                          "another position at the table", field="wager")
            allowed[wager] = others
    if wager not in allowed:
        raise bad("unknown_wager", f"{wager!r} is not a wager of this game", field="wager")
    if not allowed[wager]:
        raise bad("wager_not_offered", f"the Rules Submission does not offer the {wager} "
                  "wager", field="wager")


def _check_player(state: RoundState, n: int, player: Any) -> None:
    """589.7(e), 671a.7(e): one position per player; 579.7(f): two adjacent at most."""
    if player is None:
        return
    if not isinstance(player, str) or not player:
        raise bad("invalid_player", "player must be a non-empty id", field="player")
    here = state.positions.get(n)
    if here is not None and here.player not in (None, player):
        raise bad("position_taken", f"position {n} is another player's", field="player")
    elsewhere = [p.number for p in state.positions.values()
                 if p.player == player and p.number != n]
    if not elsewhere:
        return
    adjacent_ok = (state.game == HILO_GAME
                   and state.options["adjacent_betting_areas_permitted"]
                   and len(elsewhere) == 1 and abs(elsewhere[0] - n) == 1)
    if not adjacent_ok:
        raise bad("one_position_per_player",
                  f"player {player} already wagers at position {elsewhere[0]}"
                  + (" (579.7(f): only two adjacent betting areas)" if state.game == HILO_GAME
                     and state.options["adjacent_betting_areas_permitted"] else
                     " and may not wager on more than one position"), field="player")


def place_wager(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    _betting_phase(state)
    n = position_number(state, cmd)
    wager = cmd.get("wager")
    if not isinstance(wager, str):
        raise bad("unknown_wager", "wager must name a wager, e.g. 'ante'", field="wager")
    _check_offered(state, n, wager)
    instrument = _instrument(state, cmd)
    amount = cmd.get("amount")
    check_wager(amount, what=f"{wager} wager")
    lo, hi = state.options["table_minimum_cents"], state.options["table_maximum_cents"]
    if not lo <= amount <= hi:
        # 671a.7(c)(3): a Super Wager on another hand is "equal to or greater than the
        # table minimum"; every other wager is within the posted limits too
        raise bad("outside_table_limits", f"the {wager} wager must be between the table "
                  f"minimum {format_money(lo)} and maximum {format_money(hi)}, not "
                  f"{said_amount(amount)}", field="amount")
    player = cmd.get("player")
    _check_player(state, n, player)
    here = state.positions.get(n)
    wagered = here.wagered if here is not None else {}
    if wager in wagered:
        raise conflict("wager_already_placed", f"position {n} already has a {wager} wager; "
                       "withdraw it to change the amount", field="wager")
    if wager != "ante" and "ante" not in wagered:
        # 671a.7(c)(3) "after placing an Ante Wager"; 579.7(e) "each player who placed an
        # Ante Wager"; 589.7(c)(2) "in addition to the Ante"
        raise bad("ante_required", f"the {wager} wager needs an Ante at position {n} first",
                  field="wager")
    if wager == "super" and state.game == "lunar-poker-671a" and amount < wagered["ante"]:
        raise bad("super_below_ante", "671a.7(c)(2): the Super Wager must be equal to or "
                  "greater than the Ante", field="amount")
    extra = {"instrument": instrument} if instrument is not None else {}
    rec.emit("WagerPlaced", position=n, wager=wager, amount=amount, player=player, **extra)


def _instrument(state: RoundState, cmd: dict[str, Any]) -> str | None:
    """589.7(a), 671a.7(a), 579.7(a): value chips or plaques on the layout (recorded when
    the terminal says which); a verbal wager accompanied by cash is not accepted."""
    instrument = cmd.get("instrument")
    if instrument is None or instrument in INSTRUMENTS:
        return instrument
    if instrument == "cash":
        raise bad("verbal_cash_wager", f"{state.chapter}.7(a): a verbal wager accompanied by "
                  "cash may not be accepted; wagers are value chips or plaques placed on the "
                  "layout", field="instrument")
    raise bad("invalid_instrument", f"instrument is one of {INSTRUMENTS}", field="instrument")


def withdraw_wager(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    _betting_phase(state)
    n = position_number(state, cmd)
    wager = cmd.get("wager")
    here = state.positions.get(n)
    if here is None or not isinstance(wager, str) or wager not in here.wagered:
        raise bad("no_such_wager", f"position {n} has no {wager!r} wager", field="wager")
    if wager == "ante" and len(here.wagered) > 1:
        raise conflict("wagers_depend_on_ante", "withdraw the other wagers at this position "
                       "before the Ante", field="wager")
    rec.emit("WagerWithdrawn", position=n, wager=wager)


def no_more_bets(rec: Recorder, cmd: dict[str, Any]) -> None:
    """589.8(b), 589.9(a)(3), 589.10(a)(2) and the like: before any card is dealt."""
    state = rec.state
    _betting_phase(state)
    seats = state.clockwise()
    if not seats:
        raise conflict("no_wagers", "no position has an Ante")
    if state.game == "lunar-poker-671a":
        for p in seats:
            if "super" not in p.wagered:
                raise conflict("super_required", "671a.7(c)(2): a player shall place a Super "
                               f"Wager on his hand; position {p.number} has none",
                               field="position")
    for p in seats:
        for w in p.wagered:
            m = _SUPER_ON.match(w)
            if m and not (int(m.group(1)) in state.positions
                          and state.positions[int(m.group(1))].in_round):
                raise conflict("super_on_empty_position", f"position {p.number} has a Super "
                               f"Wager on position {m.group(1)}, which has no hand this "
                               "round; withdraw it first", field="position")
    rec.emit("NoMoreBets")
