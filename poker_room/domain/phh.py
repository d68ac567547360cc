"""PHH hand histories (the open poker hand-history format of ``uoftcprg/phh-std``: TOML
with ``variant``, ``antes``, ``blinds_or_straddles`` / ``bring_in``, ``small_bet`` /
``big_bet`` / ``min_bet``, ``starting_stacks``, ``actions``, ``finishing_stacks``).

:func:`to_phh` writes any hand PHH can express (not a fouled hand's refund nor a dead
hand out of turn, 637a.18(k): :func:`_fouled_as_fold`); games PHH has no code for get
``variant = "PA:<game id>"`` with our rules in ``_pa_rules``. :func:`replay` plays a PHH history through our engine.
Players ``p1..pn`` are numbered from the button's left (button games; the button is
``pn``) or from the dealer's left (stud); we seat them 1..n in that order.

Where PA's rules differ from the PHH/pokerkit defaults the replay says how it reads them
(see ``replay_phh``'s help): heads-up the button posts the small blind; the stud bring-in
player may complete instead; no raise cap is imposed (the file's actions stand); odd chips
follow the table's rule (by suit in stud high-low, 637a.10(i)(3); first player left of the
button elsewhere, which is also pokerkit's); an ante at one seat is a big-blind (or button)
ante (:func:`poker_room.domain.phh_antes.read_antes`); burn cards are not recorded in PHH.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cmp_to_key
from typing import Any

from casino.domain.cards import format_card, parse_card
from casino.domain.hands import stud as _stud
from poker_room.domain.games import STUD
from poker_room.domain.errors import PHHCannotExpress, PHHError
from poker_room.domain.hand import DEALING, DRAWING, EXPOSURE_CHOICES, FORCED, Hand
from poker_room.domain.hand.constants import OUTCOME_RECONSTRUCTED
from poker_room.domain.phh_antes import int_list, read_antes, written_antes
from poker_room.domain.pokerkit_bridge import PAIRS, VARIANTS, player_order
from poker_room.domain.rules import FIXED_LIMIT, TableRules
from poker_room.domain.rules_schema import NO_POT_RAKE, SPLIT_GAMES
from tables.domain.catalogue import OddChip, get_table_game
from tables.domain.options_reader import MAX_CENTS


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return "'" + v.replace("'", "") + "'" if "\n" not in v else repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()
                                if x is not None) + " }"
    raise TypeError(v)


def to_phh(hand: Hand) -> str:
    """The hand as PHH TOML text (any game, complete or not); 409 ``phh_cannot_express``
    for a hand PHH has no word for (:func:`_fouled_as_fold`)."""
    rules, spec = hand.rules, hand.spec
    order = player_order(hand)
    pnum = {hand._seats[i]: k + 1 for k, i in enumerate(order)}
    n = len(order)
    pair = PAIRS.get((spec.id, rules.structure))
    f: dict[str, Any] = {"variant": pair[1] if pair else f"PA:{spec.id}",
                         "ante_trimming_status": True,
                         "antes": written_antes(rules, n)}
    if spec.family == "stud":
        f["bring_in"] = rules.bring_in_cents
    else:
        # PHH lists the blinds from p1 (heads-up, pokerkit itself swaps them so the
        # button posts the small blind)
        posted = list(rules.blinds_cents) + ([rules.straddle_cents] if hand._straddle else [])
        f["blinds_or_straddles"] = (posted + [0] * n)[:max(n, len(posted))]
    if rules.structure == FIXED_LIMIT:
        f["small_bet"], f["big_bet"] = rules.small_bet_cents, rules.big_bet_cents
    else:
        f["min_bet"] = rules.opening_bet_cents
    f["starting_stacks"] = [hand._start[i] for i in order]
    actions: list[str] = []
    draws: list[str] = []
    redeals: list[str] = []

    def cards(cs) -> str:
        return "".join(format_card(c) for c in cs)

    def flush_draws() -> None:
        actions.extend(draws)
        actions.extend(redeals)
        draws.clear()
        redeals.clear()

    for k, e in enumerate(hand.events):
        t, d = e["type"], e["data"]
        if t != "PlayerDrew":
            flush_draws()
        if t == "CardsDealt":
            for seat, cs in sorted(d["cards"], key=lambda sc: pnum[sc[0]]):
                actions.append(f"d dh p{pnum[seat]} {cards(cs)}")
        elif t in ("BoardDealt",):
            actions.append(f"d db {cards(d['cards'])}")
        elif t == "CommonCardDealt":
            actions.append(f"d db {format_card(d['card'])} # common card, 637a.10(h)")
        elif t == "PlayerDrew":
            # PHH (as pokerkit writes it) lists every discard of a draw, then the deals
            draws.append(f"p{pnum[d['seat']]} sd {cards(d['discarded'])}".rstrip())
            if d["cards"]:
                redeals.append(f"d dh p{pnum[d['seat']]} {cards(d['cards'])}")
        elif t == "PlayerDiscarded":
            actions.append(f"p{pnum[d['seat']]} sd {cards(d['cards'])} # 637a.10(m)")
        elif t == "BringInPosted":
            actions.append(f"p{pnum[d['seat']]} pb")
        elif t == "PlayerFolded":
            actions.append(f"p{pnum[d['seat']]} f")
        elif t in ("PlayerChecked", "PlayerCalled"):
            actions.append(f"p{pnum[d['seat']]} cc")
        elif t in ("PlayerBet", "PlayerRaised"):
            actions.append(f"p{pnum[d['seat']]} cbr {d['to']}")
        elif t == "HandShown":
            actions.append(f"p{pnum[d['seat']]} sm {cards(d['cards'])}")
        elif t == "HandMucked":
            actions.append(f"p{pnum[d['seat']]} sm")
        elif t == "HandFouled" and d["outcome"] != OUTCOME_RECONSTRUCTED:
            actions.append(_fouled_as_fold(hand, k, d, pnum[d["seat"]]))
        elif t == "ThirdHoleCardExposed":
            # PHH has no word for it: a comment on the deal that :func:`replay` reads
            deal = f"d dh p{pnum[d['seat']]} {format_card(d['card'])}"
            k = max(k for k, a in enumerate(actions) if a == deal)
            actions[k] = f"{deal} {_EXPOSED_NOTE} {d['choice']}"
    flush_draws()
    f["actions"] = actions
    if hand.is_complete:
        f["finishing_stacks"] = [hand._stacks[i] for i in order]
    f["seats"] = [hand._seats[i] for i in order]
    if hand.hand_id is not None:
        f["hand"] = str(hand.hand_id)
    if pair is None:
        f["_pa_rules"] = {k: v for k, v in rules.to_dict().items()
                          if v is not None and not isinstance(v, (dict, list)) or
                          k == "blinds_cents"}
    return "\n".join(f"{k} = {_toml_value(v)}" for k, v in f.items()) + "\n"


def _fouled_as_fold(hand: Hand, k: int, d: Mapping[str, Any], player: int) -> str:
    """A hand lost to the discards, the dealer or the player's leaving (637a.18(k)) and not
    reconstructed, as PHH can write it: a dead hand in its player's turn is a fold. PHH
    has no word for the rest, so their export is refused (409 ``phh_cannot_express``): a
    refund out of the pot (637a.18(k)(3)) would leave the player's bets in the file's pot,
    and a fold out of turn replays in no PHH reader. (A reconstructed hand, (k)(2),
    plays on: nothing to write.)"""
    rule = d.get("rule", "637a.18(k)")
    if d.get("refunded"):
        raise PHHCannotExpress(
            f"seat {d['seat']} was refunded from the pot ({rule}): PHH cannot express a "
            "refund, so this hand has no PHH history; its record is the hand's history")
    if Hand.from_events(hand.events[:k]).to_act != d["seat"]:
        raise PHHCannotExpress(
            f"seat {d['seat']}'s hand was dead out of turn ({rule}): PHH writes a fold "
            "only in turn, so this hand has no PHH history; its record is the hand's "
            "history")
    return f"p{player} f # {rule} dead hand"


# ----------------------------------------------------------------------------- replay

def _amount(phh: Mapping[str, Any], key: str) -> Any:
    if key not in phh:
        raise PHHError(f"{key} is required for this variant", field=key)
    return phh[key]  # its type and range are checked by TableRules


def _check_shape(phh: Any) -> None:
    """The fields the replay reads have the PHH types: a malformed file is a PHHError."""
    if not isinstance(phh, Mapping):
        raise PHHError("a PHH history is a TOML table of fields")
    int_list(phh, "starting_stacks", required=True)
    int_list(phh, "antes")
    int_list(phh, "blinds_or_straddles")
    actions = phh.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError("actions must be a list of action strings", field="actions")


def rules_for(phh: Mapping[str, Any]) -> TableRules:
    """Our table rules for a PHH history (PA's rules where they differ, module doc)."""
    _check_shape(phh)
    variant = phh.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise PHHError(f"variant {variant!r} is not one we replay; expected one of "
                       + ", ".join(VARIANTS), field="variant")
    game, structure = VARIANTS[variant]
    n = len(phh["starting_stacks"])
    stud = game.startswith("stud") or game == "five-card-stud"
    ante, posted_by = read_antes(phh, n, stud)
    table = get_table_game(game)
    d: dict[str, Any] = {"game": game, "structure": structure, "ante_cents": ante,
                         "ante_posted_by": posted_by, "chip_unit_cents": 1,
                         "buy_in_minimum_cents": 1, "buy_in_maximum_cents": MAX_CENTS,
                         "rake": NO_POT_RAKE}
    if table.odd_chip is not OddChip.BY_SUIT:  # pokerkit's rule: by position
        d["odd_chip_recipient"] = "first-left-of-button"
        if game in SPLIT_GAMES:
            d["odd_chip_recipient_low"] = "first-left-of-button"
    if "bring_in" in phh and phh.get("bring_in") is not None and stud:
        d["forced_bet_cents"] = phh["bring_in"]
        d["forced_bet_may_complete"] = True
    else:
        d["heads_up_button_posts_small_blind"] = True
        blinds = [b for b in phh.get("blinds_or_straddles") or [] if b]
        if len(blinds) >= 3:
            d["blinds_cents"] = blinds[:2]
            d["straddle"] = {"offered": True, "amount_cents": blinds[2],
                             "rules": "as the hand history records"}
        else:
            d["blinds_cents"] = blinds
    if structure == FIXED_LIMIT:
        d["small_bet_cents"], d["big_bet_cents"] = (_amount(phh, "small_bet"),
                                                    _amount(phh, "big_bet"))
        d["table_minimum_cents"], d["table_maximum_cents"] = (d["small_bet_cents"],
                                                              d["big_bet_cents"])
    else:
        d["minimum_bet_cents"] = _amount(phh, "min_bet")
        d["table_minimum_cents"], d["table_maximum_cents"] = (d["minimum_bet_cents"],
                                                              MAX_CENTS)
    return TableRules.from_dict(d)


#: the comment on a deal whose card was turned face up, with the player's choice
#: (637a.18(m)(1)-(2))
_EXPOSED_NOTE = "# 637a.18(m) exposed:"


def _exposure(raw: str) -> str | None:
    """The choice a deal's comment records for its card turned face up, if any."""
    _, _, note = raw.partition(_EXPOSED_NOTE)
    choice = note.strip()
    return choice if choice in EXPOSURE_CHOICES else None


def _cards(text: str) -> list[int | None]:
    out: list[int | None] = []
    text = text.strip()
    i = 0
    while i < len(text):
        chunk = text[i:i + 2]
        out.append(None if chunk == "??" else parse_card(chunk))
        i += 2
    return out


def replay(phh: Mapping[str, Any] | str, *, check_stakes: bool = False) -> Hand:
    """Play a PHH history (a dict or TOML text) through our engine; returns the hand."""
    if isinstance(phh, str):
        try:
            phh = tomllib.loads(phh)
        except tomllib.TOMLDecodeError as exc:
            raise PHHError(f"not TOML: {exc}") from None
    rules = rules_for(phh)
    spec = rules.spec
    stacks_in = phh["starting_stacks"]
    n = len(stacks_in)
    seats = list(range(1, n + 1))
    blinds = phh.get("blinds_or_straddles") or []
    straddle = len([b for b in blinds if b]) >= 3
    hand = Hand.start(rules, dict(zip(seats, stacks_in)),
                      button=n if spec.uses_button else None, deck=None,
                      straddle=straddle, check_stakes=check_stakes)
    known = set()
    for a in phh["actions"]:
        parts = a.split("#")[0].split()
        if len(parts) >= 3 and parts[1] in ("dh", "db", "sd", "sm"):
            known.update(c for c in _cards(parts[-1]) if c is not None)
    holes: dict[int, list] = {}
    discards: dict[int, list[int]] = {}
    brought_in = _recorded_bring_in(phh["actions"]) if spec.family == STUD else None
    board: list[list] = []
    exposures: dict[int, str] = {}  # seat -> the choice, for the deal to come

    def fill(cs: list[int | None]) -> list[int]:
        # hidden cards: any card the history never names and the hand has not used
        out = []
        for c in cs:
            if c is None:
                c = next(x for x in range(52) if x not in known and x not in hand._out)
                known.add(c)
            out.append(c)
        return out

    def drive() -> None:
        while not hand.is_complete:
            if hand.phase == DEALING:
                kind = hand._due[0]
                if kind == "board":
                    if not board:
                        return
                    hand.deal(fill(board.pop(0)))
                elif kind == "common":
                    raise PHHError("the deck ran short (a stud common card, 637a.10(h)): "
                                   "PHH cannot express it")
                else:
                    order, count = hand._due[1], hand._due[2]
                    want = {hand._seats[i]: count for i in order}
                    if any(len(holes.get(s, [])) < c for s, c in want.items()):
                        return
                    kinds = hand._due[3]
                    first_street = not any(hand.up_cards(s) for s in hand.seats)
                    if (spec.family == STUD and first_street and "up" in kinds
                            and brought_in is not None):
                        _pick_unknown_up_cards(holes, want, kinds, brought_in, known,
                                               hand._out, spec.stud_game)
                    got = {}
                    for s, c in want.items():
                        got[s] = fill(holes[s][:c])
                        del holes[s][:c]
                    shown = {s: got[s] for s in got if s in exposures}
                    if shown:
                        hand.deal(got, exposed=shown,
                                  exposure_choice={s: exposures.pop(s) for s in shown})
                    else:
                        hand.deal(got)
            elif hand.phase == DRAWING:
                s = hand.to_act
                if s not in discards:
                    return
                need = len(discards[s])
                if len(holes.get(s, [])) < need:
                    return
                new = fill(holes[s][:need])
                del holes[s][:need]
                hand.draw(s, discards.pop(s), new)
            else:
                return

    for raw in phh["actions"]:
        parts = raw.split("#")[0].split()
        if not parts:
            continue
        if len(parts) < 2 or (parts[0] == "d"
                              and len(parts) < {"dh": 4, "db": 3}.get(parts[1], 2)):
            raise PHHError(f"action {raw!r} is incomplete", field="actions")
        drive()
        if parts[0] == "d":
            if parts[1] == "dh":
                holes.setdefault(_player(parts[2], raw), []).extend(_cards(parts[3]))
                if _exposure(raw) is not None:
                    exposures[_player(parts[2], raw)] = _exposure(raw)
            elif parts[1] == "db":
                board.append(_cards(parts[2]))
            continue
        seat = _player(parts[0], raw)
        op = parts[1]
        if op == "sm":
            continue  # our showdown shows and mucks by the rules (637a.18(e))
        if op == "sd":
            discards[seat] = [c for c in _cards(parts[2]) if c is not None] \
                if len(parts) > 2 else []
            if hand.phase == "discarding":
                hand.discard(seat, discards.pop(seat))
            continue
        if op == "pb":
            hand.act(seat, "bring_in")
        elif op == "f":
            hand.act(seat, "fold")
        elif op == "cc":
            la = hand.legal_actions()
            hand.act(seat, "check" if "check" in la["actions"] else "call")
        elif op == "cbr":
            if len(parts) < 3 or not parts[2].isdigit():
                raise PHHError(f"action {raw!r} needs the amount bet to", field="actions")
            to = int(parts[2])
            if hand.phase == FORCED:
                hand.act(seat, "complete", to)
            else:
                hand.act(seat, "bet" if hand._max_bet == 0 else "raise", to)
        else:
            raise PHHError(f"unknown action {raw!r}")
    drive()
    return hand


def _recorded_bring_in(actions: list[str]) -> int | None:
    """The player the record has make the Forced Bet (637a.10(d), 637a.14(d)): the first
    player to act in a stud hand posts it (``pb``) or completes instead (``cbr``)."""
    for raw in actions:
        parts = raw.split("#")[0].split()
        if len(parts) >= 2 and parts[0] != "d":
            return _player(parts[0], raw) if parts[1] in ("pb", "cbr") else None
    return None


def _pick_unknown_up_cards(holes: dict[int, list], want: dict[int, int], kinds: list[str],
                           brought_in: int, known: set, out: Any, game: Any) -> None:
    """Up cards the history does not name (``??``) are chosen so that the player the record
    has bring in holds the up card that brings in: the bring-in is taken from the record,
    not decided by cards nobody saw. A named up card that contradicts it is an error. (An
    unknown up card can still change who acts first on a later street, 637a.10(e); the
    record's order there is then refused as out of turn.)"""
    up_at = [k for k, kind in enumerate(kinds) if kind == "up"][0]
    free = [c for c in range(52) if c not in known and c not in out]

    def brings_in_first(a: int, b: int) -> int:
        return -1 if _stud.bring_in_seat({1: a, 2: b}, game) == 1 else 1

    free.sort(key=cmp_to_key(brings_in_first))
    # the recorded player's unknown card: the one that brings in against any; the others'
    # the lowest that still do not (so they change the later streets' order the least)
    for seat in sorted(want, key=lambda s: s != brought_in):
        cards = holes.get(seat, [])
        if up_at < len(cards) and cards[up_at] is None:
            if seat == brought_in:
                cards[up_at] = free.pop(0)
            else:
                mine = holes.get(brought_in, [None] * (up_at + 1))[up_at]
                later = [c for c in free if mine is None or brings_in_first(mine, c) < 0]
                cards[up_at] = later[0] if later else free[-1]
                free.remove(cards[up_at])
            known.add(cards[up_at])
    up = {seat: holes[seat][up_at] for seat in want if up_at < len(holes.get(seat, []))}
    if len(up) == len(want) and _stud.bring_in_seat(up, game) != brought_in:
        raise PHHError(f"the record has p{brought_in} make the Forced Bet, but the up cards "
                       "it names give it to another player", field="actions")


def _player(token: str, raw: str) -> int:
    """``p3`` -> 3."""
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit():
        raise PHHError(f"action {raw!r}: {token!r} is not a player (p1, p2, ...)",
                       field="actions")
    return int(token[1:])

