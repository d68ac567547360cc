"""The room board (637a.9(c)): the page for the room's screens and its data."""

from __future__ import annotations

urlpatterns: list = []
