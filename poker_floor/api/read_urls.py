"""The poker floor's read endpoints (lists, the fairness record)."""

from __future__ import annotations

urlpatterns: list = []
