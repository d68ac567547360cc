"""Compliance's pages of the players required to leave a game (§ 637a.18(c)) in
Chromium: every notice not yet acknowledged, in words, with the step to acknowledge it,
no serious or critical axe-core violation. The data is committed (the live server's
thread reads it)."""

from __future__ import annotations

from typing import Any

import pytest

from poker_room.services import seats
from tests.console._axe import serious_violations
from tests.console.conftest import console_page  # noqa: F401  (a Chromium page, logged in)
from tests.poker_room._committed import poker_room
from tests.poker_room._play import poker_table_ready

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.regulation("637a.18(c)")]


def test_compliance_reads_every_notice_on_its_pages(console_page: Any  # noqa: F811
                                                    ) -> None:
    people, table = poker_room("PA-TEST-1", "rn", table_name="P-1")
    poker_table_ready(table, people, players=3)
    seats.player_remove(actor=people["floor"], table_id=table.pk, seat=2,
                        reason="passing hole cards to seat 3")
    page = console_page("compliance")
    response = page.goto(page.server + "/console/poker/removals/")
    assert response.status == 200
    text = " ".join(page.inner_text("main").split())
    assert "Players required to leave a game" in text
    assert "P-1: player removed from seat 2" in text
    assert "passing hole cards to seat 3" in text
    assert "1 notice not yet acknowledged. Page 1 of 1." in text
    assert page.get_by_role("button", name="Acknowledge the notice").count() == 1
    assert serious_violations(page) == []
