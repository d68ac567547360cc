"""Finance's pages (finance.pages)."""

from __future__ import annotations

from django.urls import path

from finance import day_page, pages

urlpatterns: list = [
    path("days/<str:day>/", day_page.gaming_day_page, name="finance-gaming-day-page"),
    path("reports/", pages.report_list, name="finance-reports"),
    path("reports/<str:name>/", pages.report_page, name="finance-report-page"),
    path("behind/<str:table_id>/<str:day>/", pages.behind_page, name="finance-behind-page"),
]
