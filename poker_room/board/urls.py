"""The room board (637a.9(c)): the page for the room's screens and its data."""

from __future__ import annotations

from django.urls import path

from poker_room.board import views

urlpatterns: list = [
    path("board/", views.board_page, name="room-board"),
    path("board/data", views.board_data, name="room-board-data"),
]
