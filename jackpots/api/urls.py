"""The jackpot funds' endpoints (jackpots.api.views)."""

from __future__ import annotations

from django.urls import path

from jackpots.api import views as v

urlpatterns: list = [
    path("jackpot-funds/", v.Funds.as_view(), name="jackpot-funds"),
    path("jackpot-funds/<str:name>/ledger/", v.FundLedger.as_view(),
         name="jackpot-fund-ledger"),
    path("jackpot-funds/<str:name>/bad-beats/", v.Hits.as_view(), name="bad-beat-hits"),
    path("jackpot-funds/<str:pk>/bad-beats/verify/", v.bad_beat_verify_view.as_view(),
         name="bad-beat-verify"),
    path("jackpot-funds/<str:pk>/bad-beats/reject/", v.bad_beat_reject_view.as_view(),
         name="bad-beat-reject"),
    path("jackpot-funds/<str:pk>/bad-beats/pay/", v.bad_beat_pay_view.as_view(),
         name="bad-beat-pay"),
    path("jackpot-funds/<str:name>/high-hands/", v.Slips.as_view(), name="high-hand-slips"),
    path("jackpot-funds/<str:pk>/high-hands/record/", v.high_hand_record_view.as_view(),
         name="high-hand-record"),
    path("jackpot-funds/<str:pk>/high-hands/close/", v.high_hand_close_view.as_view(),
         name="high-hand-close"),
    path("jackpot-funds/<str:pk>/high-hands/pay/", v.high_hand_pay_view.as_view(),
         name="high-hand-pay"),
    path("jackpot-funds/<str:name>/counts/", v.Counts.as_view(), name="jackpot-counts"),
    path("jackpot-funds/<str:pk>/counts/open/", v.count_open_view.as_view(),
         name="jackpot-count-open"),
    path("jackpot-funds/<str:pk>/counts/box/", v.count_box_view.as_view(),
         name="jackpot-count-box"),
    path("jackpot-funds/<str:pk>/counts/witness/", v.count_witness_view.as_view(),
         name="jackpot-count-witness"),
    path("jackpot-funds/<str:pk>/counts/account/", v.count_account_view.as_view(),
         name="jackpot-count-account"),
    path("jackpot-funds/<str:pk>/counts/carry/", v.count_carry_view.as_view(),
         name="jackpot-count-carry"),
    path("jackpot-funds/<str:pk>/counts/verify/", v.count_verify_view.as_view(),
         name="jackpot-count-verify"),
    path("jackpot-funds/<str:pk>/counts/explain/", v.variance_explain_view.as_view(),
         name="jackpot-count-explain"),
    path("jackpot-funds/<str:pk>/counts/sign-off/", v.variance_sign_off_view.as_view(),
         name="jackpot-count-sign-off"),
    path("jackpot-funds/<str:pk>/discontinue/", v.fund_discontinue_view.as_view(),
         name="jackpot-fund-discontinue"),
    path("jackpot-funds/<str:pk>/discontinue/approve/",
         v.fund_discontinue_approve_view.as_view(), name="jackpot-fund-discontinue-approve"),
    path("jackpot-funds/<str:name>/display-checks/", v.DisplayChecks.as_view(),
         name="jackpot-display-checks"),
    path("jackpot-funds/<str:pk>/display/adjust/", v.display_adjust_view.as_view(),
         name="jackpot-display-adjust"),
    path("jackpot-funds/<str:pk>/display/witness/", v.display_witness_view.as_view(),
         name="jackpot-display-witness"),
]
