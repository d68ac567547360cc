"""The poker floor's API: lists, calls, moves (each command declared once in
``poker_floor.commands`` and ``poker_floor.move_commands``) and the fairness record."""

from __future__ import annotations

from django.urls import include, path

from casino.api.commands import api_paths
from poker_floor import commands, move_commands

urlpatterns: list = [
    *api_paths(commands),
    *api_paths(move_commands),
    path("", include("poker_floor.api.read_urls")),
]
