"""``manage.py replay_phh FILE...``: replay PHH hand histories through our poker engine.

Prints one JSON line per player: ``{"file", "player", "seat", "finishing_stack",
"expected"}``. Exits non-zero, naming the file, when a file's ``finishing_stacks``
disagree with ours, or it cannot be replayed. Variants: FT, NT, PO, FO/8, F7S, F7S/8, FR,
F2L3D and FB (see :mod:`poker_room.domain.phh`).

How PA's rules (chapter 637a) and the PHH/pokerkit defaults differ, and how a replay reads
a file:

* Heads-up, pokerkit has the button post the small blind; 637a.11(d) puts the first
  blind left of the button. The replay follows the file (``heads_up_button_posts_small_
  blind``), our tables default to the regulation's text.
* Stud bring-in: pokerkit lets the player with the low card post the bring-in or
  complete; 637a.10(d) makes the Forced Bet mandatory. The replay accepts either
  (``bring_in_may_complete``); our tables default to the automatic Forced Bet.
* Raise caps: pokerkit caps fixed-limit rounds at four bets/raises (the blinds not
  counted); PA rooms post their own cap (637a.8(k)). The replay imposes none.
* Odd chips: pokerkit gives the excess of a tied share to the first tied player from the
  button's left. PA gives it by suit in Seven-card Stud High-low (637a.10(i)(3)), so such
  a file can disagree by the odd chip; elsewhere the Rules Submission names the player and
  the replay uses pokerkit's choice.
* High-low side pots: pokerkit splits a side pot high/low whenever any live player in
  the hand has a qualifying low; we judge the low among that pot's contenders, so a side
  pot where none qualifies goes to the high hand (637a.10(j), 637a.12(l)(1)).
* Antes: the same ante for every player, or one ante written at a single seat, as
  tournament histories record a big-blind ante (``antes = [0, X, 0, ...]``, heads-up too:
  pokerkit swaps it with the blinds): read as the table's one Ante posted by the big blind
  (or, at the button's seat, by the button), the placement the Rules Submission governs
  (637a.11(b)). Any other shape is refused (``invalid_phh``, field ``antes``).
* Table stakes (637a.8(b)(4)) are not enforced on replay unless ``--strict-stakes``.
* Burn cards are not recorded in PHH; the stud common card (637a.10(h)) has no PHH form.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.domain.errors import DomainError
from poker_room.domain.phh import replay


class Command(BaseCommand):
    help = "Replay PHH hand histories through the poker engine; JSON lines of stacks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+")
        parser.add_argument("--strict-stakes", action="store_true",
                            help="refuse hands whose players lack the table stakes of "
                                 "637a.8(b)(4)")

    def handle(self, *args: Any, **options: Any) -> None:
        failed: list[str] = []
        for name in options["files"]:
            try:
                data = tomllib.loads(Path(name).read_text(encoding="utf-8"))
                hand = replay(data, check_stakes=options["strict_stakes"])
            except (OSError, tomllib.TOMLDecodeError, KeyError, DomainError,
                    ValueError) as exc:
                code = getattr(exc, "code", type(exc).__name__)
                self.stderr.write(f"{name}: {code}: {exc}")
                failed.append(name)
                continue
            ours = [hand.stacks[s] for s in sorted(hand.stacks)]
            expected = data.get("finishing_stacks")
            for k, stack in enumerate(ours):
                self.stdout.write(json.dumps({
                    "file": name, "player": f"p{k + 1}", "seat": k + 1,
                    "finishing_stack": stack,
                    "expected": None if expected is None else expected[k]}))
            if expected is not None and list(expected) != ours:
                self.stderr.write(f"{name}: finishing_stacks {list(expected)} but the "
                                  f"engine finishes with {ours}")
                failed.append(name)
        if failed:
            raise CommandError("finishing_stacks_mismatch: " + ", ".join(failed))
