"""The commands of a house-banked round as typed values (DESIGN §5: commands are frozen
dataclasses, checked once at the edge). An API serializer or a terminal builds one, the
service passes it on, and :func:`as_domain` gives the domain's handler its fields; the
one-at-a-time commands and the batches (:class:`PlaceWagers`, :class:`LockDecisions`)
share them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class RoundCommand:
    type: ClassVar[str]

    def as_domain(self) -> dict[str, Any]:
        """The command as the domain's handlers read it (``{"type": ..., fields}``)."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out


@dataclass(frozen=True)
class PlaceWager(RoundCommand):
    """589.7, 671a.7, 579.7: a wager before "no more bets"."""

    type: ClassVar[str] = "place_wager"
    position: int
    wager: str
    amount: int
    player: str | None = None
    instrument: str | None = None  # x.7(a): "chips" | "plaque"; "cash" is refused

    def as_domain(self) -> dict[str, Any]:
        out = super().as_domain()
        if out["instrument"] is None:
            del out["instrument"]
        return out


@dataclass(frozen=True)
class WithdrawWager(RoundCommand):
    type: ClassVar[str] = "withdraw_wager"
    position: int
    wager: str


@dataclass(frozen=True)
class NoMoreBets(RoundCommand):
    """589.7(d), 579.7(c)."""

    type: ClassVar[str] = "no_more_bets"


@dataclass(frozen=True)
class Deal(RoundCommand):
    """Recorded mode (``hands``, ``dealer``) or dealt mode (``deck``); ``method`` None:
    the table's; ``placed_by`` at a manual shoe (x.8(a)), and ``card_hand``, the hand the
    dealer attests took each card from it (579.8(c), 589.8(b), 671a.8(b))."""

    type: ClassVar[str] = "deal"
    method: str | None = None
    hands: dict[str, list[Any]] | None = None
    dealer: list[Any] | None = None
    dealer_face_up: Any = None
    deck: list[int] | None = None
    placed_by: str | None = None
    card_hand: str | None = None

    def as_domain(self) -> dict[str, Any]:
        out = super().as_domain()
        return {k: v for k, v in out.items() if v is not None or k == "dealer_face_up"}


@dataclass(frozen=True)
class Decide(RoundCommand):
    """A player's decision; ``amount``, ``high`` and ``low`` only when given."""

    type: ClassVar[str] = "decision"
    position: int
    decision: str
    amount: int | None = None
    high: list[Any] | None = None
    low: list[Any] | None = None

    def as_domain(self) -> dict[str, Any]:
        return {k: v for k, v in super().as_domain().items()
                if v is not None or k not in ("amount", "high", "low")}


@dataclass(frozen=True)
class SetHands(RoundCommand):
    """579.11(d)."""

    type: ClassVar[str] = "set_hands"
    position: int
    high: list[Any]
    low: list[Any]


@dataclass(frozen=True)
class Draw(RoundCommand):
    """589.11(d)(2), 671a.11(d)."""

    type: ClassVar[str] = "draw"
    position: int
    discard: list[Any] = ()  # type: ignore[assignment]
    cards: list[Any] = ()  # type: ignore[assignment]

    def as_domain(self) -> dict[str, Any]:
        return {"type": self.type, "position": self.position, "discard": list(self.discard),
                "cards": list(self.cards)}


@dataclass(frozen=True)
class DrawDealer(RoundCommand):
    """589.11(e)(2)(ii)."""

    type: ClassVar[str] = "draw_dealer"
    card: Any = None
    discard: Any = None


@dataclass(frozen=True)
class LockDecisions(RoundCommand):
    """"All decisions are locked in" — with ``decisions``, every position's decision
    first, in order, as one command (one commit, one event per fact)."""

    type: ClassVar[str] = "lock_decisions"
    decisions: tuple[Decide | SetHands, ...] = ()

    def steps(self) -> list[dict[str, Any]]:
        return [d.as_domain() for d in self.decisions] + [{"type": self.type}]


@dataclass(frozen=True)
class PlaceWagers(RoundCommand):
    """Every wager a terminal holds, then (``no_more_bets``) "no more bets", as one
    command (one commit, one event per fact)."""

    type: ClassVar[str] = "place_wagers"
    wagers: tuple[PlaceWager, ...] = ()
    no_more_bets: bool = False

    def steps(self) -> list[dict[str, Any]]:
        return ([w.as_domain() for w in self.wagers]
                + ([NoMoreBets().as_domain()] if self.no_more_bets else []))


@dataclass(frozen=True)
class ReportIrregularity(RoundCommand):
    """x.13 irregularities and x.7(b) abandoned wagers."""

    type: ClassVar[str] = "report_irregularity"
    kind: str
    card: Any = None
    position: int | None = None
    misdealt: Any = None
    face_exposed: Any = None

    def as_domain(self) -> dict[str, Any]:
        return {k: v for k, v in super().as_domain().items()
                if v is not None or k in ("type", "kind")}


@dataclass(frozen=True)
class StubDiscard(RoundCommand):
    """579.8(e), 579.9(c), 579.10(c)."""

    type: ClassVar[str] = "stub_discard"


@dataclass(frozen=True)
class StubCount(RoundCommand):
    """579.8(f)-(h), 579.9(d)-(f), 579.10(d)-(f)."""

    type: ClassVar[str] = "stub_count"
    cards: int
    misdealt: Any = None
    #: a misdeal: the cards the players and the dealer hold, counted (579.8(h))
    held: Any = None

    def as_domain(self) -> dict[str, Any]:
        return {k: v for k, v in super().as_domain().items()
                if v is not None or k in ("type", "cards")}


def steps(command: RoundCommand) -> list[dict[str, Any]]:
    """The domain commands ``command`` stands for, in order (one for a single command)."""
    batch = getattr(command, "steps", None)
    return batch() if batch is not None else [command.as_domain()]
