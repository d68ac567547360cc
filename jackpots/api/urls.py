"""The jackpot funds' endpoints (jackpots.api.views)."""

from __future__ import annotations

from django.urls import path

from jackpots.api import views as v

urlpatterns: list = [
    path("jackpot-funds/", v.Funds.as_view(), name="jackpot-funds"),
    path("jackpot-funds/<str:name>/ledger/", v.FundLedger.as_view(),
         name="jackpot-fund-ledger"),
]
