"""The public live games feed (637a.9(c)) and its kiosk: no login, one per property (its
licence number in the URL). Included at ``/poker/``."""

from __future__ import annotations

from django.urls import path

from poker_floor import feed_views, kiosk

urlpatterns: list = [
    path("live/<str:licence>/", feed_views.live_page, name="live-feed-page"),
    path("live/<str:licence>/feed.json", feed_views.feed_json, name="live-feed"),
    path("live/<str:licence>/join/", kiosk.join, name="live-join"),
    path("live/<str:licence>/join/confirm/", kiosk.confirm, name="live-join-confirm"),
]
