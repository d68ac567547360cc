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


#: Three five-handed hands of the 2023 WSOP Event #43, Day 5, from pokerkit 0.7.7's public
#: ``test_wsop`` data (issue 41), with the finishing stacks that history records. Each has
#: the table's one ante at the big blind (p2) and the ante poster reaching the end against
#: a player who matched his bets but not his ante: the ante is dead money in the pot both
#: contest, never a layer of p2's that only p2 could win back.
#:
#: 2023_43_5_68_03_02_41, no-limit: p2 posts the 225,000 ante and the 150,000 blind; p5
#: raises to 300,000, p1 folds (75,000), p2 moves all in to 3,350,000 (3,575,000 less the
#: ante), p5 calls; the board 2c8cTh Ah 6d gives p5 aces, over p2's nines.
#: Pot 75,000 + 225,000 + 3,350,000 + 3,350,000 = 7,000,000 to p5:
#: p5 18,050,000 - 3,350,000 + 7,000,000 = 21,700,000; p2 0; p1 2,275,000 - 75,000.
WSOP_68 = """
variant = 'NT'
antes = [0, 225000, 0, 0, 0]
blinds_or_straddles = [75000, 150000, 0, 0, 0]
min_bet = 150000
starting_stacks = [2275000, 3575000, 2675000, 3125000, 18050000]
actions = ['d dh p1 8d3s', 'd dh p2 9d9c', 'd dh p3 6c5h', 'd dh p4 Js4h', 'd dh p5 AcKc',
           'p3 f', 'p4 f', 'p5 cbr 300000', 'p1 f', 'p2 cbr 3350000', 'p5 cc',
           'p2 sm 9d9c', 'p5 sm AcKc', 'd db 2c8cTh', 'd db Ah', 'd db 6d']
finishing_stacks = [2200000, 0, 2675000, 3125000, 21700000]
"""

#: 2023_43_5_31_01_29_49, pot-limit Omaha: p1 completes the small blind to 100,000, p2
#: checks; both check down and tie with a pair of tens (board 3c2dKc Qh 8c). Pot 100,000 +
#: 100,000 + p2's 100,000 ante = 300,000, 150,000 each: p1 7,700,000 + 50,000; p2
#: 4,050,000 - 200,000 + 150,000 = 4,000,000.
WSOP_31 = """
variant = 'PO'
antes = [0, 100000, 0, 0, 0]
blinds_or_straddles = [50000, 100000, 0, 0, 0]
min_bet = 100000
starting_stacks = [7700000, 4050000, 4300000, 3525000, 10125000]
actions = ['d dh p1 JsThTd6d', 'd dh p2 AdTsTc8h', 'd dh p3 KhJc7h7d', 'd dh p4 9h6s4s4h',
           'd dh p5 9c7s5h2h', 'p3 f', 'p4 f', 'p5 f', 'p1 cc', 'p2 cc', 'd db 3c2dKc',
           'p1 cc', 'p2 cc', 'd db Qh', 'p1 cc', 'p2 cc', 'd db 8c', 'p1 cc', 'p2 cc',
           'p1 sm JsThTd6d', 'p2 sm AdTsTc8h']
finishing_stacks = [7750000, 4000000, 4300000, 3525000, 10125000]
"""

#: 2023_43_5_30_01_26_14, pot-limit Omaha: p5 raises to 300,000, p1 folds (50,000), p2
#: calls; on the river p2 bets 250,000 and p5 calls; p5's straight wins. Pot 50,000 +
#: 100,000 (ante) + 2 x 300,000 + 2 x 250,000 = 1,250,000: p5 2,825,000 - 550,000 +
#: 1,250,000 = 3,525,000; p2 8,350,000 - 650,000 = 7,700,000.
WSOP_30 = """
variant = 'PO'
antes = [0, 100000, 0, 0, 0]
blinds_or_straddles = [50000, 100000, 0, 0, 0]
min_bet = 100000
starting_stacks = [10175000, 8350000, 4050000, 4300000, 2825000]
actions = ['d dh p1 Jd7h5c2c', 'd dh p2 AhKs4d2s', 'd dh p3 Qs6s6d5d', 'd dh p4 8h8d3s3d',
           'd dh p5 Tc9h7d2d', 'p3 f', 'p4 f', 'p5 cbr 300000', 'p1 f', 'p2 cc',
           'd db 6cJc4h', 'p2 cc', 'p5 cc', 'd db 9s', 'p2 cc', 'p5 cc', 'd db 7c',
           'p2 cbr 250000', 'p5 cc', 'p2 sm AhKs4d2s', 'p5 sm Tc9h7d2d']
finishing_stacks = [10125000, 7700000, 4050000, 4300000, 3525000]
"""


@pytest.mark.regulation("637a.11(b)", "637a.12(b)", "637a.8(b)(5)(i)")
@pytest.mark.parametrize("history", [WSOP_68, WSOP_31, WSOP_30], ids=[
    "2023_43_5_68_03_02_41", "2023_43_5_31_01_29_49", "2023_43_5_30_01_26_14"])
def test_five_handed_big_blind_ante_hands_replay_to_their_finishing_stacks(history):
    """The table's one ante, posted by the big blind, stays in the pot the players contest:
    the player who matched the big blind's bets wins it too (issue 41)."""
    expected = tomllib.loads(history)["finishing_stacks"]
    hand = replay(history)
    assert hand.rules.ante_posted_by == "big-blind"
    assert [hand.stacks[s] for s in range(1, 6)] == expected


@pytest.mark.parametrize("antes", ["[100, 200, 0]", "[200, 0, 0]"])
def test_antes_of_another_shape_are_refused(antes):
    """Two unequal antes, or one ante at the small blind's seat (neither the big blind's
    nor the button's): refused by name, nothing replayed."""
    with pytest.raises(PHHError) as err:
        replay(THREE_HANDED.replace("antes = [0, 200, 0]", f"antes = {antes}"))
    assert (err.value.code, err.value.field) == ("invalid_phh", "antes")
