"""Bad Beat and High Hand Jackpot contributions taken from a pot (637a.15(b)-(c),
637a.16(b)-(c)), and the jackpot boxes at a table that hold them (637a.2(e)).

A contribution is determined after the rake has been extracted (637a.15(c), 637a.16(c),
637a.7(e)(6)(iii)-(iv)), by the posted rules: the minimum pot before anything is taken and
the maximum taken from one pot. The engine emits the amounts; the funds are kept later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.domain.errors import ConflictError, DomainError

BAD_BEAT, HIGH_HAND = "bad_beat", "high_hand"


@dataclass(frozen=True)
class JackpotRule:
    """One fund's posted contribution rule: a fixed amount or ``percent_bp`` of the pot
    after the rake, at most ``max_cents``, only from pots of at least ``min_pot_cents``
    (compared with the pot after the rake, the amount the contribution is taken from)."""

    fund: str
    max_cents: int
    #: the fund the Rules Submission names (several tables and games may feed one)
    fund_name: str = ""
    min_pot_cents: int = 0
    fixed_cents: int | None = None
    percent_bp: int | None = None
    #: the table's smallest chip: a contribution goes into the box in whole chips
    unit_cents: int = 1

    @classmethod
    def from_options(cls, kind: str, o: Mapping[str, Any], unit: int) -> JackpotRule:
        """The contribution rule of a Rules Submission's canonical ``bad_beat`` or
        ``high_hand`` options; ``unit`` is the table's smallest chip."""
        c = o["contribution"]
        return cls(fund=kind, fund_name=o["fund"], max_cents=o["maximum_per_pot_cents"],
                   min_pot_cents=o["minimum_pot_cents"], fixed_cents=c.get("amount_cents"),
                   percent_bp=c.get("percentage_bp"), unit_cents=unit)


def contribution(rule: JackpotRule, pot_after_rake: int) -> int:
    if pot_after_rake < max(rule.min_pot_cents, 1):
        return 0
    if rule.fixed_cents is not None:
        amount = rule.fixed_cents
    else:
        amount = pot_after_rake * rule.percent_bp // 10_000
    amount = min(amount, rule.max_cents, pot_after_rake)
    return amount - amount % rule.unit_cents


def contributions(rules: Sequence[JackpotRule], pot_after_rake: int) -> list[tuple[str, int]]:
    """Each fund's contribution, in the posted order; together never more than the pot."""
    out: list[tuple[str, int]] = []
    left = pot_after_rake
    for rule in rules:
        amount = min(contribution(rule, pot_after_rake), left)
        left -= amount
        out.append((rule.fund, amount))
    return out


# --- the jackpot box at the table (637a.2(e)) ---------------------------------------------

#: why a hand at a table without the fund's box pays nothing into that fund
NO_BOX_REASON = "no jackpot box registered at this table (637a.2(e))"
#: what the person registering a box confirms of it, each its own refusal
BOX_CONFIRMATIONS = (
    ("transparent", "jackpot_box_not_transparent", "transparent"),
    ("locked", "jackpot_box_not_locked", "locked"),
    ("beside_drop_box", "jackpot_box_not_beside_drop_box",
     "attached on the same side of the table as the drop box"),
)


class JackpotBoxError(DomainError):
    code = "invalid_jackpot_box"


def posted_funds(options: Mapping[str, Any]) -> dict[str, str]:
    """The funds a Rules Submission's canonical options pay into: name -> kind."""
    return {o["fund"]: kind for kind in (BAD_BEAT, HIGH_HAND) if (o := options.get(kind))}


def box_tag(value: Any) -> str:
    """The number or tag on the box, as the floor reads it: text of 1 to 40 characters."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 40:
        raise JackpotBoxError("box is the box's number or tag, 1 to 40 characters",
                              code="invalid_jackpot_box", field="box")
    return value.strip()


def box_confirmed(**confirmed: Any) -> None:
    """637a.2(e): the box is transparent, locked and attached on the drop box's side; the
    person registering it confirms each (``True``), else that one's code."""
    for name, code, what in BOX_CONFIRMATIONS:
        if confirmed.get(name) is not True:
            raise JackpotBoxError(f"a jackpot box must be {what} (637a.2(e)): confirm it",
                                  code=code, field=name)


def box_registered(boxes: Mapping[str, Any], funds: Mapping[str, str], fund: Any,
                   tag: str) -> dict[str, dict[str, str]]:
    """The table's boxes once the box ``tag`` is registered for ``fund`` (637a.2(e)): a
    fund the rules in effect pay into, not holding a box already, a tag no other box at
    the table carries."""
    if not isinstance(fund, str) or fund not in funds:
        offered = ", ".join(sorted(funds)) or "none"
        raise ConflictError(f"the rules in effect at this table pay into no fund {fund!r} "
                            f"(funds: {offered})", code="fund_not_offered")
    if fund in boxes:
        raise ConflictError(f"box {boxes[fund]['box']} is registered for {fund} already",
                            code="jackpot_box_already_registered")
    if any(b["box"] == tag for b in boxes.values()):
        raise ConflictError(f"box {tag} is registered at this table already",
                            code="jackpot_box_tag_in_use")
    return {**boxes, fund: {"box": tag, "kind": funds[fund]}}


def box_removed(boxes: Mapping[str, Any], fund: Any) -> dict[str, Any]:
    """The table's boxes once ``fund``'s box is removed; 409 ``no_jackpot_box``."""
    if not isinstance(fund, str) or fund not in boxes:
        raise ConflictError(f"no jackpot box is registered for {fund!r} at this table",
                            code="no_jackpot_box")
    return {f: b for f, b in boxes.items() if f != fund}


def collected_at_table(options: Mapping[str, Any], boxes: Mapping[str, Any]
                       ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """637a.2(e): a table pays into a fund only through that fund's box attached to it.
    The options a hand at the table plays by (each fund without a box at the table left
    out: no contribution to it, no Bad Beat qualifying there), and what is withheld, with
    why: ``{"fund", "kind", "cents": 0, "reason"}`` each. The pot keeps the money."""
    kept = dict(options)
    withheld = []
    for fund, kind in posted_funds(options).items():
        if fund not in boxes:
            kept[kind] = None
            withheld.append({"fund": fund, "kind": kind, "cents": 0, "reason": NO_BOX_REASON})
    return kept, withheld
