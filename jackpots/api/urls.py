"""The jackpot funds' endpoints (jackpots.api.views)."""

from __future__ import annotations

from django.urls import path

from casino.api.commands import api_paths
from jackpots import commands
from jackpots.api import views as v

urlpatterns: list = [
    path("jackpot-funds/", v.Funds.as_view(), name="jackpot-funds"),
    path("jackpot-funds/<str:name>/ledger/", v.FundLedger.as_view(),
         name="jackpot-fund-ledger"),
    path("jackpot-funds/<str:name>/report/", v.FundReport.as_view(), name="jackpot-report"),
    path("jackpot-funds/<str:name>/bad-beats/", v.Hits.as_view(), name="bad-beat-hits"),
    path("jackpot-funds/<str:name>/high-hands/", v.Slips.as_view(), name="high-hand-slips"),
    path("jackpot-funds/<str:name>/counts/", v.Counts.as_view(), name="jackpot-counts"),
    path("jackpot-funds/<str:name>/display-checks/", v.DisplayChecks.as_view(),
         name="jackpot-display-checks"),
    *api_paths(commands),
]
