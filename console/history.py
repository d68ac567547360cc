"""History in sentences (DESIGN §7, after pretix's ``logdisplay.py``): THE one registry from
an event type to the sentence a person reads, used by every history page (a person's page,
the event log browser, a stream's history).

Each app registers the sentences of its own event types from ``<app>/console_history.py``
(imported by its ``console.py``); the casino's own types (staff, logins, the property) are
in :mod:`console.casino_history`. A sentence is ``function(data, metadata) -> str``, or a
template given to :func:`say`::

    sentences({
        "DeckInspectionVerified": say("{who} verified the inspection of the deck"),
        "ChipsAdded": say("{who} added {amount_cents:$} in chips at seat {seat}"),
    })

Money is written by ``format_money`` (``{x:$}``), a moment on the property's wall clock
(``{x:t}``), people by username and role (``{who}``: "dana (floorperson)"). A test fails
naming every event type the code appends that has no sentence
(``tests/console/test_history.py``).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from casino.domain.cards import format_cards
from casino.domain.money import format_money
from casino.templatetags.casino_display import NOTHING, gaming_day, wall_clock

#: ``sentence(data, metadata) -> str``
Sentence = Callable[[Mapping[str, Any], Mapping[str, Any]], str]

_SENTENCES: dict[str, Sentence] = {}


def sentences(table: Mapping[str, Sentence]) -> None:
    """Register the sentence of each event type in ``table`` (an app's own types)."""
    for type_, fn in table.items():
        if type_ in _SENTENCES:
            raise ValueError(f"event type {type_!r} has two sentences")
        _SENTENCES[type_] = fn


#: a type two apps record in different shapes (a banked round's and a poker hand's
#: ``CardsDealt``): ``[(when(data), sentence)]`` tried before the type's own sentence
_REFINED: dict[str, list[tuple[Callable[[Mapping[str, Any]], bool], Sentence]]] = {}


def refine(type_: str, when: Callable[[Mapping[str, Any]], bool], fn: Sentence) -> None:
    """The sentence of ``type_`` for the events whose data ``when`` accepts (another app's
    shape of a shared type), before the one :func:`sentences` registered."""
    _REFINED.setdefault(type_, []).append((when, fn))


def registered_types() -> frozenset[str]:
    return frozenset(_SENTENCES)


# --- pieces of a sentence -----------------------------------------------------------------

def who(metadata: Mapping[str, Any]) -> str:
    """The person behind an event by username and role: "dana (floorperson)"; a scheduled
    task as "the system (close sweep)"."""
    actor = str(metadata.get("actor") or "someone")
    if actor.startswith("system:"):
        return f"the system ({actor[len('system:'):].replace('_', ' ').replace('-', ' ')})"
    role = metadata.get("role")
    return f"{actor} ({str(role).replace('_', ' ')})" if role else actor


def money(cents: Any) -> str:
    """Integer cents in dollars to the cent; anything else (nothing recorded) as a dash."""
    if isinstance(cents, int) and not isinstance(cents, bool):
        return format_money(cents)
    return NOTHING


def cards(value: Any) -> str:
    """Card numbers (0..51) as the cards: "A♠ K♥"; a hidden card (None) as "??"."""
    if not isinstance(value, (list, tuple)):
        return NOTHING
    known = [c for c in value if isinstance(c, int) and not isinstance(c, bool)]
    if len(known) != len(value):
        return " ".join(format_cards([c]) if isinstance(c, int) else "??" for c in value)
    return format_cards(known, " ")


def words(value: Any) -> str:
    """A code as words: "end-of-day" → "end of day"."""
    if value is None or value == "":
        return NOTHING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(words(v) for v in value) or "none"
    return str(value).replace("_", " ").replace("-", " ") if isinstance(value, str) else str(value)


class _Formatter(string.Formatter):
    """``{x:$}`` money, ``{x:t}`` wall clock, ``{x:day}`` a gaming day, ``{x:cards}``
    cards, ``{x:w}`` a code in words; a field the event does not hold is a dash."""

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        return kwargs.get(key, None) if isinstance(key, str) else super().get_value(
            key, args, kwargs)

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        try:
            return super().get_field(field_name, args, kwargs)
        except (KeyError, IndexError, AttributeError, TypeError):
            return None, field_name

    def format_field(self, value: Any, spec: str) -> str:
        if spec == "$":
            return money(value)
        if spec == "t":
            return wall_clock(value)
        if spec == "day":
            return gaming_day(value) if value else NOTHING
        if spec == "cards":
            return cards(value)
        if spec == "w":
            return words(value)
        if value is None or value == "":
            return NOTHING
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, (list, tuple)) and not spec:
            return ", ".join(str(v) for v in value) or "none"
        return super().format_field(value, spec)


_FORMATTER = _Formatter()


def say(template: str, **computed: Callable[[Mapping[str, Any]], Any]) -> Sentence:
    """A sentence from a template over the event's data, with ``{who}`` the person;
    ``computed`` adds fields worked out from the data (``amount=lambda d: ...``)."""

    def sentence(data: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
        fields = dict(data)
        fields.update({name: fn(data) for name, fn in computed.items()})
        fields["who"] = who(metadata)
        return _FORMATTER.vformat(template, (), fields)

    sentence.template = template  # type: ignore[attr-defined]
    return sentence


# --- reading an event -----------------------------------------------------------------------

def _parts(event: Any) -> tuple[str, Mapping[str, Any], Mapping[str, Any]]:
    if isinstance(event, Mapping):
        return str(event.get("type", "")), event.get("data") or {}, event.get("metadata") or {}
    return str(event.type), event.data or {}, event.metadata or {}


def _accepts(when: Callable[[Mapping[str, Any]], bool], data: Mapping[str, Any]) -> bool:
    try:
        return bool(when(data))
    except Exception:  # noqa: BLE001
        return False


def sentence(event: Any) -> str:
    """The event (a stored ``Event``, a ``RecordedEvent`` or the API's JSON of one) in a
    sentence; a type with no sentence registered says which it is, never fails the page."""
    type_, data, metadata = _parts(event)
    fn = next((f for when, f in _REFINED.get(type_, ()) if _accepts(when, data)),
              _SENTENCES.get(type_))
    if fn is None:
        return f"{who(metadata)}: {type_} (no sentence for this event type yet)"
    try:
        return fn(data, metadata)
    except Exception:  # noqa: BLE001 - an odd old payload must not break an audit page
        return f"{who(metadata)}: {type_}"
