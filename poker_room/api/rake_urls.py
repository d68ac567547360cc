"""The rake ledger and time-charge endpoints (poker_room.api.rake_views)."""

from __future__ import annotations

from django.urls import path

from poker_room.api import rake_views as v

T = "poker-tables/<str:pk>/"

urlpatterns: list = [
    path(T + "rake-ledger/", v.RakeLedger.as_view(), name="poker-rake-ledger"),
    path(T + "time-charges/", v.TimeCharges.as_view(), name="poker-time-charges"),
]
