"""The console's fixtures: a Django test client signed in as a new staff member with the
given roles (the second factor verified for the roles that need it, once the console
requires it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client


@pytest.fixture
def console_client(make_staff: Callable) -> Callable:
    """``console_client("floorperson")`` → a ``Client`` logged in as a new user with that
    role; ``.user`` is the user."""

    def make(*roles: str, username: str | None = None, property=None) -> Client:  # noqa: ANN001
        user = make_staff(*roles, username=username, property=property)
        c = Client()
        c.force_login(user)
        c.user = user
        return c

    return make
