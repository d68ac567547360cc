"""One navigation item per destination: a second registration of a page (the same URL
under another label, or the same label twice in a group) is refused when it is made, so
the navigation never shows a page twice (two "Tables", "Floor" beside "Poker floor")."""

from __future__ import annotations

import pytest
from django.urls import get_resolver

from casino.roles import Role
from console.registry import REGISTRY, NavItem, nav


def test_every_destination_has_one_item() -> None:
    get_resolver().url_patterns  # every app's registrations made
    urls = [i.url for i in REGISTRY.nav]
    labels = [(i.group, i.label) for i in REGISTRY.nav]
    assert len(urls) == len(set(urls))
    assert len(labels) == len(set(labels))


def test_a_second_item_for_a_page_is_refused() -> None:
    get_resolver().url_patterns
    before = list(REGISTRY.nav)
    with pytest.raises(ValueError, match="registered already"):
        nav(NavItem(group="Elsewhere", label="The floor again", url="/console/poker/",
                    roles=(Role.FLOORPERSON,)))
    assert REGISTRY.nav == before
