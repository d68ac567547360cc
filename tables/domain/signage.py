"""What must be posted at a table, rendered from the Rules Submission in effect.

Odds are printed exactly as the chapter writes them ("to 1" or "for 1"); the sign says
what each means, because they pay different amounts (579.12(b)). Sources: 589.2(b)(5)-(7),
671a.2(b)(5)-(7), 579.2(b)(7), 637a.8(j)-(k), 637a.12(n), 637a.15(b), 637a.16(b),
637a.17(c), 637a.18(e).
"""

from __future__ import annotations

from typing import Any

from casino.domain.cards import RANK_PLURALS, RANKS
from casino.domain.money import format_money
from tables.domain.paytables import OddsKind, Paytable, get_paytable
from tables.domain.catalogue import Family, get_table_game

ODDS_MEANING = {
    OddsKind.TO: '"X to 1": a winning wager is returned with X times the wager.',
    OddsKind.FOR: '"X for 1": X times the wager is paid in total, the wager included.',
}


def _paytable(name: str, heading: str | None = None) -> dict[str, Any]:
    table: Paytable = get_paytable(name)
    return {"title": heading or f"{table.wager}: {table.title}", "source": table.section,
            "lines": [{"label": hand.label, "value": str(odds)} for hand, odds in table.lines]}


def _section(title: str, *lines: tuple[str, str] | str, source: str = "") -> dict[str, Any]:
    out = []
    for line in lines:
        out.append({"label": line, "value": ""} if isinstance(line, str)
                   else {"label": line[0], "value": line[1]})
    return {"title": title, "source": source, "lines": out}


def _limits(o: dict[str, Any], source: str) -> dict[str, Any]:
    return _section("Table limits", ("Minimum wager", format_money(o["table_minimum_cents"])),
                    ("Maximum wager", format_money(o["table_maximum_cents"])), source=source)


def _lunar(game: str, o: dict[str, Any]) -> list[dict[str, Any]]:
    book = "589" if game == "lunar-poker-589" else "671a"
    if book == "589":
        qualify = "Dealer qualifies with an ace-king or better."
        options = ["Exchange 2-5 cards.", "Buy a 6th Card.", "Force the Dealer."]
    else:
        qualify = "Dealer plays with an ace-king or higher."
        options = ["Exchange 2-5 cards.", "Buy a 6th Card."]
    sections = [
        _limits(o, f"{book}.2(b)(5)"),
        _section("Dealer qualification", qualify, source=f"{book}.2(b)(6)(i)"),
        _section("Options (fee equal to the Ante)", *options, source=f"{book}.2(b)(3)"
                 if book == "589" else "671a.2(b)(4)"),
        _paytable(f"{book}-instant-{o['instant_paytable']}",
                  "Instant payout for a royal flush or straight flush on the first five cards "
                  "dealt to the player"),
        _paytable(f"{book}-bet"),
    ]
    if book == "589":
        sections.append(_paytable("589-ante"))
        if o["super_wager_offered"]:
            sections.append(_paytable(f"589-super-{o['super_paytable']}"))
    else:
        sections.append(_paytable("671a-ante-no-qualify"))
        super_ = _paytable("671a-super")
        if o["super_on_other_hands_offered"]:
            super_["lines"].append({"label": "Super Wagers on the dealer's hand and on other "
                                             "players' hands are accepted (671a.7(c)(3))",
                                    "value": ""})
        sections.append(super_)
    return sections


def _hilo(o: dict[str, Any]) -> list[dict[str, Any]]:
    sections = [_limits(o, "579.2(b)(7)"), _paytable("579-ante-play"),
                _paytable(f"579-ante-bonus-{o['ante_bonus_paytable']}")]
    if o["tie_wager_offered"]:
        sections.append(_paytable("579-tie"))
    if o["poker_bonus_offered"]:
        sections.append(_paytable(f"579-poker-bonus-{o['poker_bonus_paytable']}"))
    if o["adjacent_betting_areas_permitted"]:
        sections.append(_section("Betting areas", "A player may wager on two adjacent betting "
                                 "areas.", source="579.7(f)"))
    return sections


def _money_list(values: list[int]) -> str:
    return ", ".join(format_money(v) for v in values)


def _contribution(c: dict[str, Any]) -> str:
    if c["method"] == "fixed":
        return f"{format_money(c['amount_cents'])} from each qualifying pot"
    return f"{c['percentage_bp'] / 100:g}% of each qualifying pot"


def _poker(game: Any, o: dict[str, Any]) -> list[dict[str, Any]]:
    structure = {"fixed-limit": "Fixed limit", "pot-limit": "Pot limit",
                 "no-limit": "No limit"}[o["structure"]]
    betting: list[tuple[str, str] | str] = [("Game", game.name), ("Structure", structure),
                                             ("Minimum bet", format_money(o["table_minimum_cents"])),
                                             ("Maximum bet", format_money(o["table_maximum_cents"]))]
    if o["structure"] == "fixed-limit":
        betting += [("Small bet", format_money(o["small_bet_cents"])),
                    ("Big bet", format_money(o["big_bet_cents"]))]
    if o["ante_cents"]:
        poster = {"each-player": "posted by each player dealt in",
                  "big-blind": "one ante for the table, posted by the big blind",
                  "button": "one ante for the table, posted by the button"}
        betting.append(("Ante", f"{format_money(o['ante_cents'])}, "
                                f"{poster[o.get('ante_posted_by', 'each-player')]}"))
    if "buy_in_minimum_cents" in o:
        betting.append(("Buy-in", f"{format_money(o['buy_in_minimum_cents'])} to "
                                  f"{format_money(o['buy_in_maximum_cents'])}"))
    if "blinds_cents" in o:
        betting.append(("Blind Bets", _money_list(o["blinds_cents"])))
    if "forced_bet_cents" in o:
        betting.append(("Forced Bet", format_money(o["forced_bet_cents"])))
    if o["straddle"] and o["straddle"]["offered"]:
        betting.append(("Straddle Bet", f"{format_money(o['straddle']['amount_cents'])} — "
                                        f"{o['straddle']['rules']}"))
    betting.append(("Maximum raises per betting round",
                    str(o["max_raises_per_round"]) if o["max_raises_per_round"] else "No cap"))
    if not o["raise_after_check"]:
        betting.append("A player who has checked may not raise in the same betting round.")
    inc = o["minimum_bet_increase"]
    if inc["maximum_increase_cents"]:
        betting.append(("Minimum bet may be raised by agreement of all players by up to",
                        f"{format_money(inc['maximum_increase_cents'])} "
                        f"({inc['agreement_method']})"))
    sections = [_section("Betting", *betting, source="637a.8(k)")]
    kill = o["kill"]
    if kill["option"] != "none":
        sections.append(_section("Kill option", ("Option", kill["option"].replace("-", " ")
                                                 .capitalize()),
                                 ("Qualifying pot", format_money(kill["qualifying_pot_cents"])),
                                 source=_KILL_RULE.get(game.id, game.positions_rule)))
    sections.append(_odd_chip(game, o))
    if o["disclose_mucked_hands"]:
        sections.append(_section("Showdown", "All hands discarded at a showdown must be shown.",
                                 source="637a.18(e)"))
    sections.append(_rake(o["rake"]))
    if o["bad_beat"]:
        sections.append(_bad_beat(o["bad_beat"]))
    if o["high_hand"]:
        sections.append(_high_hand(o["high_hand"]))
    return sections


#: where each game's Kill or Half-kill option is provided for: Omaha and Five-card Omaha
#: High-low by their own subsections; Triple Draw and Badugi by the (b) that names the
#: option with the Ante (637a.20(b), 637a.21(b))
_KILL_RULE = {"omaha-hilo8": "637a.12(n)", "five-card-omaha-hilo8": "637a.19(l)(3)"}

#: the games (and shares) whose odd chip by suit goes by a low card (the hand engine's
#: rule, poker_room.domain.hand.showdown): A-5 and Badugi the lowest card, the ace low;
#: 2-7 the lowest card, the ace high. Any other share: the highest card by suit.
_LOW_POT = {"stud-low": "a5", "draw-low": "a5", "triple-draw-a5": "a5", "badacey": "a5",
            "triple-draw-27": "27", "badeucey": "27", "badugi": "a5"}
_LOW_SHARE = {"badeucey": "27"}
_BY_SUIT_CARD = {"high": "the highest card by suit", "a5": "the lowest low card by suit",
                 "27": "the lowest card by suit, the ace high"}
_SUITS = " (spades, then hearts, diamonds, clubs)"
#: the games whose pot is split into a high (or first) and a low (or second) share (as
#: poker_room.domain.rules_schema.SPLIT_GAMES; the sign reads the options, not that code)
_SPLIT_POT = frozenset({"stud-hilo", "stud-hilo8", "super-stud-hilo8", "omaha-hilo8",
                        "five-card-omaha-hilo8", "badeucey", "badacey"})
#: where the chapter itself says "by suit or the player specified" (637a.12(k)(2)(ii)-(iii),
#: 637a.19(k)(2)(ii)-(iii)): by suit is the chapter's rule when the submission names no one
_CHAPTER_SUIT_OPTION = {"637a.12(k)(2)", "637a.19(k)(2)"}


def _odd_chip(game: Any, o: dict[str, Any]) -> dict[str, Any]:
    """The odd-chip rule in force, for the whole pot or each share of a split pot: the
    player the Rules Submission names, or else by suit, cited to the chapter where it
    fixes the suit or offers it (637a.10(i)(3)(ii)-(iii), 637a.12(k)(2), 637a.19(k)(2)),
    and said to be the house's rule where the chapter is silent on ties or leaves the
    excess to a player the submission does not name (637a.10(i)(1)-(2), 637a.11(k),
    637a.12(k)(1), 637a.13(i), 637a.14(i), 637a.19(k)(1)): the engine deals it by suit
    there (poker_room.domain.rules)."""
    # stud has no button: the first tied player from the dealer's left (rules_schema)
    left_of = "the dealer" if game.forced_bet else "the button"
    split = game.id in _SPLIT_POT
    shares = [("high share" if split else "pot", o["odd_chip_recipient"],
               _LOW_POT.get(game.id, "high"))]
    if split:
        shares.append(("low share", o.get("odd_chip_recipient_low"),
                       _LOW_SHARE.get(game.id, "a5")))
    lines: list[tuple[str, str] | str] = []
    by_suit_unnamed = False
    for share, named, card in shares:
        if named == "first-left-of-button":
            who = f"the first tied player to the left of {left_of}"
        else:
            by_suit_unnamed = by_suit_unnamed or named is None
            who = f"the tied player with {_BY_SUIT_CARD[card]}{_SUITS}"
        lines.append(f"An odd chip of a split {share} goes to {who}.")
    rule = game.odd_chip_rule
    chapter_suit = rule.endswith(": by suit") or rule in _CHAPTER_SUIT_OPTION
    if not by_suit_unnamed or chapter_suit:
        return _section("Odd chip", *lines, source=rule)
    section = rule.split(":")[0]
    if rule.endswith("silent on ties"):
        why = f"§ {section} says nothing of ties."
    else:
        why = (f"§ {section} leaves the odd chip to the player the Rules Submission names, "
               "and it names none.")
    return _section("Odd chip", *lines, f"This is the house's rule: {why}")


def _rake(r: dict[str, Any]) -> dict[str, Any]:
    lines: list[tuple[str, str] | str] = []
    if "percentage_bp" in r:
        lines.append(("Percentage rake", f"{r['percentage_bp'] / 100:g}% of the pot and any "
                                         "side pots"))
    for level in r.get("incremental_levels", []):
        lines.append((f"Pot reaches {format_money(level['pot_at_least_cents'])}",
                      f"{format_money(level['rake_cents'])} raked"))
    if "maximum_per_round_cents" in r:
        lines.append(("Maximum rake per round", format_money(r["maximum_per_round_cents"])))
    if "spread_over_pots" in r:
        lines.append("An uncalled final bet is not raked.")
        lines.append(("A capped rake is taken from", "the main pot first"
                      if r["spread_over_pots"] == "main-pot-first" else "the last side pot first"))
    if "time_charge" in r:
        tc = r["time_charge"]
        lines.append(("Time charge", f"{format_money(tc['hourly_cents'])} an hour "
                      f"{'per player (inactive players included)' if tc['basis'] == 'per-player' else 'per table'}, "
                      f"collected every {tc['assessed_every_minutes']} minutes"))
    return _section("Rake", *lines, source="637a.17(c)")


def qualifying_bad_beat(q: dict[str, Any]) -> str:
    """637a.15(b)(3): the posted qualifying hand in words, "or better" said once: "a
    losing hand of four of a kind, eights or better; both hole cards must play; at least
    4 players dealt in" (the rank, where posted, is the least the category may hold)."""
    hand = q["losing_hand_at_least"].replace("-", " ")
    if q.get("rank_at_least"):
        hand += f", {RANK_PLURALS[RANKS.index(q['rank_at_least'])]} or better"
    else:
        hand += " or better"
    return (f"a losing hand of {hand}"
            + ("; both hole cards must play" if q["both_hole_cards_must_play"] else "")
            + f"; at least {q['minimum_players_dealt']} players dealt in")


def _bad_beat(b: dict[str, Any]) -> dict[str, Any]:
    q = b["qualifying_hand"]
    lines: list[tuple[str, str] | str] = [
        "This table offers a Bad Beat payout.",
        ("Contribution", _contribution(b["contribution"])),
        ("Maximum contribution per pot", format_money(b["maximum_per_pot_cents"])),
        ("Minimum pot before a contribution is collected", format_money(b["minimum_pot_cents"])),
        ("Qualifying Bad Beat", qualifying_bad_beat(q)),
    ]
    shares = b["payout_shares_bp"]
    lines.append(("Payout shares", f"losing hand {shares['losing_hand'] / 100:g}%, winning hand "
                  f"{shares['winning_hand'] / 100:g}%, other players dealt in "
                  f"{shares['table_share'] / 100:g}%"))
    # a block of sentences (signage.html): a value that is a sentence sits under its label,
    # a single figure (the two dollar amounts) keeps its column beside it
    section = _section("Bad Beat payout", *lines, source="637a.15(b)")
    for line in section["lines"]:
        line["under_label"] = line["label"] in _BAD_BEAT_SENTENCES
    return {**section, "layout": "sentences"}


#: the Bad Beat lines whose values are sentences, not one figure
_BAD_BEAT_SENTENCES = frozenset({"Contribution", "Qualifying Bad Beat", "Payout shares"})


def _high_hand(h: dict[str, Any]) -> dict[str, Any]:
    return _section(
        "High Hand Jackpot payout",
        "This table offers a High Hand Jackpot payout; tracking starts at a full house.",
        ("Qualifying period", f"{h['qualifying_period_minutes']} minutes"),
        ("Collection period", h["collection_period"]),
        ("Contribution", _contribution(h["contribution"])),
        ("Maximum contribution per pot", format_money(h["maximum_per_pot_cents"])),
        ("Minimum pot before a contribution is collected", format_money(h["minimum_pot_cents"])),
        ("Minimum players dealt in", str(h["minimum_players_dealt"])),
        ("Tied qualifying high hands", "split equally" if h["tie_division"] == "split-equally"
         else "the hand made first wins"),
        ("Time limit to collect", f"{h['collection_time_limit_hours']} hours; you need not be "
                                  "present at the end of the qualifying period to win"),
        "Valid identification must be presented for a hand to qualify.",
        source="637a.16(b)")


def signage_for(game_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """The sections of the table sign, each with its lines and the rule it comes from."""
    game = get_table_game(game_id)
    if game.family in (Family.LUNAR_589, Family.LUNAR_671A):
        sections = _lunar(game_id, options)
    elif game.family is Family.HILO:
        sections = _hilo(options)
    else:
        sections = _poker(game, options)
    values = [line["value"] for s in sections for line in s["lines"]]
    legend = [meaning for kind, meaning in ODDS_MEANING.items()
              if any(v.endswith(f" {kind.value} 1") for v in values)]
    return {"game": game.id, "game_name": game.name, "sections": sections,
            "odds_legend": legend}
