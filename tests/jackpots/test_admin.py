"""The jackpots' read-only admin: each page lists the viewer's property only, and nothing
can be added, changed or deleted there (every change is an event through the API)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from casino.eventstore import projections
from casino.eventstore.store import NewEvent, append
from casino.services import property_register
from jackpots.models import Fund
from tests.console.conftest import verified_login  # the second factor given

pytestmark = pytest.mark.django_db

PAGES = ("fund", "fundday", "payoutbox", "badbeathit", "highhandslip", "fundcount",
         "displaycheck")


def test_the_admin_shows_the_viewers_funds_only_and_changes_nothing(crew, make_staff) -> None:
    """§ 637a.15(e), § 637a.16(e): the official record is read there, never edited."""
    meta = crew["dealer"].metadata(role="dealer")
    hand = str(uuid.uuid4())
    append(("round", f"round-{hand}"), 0, [NewEvent("JackpotContributed", {
        "fund": "a-only-fund", "kind": "bad_beat", "pot": 0, "amount_cents": 100,
        "table_id": str(uuid.uuid4()), "gaming_day": meta["gaming_day"], "hand_id": hand})], meta)
    projections.catch_up("jackpot_funds")
    fund = Fund.objects.get(name="a-only-fund")
    ours = Client()
    verified_login(ours, make_staff("admin", admin_site=True))
    for page in PAGES:
        assert ours.get(f"/admin/jackpots/{page}/").status_code == 200, page
    assert "a-only-fund" in ours.get("/admin/jackpots/fund/").content.decode()
    assert ours.get("/admin/jackpots/fund/add/").status_code == 403
    assert ours.post(f"/admin/jackpots/fund/{fund.pk}/delete/", {"post": "yes"}
                     ).status_code == 403
    other = property_register(licence_number="PA-OTHER-7", name="Seventh", system="test")
    theirs = Client()
    verified_login(theirs, make_staff("admin", property=other, admin_site=True))
    assert "a-only-fund" not in theirs.get("/admin/jackpots/fund/").content.decode()
    assert Fund.objects.get(pk=fund.pk).contributions_cents == 100
