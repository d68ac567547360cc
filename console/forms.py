"""A declared command's input serializer as console form fields (issue 23 item 3, DESIGN §7
"Field templates are ours and accessible").

The form never validates anything itself: it turns what a person typed into the body the
API would have received (``FormFields.body``) and the input serializer — the same one the
API uses — validates it, so both refuse the same things with the same codes. The only
refusals of the form's own are text that is not the kind of value its box asks for (an
amount that is not dollars to the cent, text in a count box), which the API cannot receive.

How each serializer field is shown:

* Boolean → a checkbox; a required one with no default → "Yes"/"No" radios (nothing
  chosen until the person chooses: an unticked box must not mean "rejected").
* Choice → a select.  Integer → a number box.
* **Money** — an integer field whose name ends in ``_cents`` or is ``amount``, or a JSON
  field declared as an integer (finance's ``CentsField``) — is a dollars box (``12.50``),
  turned into whole cents by :func:`casino.domain.money.parse_money` (the one parser of
  money): a fraction of a cent is refused, never rounded. The API's unit stays cents; the
  person never types cents.
* A password (a field named ``password`` or ``…_password``, or styled so by its
  serializer) → a password box, never filled back in: a refused form asks for it again.
* Char → a text box, or a text area for words (reason, note, explanation ...); a date
  (``gaming_day``, help text "YYYY-MM-DD") → a date box; a time (a DateTimeField or a
  Char named ``…_at``) → a datetime-local box read on the property's clock and sent as
  ISO 8601 with the property's offset. A time the clock skips (the clocks went forward)
  or shows twice (they went back) is refused in a sentence, never moved to a nearby
  moment or given an offset silently.
* A list of cards (``CardsField``) → one text box, cards separated by spaces ("As 10d").
* Other lists of text → repeated text rows; lists of objects (nested serializers) →
  repeated fieldsets; a dict of cards by position → rows of position and cards. Each
  repeated list has an "Add a row" button (a submit that only re-renders, no script).
* A nested serializer → a fieldset of its fields; left blank, an optional one is omitted
  (or null when it allows null).
* Pieces by denomination (a JSON object of integers, finance's ``PiecesField``) → one
  count box per denomination in dollars (the denominations an app registers with
  :func:`denominations`), or rows of denomination and count when none is registered.
* Any other JSON field (a Rules Submission's options, a poker hand's command, the
  settlement script) → a text area of JSON (:data:`RAW_JSON` lists them for the report).
* A table (:class:`casino.api.table_field.TableField`) → a select of the tables the
  field's ``tables(actor, pk)`` offers (the caller's property's, of the form's row's game
  where it has one), by name and game, the value the table's id; a list of tables
  (``TableListField``) → a group of checkboxes of them. The choices are read once per
  form for the request's actor (``FormFields(..., actor=, pk=)``); without an actor the
  API's boxes are shown (a text box for the id, rows of ids). A table given in the query
  string is the option selected; fixed by a task, its name is shown read-only. Which
  tables a command takes stays the service's to say: the form sends what was chosen.

Query-string values prefill fields (``command_url(name, pk, **initial)``, in the API's
units: cents, true/false). Those a task fixed are shown read-only (:func:`fixed_by_task`):
the names listed in ``?fixed=a,b``, or else the identifiers given (a ``…_id``, the gaming
day, the slip, the period) — the day and the slip a waiting item opened the form for.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from rest_framework import serializers

from casino.api.table_field import TableListField, table_choices
from casino.domain.errors import DomainError
from casino.domain.money import format_money, parse_money

#: JSON fields shown as a text area of JSON: no usable form for them yet
RAW_JSON: set[str] = set()

_WORDS = {"reason", "note", "notes", "explanation", "description", "ruling", "detail"}
_PIECES: dict[str, tuple[int, ...]] = {}
_OMIT = object()


def denominations(**by_field: tuple[int, ...]) -> None:
    """An app says which denominations (cents) a pieces field counts:
    ``denominations(cash=CASH_DENOMINATIONS, chips=CHIP_DENOMINATIONS)``."""
    _PIECES.update(by_field)


#: identifiers a waiting item's link names; shown read-only when given
_IDENTIFIERS = {"gaming_day", "slip", "period"}


def fixed_by_task(query: Mapping[str, Any]) -> set[str]:
    """The fields the query string fixes: ``?fixed=a,b``, else the identifiers given."""
    if "fixed" in query:
        return {k for k in str(query.get("fixed", "")).split(",") if k}
    return {k for k in query if k.endswith("_id") or k in _IDENTIFIERS}


class FormInputError(DomainError):
    """Text the form could not turn into the API's value (never reaches the service)."""

    code = "invalid_input"


def _annotation(f: serializers.Field) -> Any:
    ann = getattr(type(f), "_spectacular_annotation", None)
    return ann.get("field") if isinstance(ann, dict) else None


def _is_money(name: str, f: serializers.Field) -> bool:
    if isinstance(f, serializers.IntegerField):
        return name.endswith("_cents") or name == "amount"
    return isinstance(f, serializers.JSONField) and str(_annotation(f)) == "OpenApiTypes.INT"


def _is_pieces(f: serializers.Field) -> bool:
    ann = _annotation(f)
    return (isinstance(f, serializers.JSONField) and isinstance(ann, dict)
            and ann.get("type") == "object"
            and ann.get("additionalProperties", {}).get("type") == "integer")


def _label(name: str, f: serializers.Field) -> str:
    text = f.label or name.replace("_", " ").capitalize()
    text = re.sub(r"\s+cents$", "", text, flags=re.I)
    return re.sub(r"\bid$", "ID", text)


def _help(f: serializers.Field) -> str:
    return str(f.help_text or "")


@dataclass
class Field:
    """One field as the template shows it. ``widget`` picks the template
    (``console/_field_<widget>.html``)."""

    name: str  # the HTML name: "player-name", "payees-0-seat"
    key: str  # the body's key: "name"
    label: str
    widget: str
    help: str = ""
    required: bool = False
    choices: list[tuple[str, str]] = field(default_factory=list)
    value: Any = ""
    readonly: bool = False
    errors: list[str] = field(default_factory=list)
    children: list[Field] = field(default_factory=list)
    rows: list[list[Field]] = field(default_factory=list)
    drf: Any = None
    allow_null: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return "f-" + self.name

    @property
    def template(self) -> str:
        return f"console/_field_{self.widget}.html"

    @property
    def invalid(self) -> bool:
        return bool(self.errors)

    @property
    def chosen(self) -> list[tuple[str, str]]:
        """The values chosen with their labels (a table read-only: its name, its id sent)."""
        values = self.value if isinstance(self.value, list) else [self.value]
        names = dict(self.choices)
        return [(str(v), names.get(str(v), str(v))) for v in values if str(v)]

    @property
    def describedby(self) -> str:
        ids = ([self.id + "-help"] if self.help else []) + (
            [self.id + "-error"] if self.errors else [])
        return " ".join(ids)


def _scalar(name: str, key: str, f: serializers.Field, zone: str) -> Field:
    common = {"name": name, "key": key, "label": _label(key, f), "help": _help(f),
              "required": bool(f.required), "drf": f,
              "allow_null": bool(getattr(f, "allow_null", False))}
    if _is_money(key, f):
        # the box takes dollars: the API's "in cents" would mislead here
        said = re.sub(r",?\s*\(?in cents\)?|\bcents\b", "", common["help"]).strip(" ,;")
        return Field(widget="dollars", **{**common, "label": common["label"] + " (dollars)",
                                          "help": said})
    if _is_pieces(f):
        known = _PIECES.get(key)
        if known:
            rows = [[Field(name=f"{name}-{d}", key=str(d), label=f"{format_money(d)} pieces",
                           widget="number", extra={"min": 0, "in_rows": True})]
                    for d in sorted(known)]
            # the boxes say the denominations: the API's JSON example would mislead
            return Field(widget="pieces", rows=rows, **{**common, "help": ""})
        return Field(widget="rows", extra={"pairs": True}, **common)
    if key == "password" or key.endswith("_password") or (
            getattr(f, "style", {}) or {}).get("input_type") == "password":
        return Field(widget="password", **common)
    if isinstance(f, serializers.BooleanField):
        has_default = f.default is not serializers.empty
        return Field(widget="yesno" if f.required and not has_default else "checkbox",
                     **common)
    if isinstance(f, serializers.ChoiceField):
        return Field(widget="select", choices=[(str(k), str(v)) for k, v in f.choices.items()],
                     **common)
    if type(f).__name__ == "PaidWithField":
        return Field(widget="select", choices=[("cash", "Cash at the table"),
                                               ("chips", "Chips from the cage")], **common)
    if isinstance(f, serializers.IntegerField):
        return Field(widget="number", extra={"min": f.min_value, "max": f.max_value}, **common)
    if isinstance(f, serializers.DateTimeField) or (
            isinstance(f, serializers.CharField) and key.endswith("_at")):
        return Field(widget="datetime", extra={"zone": zone},
                     **{**common, "help": f"on the property's clock ({zone})"})
    if isinstance(f, serializers.DateField) or "YYYY-MM-DD" in common["help"]:
        return Field(widget="date", **common)
    if isinstance(f, serializers.ListField) and type(f).__name__ == "CardsField":
        return Field(widget="cards", **{**common, "help": common["help"] or
                                        "cards separated by spaces, e.g. As 10d Kh"})
    if isinstance(f, serializers.JSONField) and str(_annotation(f)) != "OpenApiTypes.STR":
        RAW_JSON.add(key)
        return Field(widget="json", **{**common, "label": common["label"] + " (JSON)"})
    words = key in _WORDS or isinstance(f, serializers.JSONField)
    return Field(widget="textarea" if words else "text", **common)


def _build(name: str, key: str, f: serializers.Field, zone: str, initial: Any) -> Field:
    """The field for ``f``; ``initial`` is the list/dict value for repeated fields."""
    if isinstance(f, serializers.Serializer):  # a nested object
        children = [_build(f"{name}-{k}", k, c, zone, None) for k, c in _writable(f)]
        if not f.required:  # left blank it is omitted: the browser must let it be blank
            for c in children:
                c.extra["in_optional"] = True
        return Field(name=name, key=key, label=_label(key, f), widget="group", help=_help(f),
                     required=bool(f.required), children=children, drf=f,
                     allow_null=bool(getattr(f, "allow_null", False)))
    child = getattr(f, "child", None)
    many = (isinstance(f, (serializers.ListField, serializers.ListSerializer))
            and type(f).__name__ != "CardsField")
    if many or isinstance(f, serializers.DictField):
        pairs = isinstance(f, serializers.DictField)
        out = Field(name=name, key=key, label=_label(key, f), widget="rows", help=_help(f),
                    required=bool(f.required), drf=f, extra={"pairs": pairs, "child": child})
        count = max(int(initial or 0), 1)
        out.rows = [_row(out, i, zone) for i in range(count)]
        return out
    return _scalar(name, key, f, zone)


def _row(parent: Field, i: int, zone: str) -> list[Field]:
    fields = _row_fields(parent, i, zone)
    for fl in fields:
        fl.extra["in_rows"] = True  # a row left blank is no row: "(optional)" is noise
        if not parent.required:  # so the browser must let an optional list's row be blank
            fl.extra["in_optional"] = True
    return fields


def _row_fields(parent: Field, i: int, zone: str) -> list[Field]:
    child = parent.extra.get("child")
    prefix = f"{parent.name}-{i}"
    if parent.extra.get("pairs"):
        value_field = child if child is not None else serializers.IntegerField()
        key_label = "Position" if child is not None else "Denomination (dollars)"
        k = Field(name=prefix + "-key", key="key", label=f"{key_label}, row {i + 1}",
                  widget="dollars" if child is None else "text")
        v = _scalar(prefix + "-value", "value", value_field, zone)
        v.label = f"{'Count' if child is None else v.label}, row {i + 1}"
        return [k, v]
    if isinstance(child, serializers.Serializer):
        fields = [_scalar(f"{prefix}-{k}", k, c, zone) for k, c in _writable(child)]
        for fl in fields:
            fl.label = f"{fl.label}, row {i + 1}"
        return fields
    one = _scalar(prefix, str(i), child or serializers.CharField(), zone)
    one.label = f"{parent.label}, row {i + 1}"
    return [one]


def _tables(fl: Field, offered: dict[Any, list[tuple[str, str]]], actor: Any,
            pk: Any) -> Field:
    """``fl`` as a choice of tables when its serializer field is a table field (the
    choices read once per form: ``offered`` keeps each callable's), else ``fl`` with its
    children and rows so made."""
    tables = table_choices(fl.drf) if fl.drf is not None else None
    if tables is None:
        fl.children = [_tables(c, offered, actor, pk) for c in fl.children]
        fl.rows = [[_tables(c, offered, actor, pk) for c in row] for row in fl.rows]
        return fl
    if tables not in offered:
        offered[tables] = [(str(v), str(text)) for v, text in tables(actor, pk)]
    many = isinstance(fl.drf, TableListField)
    return Field(name=fl.name, key=fl.key, label=fl.label, help=fl.help,
                 required=fl.required, drf=fl.drf, allow_null=fl.allow_null,
                 widget="checks" if many else "select", choices=offered[tables],
                 extra={k: v for k, v in fl.extra.items() if k in ("in_rows", "in_optional")}
                 | {"tables": True})


def _table_id(text: str) -> str:
    """A table's id as the options carry it (a UUID in any case or form → its canonical
    text), so a prefilled id selects its option; other text is kept as it is."""
    try:
        return str(uuid.UUID(text.strip()))
    except ValueError:
        return text


def _writable(s: serializers.Serializer) -> list[tuple[str, serializers.Field]]:
    return [(k, f) for k, f in s.fields.items() if not f.read_only]


class FormFields:
    """The fields of ``serializer_class``, bound to what was sent (``source``: the query
    string at GET, the POST at POST)."""

    def __init__(self, serializer_class: type, *, zone: str, source: Mapping[str, Any],
                 fixed: set[str] | frozenset[str] = frozenset(), add_row: str = "",
                 api_units: bool = False, actor: Any = None, pk: Any = None):
        """``api_units``: ``source`` is a query string in the API's units (money in cents,
        as ``command_url`` is given it), not what the form's boxes show. ``actor`` and
        ``pk`` (the URL's row): whom the table fields' choices are read for."""
        self.zone = zone
        self.fields: list[Field] = []
        offered: dict[Any, list[tuple[str, str]]] = {}
        for key, f in _writable(serializer_class()):
            rows = source.get(f"_rows-{key}")
            count = int(rows) if str(rows or "").isdigit() else 0
            count = min(count + (1 if add_row == key else 0), 50)
            fl = _build(key, key, f, zone, count or None)
            if actor is not None:
                fl = _tables(fl, offered, actor, pk)
            self.fields.append(fl)
        for fl in self._all():
            if fl.widget == "checks":  # each box ticked sends its table's id
                sent = (source.getlist(fl.name) if hasattr(source, "getlist")
                        else source.get(fl.name, []))
                if isinstance(sent, str):  # a query string's "a,b"
                    sent = sent.split(",")
                fl.value = [_table_id(str(v)) for v in sent if str(v).strip()]
            elif fl.widget in ("checkbox",):
                fl.value = source.get(fl.name) in ("on", "true", "1", "True")
            elif fl.widget == "yesno":
                fl.value = str(source.get(fl.name, ""))
                if api_units:  # the API's true/false, as a task's link gives it
                    fl.value = {"true": "yes", "false": "no"}.get(fl.value.lower(), fl.value)
            else:
                fl.value = str(source.get(fl.name, "") or "")
                if fl.extra.get("tables") and fl.value:
                    fl.value = _table_id(fl.value)
                if api_units and fl.widget == "dollars" and re.fullmatch(r"-?\d+", fl.value):
                    fl.value = money_text(int(fl.value))
        for key in fixed:
            for fl in self.fields:
                if (fl.key == key and fl.value not in ("", None, [])
                        and fl.widget != "password"):
                    fl.readonly = True  # (a password is never shown, not even read-only)

    def _all(self) -> list[Field]:
        out: list[Field] = []

        def walk(fl: Field) -> None:
            if fl.children or fl.rows:
                for c in fl.children:
                    walk(c)
                for row in fl.rows:
                    for c in row:
                        walk(c)
            elif fl.widget not in ("group", "rows", "pieces"):
                out.append(fl)
        for fl in self.fields:
            walk(fl)
        return out

    # --- from the form to the body ----------------------------------------------------

    def body(self) -> tuple[dict[str, Any], bool]:
        """The body the API would have received, and whether every box could be read
        (when not, the boxes that could not carry their error)."""
        out: dict[str, Any] = {}
        ok = True
        for fl in self.fields:
            try:
                value = self._value(fl)
            except _Unreadable:
                ok = False
                continue
            if value is not _OMIT:
                out[fl.key] = value
        return out, ok

    def _value(self, fl: Field) -> Any:
        if fl.widget == "group":
            values = {}
            failed = False
            for c in fl.children:
                try:
                    v = self._value(c)
                except _Unreadable:
                    failed = True
                    continue
                if v is not _OMIT:
                    values[c.key] = v
            if failed:
                raise _Unreadable
            if not values:
                return None if fl.allow_null and not fl.required else _OMIT
            return values
        if fl.widget == "pieces":
            counts = {}
            for (c,) in fl.rows:
                v = self._scalar_value(c)
                if v is not _OMIT and v != 0:
                    counts[c.key] = v
            return counts if counts or fl.required else _OMIT
        if fl.widget == "rows":
            return self._rows_value(fl)
        return self._scalar_value(fl)

    def _rows_value(self, fl: Field) -> Any:
        pairs = fl.extra.get("pairs")
        items: list[Any] = []
        mapping: dict[str, Any] = {}
        failed = False
        for row in fl.rows:
            values = {}
            for c in row:
                try:
                    v = self._scalar_value(c)
                except _Unreadable:
                    failed = True
                    continue
                if v is not _OMIT:
                    values[c.key] = v
            if not values:
                continue  # a blank row is no row
            if pairs:
                mapping[str(values.get("key", ""))] = values.get("value")
            elif isinstance(fl.extra.get("child"), serializers.Serializer):
                items.append(values)
            else:
                items.extend(values.values())
        if failed:
            raise _Unreadable
        if pairs:
            return mapping if mapping or fl.required else _OMIT
        return items if items or fl.required else _OMIT

    def _scalar_value(self, fl: Field) -> Any:
        raw = fl.value
        if fl.widget == "checkbox":
            return bool(raw)
        if fl.widget == "checks":
            return list(raw) if raw or fl.required else _OMIT
        text = str(raw).strip()
        if text == "":
            return None if fl.allow_null and fl.required else _OMIT
        try:
            if fl.widget == "dollars":
                negative = text.startswith("-")
                cents = parse_money(text.removeprefix("-"))
                return -cents if negative else cents
            if fl.widget == "number":
                if not re.fullmatch(r"-?\d+", text):
                    raise FormInputError(f"'{text}' is not a whole number")
                return int(text)
            if fl.widget == "yesno":
                return text == "yes"
            if fl.widget == "cards":
                return text.replace(",", " ").split()
            if fl.widget == "datetime":
                local = datetime.fromisoformat(text)
                if local.tzinfo is None:
                    local = on_the_clock(local, self.zone)
                return local.isoformat()
            if fl.widget == "json":
                try:
                    return json.loads(text)
                except ValueError:
                    raise FormInputError("this is not JSON") from None
        except DomainError as e:
            fl.errors.append(_sentence(e))
            raise _Unreadable from None
        except ValueError:
            fl.errors.append(f"'{text}' is not a date and time")
            raise _Unreadable from None
        return text

    # --- refusals back onto the fields ------------------------------------------------

    def field_named(self, name: str) -> Field | None:
        for fl in self.fields:
            if fl.key == name or fl.name == name:
                return fl
        for fl in self._all():
            if fl.name == name:
                return fl
        return None

    def attach(self, errors: Any) -> list[str]:
        """Put the serializer's ``errors`` on their fields; what names no field is
        returned (shown in the messages region)."""
        loose: list[str] = []
        for key, detail in (errors.items() if isinstance(errors, dict) else
                            [("non_field_errors", errors)]):
            fl = self.field_named(key)
            if fl is None:
                loose.extend(_texts(detail))
                continue
            self._attach_to(fl, detail)
        return loose

    def _attach_to(self, fl: Field, detail: Any) -> None:
        if isinstance(detail, dict) and (fl.children or fl.rows):
            for k, d in detail.items():
                target = None
                if fl.widget == "group":
                    target = next((c for c in fl.children if c.key == str(k)), None)
                elif str(k).isdigit() and int(k) < len(self._filled_rows(fl)):
                    row = self._filled_rows(fl)[int(k)]
                    if isinstance(d, dict):
                        for ck, cd in d.items():
                            c = next((c for c in row if c.key == ck), None)
                            (c or fl).errors.extend(_texts(cd))
                        continue
                    target = row[-1]
                elif fl.widget in ("pieces",):
                    target = next((c for (c,) in fl.rows if c.key == str(k)), None)
                if target is None:
                    fl.errors.extend(_texts(d))
                else:
                    self._attach_to(target, d)
            return
        if isinstance(detail, list) and detail and isinstance(detail[0], dict) and fl.rows:
            for row, d in zip(self._filled_rows(fl), detail, strict=False):
                for ck, cd in d.items():
                    c = next((c for c in row if c.key == ck), None)
                    (c or fl).errors.extend(_texts(cd))
            return
        fl.errors.extend(_texts(detail))

    def _filled_rows(self, fl: Field) -> list[list[Field]]:
        return [row for row in fl.rows if any(str(c.value).strip() for c in row)]

    @property
    def has_errors(self) -> bool:
        return any(fl.errors for fl in self.fields) or any(fl.errors for fl in self._all())


class _Unreadable(Exception):
    pass


def on_the_clock(local: datetime, zone: str) -> datetime:
    """``local`` (no offset) read on the property's clock ``zone``; a time the clock never
    shows (the hour skipped when the clocks go forward) or shows twice (the hour repeated
    when they go back) is refused with a sentence (FormInputError), never moved."""
    from casino.domain.wall_clock import format_date

    tz = ZoneInfo(zone)
    first, second = local.replace(tzinfo=tz, fold=0), local.replace(tzinfo=tz, fold=1)
    said = f"{local.strftime('%I:%M %p').lstrip('0')} on {format_date(local.date())}"
    back = first.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    if back != local.replace(tzinfo=None, fold=0):
        raise FormInputError(
            f"{said} does not exist on the property's clock ({zone}: the clocks went "
            "forward an hour then): give the time as the clock showed it, an hour later")
    if first.utcoffset() != second.utcoffset():
        utc = [m.astimezone(UTC).strftime("%H:%M") for m in (first, second)]
        raise FormInputError(
            f"{said} is ambiguous on the property's clock ({zone}: the clocks went back an "
            f"hour then, so it happened twice, at {utc[0]} and at {utc[1]} UTC): give a "
            "time outside that hour, or record it through the API in UTC")
    return first


def _texts(detail: Any) -> list[str]:
    if isinstance(detail, dict):
        return [t for d in detail.values() for t in _texts(d)]
    if isinstance(detail, (list, tuple)):
        return [t for d in detail for t in _texts(d)]
    return [str(detail)]


def _sentence(err: DomainError) -> str:
    return err.message[:1].upper() + err.message[1:]


def money_text(cents: int) -> str:
    """Cents as the dollars box shows them: 1250 → ``12.50``."""
    whole, frac = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}{whole}.{frac:02d}"
