"""The decisions on a jackpot fund (637a.15, 637a.16), one module per part: Bad Beat hits
(:mod:`.hits`), the displayed amount (:mod:`.display`), High Hand periods
(:mod:`.high_hand`), box counts (:mod:`.counts`); what they share (:mod:`.common`)."""

from jackpots.services.common import (
    ADJUSTING,
    PAYING,
    PLACES,
    VERIFYING,
    WITNESSING,
    AtFund,
    FundError,
)
from jackpots.services.discontinue import fund_discontinue, fund_discontinue_approve
from jackpots.services.display import display_adjust, display_witness
from jackpots.services.high_hand import (
    CLOSING,
    RECORDING,
    high_hand_pay,
    high_hand_period_close,
    high_hand_periods_close_due,
    high_hand_record,
)
from jackpots.services.hits import bad_beat_pay, bad_beat_reject, bad_beat_verify

__all__ = ["ADJUSTING", "CLOSING", "PAYING", "PLACES", "RECORDING", "VERIFYING", "WITNESSING",
           "AtFund", "FundError", "bad_beat_pay", "bad_beat_reject", "bad_beat_verify",
           "display_adjust", "display_witness", "fund_discontinue", "fund_discontinue_approve", "high_hand_pay", "high_hand_period_close",
           "high_hand_periods_close_due", "high_hand_record"]
