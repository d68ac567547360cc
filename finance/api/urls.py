"""Finance's endpoints (finance.api.views)."""

from __future__ import annotations

from django.urls import path

from casino.api.commands import api_paths
from finance import commands
from finance.api import views as v

T = "finance/tables/<str:pk>/"

urlpatterns: list = [
    path(T + "days/<str:day>/", v.TableDayView.as_view(), name="finance-table-day"),
    path(T + "days/<str:day>/behind/", v.TableDayBehind.as_view(),
         name="finance-table-day-behind"),
    path("finance/exceptions/", v.Exceptions.as_view(), name="finance-exceptions"),
    # before gaming-days/<day>/: "close" is not a day
    *api_paths(commands),
    path("finance/reports/<str:name>/", v.ReportView.as_view(), name="finance-report"),
    path("finance/gaming-days/<str:day>/", v.Reconciliation.as_view(),
         name="finance-gaming-day"),
]
