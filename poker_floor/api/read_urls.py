"""The poker floor's read endpoints (lists, the fairness record)."""

from __future__ import annotations

from django.urls import path

from poker_floor.api import read_views as v

urlpatterns: list = [
    path("waitlists/", v.WaitlistList.as_view(), name="waitlists"),
    path("waitlists/<str:pk>/fairness/", v.WaitlistFairness.as_view(), name="waitlist-fairness"),
]
