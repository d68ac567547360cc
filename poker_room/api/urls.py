"""The poker room's API: seats, hands through the dealer terminal, histories, the
dispute calculator, the rake ledger and time charges. Paths name a poker table
(``poker-tables/{id}``) or a hand (``hands/{round id}``)."""

from __future__ import annotations

from django.urls import include, path

from poker_room.api import views as v

T = "poker-tables/<str:pk>/"
H = "hands/<str:pk>/"

urlpatterns: list = [
    path(T + "seats/", v.SeatList.as_view(), name="poker-seats"),
    path(T + "seats/take/", v.seat_player_view.as_view(), name="poker-seat-take"),
    path(T + "seats/chips/", v.chips_add_view.as_view(), name="poker-chips-add"),
    path(T + "seats/sit-out/", v.sit_out_view.as_view(), name="poker-sit-out"),
    path(T + "seats/sit-in/", v.sit_in_view.as_view(), name="poker-sit-in"),
    path(T + "seats/step-away/", v.step_away_view.as_view(), name="poker-step-away"),
    path(T + "seats/return/", v.player_return_view.as_view(), name="poker-return"),
    path(T + "seats/leave/", v.seat_leave_view.as_view(), name="poker-leave"),
    path(T + "seats/remove/", v.player_remove_view.as_view(), name="poker-remove"),
    path(T + "minimum-bet/", v.minimum_bet_raise_view.as_view(), name="poker-minimum-bet"),
    path(T + "hands/", v.hand_start_view.as_view(), name="poker-hand-start"),
    path(H, v.HandDetail.as_view(), name="poker-hand"),
    path(H + "history/", v.HandHistory.as_view(), name="poker-hand-history"),
    path(H + "command/", v.hand_command_view.as_view(), name="poker-hand-command"),
    path(H + "commands/", v.hand_commands_view.as_view(), name="poker-hand-commands"),
    path(H + "ruling/", v.floor_ruling_view.as_view(), name="poker-hand-ruling"),
    path("", include("poker_room.api.rake_urls")),
    path("", include("poker_room.api.history_urls")),
]
