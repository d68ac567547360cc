"""Irregularities (589.13, 671a.13, 579.13) and abandoned wagers (589.7(b), 671a.7(b),
579.7(b)), reported by the dealer with ``report_irregularity``.

=====================  ================================================================
kind                   effect
=====================  ================================================================
card_face_up           x.13(a): the card is not used this round; a second one voids it
wrong_card_count       x.13(c): a player or the dealer dealt the wrong number: void
dealer_card_exposed    589.13(d), 671a.13(d): a face-down dealer card exposed before every
                       player folded or bet: void (Lunar only); after, only recorded
shuffler_jam           589.13(e), 671a.13(e), 579.13(d): the cards are reshuffled; only
                       before the deal, and no wager changes
shoe_jam               589.13(f), 671a.13(f), 579.13(e): the automated dealing shoe jams
                       during the round: void
stub_count_wrong       579.8(h), 579.9(f), 579.10(f): the stub count is wrong: void, and
                       the deck is removed; a misdeal (``misdealt``) keeps it only with
                       52 counted, so it is recorded with the stub count, not here;
                       cited by the table's dealing method (:func:`stub_cites`); the
                       ``stub_count`` command (:mod:`.stub`) ends here on a wrong count
card_drawn_in_error    x.13(b): a card drawn in error, face down, is the next card: the
                       deal, draw or dealer's card that follows begins with it
                       (:mod:`.dealing`); in dealt mode after the deal it is the deck's
                       next card (``card`` optional, checked). Face exposed
                       (``face_exposed``): refused, that is card_face_up (x.13(a))
abandoned              x.7(b): the player at ``position`` left during the round; the
                       house treats his wagers as losing wagers
=====================  ================================================================

A void returns every wager line, fees included, whatever was settled before it: "all
hands shall be void, all wagers shall be returned to the players".
"""

from __future__ import annotations

from typing import Any

from tables.domain.banked import hilo_settlement, lunar_settlement
from tables.domain.banked.dealing import next_cards_from, read_cards
from tables.domain.banked.errors import bad, conflict
from tables.domain.banked.events import Recorder
from tables.domain.banked.payouts import close, collect
from tables.domain.banked.state import Phase, RoundState
from tables.domain.banked.wagers import position_number

_AFTER_DEAL = (Phase.DECISIONS, Phase.DRAWING, Phase.FORCING, Phase.DEALER_DRAW)

#: kind -> {chapter: subsection}
CITES: dict[str, dict[str, str]] = {
    "card_face_up": {"589": "589.13(a)", "671a": "671a.13(a)", "579": "579.13(a)"},
    "wrong_card_count": {"589": "589.13(c)", "671a": "671a.13(c)", "579": "579.13(c)"},
    "dealer_card_exposed": {"589": "589.13(d)", "671a": "671a.13(d)"},
    "shuffler_jam": {"589": "589.13(e)", "671a": "671a.13(e)", "579": "579.13(d)"},
    "shoe_jam": {"589": "589.13(f)", "671a": "671a.13(f)", "579": "579.13(e)"},
    # the cite is the table's dealing method's: manual shoe 579.8(h), by hand 579.9(f),
    # automated shoe 579.10(f) (stub_cites)
    "stub_count_wrong": {"579": "579.8(h)"},
    "card_drawn_in_error": {"589": "589.13(b)", "671a": "671a.13(b)", "579": "579.13(b)"},
    "abandoned": {"589": "589.7(b)", "671a": "671a.7(b)", "579": "579.7(b)"},
}
KINDS = tuple(CITES)

#: the table's dealing method -> the section of its procedure
_SECTION = {"manual-shoe": "579.8", "hand": "579.9", "automated-shoe": "579.10"}
#: section -> the subsections (discard, count, count right, count wrong)
_STEPS = {"579.8": ("e", "f", "g", "h"), "579.9": ("c", "d", "e", "f"),
          "579.10": ("c", "d", "e", "f")}


def stub_cites(state: RoundState) -> tuple[str, str, str, str]:
    """The subsections of the stub's discard, count, right count and wrong count."""
    section = _SECTION.get(state.dealing_method or "") or (
        "579.10" if state.method == "stacks" else "579.8")
    return tuple(f"{section}({x})" for x in _STEPS[section])  # type: ignore[return-value]


def _not_applicable(why: str) -> Exception:
    return conflict("irregularity_not_applicable", why, field="kind")


def report(rec: Recorder, cmd: dict[str, Any]) -> None:
    state = rec.state
    if state.phase is Phase.NEW:
        raise conflict("round_not_open", "the round has not been opened")
    if state.phase is Phase.CLOSED:
        raise conflict("round_closed", "the round is closed")
    kind = cmd.get("kind")
    if not isinstance(kind, str) or kind not in CITES:
        raise bad("unknown_irregularity", f"{kind!r} is not one of {', '.join(KINDS)}",
                  field="kind")
    cite = CITES[kind].get(state.chapter)
    if cite is None:
        raise _not_applicable(f"chapter {state.chapter} has no {kind} irregularity")
    _HANDLERS[kind](rec, cmd, kind, cite)


def void(rec: Recorder, reason: str, cite: str, *, deck_removed: bool = False) -> None:
    state = rec.state
    lines = [{"position": n, "wager": w, "wagered": a}
             for n in sorted(state.positions) for w, a in state.positions[n].wagered.items()]
    rec.emit("RoundVoided", reason=reason, cite=cite, lines=lines, deck_removed=deck_removed)
    close(rec)


def _deck_in_use(state: RoundState) -> bool:
    """Cards still come out of the deck: the deal, and under Lunar the draws and the
    forced dealer's card."""
    if state.phase is Phase.DEALING:
        return True
    return state.lunar and state.phase in _AFTER_DEAL


def _card_face_up(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    state = rec.state
    if not _deck_in_use(state):
        raise _not_applicable(f"{cite}: a card is found face up while the cards are being "
                              "dealt")
    card = read_cards([cmd.get("card")], "card")[0]
    if card in state.face_up_found:
        raise conflict("already_reported", "this card has already been found face up",
                       field="card")
    if card in state.cards_out():
        raise bad("card_already_dealt", "that card has already been dealt this round",
                  field="card")
    if state.face_up_found:  # the second card found face up this round
        void(rec, kind, cite)
        return
    rec.emit("CardFoundFaceUp", card=card, cite=cite)


def _wrong_card_count(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    # DEALING too: the dealer may see the misdeal before the cards are recorded
    if rec.state.phase not in (Phase.DEALING, *_AFTER_DEAL):
        raise _not_applicable(f"{cite}: reported once cards are being dealt")
    void(rec, kind, cite)


def _dealer_card_exposed(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    state = rec.state
    if state.phase not in (Phase.DEALING, Phase.DECISIONS, Phase.DRAWING):
        raise _not_applicable(f"{cite}: the dealer's cards are face up by now")
    if state.phase is not Phase.DEALING and _everyone_done(state):
        # exposed after each player folded or bet: the hands stand; keep a record of it
        rec.emit("IrregularityRecorded", kind=kind, cite=cite,
                 action="none: every player had folded or placed a Bet Wager")
        return
    void(rec, kind, cite)


def _everyone_done(state: RoundState) -> bool:
    """Each player has folded or placed a Bet Wager (or taken an instant payout, after
    which he neither folds nor bets), as 589.13(d) and 671a.13(d) ask."""
    return all(p.abandoned or p.decision in ("fold", "bet", "instant")
               or p.final is not None for p in state.clockwise())


def _shuffler_jam(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    if rec.state.phase not in (Phase.BETTING, Phase.DEALING):
        raise _not_applicable(f"{cite}: a shuffler jam before this round's deal reshuffles "
                              "its cards; after the deal it concerns the next round's deck")
    rec.emit("IrregularityRecorded", kind=kind, cite=cite, action="reshuffle")


def _shoe_jam(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    if rec.state.phase not in (Phase.DEALING, *_AFTER_DEAL):
        raise _not_applicable(f"{cite}: the shoe jams during a round of play")
    void(rec, kind, cite)


def _stub_count_wrong(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    if rec.state.phase not in _AFTER_DEAL:
        raise _not_applicable(f"{cite}: the stub is counted after the deal")
    misdealt = cmd.get("misdealt", False)
    if not isinstance(misdealt, bool):
        raise bad("invalid_irregularity", "misdealt is true or false", field="misdealt")
    wrong = stub_cites(rec.state)[3]
    if misdealt:
        # the misdeal keeps the deck only with 52 remaining counted: the stub count does it
        raise bad("misdealt_needs_count", f"{wrong}: a misdeal keeps the deck only if 52 "
                  "cards remain: record it with the stub count (cards, misdealt, held)",
                  field="misdealt")
    void(rec, kind, wrong, deck_removed=True)


def _card_drawn_in_error(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    state = rec.state
    if cmd.get("face_exposed"):
        raise bad("card_face_exposed", f"{cite} is a card drawn in error with its face not "
                  "exposed; a card whose face is exposed is a card found face up: report "
                  "card_face_up (x.13(a))", field="face_exposed")
    if not _deck_in_use(state):
        raise _not_applicable(f"{cite}: a card is drawn in error while cards come out of "
                              "the shoe or the deck")
    given = cmd.get("card")
    if state.mode == "dealt":  # the domain holds the deck: the card is its next one
        pending = len(state.drawn_in_error)
        card = next_cards_from(state, pending + 1)[-1]
        if given is not None and read_cards([given], "card")[0] != card:
            raise bad("drawn_card_not_next", f"{cite}: the card drawn in error is the next "
                      "card of the deck", field="card")
    else:
        card = read_cards([given], "card")[0]
        if card in state.face_up_found or card in state.cards_out():
            raise bad("card_already_dealt", "that card has already left the deck this round",
                      field="card")
        if card in state.drawn_in_error:
            raise conflict("already_reported", "this card has already been reported drawn "
                           "in error", field="card")
    rec.emit("CardDrawnInError", card=card, cite=cite)


def _abandoned(rec: Recorder, cmd: dict[str, Any], kind: str, cite: str) -> None:
    state = rec.state
    if state.phase not in _AFTER_DEAL:
        raise _not_applicable(f"{cite}: wagers are abandoned by a player who leaves after "
                              "receiving cards; before the deal they may be withdrawn")
    n = position_number(state, cmd)
    p = state.positions.get(n)
    if p is None or not p.in_round:
        raise bad("position_not_in_round", f"position {n} has no hand", field="position")
    if p.abandoned:
        raise conflict("already_reported", f"position {n} is already abandoned")
    rec.emit("WagersAbandoned", position=n, cite=cite)
    for w in rec.state.positions[n].unsettled():
        collect(rec, n, w, "the player left the table during the round", cite, "abandoned")
    if state.lunar:
        lunar_settlement.advance(rec)
    else:
        hilo_settlement.collect_forfeits(rec)


_HANDLERS = {"card_face_up": _card_face_up, "wrong_card_count": _wrong_card_count,
             "dealer_card_exposed": _dealer_card_exposed, "shuffler_jam": _shuffler_jam,
             "shoe_jam": _shoe_jam, "stub_count_wrong": _stub_count_wrong,
             "abandoned": _abandoned, "card_drawn_in_error": _card_drawn_in_error}
