"""The staff list, roles and pending grants, and a person's page (issue 23 item 4): for
administrators and compliance officers (issue 11: they manage staff), 403 for others;
another property's person is 404."""

from __future__ import annotations

import pytest

from casino.actors import actor_of
from casino.services.staff import role_grant_request


@pytest.mark.parametrize("role", ["admin", "compliance"])
def test_managers_see_staff_with_roles_credential_and_second_factor(console_client, make_staff,  # noqa: ANN001
                                                                    role) -> None:
    c = console_client(role)
    make_staff("floorperson", username="dana")
    html = c.get("/console/staff/").content.decode()
    assert 'href="/console/staff/' in html and ">dana<" in html
    assert "floorperson" in html and "not enrolled" in html
    # the viewer's own second factor is enrolled (the console requires it of them)
    assert "enrolled" in html.replace("not enrolled", "")


def test_a_dealer_is_refused_and_not_shown_the_nav_item(console_client) -> None:  # noqa: ANN001
    dealer = console_client("dealer")
    assert dealer.get("/console/staff/").status_code == 403
    home = dealer.get("/console/")
    assert home.status_code == 200
    assert "/console/staff/" not in home.content.decode()


def test_a_pending_grant_shows_who_asked_and_is_not_offered_to_them(console_client, make_staff) -> None:  # noqa: ANN001
    asker = console_client("compliance")
    other = console_client("compliance")
    dana = make_staff(username="dana")
    grant = role_grant_request(actor=actor_of(asker.user), staff_id=dana.pk, role="dealer",
                               reason="new hire")
    page = asker.get("/console/staff/")
    assert page.status_code == 200
    mine = page.content.decode()
    assert "new hire" in mine and "Another person approves this one" in mine
    assert f"/console/do/role_grant_approve/{grant.pk}/" not in mine  # never to who asked
    page = other.get("/console/staff/")
    assert page.status_code == 200
    theirs = page.content.decode()
    assert f"/console/do/role_grant_approve/{grant.pk}/" in theirs


def test_a_persons_page_shows_their_history_in_sentences(console_client, make_staff) -> None:  # noqa: ANN001
    c = console_client("compliance")
    dana = make_staff(username="dana")
    role_grant_request(actor=actor_of(c.user), staff_id=dana.pk, role="dealer", reason="hire")
    html = c.get(f"/console/staff/{dana.pk}/").content.decode()
    assert f"{c.user.username} (compliance) asked for the role dealer for dana: hire" in html
    assert f"/console/do/role_revoke/{dana.pk}/" in html


def test_another_propertys_person_is_not_found(console_client, make_staff) -> None:  # noqa: ANN001
    from casino.services import property_register

    other = property_register(licence_number="PA-OTHER-9", name="Other", system="test")
    olga = make_staff("dealer", username="olga", property=other)
    c = console_client("admin")
    assert c.get(f"/console/staff/{olga.pk}/").status_code == 404
    listing = c.get("/console/staff/")
    assert listing.status_code == 200
    assert "olga" not in listing.content.decode()
