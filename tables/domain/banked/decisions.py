"""Players' decisions after the deal, and "all decisions are locked in".

Lunar Poker (589.11(b), 671a.11(b)), once per position before the lock:

* ``fold``;
* ``bet`` — exactly twice the Ante; refused on a royal or straight flush in the first five
  cards, which is declared for the instant payout instead;
* ``buy`` / ``exchange`` — an Options fee equal to the Ante for a sixth card or an
  exchange of two to five cards; the draw comes after the lock, in turn;
* ``declare_instant`` — a royal or straight flush in the first five cards (no Bet);
* ``declare_super`` — a Super Wager hand (589.11(c)(2)(ii), 671a.11(b)); a hand that is
  not declared loses the Super Wager.

After a draw the player folds or bets (589.11(d)(2)(iii), 671a.11(d)(3)). Under 589 only,
when the dealer does not qualify, each player who bet answers ``force_dealer`` (an
Options fee equal to the Ante) or ``no_force`` (589.11(e)(2)).

Five Card Hi-Lo (579.11(b), (d)): ``play`` (a Play Wager equal to the Ante, with the
setting now or later by ``set_hands``) or ``forfeit``, asked clockwise from the dealer's
left. Settings are checked against 579.11(d); one player's adjacent hands are set in the
order of 579.7(f) and never changed.
"""

from __future__ import annotations

from typing import Any

from casino.domain.money import format_money, said_amount
from tables.domain.hands.hilo import HiLoSettingError, Setting, validate_setting
from tables.domain.hands.lunar import instant_payout_hand, super_hand
from tables.domain.banked import hilo_settlement, lunar_settlement
from tables.domain.banked.dealing import read_cards
from tables.domain.banked.errors import bad, conflict
from tables.domain.banked.events import Recorder
from tables.domain.banked.state import Phase, Position, RoundState
from tables.domain.banked.turns import must_set_before, next_to_answer, next_to_draw, undecided
from tables.domain.banked.wagers import position_number

LUNAR_FIRST = ("fold", "bet", "buy", "exchange", "declare_instant", "declare_super")
HILO_DECISIONS = ("play", "forfeit")
FORCE_ANSWERS = ("force_dealer", "no_force")


def _position(state: RoundState, cmd: dict[str, Any]) -> Position:
    n = position_number(state, cmd)
    p = state.positions.get(n)
    if p is None or not p.in_round:
        raise bad("position_not_in_round", f"position {n} has no hand this round",
                  field="position")
    if p.abandoned:
        raise conflict("position_abandoned", f"position {n}'s wagers were abandoned "
                       "(589.7(b))", field="position")
    return p


def _phase_error(state: RoundState, what: str) -> Exception:
    if state.phase is Phase.NEW:
        return conflict("round_not_open", "the round has not been opened")
    if state.phase is Phase.CLOSED:
        return conflict("round_closed", "the round is closed")
    if state.phase in (Phase.BETTING, Phase.DEALING):
        return conflict("cards_not_dealt", f"{what}: the cards have not been dealt")
    return conflict("decisions_locked", f"{what}: all decisions are locked in "
                    "(589.11(a)(3), 671a.11(c))")


def _amount(cmd: dict[str, Any], expected: int, code: str, message: str) -> int:
    amount = cmd.get("amount", expected)
    if amount != expected or isinstance(amount, bool):
        raise bad(code, f"{message} ({format_money(expected)}), not {said_amount(amount)}",
                  field="amount")
    return expected


def decision(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    what = cmd.get("decision")
    if state.lunar:
        _lunar(rec, cmd, what)
    else:
        _hilo(rec, cmd, what)


# --- Lunar Poker -------------------------------------------------------------------------

def _lunar(rec: Recorder, cmd: dict[str, Any], what: Any) -> None:
    state = rec.state
    if what in FORCE_ANSWERS:
        _force_answer(rec, cmd, what)
    elif what in LUNAR_FIRST:
        if state.phase is Phase.DRAWING and what in ("fold", "bet"):
            _after_draw(rec, cmd, what)
        elif state.phase is not Phase.DECISIONS:
            raise _phase_error(state, what)
        else:
            _first_decision(rec, cmd, what)
    else:
        raise bad("unknown_decision", f"{what!r} is not a Lunar Poker decision; expected one "
                  f"of {LUNAR_FIRST + FORCE_ANSWERS}", field="decision")


def _first_decision(rec: Recorder, cmd: dict[str, Any], what: str) -> None:
    state = rec.state
    p = _position(state, cmd)
    n = p.number
    if what == "declare_super":
        if "super" not in p.wagered:
            raise bad("no_super_wager", f"position {n} placed no Super Wager", field="decision")
        if "super" in p.declared:
            raise conflict("already_declared", f"position {n} has declared its Super Wager hand")
        hand = super_hand(state.rulebook, p.dealt)
        if hand is None:
            raise bad("no_super_hand", f"position {n}'s five cards pay no Super Wager "
                      f"({state.chapter}.6(d))", field="decision")
        rec.emit("HandDeclared", position=n, declaration="super", hand=hand.value)
        return
    if p.decision is not None:
        raise conflict("decision_already_made", f"position {n} has already decided "
                       f"({p.decision})", field="position")
    instant = instant_payout_hand(p.dealt)
    ante = p.ante
    if what == "declare_instant":
        if instant is None:
            raise bad("no_instant_hand", "the instant payout is for a royal flush or a "
                      "straight flush in the first five cards", field="decision")
        rec.emit("HandDeclared", position=n, declaration="instant", hand=instant.value)
    elif what == "fold":
        rec.emit("DecisionMade", position=n, decision="fold")
    elif what == "bet":
        if instant is not None:
            raise bad("instant_hand_no_bet", f"{state.chapter}.11(b)(2): with a "
                      f"{instant.label.lower()} in the first five cards the player does not "
                      "place a Bet Wager but declares the hand", field="decision")
        amount = _amount(cmd, 2 * ante, "bet_not_twice_ante", "the Bet Wager is twice the Ante")
        rec.emit("DecisionMade", position=n, decision="bet", wager="bet", amount=amount)
    else:  # buy or exchange
        amount = _amount(cmd, ante, "options_fee_not_ante", "the Options fee equals the Ante")
        rec.emit("DecisionMade", position=n, decision=what, wager="options_fee",
                 amount=amount)


def _after_draw(rec: Recorder, cmd: dict[str, Any], what: str) -> None:
    state = rec.state
    p = _position(state, cmd)
    n = p.number
    if p.decision not in ("buy", "exchange"):
        if p.out_of_play:
            raise conflict("position_folded", f"position {n} is out of the round")
        raise _phase_error(state, what)
    if p.final is not None:
        raise conflict("decision_already_made", f"position {n} has already decided "
                       f"({p.final})")
    if not p.drawn:
        turn = next_to_draw(state)
        if turn != n:
            raise conflict("out_of_turn", f"position {turn} draws and decides first",
                           field="position")
        raise conflict("draw_first", f"position {n} draws before folding or betting")
    if what == "fold":
        rec.emit("DecisionMade", position=n, decision="fold")
    else:
        amount = _amount(cmd, 2 * p.ante, "bet_not_twice_ante",
                         "the Bet Wager is twice the Ante")
        rec.emit("DecisionMade", position=n, decision="bet", wager="bet", amount=amount)
    lunar_settlement.advance(rec)


def _force_answer(rec: Recorder, cmd: dict[str, Any], what: str) -> None:
    state = rec.state
    if state.rulebook is not None and state.chapter != "589":
        raise bad("force_not_offered", "forcing the dealer exists only under chapter 589",
                  field="decision")
    if state.phase is not Phase.FORCING:
        raise conflict("force_not_available", "589.11(e)(2): a player may force the dealer "
                       "only when the dealer does not qualify", field="decision")
    p = _position(state, cmd)
    n = p.number
    if not p.has_bet:
        raise conflict("position_folded", f"position {n} has no Bet Wager in play")
    if p.force is not None:
        raise conflict("decision_already_made", f"position {n} has already answered")
    if what == "force_dealer":
        amount = _amount(cmd, p.ante, "options_fee_not_ante",
                         "589.11(e)(2)(ii): the Options fee to force the dealer equals the Ante")
        rec.emit("DecisionMade", position=n, decision=what, wager="force_fee", amount=amount)
    else:
        rec.emit("DecisionMade", position=n, decision=what)
    lunar_settlement.advance(rec)


# --- Five Card Hi-Lo ---------------------------------------------------------------------

def _hilo(rec: Recorder, cmd: dict[str, Any], what: Any) -> None:
    state = rec.state
    if what not in HILO_DECISIONS:
        raise bad("unknown_decision", f"{what!r} is not a Five Card Hi-Lo decision; expected "
                  "play or forfeit", field="decision")
    if state.phase is not Phase.DECISIONS:
        raise _phase_error(state, what)
    p = _position(state, cmd)
    n = p.number
    if p.decision is not None:
        raise conflict("decision_already_made", f"position {n} has already decided "
                       f"({p.decision})", field="position")
    turn = next_to_answer(state)
    if turn != n:
        raise conflict("out_of_turn", f"579.11(b): the dealer asks position {turn} first, "
                       "clockwise from the dealer's left", field="position")
    setting = None
    if what == "play":
        amount = _amount(cmd, p.ante, "play_not_equal_ante",
                         "579.11(b): the Play Wager equals the Ante")
        if cmd.get("high") is not None or cmd.get("low") is not None:
            setting = _check_setting(state, p, cmd)
        rec.emit("DecisionMade", position=n, decision="play", wager="play", amount=amount)
    else:
        rec.emit("DecisionMade", position=n, decision="forfeit")
    if setting is not None:
        _emit_setting(rec, n, setting)
    hilo_settlement.collect_forfeits(rec)


def _check_setting(state: RoundState, p: Position, cmd: dict[str, Any]) -> Setting:
    try:
        high = read_cards(cmd.get("high") or [], "high")
        low = read_cards(cmd.get("low") or [], "low")
        setting = validate_setting(p.dealt, high, low)
    except HiLoSettingError as e:
        # validate_setting's messages already cite 579.11(d); cite it once.
        err = bad("invalid_setting", e.message, field="high")
        err.reason = e.code  # the rule broken: hilo_two_aces_low, hilo_cards_not_dealt, ...
        raise err from None
    first = must_set_before(state, p)
    if first is not None:
        raise conflict("set_other_hand_first", f"579.7(f): the player sets the hand at "
                       f"position {first.number} before this one", field="position")
    return setting


def _emit_setting(rec: Recorder, n: int, setting: Setting) -> None:
    rec.emit("HandsSet", position=n, high=list(setting.high), low=list(setting.low),
             high_total=setting.high_total, low_total=setting.low_total)


def set_hands(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    if state.lunar:
        raise bad("no_setting_in_game", "Lunar Poker hands are not set high and low")
    if state.phase is not Phase.DECISIONS:
        raise _phase_error(state, "set_hands")
    p = _position(state, cmd)
    if p.decision == "forfeit":
        raise conflict("position_folded", f"position {p.number} forfeited")
    if p.decision != "play":
        raise conflict("play_first", f"position {p.number} makes the Play Wager before "
                       "setting the hands (579.11(d))")
    if p.setting is not None:
        raise conflict("hands_already_set", "579.7(f), 579.11(a)(3): a hand once set and "
                       "placed face down may not be changed")
    _emit_setting(rec, p.number, _check_setting(state, p, cmd))


# --- "all decisions are locked in" ------------------------------------------------------------

def lock(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    if state.phase is not Phase.DECISIONS:
        raise _phase_error(state, "lock_decisions")
    waiting = undecided(state)
    if waiting:
        raise conflict("decisions_pending", f"position {waiting[0]} has not decided "
                       "(589.11(c), 671a.11(c), 579.11(c))", field="position")
    if not state.lunar:
        unset = [p.number for p in state.clockwise()
                 if p.decision == "play" and not p.abandoned and p.setting is None]
        if unset:
            raise conflict("decisions_pending", f"position {unset[0]} has not set its hands "
                           "(579.11(e))", field="position")
    rec.emit("DecisionsLocked")
    if state.lunar:
        lunar_settlement.after_lock(rec)
    else:
        hilo_settlement.showdown(rec)
