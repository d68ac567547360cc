"""Hand histories with a big-blind ante (issue 27, item 4): tournament PHH files write the
table's one ante at the big blind's seat (``antes = [0, X, 0, ...]``); the replay reads it
as the table's Ante posted by the big blind (``ante_posted_by = "big-blind"``, the placement
a Rules Submission governs, § 637a.11(b)). Finishing stacks worked by hand. No database."""

from __future__ import annotations

import io
import json
import tomllib

import pytest
from django.core.management import call_command

from poker_room.domain.hand import Hand
from poker_room.domain.phh import PHHError, replay, to_phh
from tests.poker_room._helpers import C, rules

#: three-handed no-limit Hold'em, blinds 100/200, a 200 ante at the big blind (p2). p3 (the
#: button) folds, p1 raises to 600, p2 calls; on the flop p1 bets 1000 and p2 folds.
#: Pot: 600 + 600 + p2's ante 200 = 1400, p1's uncalled 1000 back.
#: p1: 10000 - 600 + 1400 = 10800; p2: 10000 - 200 - 600 = 9200; p3: 10000.
THREE_HANDED = """
variant = 'NT'
antes = [0, 200, 0]
blinds_or_straddles = [100, 200, 0]
min_bet = 200
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 7c2h', 'p3 f', 'p1 cbr 600', 'p2 cc',
           'd db 2c3d4h', 'p1 cbr 1000', 'p2 f']
finishing_stacks = [10800, 9200, 10000]
"""

#: heads-up: p2 is the button and posts the small blind, p1 the big blind; PHH writes the
#: big blind's ante at index 1 as it writes the big blind (pokerkit swaps both heads-up),
#: so p1 posts 200 + 200. p2 folds: p1 takes 100 + 200 + 200 = 500.
#: p1: 5000 - 400 + 500 = 5100; p2: 5000 - 100 = 4900.
HEADS_UP = """
variant = 'NT'
antes = [0, 200]
blinds_or_straddles = [100, 200]
min_bet = 200
starting_stacks = [5000, 5000]
actions = ['d dh p1 AhKh', 'd dh p2 7c2d', 'p2 f']
finishing_stacks = [5100, 4900]
"""


def test_a_big_blind_ante_replays_to_the_finishing_stacks():
    """§ 637a.11(b): one Ante for the table, placed as the rules say: posted by the big
    blind only (the engine's AntesPosted names p2 alone)."""
    hand = replay(THREE_HANDED)
    assert hand.rules.ante_posted_by == "big-blind" and hand.rules.ante_cents == 200
    antes = next(e for e in hand.events if e["type"] == "AntesPosted")["data"]["amounts"]
    assert antes == [[2, 200]]
    assert [hand.stacks[s] for s in (1, 2, 3)] == [10800, 9200, 10000]


def test_an_ante_at_the_buttons_seat_is_the_button_ante():
    """§ 637a.11(b): one ante at p3, the button: posted by the button. The same hand: p1
    takes 600 + 600 + 200 = 1400; p2 loses 600, p3 its 200 ante."""
    hand = replay(THREE_HANDED.replace("antes = [0, 200, 0]", "antes = [0, 0, 200]"))
    assert hand.rules.ante_posted_by == "button"
    assert [hand.stacks[s] for s in (1, 2, 3)] == [10800, 9400, 9800]


def test_replay_phh_command_reads_big_blind_antes(tmp_path):
    """§ 637a.11(b): ``replay_phh`` over both files agrees with their finishing stacks."""
    files = []
    for name, text in (("three.phh", THREE_HANDED), ("heads-up.phh", HEADS_UP)):
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    out = io.StringIO()
    call_command("replay_phh", *files, stdout=out, stderr=io.StringIO())
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["finishing_stack"] for r in rows] == [10800, 9200, 10000, 5100, 4900]
    assert all(r["finishing_stack"] == r["expected"] for r in rows)


def test_a_big_blind_ante_table_writes_its_ante_at_the_big_blind():
    """The export writes the one ante where a tournament history does: p2, the big blind."""
    h = Hand.start(rules("holdem", structure="no-limit", ante_cents=200,
                         ante_posted_by="big-blind", blinds_cents=[100, 200]),
                   {1: 10_000, 2: 10_000, 3: 10_000}, button=3)
    h.deal({1: C("AsAd"), 2: C("KsKd"), 3: C("7c2h")})
    assert tomllib.loads(to_phh(h))["antes"] == [0, 200, 0]


@pytest.mark.parametrize("antes", ["[100, 200, 0]", "[200, 0, 0]"])
def test_antes_of_another_shape_are_refused(antes):
    """Two unequal antes, or one ante at the small blind's seat (neither the big blind's
    nor the button's): refused by name, nothing replayed."""
    with pytest.raises(PHHError) as err:
        replay(THREE_HANDED.replace("antes = [0, 200, 0]", f"antes = {antes}"))
    assert (err.value.code, err.value.field) == ("invalid_phh", "antes")
