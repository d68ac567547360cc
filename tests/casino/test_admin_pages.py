"""The read-only admin's lists: scoped like the API (casino.scoping), money in dollars
(issue 22)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_the_admins_list_of_properties_shows_its_own(client: Any, make_staff: Callable,
                                                     demo_property: Any) -> None:
    """Found by walking the admin's lists (issue 22): the property list answered 500 (a
    property matched to its own row by the instance, not its key). It lists the
    administrator's property, and no other."""
    from casino.services import property_register

    property_register(licence_number="PA-TEST-OTHER", name="Other Casino", system="test")
    from tests.console.conftest import verified_login

    verified_login(client, make_staff("admin", admin_site=True))  # the second factor given
    page = client.get("/admin/casino/property/")
    assert page.status_code == 200
    assert "PA-TEST-1" in page.content.decode()
    assert "PA-TEST-OTHER" not in page.content.decode()


def test_a_column_of_cents_is_listed_in_dollars_under_its_words() -> None:
    """A fund's displayed amount, 600 cents, is $6.00 under "Displayed" (§ 637a.16(b))."""
    from types import SimpleNamespace

    from casino.admin import dollars_column

    column = dollars_column("displayed_cents")
    assert (column(SimpleNamespace(displayed_cents=600)), column.short_description,
            column(SimpleNamespace(displayed_cents=None))) == ("$6.00", "Displayed", "—")


def test_the_fund_list_shows_no_column_of_cents(rf: Any, make_staff: Callable) -> None:
    from django.contrib import admin

    from jackpots.models import Fund

    request = rf.get("/admin/jackpots/fund/")
    request.user = make_staff("admin", admin_site=True)
    shown = admin.site._registry[Fund].get_list_display(request)
    assert [getattr(c, "short_description", c) for c in shown] == [
        "name", "kind", "Contributions", "Paid", "Committed", "Displayed", "display_pending",
        "discontinued"]
