"""The jackpot payout boxes counted at the cage and the displayed amounts adjusted at the
end of play (§ 637a.15(d)-(e), § 637a.16(d)-(e)), once the jackpots follower has caught up."""

from __future__ import annotations

from casino.eventstore import projections
from finance.simulation.crew import Crew
from jackpots.models import Fund, FundCount, PayoutBox
from jackpots.projections import FundsFollower
from jackpots.services import counts as jackpot_counts
from jackpots.services import display_adjust, display_witness


def _follower_at_head() -> None:
    """The jackpots follower at the head of the log: the boxes as the contributions filled
    them, a count as its opening recorded it. Caught up under the append lock, so that a
    transaction open elsewhere on the PostgreSQL server (another database's included),
    which holds back what the settled log may show, cannot leave the day uncounted."""
    projections.catch_up(FundsFollower.name, locked=True)


def count_jackpot_boxes(crew: Crew) -> int:
    """Every fund's payout boxes counted at the cage (§ 637a.15(d)(2)-(e), § 637a.16(d)(2)-(e)):
    the floorperson accounts for the locked boxes, security carries them, the cashier
    counts each box (what it should hold: no variance) and verifies the total; then
    finance adjusts each displayed amount in the floorperson's presence (§ 637a.15(h)).
    Returns how many counts were made: one for each fund with a payout box."""
    prop = crew.finance.property
    _follower_at_head()
    made = 0
    for fund in Fund.objects.filter(property=prop, discontinued=False).order_by("name"):
        if not PayoutBox.objects.filter(property=prop, fund=fund.name).exists():
            continue
        opened = jackpot_counts.count_open(actor=crew.floor, fund=fund.name, place="cage")
        count_id = opened["count_id"]
        jackpot_counts.count_account(actor=crew.floor, fund=fund.name, count_id=count_id)
        jackpot_counts.count_carry(actor=crew.security, fund=fund.name, count_id=count_id)
        total = 0
        _follower_at_head()  # the count's row is the follower's too
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
    _follower_at_head()  # the day's close reads the counts' states from the follower
    return made
