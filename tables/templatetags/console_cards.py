"""Cards on the console's pages: ``As`` shown as "A♠" with its name for a screen reader
("ace of spades"); ``??`` as a face-down card. The hand history and the round
reconstruction give cards as codes inside their sentences (poker_room.services.hand_steps,
tables.reconstruction); ``cards_in_text`` marks them up there, never inside the free text a
person typed (a ruling, a reason), which is left as written."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from casino.domain.cards import RANK_NAMES, RANKS, SUIT_NAMES, SUITS

register = template.Library()

#: a card code standing alone in a sentence (``As``, ``Td``) or a face-down card (``??``)
CODE = re.compile(r"(?<![\w?$])([2-9TJQKA][cdhs]|\?\?)(?![\w?])")
SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_html(code: str) -> str:
    """One card: its rank and suit symbol seen, its name read (the symbol is hidden from a
    screen reader, which reads "ace of spades"). Hearts and diamonds are red as on the
    cards, and the symbol still tells the suit in black and white."""
    if code == "??":
        return ('<span class="card card-down"><span aria-hidden="true">??</span>'
                '<span class="visually-hidden">a face-down card</span></span>')
    rank, suit = RANKS.index(code[0].upper()), SUITS.index(code[1].lower())
    shown = "10" if code[0].upper() == "T" else code[0].upper()
    colour = " card-red" if code[1].lower() in "dh" else ""
    return (f'<span class="card{colour}"><span aria-hidden="true">{shown}'
            f'{SYMBOLS[code[1].lower()]}</span><span class="visually-hidden">'
            f'{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}</span></span>')


@register.filter
def card(code: Any) -> SafeString:
    """``{{ "As"|card }}``; anything that is not a card code is shown as it is."""
    text = str(code or "")
    return mark_safe(card_html(text) if CODE.fullmatch(text) else escape(text))


@register.filter
def cards(codes: Any) -> SafeString:
    """A list of codes (or a string of them separated by spaces) as cards."""
    if isinstance(codes, str):
        codes = codes.split()
    return mark_safe(" ".join(card(c) for c in codes or ()))


def _free_text(data: Any) -> Iterable[str]:
    """The texts within an event's data that are not card codes (what a person typed, a
    citation, a hand's name): never read as cards."""
    if isinstance(data, str):
        if not CODE.fullmatch(data) and len(data) > 2:
            yield data
    elif isinstance(data, dict):
        for v in data.values():
            yield from _free_text(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            yield from _free_text(v)


def _mark(text: str) -> str:
    out, last = [], 0
    for m in CODE.finditer(text):
        out.append(escape(text[last:m.start()]))
        out.append(card_html(m.group(1)))
        last = m.end()
    out.append(escape(text[last:]))
    return "".join(out)


@register.filter
def cards_in_text(text: Any, data: Any = None) -> SafeString:
    """A sentence with its card codes as cards, except within ``data``'s free texts."""
    text = str(text or "")
    kept = sorted(set(_free_text(data)), key=len, reverse=True)
    if not kept:
        return mark_safe(_mark(text))
    parts = re.split("(" + "|".join(re.escape(k) for k in kept) + ")", text)
    return mark_safe("".join(escape(p) if p in kept else _mark(p) for p in parts))
