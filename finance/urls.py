"""Finance's pages (finance.pages)."""

from __future__ import annotations

from django.urls import path

from finance import pages

urlpatterns: list = [
    path("reports/", pages.report_list, name="finance-reports"),
    path("reports/<str:name>/", pages.report_page, name="finance-report-page"),
]
