"""Finance's endpoints (finance.api.views)."""

from __future__ import annotations

from django.urls import path

from finance.api import views as v

T = "finance/tables/<str:pk>/"

urlpatterns: list = [
    path(T + "days/<str:day>/", v.TableDayView.as_view(), name="finance-table-day"),
    path(T + "days/<str:day>/behind/", v.TableDayBehind.as_view(),
         name="finance-table-day-behind"),
    path(T + "inventory/", v.inventory_record_view.as_view(), name="finance-inventory"),
    path(T + "inventory/sign/", v.inventory_sign_view.as_view(),
         name="finance-inventory-sign"),
    path(T + "chip-sales/", v.chips_sell_view.as_view(), name="finance-chip-sales"),
    path(T + "slips/", v.slip_request_view.as_view(), name="finance-slips"),
    path(T + "slips/prepare/", v.slip_prepare_view.as_view(), name="finance-slip-prepare"),
    path(T + "slips/carry/", v.slip_carry_view.as_view(), name="finance-slip-carry"),
    path(T + "slips/complete/", v.slip_complete_view.as_view(), name="finance-slip-complete"),
    path(T + "slips/void/", v.slip_void_view.as_view(), name="finance-slip-void"),
    path(T + "drop/remove/", v.drop_remove_view.as_view(), name="finance-drop-remove"),
    path(T + "drop/count/", v.drop_count_view.as_view(), name="finance-drop-count"),
    path(T + "drop/sign/", v.drop_count_sign_view.as_view(), name="finance-drop-sign"),
    path(T + "drop/accept/", v.drop_accept_view.as_view(), name="finance-drop-accept"),
    path("finance/exceptions/", v.Exceptions.as_view(), name="finance-exceptions"),
    path("finance/exceptions/<str:pk>/explain/", v.variance_explain_view.as_view(),
         name="finance-exception-explain"),
    path("finance/exceptions/<str:pk>/sign-off/", v.variance_sign_off_view.as_view(),
         name="finance-exception-sign-off"),
    path("finance/gaming-days/close/", v.gaming_day_close_view.as_view(),
         name="finance-gaming-day-close"),
    path("finance/reports/<str:name>/", v.ReportView.as_view(), name="finance-report"),
    path("finance/gaming-days/<str:day>/", v.Reconciliation.as_view(),
         name="finance-gaming-day"),
]
