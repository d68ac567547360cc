"""The public live games feed (637a.9(c)) and its kiosk: no login."""

from __future__ import annotations

urlpatterns: list = []
