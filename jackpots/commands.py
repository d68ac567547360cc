"""The jackpots' commands, each declared once (issue 23, DESIGN §7): Bad Beat hits, the
display, High Hand slips and awards, payout-box counts and a fund's discontinuance
(637a.15, 637a.16). The API operation, the API reference and the console form are made
from these.

No ``stream``: a fund's stream names its property as well as the fund
(``jackpot_fund-<property>-<name>``), so the URL's fund name alone does not give it."""

from __future__ import annotations

from typing import Any

from casino.api.commands import EmptyInput
from casino.declared import declare
from jackpots import services
from jackpots.api.serializers import (
    AwardPaidOut,
    AwardPayIn,
    BoxIn,
    CloseIn,
    CloseOut,
    CountIdIn,
    CountOpenIn,
    DiscontinueIn,
    ExplainIn,
    FundRowOut,
    HandIn,
    HitOut,
    PayIn,
    RecordIn,
    RecordOut,
    RejectIn,
    StepOut,
    TotalIn,
)
from jackpots.services import counts, discontinue

F = "jackpot-funds/<str:pk>/"

# --- Bad Beat ---------------------------------------------------------------------------

bad_beat_verify = declare(
    service=services.bad_beat_verify, input=HandIn, output=HitOut, roles=services.VERIFYING,
    path=F + "bad-beats/verify/", url_name="bad-beat-verify", id_arg="fund",
    label="Verify the Bad Beat", summary="Verify a hand held as a Bad Beat.",
    doc="The poker shift supervisor verifies a Bad Beat hand (637a.15(f)); the payout and "
        "its shares are fixed, and the display shows it pending adjustment.")
bad_beat_reject = declare(
    service=services.bad_beat_reject, input=RejectIn, output=HitOut, roles=services.VERIFYING,
    path=F + "bad-beats/reject/", url_name="bad-beat-reject", id_arg="fund",
    label="Reject the hand",
    summary="Reject a hand held as a Bad Beat, with the reason.",
    doc="The poker shift supervisor rejects a hand held as a Bad Beat, with the reason.")
bad_beat_pay = declare(
    service=services.bad_beat_pay, input=PayIn, output=HitOut, roles=services.PAYING,
    path=F + "bad-beats/pay/", url_name="bad-beat-pay", id_arg="fund",
    label="Pay the Bad Beat", summary="Pay a verified Bad Beat to each player with a share.",
    doc="A verified Bad Beat paid at the table or the cage, each share against the "
        "player's identification (637a.15(g)).")

# --- High Hand ----------------------------------------------------------------------------

high_hand_record = declare(
    service=services.high_hand_record, input=RecordIn, output=RecordOut,
    roles=services.RECORDING, path=F + "high-hands/record/", url_name="high-hand-record",
    id_arg="fund", created=True, label="Record the hand on the slip",
    summary="Record a qualifying hand on the High Hand Tracking Slip.",
    doc="A floorperson records a full house or better, or a higher hand, on the period's "
        "High Hand Tracking Slip (637a.16(f)).")
high_hand_period_close = declare(
    service=services.high_hand_period_close, input=CloseIn, output=CloseOut,
    roles=services.CLOSING, path=F + "high-hands/close/", url_name="high-hand-close",
    id_arg="fund", label="Close the period",
    summary="Close an ended High Hand period and award its amount.",
    doc="Close an ended High Hand period: the pooled amount to the highest hand "
        "(637a.16(g)-(h)); the beat task closes each period as it ends.")
high_hand_pay = declare(
    service=services.high_hand_pay, input=AwardPayIn, output=AwardPaidOut,
    roles=services.PAYING, path=F + "high-hands/pay/", url_name="high-hand-pay",
    id_arg="fund", label="Pay the award", summary="Pay a High Hand award at the cage.",
    doc="A High Hand award paid at the cage against valid identification (637a.16(h)).")

# --- payout-box counts ------------------------------------------------------------------------


def _count(service: Any, roles: tuple[Any, ...], input: type, route: str, url_name: str,
           label: str, summary: str, doc: str, name: str | None = None) -> Any:
    return declare(name, service=service, input=input, output=StepOut, roles=roles,
                   path=F + "counts/" + route, url_name=url_name, id_arg="fund",
                   label=label, summary=summary, doc=doc)


count_open = _count(
    counts.count_open, counts.OPENING, CountOpenIn, "open/", "jackpot-count-open",
    "Open the count", "Open a count of a fund's payout boxes.",
    "Open a count of the fund's payout boxes at a closed table or in the cage "
    "(637a.15(d), 637a.16(d)).")
count_box = _count(
    counts.count_box, counts.DEALER_COUNTS + counts.CASHIERS, BoxIn, "box/",
    "jackpot-count-box", "Record the box's count", "Record the count of one payout box.",
    "One box counted: by the dealer at a closed table, by a cashier at the cage "
    "(637a.15(d)(1), (e)).")
count_witness = _count(
    counts.count_witness, counts.WITNESSES, CountIdIn, "witness/", "jackpot-count-witness",
    "Sign as the witness", "Sign a table count of payout boxes as its witness.",
    "The floorperson who watched the table count signs it (637a.15(d)(1)).")
count_account = _count(
    counts.count_account, counts.WITNESSES, CountIdIn, "account/", "jackpot-count-account",
    "Account for the boxes", "Account for every locked box going to the cage.",
    "A floorperson accounts for every locked box going to the cage (637a.15(d)(2)).")
count_carry = _count(
    counts.count_carry, counts.CARRIERS, CountIdIn, "carry/", "jackpot-count-carry",
    "Sign for carrying the boxes", "Carry the payout boxes to the cage as security.",
    "Security carries the container or boxes to the cage (637a.15(d)(1)-(2)).")
count_verify = _count(
    counts.count_verify, counts.CASHIERS, TotalIn, "verify/", "jackpot-count-verify",
    "Verify the count", "Verify a payout-box count at the cage.",
    "A cashier verifies the count at the cage (637a.15(e)); a difference from what the "
    "boxes should hold is a variance.")
# named apart from finance's exception steps (finance.commands), services of the same name
count_variance_explain = _count(
    counts.variance_explain, counts.EXPLAINING, ExplainIn, "explain/",
    "jackpot-count-explain", "Explain the variance",
    "Explain a payout-box count's variance.", "Finance explains a count's variance.",
    name="count_variance_explain")
count_variance_sign_off = _count(
    counts.variance_sign_off, counts.SIGNING_OFF, CountIdIn, "sign-off/",
    "jackpot-count-sign-off", "Sign off the variance",
    "Sign off an explained payout-box count variance.",
    "A second person signs off the explained variance.", name="count_variance_sign_off")

# --- the fund ---------------------------------------------------------------------------------

fund_discontinue = declare(
    service=discontinue.fund_discontinue, input=DiscontinueIn, output=FundRowOut,
    roles=discontinue.PROPOSING, path=F + "discontinue/", url_name="jackpot-fund-discontinue",
    id_arg="fund", label="Propose discontinuing the fund",
    summary="Propose discontinuing a jackpot fund.",
    doc="Finance proposes discontinuing the fund, its balance to another fund of the same "
        "kind (637a.15(i)).")
fund_discontinue_approve = declare(
    service=discontinue.fund_discontinue_approve, input=EmptyInput, output=FundRowOut,
    roles=discontinue.APPROVING, path=F + "discontinue/approve/",
    url_name="jackpot-fund-discontinue-approve", id_arg="fund",
    label="Approve the discontinuance",
    summary="Approve discontinuing a jackpot fund as compliance.",
    doc="Compliance approves the discontinuance; the balance is transferred (637a.15(i)).")
display_adjust = declare(
    service=services.display_adjust, input=EmptyInput, output=FundRowOut,
    roles=services.ADJUSTING, path=F + "display/adjust/", url_name="jackpot-display-adjust",
    id_arg="fund", label="Start the display adjustment",
    summary="Start adjusting a fund's displayed amount to the official record.",
    doc="Finance begins adjusting the displayed amount to the official record "
        "(637a.15(h)(1)); a floorperson witnesses it.")
display_witness = declare(
    service=services.display_witness, input=EmptyInput, output=FundRowOut,
    roles=services.WITNESSING, path=F + "display/witness/",
    url_name="jackpot-display-witness", id_arg="fund", label="Sign as the witness",
    summary="Sign for a display adjustment made in your presence.",
    doc="The floorperson in whose presence the display was adjusted signs for it "
        "(637a.15(h)(1)-(2)).")
