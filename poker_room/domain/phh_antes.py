"""The Ante in a PHH hand history (``antes``): read into our table's Ante and who posts
it, and written back from them (637a.10(b)-637a.21(b): the Rules Submission governs its
placement). Every player the same ante, or one ante at a single seat, as tournament
histories record a big-blind (or button) ante. Part of :mod:`poker_room.domain.phh`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poker_room.domain.errors import PHHError
from poker_room.domain.rules import ANTE_BIG_BLIND, ANTE_BUTTON, ANTE_EACH, TableRules


def int_list(phh: Mapping[str, Any], key: str, *, required: bool = False) -> list[int]:
    v = phh.get(key)
    if v is None and not required:
        return []
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool)
                                          for x in v):
        raise PHHError(f"{key} must be a list of whole numbers", field=key)
    return v


def read_antes(phh: Mapping[str, Any], n: int, stud: bool) -> tuple[int, str]:
    """The Ante and who posts it (637a.10(b)-637a.21(b): the Rules Submission governs its
    placement). Every player the same ante; or one ante written at a single seat, as
    tournament histories record a big-blind (or button) ante: the table's one ante,
    posted by that player (``ante_posted_by``). Any other shape is refused."""
    written = int_list(phh, "antes")
    paid = [(k, a) for k, a in enumerate(written) if a]
    if not paid:
        return 0, ANTE_EACH
    if len(paid) == n and len({a for _, a in paid}) == 1 and len(written) == n:
        return paid[0][1], ANTE_EACH
    if len(paid) == 1 and not stud and paid[0][0] < n:
        player = _ante_player(paid[0][0], n)
        for poster in (ANTE_BIG_BLIND, ANTE_BUTTON):
            if player == _table_ante_player(phh, n, poster):
                return paid[0][1], poster
        raise PHHError(f"the ante at p{player + 1} is neither the big blind's nor the "
                       "button's", field="antes")
    raise PHHError("antes are the same for every player, or one ante at the big blind or "
                   "the button", field="antes")


def _ante_player(k: int, n: int) -> int:
    """The player (0-based, p1 first) who posts the ante written at index ``k``:
    heads-up, pokerkit swaps the written antes as it swaps the blinds."""
    return 1 - k if n == 2 else k


def _table_ante_player(phh: Mapping[str, Any], n: int, poster: str) -> int:
    """The player (0-based) our engine has post the one table ante as ``poster`` says,
    with the blinds the file records (the button is pn; heads-up it posts the small
    blind, as the replay reads PHH)."""
    if poster == ANTE_BUTTON:
        return n - 1
    blinds = [b for b in phh.get("blinds_or_straddles") or [] if b][:2]
    if n == 2:
        return 0  # the player who is not the button posts the big blind
    return max(len(blinds), 1) - 1


def written_antes(rules: TableRules, n: int) -> list[int]:
    """The ``antes`` field for a table's Ante: each player's, or the one table ante at the
    seat of the player who posts it (the inverse of :func:`read_antes`)."""
    if rules.ante_posted_by == ANTE_EACH or not rules.ante_cents or not rules.spec.uses_button:
        return [rules.ante_cents] * n
    player = n - 1 if rules.ante_posted_by == ANTE_BUTTON else (
        0 if n == 2 else max(len(rules.blinds_cents), 1) - 1)
    out = [0] * n
    out[_ante_player(player, n)] = rules.ante_cents
    return out
