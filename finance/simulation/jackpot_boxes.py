"""The jackpot payout boxes counted at the cage and the displayed amounts adjusted at the
end of play (§ 637a.15(d)-(e), § 637a.16(d)-(e)), once the jackpots follower has caught up."""

from __future__ import annotations

import time

from casino.eventstore import projections
from casino.eventstore.reading import committed_unsettled
from finance.simulation.crew import Crew
from jackpots.models import Fund, FundCount, PayoutBox
from jackpots.projections import FundsFollower
from jackpots.services import counts as jackpot_counts
from jackpots.services import display_adjust, display_witness

#: how long the jackpot count waits for the jackpots follower to reach the head
FOLLOWER_WAIT_SECONDS = 10.0


def _follower_caught_up(wait_seconds: float = FOLLOWER_WAIT_SECONDS) -> bool:
    """The jackpots follower at the head of the log (the boxes as the contributions
    filled them). On PostgreSQL it reads only settled events: a transaction left open
    anywhere on the server holds it back, so it is given a few seconds."""
    deadline = time.monotonic() + wait_seconds
    while True:
        projections.catch_up(FundsFollower.name)
        if not committed_unsettled():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def count_jackpot_boxes(crew: Crew, notes: list[str]) -> int:
    """Every fund's payout boxes counted at the cage (§ 637a.15(d)(2)-(e), § 637a.16(d)(2)-(e)):
    the floorperson accounts for the locked boxes, security carries them, the cashier
    counts each box (what it should hold: no variance) and verifies the total; then
    finance adjusts each displayed amount in the floorperson's presence (§ 637a.15(h)).
    Returns how many counts were made; says in ``notes`` why none were."""
    prop = crew.finance.property
    if not _follower_caught_up():
        notes.append("the jackpot boxes were not counted: the jackpots follower could not "
                     "catch up (a transaction is still open on the database server); count "
                     "them through the jackpots API once it has")
        return 0
    made = 0
    for fund in Fund.objects.filter(property=prop, discontinued=False).order_by("name"):
        if not PayoutBox.objects.filter(property=prop, fund=fund.name).exists():
            continue
        opened = jackpot_counts.count_open(actor=crew.floor, fund=fund.name, place="cage")
        count_id = opened["count_id"]
        jackpot_counts.count_account(actor=crew.floor, fund=fund.name, count_id=count_id)
        jackpot_counts.count_carry(actor=crew.security, fund=fund.name, count_id=count_id)
        total = 0
        # the count's row is the follower's too: on a busy PostgreSQL server it may not
        # have read the opening yet (the count is then left open, an open item of the day)
        if not _follower_caught_up():
            notes.append(f"the {fund.name} count was opened but not counted: the jackpots "
                         "follower could not catch up; count it through the jackpots API")
            break
        boxes = FundCount.objects.get(count_id=count_id).boxes  # as the opening recorded
        for box in boxes:
            table_id, expected = box["table_id"], box["expected_cents"]
            jackpot_counts.count_box(actor=crew.cashier, fund=fund.name, count_id=count_id,
                                     table_id=table_id, counted_cents=expected)
            total += expected
        jackpot_counts.count_verify(actor=crew.cashier, fund=fund.name, count_id=count_id,
                                    counted_cents=total)
        display_adjust(actor=crew.finance, fund=fund.name)
        display_witness(actor=crew.floor, fund=fund.name)
        made += 1
    return made
