"""Finance's panel on a table's console page (issue 23, item 4: "today's slips and
figures"): the table day's read model, each slip with its next step for the cage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.finance.test_tray import Team, request

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(open_table: Callable) -> Any:
    return open_table("five-card-hi-lo")


def _page_as(actor: Any, table: Any) -> str:
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=actor.username))
    response = client.get(f"/console/tables/{table.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_requested_fill_is_on_the_tables_page_with_the_cages_next_step(
        team: Team, table: Any) -> None:
    """20 × $25 = $500.00 requested by the floorperson: the page lists it as requested,
    signed by the floorperson, and names the cage's next step, the slip's preparation —
    as words, not a link: slip_prepare is a cashier's, and the floorperson is not one
    (a link would answer 403; the cashier is offered it on Waiting for me)."""
    slip = request(team, table)
    html = _page_as(team["floor"], table)
    assert "Today&#x27;s tray and drop box" in html or "Today's tray and drop box" in html
    assert slip[:8].upper() in html and "$500.00" in html
    assert f"{team['floor'].username} (requested)" in html
    assert "/console/do/slip_prepare/" not in html
    assert "Prepare the slip (the cage)" in html


def test_a_table_without_slips_says_so(team: Team, table: Any) -> None:
    html = _page_as(team["floor"], table)
    assert "No fill or credit slip today." in html
    assert "At the table" in html  # the drop box, still at the table


def test_each_slip_links_its_printable_which_opens(team: Team, table: Any) -> None:
    """The requested fill's printable (finance.console_pages) is linked from its row and
    opens for the floorperson, who reads table days (finance.services.READERS)."""
    from django.contrib.auth import get_user_model

    slip = request(team, table)
    html = _page_as(team["floor"], table)
    day = team["floor"].gaming_day().isoformat()
    url = f"/console/print/tables/{table.pk}/{day}/slips/{slip}/"
    assert f'href="{url}"' in html and f"Print slip {slip[:8].upper()}" in html
    client = Client()
    client.force_login(get_user_model().objects.get(username=team["floor"].username))
    assert client.get(url).status_code == 200
    # no inventory recorded, no drop counted: no link to a printable that would be a 404
    assert "/inventory/" not in html and f"/{day}/drop/" not in html

