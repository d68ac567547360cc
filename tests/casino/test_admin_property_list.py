"""The read-only admin's list of properties (casino.admin.PropertyAdmin, scoped like the
API by casino.scoping)."""

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
    client.force_login(make_staff("admin", admin_site=True))
    page = client.get("/admin/casino/property/")
    assert page.status_code == 200
    assert "PA-TEST-1" in page.content.decode()
    assert "PA-TEST-OTHER" not in page.content.decode()
