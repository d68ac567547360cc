"""Money is integer cents everywhere; this is the one place that parses and formats it."""

from __future__ import annotations

import re

from casino.domain.errors import DomainError

Cents = int

_AMOUNT = re.compile(r"^\$?(?P<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d{1,2}))?$")


class MoneyError(DomainError):
    code = "invalid_amount"


class WagerError(DomainError):
    code = "invalid_wager"


def check_wager(cents: object, *, what: str = "wager", allow_zero: bool = False) -> None:
    """A wager is a whole number of cents (no bool, float or text), positive unless
    ``allow_zero``. Every settlement checks its amounts here."""
    whole = isinstance(cents, int) and not isinstance(cents, bool)
    if not whole or cents < (0 if allow_zero else 1):
        kind = "non-negative" if allow_zero else "positive"
        raise WagerError(f"the {what} must be a {kind} whole number of cents, not {cents!r}")


def parse_money(text: str) -> Cents:
    """``"12.5"`` → 1250, ``"$1,234.56"`` → 123456. Negative or fractional cents refused."""
    m = _AMOUNT.match(text.strip())
    if not m:
        raise MoneyError(f"'{text}' is not an amount of money (e.g. 25, 25.50 or $1,000.00)")
    whole = int(m.group("whole").replace(",", ""))
    frac = (m.group("frac") or "0").ljust(2, "0")
    return whole * 100 + int(frac)


def unsigned_dollars(cents: Cents, *, separators: bool = False) -> str:
    """The size of an amount in dollars to the cent, without its sign: -123456 →
    ``"1234.56"`` (``"1,234.56"`` with ``separators``). Only whole cents."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        raise MoneyError(f"{cents!r} is not a whole number of cents")
    whole, frac = divmod(abs(cents), 100)
    return f"{whole:,}.{frac:02d}" if separators else f"{whole}.{frac:02d}"


def format_money(cents: Cents) -> str:
    """123456 → ``"$1,234.56"``; negative amounts as ``"-$5.00"``."""
    dollars = unsigned_dollars(cents, separators=True)
    return f"{'-' if cents < 0 else ''}${dollars}"


def said_amount(value: object) -> str:
    """An amount as a refusal states it to a person: dollars (``"$12.50"``) when it is whole
    cents, else the input as it was given (``'12.5'``), so the message still says what was
    refused."""
    if isinstance(value, int) and not isinstance(value, bool):
        return format_money(value)
    return repr(value)
