"""The poker room's API: seats, hands through the dealer terminal, histories, the
dispute calculator, the rake ledger and time charges. Paths name a poker table
(``poker-tables/{id}``) or a hand (``hands/{round id}``)."""

from __future__ import annotations

from django.urls import include, path

from casino.api.commands import api_paths
from poker_room import commands
from poker_room.api import views as v

T = "poker-tables/<str:pk>/"
H = "hands/<str:pk>/"

urlpatterns: list = [
    path(T + "seats/", v.SeatList.as_view(), name="poker-seats"),
    path(H, v.HandDetail.as_view(), name="poker-hand"),
    path(H + "history/", v.HandHistory.as_view(), name="poker-hand-history"),
    path("", include("poker_room.api.rake_urls")),
    *api_paths(commands),
    path("", include("poker_room.api.history_urls")),
]
