"""The names a hand's state machine uses: actions, phases, the causes of a misdeal, the
steps of a hand by game (637a.10-637a.21), and how an event is written."""

from __future__ import annotations

from casino.domain.cards import DECK_SIZE
from poker_room.domain.games import BOARD, STUD


FOLD, CHECK, CALL, BET, RAISE, BRING_IN, COMPLETE = (
    "fold", "check", "call", "bet", "raise", "bring_in", "complete")


#: phases
BETTING, DRAWING, DISCARDING, DEALING, FORCED, COMPLETE_PHASE = (
    "betting", "drawing", "discarding", "dealing", "forced_bet", "complete")


#: 637a.18(g) causes of a misdeal; the ones marked ``True`` only count while fewer than
#: two players have voluntarily put chips in the pot (637a.18(g)(2), (4)).
MISDEAL_REASONS = {"not_shuffled_or_cut": False, "wrong_starting_position": True,
                   "cards_face_up_in_deck": False, "eligible_player_not_dealt": True}


#: 637a.18(m)(1)-(2): a Seven-card Stud player whose third hole card was turned face up
#: stops betting and contends for the pot as it stands, or plays on for the entire pot
POT_SO_FAR, ENTIRE_POT = "pot_so_far", "entire_pot"
EXPOSURE_CHOICES = (POT_SO_FAR, ENTIRE_POT)


#: 637a.18(k): how a player lost his hand (fouled by the discards, collected by the
#: dealer, left at the table by a player who went without comment, (k)(4)) and what
#: became of it: dead (no redress), reconstructed ((k)(2)) or refunded ((k)(3))
FOULED, LEFT_TABLE = "fouled", "left_table"
FOUL_HOW = (FOULED, "collected", LEFT_TABLE)
OUTCOME_DEAD, OUTCOME_RECONSTRUCTED, OUTCOME_REFUNDED = "dead", "reconstructed", "refunded"


#: why a card is put with the discards unused (637a.18(j), (o))
DISCARD_REASONS = ("face_up_in_deck", "dealt_off_table")


_ACTION_EVENTS = {"PlayerFolded": FOLD, "PlayerChecked": CHECK, "PlayerCalled": CALL,
                  "PlayerBet": BET, "PlayerRaised": RAISE}


_FULL_DECK = list(range(DECK_SIZE))


def _plan(spec) -> tuple[list[tuple], dict[int, int], int]:
    """A game's steps with the plan index of each betting round and of the first deal,
    worked out once per game."""
    plan = _PLANS.get(spec.id)
    if plan is None:
        steps = _steps(spec)
        bet_step = {st[1]: k for k, st in enumerate(steps) if st[0] == "bet"}
        first_deal = next(k for k, st in enumerate(steps) if st[0] in ("hole", "stud_first"))
        plan = _PLANS[spec.id] = (steps, bet_step, first_deal)
    return plan


_PLANS: dict[str, tuple[list[tuple], dict[int, int], int]] = {}


def _steps(spec) -> list[tuple]:
    """The steps of a round of play, in order (637a.10-637a.14, 637a.19-637a.21)."""
    if spec.family == BOARD:
        # 637a.11(d), (f)-(j): blinds, hole cards, then flop, turn and river, each after a
        # burn card and followed by a betting round
        return [("antes",), ("blinds",), ("hole", spec.hole_cards), ("bet", 0),
                ("board", 3), ("bet", 1), ("board", 1), ("bet", 2), ("board", 1),
                ("bet", 3), ("showdown",)]
    if spec.family == STUD:
        steps: list[tuple] = [("antes",), ("stud_first",)]
        if spec.discard:
            steps.append(("discard",))  # 637a.10(m)
        steps += [("bring_in",), ("bet", 0)]
        for r, kind in enumerate(spec.stud_streets, start=1):
            steps += [("stud", kind), ("bet", r)]
        return steps + [("showdown",)]
    steps = [("antes",)]
    if spec.blinds_after_deal:  # 637a.13(d)-(e): five-card draw blinds after the deal
        steps += [("hole", spec.hole_cards), ("blinds",)]
    else:  # 637a.20(d), (f); 637a.21(d), (f)
        steps += [("blinds",), ("hole", spec.hole_cards)]
    steps.append(("bet", 0))
    for r in range(1, spec.draws + 1):
        steps += [("draw",), ("bet", r)]
    return steps + [("showdown",)]
