"""The shell's frame and home (issue 23 items 1-2): the navigation shows each role only
its items; "Waiting for me" with its fragment, which answers 204 when nothing changed;
role grants awaiting approval, never offered to the person who asked."""

from __future__ import annotations

import re

from casino.actors import actor_of
from casino.services.staff import role_grant_request


def test_nav_shows_each_role_only_its_items(console_client) -> None:  # noqa: ANN001
    dealer = console_client("dealer").get("/console/").content.decode()
    admin = console_client("admin").get("/console/").content.decode()
    assert 'href="/console/do/login_unlock_request/"' in admin
    assert 'href="/console/do/login_unlock_request/"' not in dealer
    assert "Sign-in resets to approve" in admin and "Sign-in resets" not in dealer
    assert "Role grants to approve" in admin and "Role grants to approve" not in dealer
    assert "Role grants awaiting approval" not in dealer  # nor the home list
    # the person and a log-out button (a POST form)
    assert re.search(r'<form method="post" action="/console/logout/">', dealer)


def test_empty_home_says_so(console_client) -> None:  # noqa: ANN001
    page = console_client("security").get("/console/")
    assert page.status_code == 200
    assert "Nothing is waiting for you." in page.content.decode()


def test_a_role_grant_waits_for_a_second_person(console_client, make_staff) -> None:  # noqa: ANN001
    """issue 11: the one who asked does not approve; the other manager is offered it."""
    asker = console_client("admin")
    other = console_client("compliance")
    clerk = make_staff()
    grant = role_grant_request(actor=actor_of(asker.user), staff_id=clerk.pk, role="cashier",
                               reason="new hire")
    approve = f'href="/console/do/role_grant_approve/{grant.pk}/"'
    theirs = other.get("/console/").content.decode()
    assert "Cashier for " + clerk.username in theirs and approve in theirs
    assert "First step by " + asker.user.username in theirs
    mine = asker.get("/console/").content.decode()
    assert "Cashier for " + clerk.username in mine
    assert approve not in mine  # shown, never offered to the asker
    assert "the second step is another person's" in mine
    # the nav's badge counts it for both
    assert re.search(r'class="badge">1<span class="visually-hidden"> waiting', theirs)


def test_a_page_other_than_the_home_runs_no_task_provider_for_its_badges(
        console_client, make_staff) -> None:  # noqa: ANN001
    """The nav's badges of a page other than the home are empty placeholders (no task
    provider run: the page costs its own reads); a hidden poller asks the fragment on load
    and every few seconds, which brings them out of band. The home shows them at once."""
    officer = console_client("compliance")
    admin = console_client("admin")
    role_grant_request(actor=actor_of(admin.user), staff_id=make_staff().pk, role="dealer",
                       reason="new hire")
    page = officer.get("/console/staff/")
    assert page.status_code == 200
    html = page.content.decode()
    assert page.wsgi_request._console_shell.counted is False  # the lists never worked out
    badge = re.search(r'<a href="([^"]+)"[^>]*>Role grants to approve (<span id="(badge-\w+)"'
                      r'[^>]*>[^<]*</span>)', html)
    assert badge and badge.group(2) == (f'<span id="{badge.group(3)}" '
                                        'class="badge badge-zero"></span>')
    assert re.search(r'<div class="console-badge-poll" hidden hx-get="/console/waiting/" '
                     r'hx-trigger="load, every \d+s, console:refresh" hx-swap="none" '
                     r'data-poll></div>', html)
    # the fragment fills the placeholder out of band: the one grant waiting
    fragment = officer.get("/console/waiting/", HTTP_HX_REQUEST="true").content.decode()
    assert (f'<span id="{badge.group(3)}" class="badge" hx-swap-oob="true">1<span '
            'class="visually-hidden"> waiting</span></span>') in fragment
    # the home counts them once, shows them in the nav and does not poll for them twice
    home = officer.get("/console/")
    assert home.wsgi_request._console_shell.counted is True
    assert f'<span id="{badge.group(3)}" class="badge">1<span' in home.content.decode()
    assert "console-badge-poll" not in home.content.decode()


def test_fragment_204_when_unchanged(console_client, make_staff) -> None:  # noqa: ANN001
    manager = console_client("compliance")
    first = manager.get("/console/waiting/", HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    stamp = re.search(r'data-updated="([0-9a-f]+)"', first.content.decode()).group(1)
    assert first["ETag"] == f'"{stamp}"'
    same = manager.get("/console/waiting/", HTTP_IF_NONE_MATCH=f'"{stamp}"')
    assert same.status_code == 204 and same.content == b""
    assert manager.get(f"/console/waiting/?since={stamp}").status_code == 204
    # something new: a full answer with a new stamp, and the badges out of band
    admin = console_client("admin")
    role_grant_request(actor=actor_of(admin.user), staff_id=make_staff().pk, role="dealer",
                       reason="new hire")
    moved = manager.get("/console/waiting/", HTTP_IF_NONE_MATCH=f'"{stamp}"')
    assert moved.status_code == 200
    body = moved.content.decode()
    assert f'data-updated="{stamp}"' not in body
    assert 'hx-swap-oob="true"' in body


def test_fragment_of_an_ended_session_sends_htmx_to_the_login(client, db) -> None:  # noqa: ANN001
    answer = client.get("/console/waiting/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    assert answer["HX-Redirect"].startswith("/console/login/")


def test_boards_keep_their_inline_parts_until_they_move(console_client) -> None:  # noqa: ANN001
    """The per-view loosening (console.csp.LOOSENED): a console page gets the strict
    policy; the Swagger UI its own allowance."""
    c = console_client("dealer")
    assert "unsafe-inline" not in c.get("/console/")["Content-Security-Policy"]
    docs = c.get("/api/docs/")
    assert "script-src 'self' 'unsafe-inline'" in docs["Content-Security-Policy"]


def test_lists_with_items_come_first_and_the_empty_ones_are_named_on_one_line(
        console_client, make_staff) -> None:  # noqa: ANN001
    """What needs the person is on the first screen: a compliance officer with one role
    grant to approve sees that list before anything else, and the lists with nothing in
    them only by name, on one line after it (each keeps its anchor for the nav's links)."""
    asker = console_client("admin")
    officer = console_client("compliance")
    role_grant_request(actor=actor_of(asker.user), staff_id=make_staff().pk, role="dealer",
                       reason="new hire")
    html = officer.get("/console/").content.decode()
    body = html[html.index('id="waiting"'):]
    sections = re.findall(r'<section class="waiting-list" id="([a-z_]+)"', body)
    assert sections == ["role_grants"]
    quiet = re.search(r'<p class="waiting-none">Nothing waiting in: (.*?)</p>', body, re.S)
    assert quiet is not None
    assert 'id="rules_to_approve"' in quiet.group(1)  # empty, named, its anchor kept
    assert body.index('id="role_grants"') < body.index('class="waiting-none"')
