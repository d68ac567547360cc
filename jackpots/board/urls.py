"""The jackpot board (637a.15(b), 637a.16(b)): the page for the room's TVs and its data."""

from __future__ import annotations

from django.urls import path

from jackpots.board import views

urlpatterns: list = [
    path("board/", views.board_page, name="jackpot-board"),
    path("board/data", views.board_data, name="jackpot-board-data"),
    path("report/<str:name>/", views.report_page, name="jackpot-report-page"),
]
