"""Hand histories (the hand step by step, PHH) and the dispute calculator (637a.18(a))."""

from __future__ import annotations

from django.urls import path

from poker_room.api import history_views as v

urlpatterns: list = [
    path("hands/<str:pk>/history/steps/", v.HandSteps.as_view(), name="poker-hand-steps"),
    path("hands/<str:pk>/phh/", v.HandPHH.as_view(), name="poker-hand-phh"),
    path("poker-tables/<str:pk>/phh/", v.TablePHH.as_view(), name="poker-table-phh"),
]
