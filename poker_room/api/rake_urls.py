"""The rake ledger and time-charge endpoints (poker_room.api.rake_views)."""

from __future__ import annotations

urlpatterns: list = []
