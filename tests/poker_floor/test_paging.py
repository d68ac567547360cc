"""Paging by URL (issue 24, item 5): a phone by the SMS service of ``PAGING_SMS_URL``
(here Apprise's ``json://`` to a fake gateway on localhost), an e-mail address through
Django's e-mail backend by default; a failing or silent service is a failure in words,
never an exception and never a wait past the timeout. No database."""

from __future__ import annotations

import logging
import socket
import time

from poker_floor.paging import send, send_code
from tests.poker_floor._gateway import (  # noqa: F401  (fixtures)
    Gateway,
    closed_port,
    gateway,
    sms_gateway,
)

TEXT = "J.S.: a seat is ready for you at table T3. Please come to the poker desk within 5 minutes."


def test_a_phone_is_paged_through_the_sms_url_to_the_gateway(sms_gateway: Gateway) -> None:
    outcome = send({"phone": "+15551234567", "email": ""}, TEXT)

    assert outcome == ("sms", None)
    assert sms_gateway.messages == [{"to": "+15551234567", "message": TEXT}]


def test_the_phone_goes_into_the_path_when_the_url_puts_it_there(settings, gateway: Gateway
                                                                 ) -> None:
    settings.PAGING_SMS_URL = f"json://127.0.0.1:{gateway.port}/send/{{phone}}"

    send({"phone": "+15551234567"}, TEXT)

    assert [r["path"] for r in gateway.received] == ["/send/+15551234567"]


def test_a_phone_is_preferred_to_an_email_when_sms_is_configured(sms_gateway: Gateway,
                                                                 mailoutbox: list) -> None:
    outcome = send({"phone": "+15551234567", "email": "jane@example.com"}, TEXT)

    assert outcome == ("sms", None)
    assert len(sms_gateway.messages) == 1
    assert mailoutbox == []


def test_an_email_goes_through_djangos_backend_by_default(settings, mailoutbox: list) -> None:
    settings.PAGING_SMS_URL = ""
    settings.PAGING_FROM_EMAIL = "poker@casino.example"

    outcome = send({"phone": "+15551234567", "email": "jane@example.com"}, TEXT)

    assert outcome == ("email", None)
    assert [(m.to, m.from_email, m.body) for m in mailoutbox] == [
        (["jane@example.com"], "poker@casino.example", TEXT)]


def test_an_email_comes_from_default_from_email_without_a_paging_sender(settings,
                                                                        mailoutbox: list
                                                                        ) -> None:
    settings.PAGING_SMS_URL = ""
    settings.PAGING_FROM_EMAIL = ""
    settings.DEFAULT_FROM_EMAIL = "desk@casino.example"

    send({"email": "jane@example.com"}, TEXT)

    assert [m.from_email for m in mailoutbox] == ["desk@casino.example"]


def test_an_email_url_sends_email_through_apprise_instead(settings, gateway: Gateway,
                                                         mailoutbox: list) -> None:
    settings.PAGING_SMS_URL = ""
    settings.PAGING_EMAIL_URL = f"json://127.0.0.1:{gateway.port}/mail?:to={{email}}"

    outcome = send({"email": "jane+poker@example.com"}, TEXT)

    assert outcome == ("email", None)
    assert gateway.messages == [{"to": "jane+poker@example.com", "message": TEXT}]
    assert mailoutbox == []


def test_no_phone_and_no_email_is_no_channel(sms_gateway: Gateway) -> None:
    assert send({"phone": "", "email": ""}, TEXT) == ("", "no_channel")
    assert sms_gateway.received == []


def test_a_phone_without_sms_configured_is_no_channel(settings, mailoutbox: list) -> None:
    settings.PAGING_SMS_URL = ""

    assert send({"phone": "+15551234567"}, TEXT) == ("", "no_channel")
    assert mailoutbox == []


def test_a_gateway_answering_500_is_refused(sms_gateway: Gateway) -> None:
    sms_gateway.status = 500

    assert send({"phone": "+15551234567"}, TEXT) == ("sms", "refused")
    assert len(sms_gateway.received) == 1  # tried once: Apprise's retries are off


def test_a_closed_port_is_refused(settings) -> None:
    settings.PAGING_SMS_URL = f"json://127.0.0.1:{closed_port()}/sms?:to={{phone}}"

    assert send({"phone": "+15551234567"}, TEXT) == ("sms", "refused")


def test_a_silent_gateway_is_given_up_at_the_timeout(settings) -> None:
    # listening, so the connection is made, but never answering
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)
        settings.PAGING_SMS_URL = (f"json://127.0.0.1:{silent.getsockname()[1]}/sms"
                                   "?:to={phone}")
        settings.PAGING_TIMEOUT_SECONDS = 1
        started = time.monotonic()

        channel, error = send({"phone": "+15551234567"}, TEXT)

        took = time.monotonic() - started
    assert channel == "sms"
    assert error in ("timeout", "refused")  # the socket's limit or the call's, which first
    assert took < 3  # 1 s allowed, Apprise's own default is 4 s to connect and 4 to read


def test_a_url_apprise_does_not_know_is_url_invalid(settings) -> None:
    settings.PAGING_SMS_URL = "nosuchservice://gateway/{phone}"

    assert send({"phone": "+15551234567"}, TEXT) == ("sms", "url_invalid")


def test_a_confirmation_code_is_texted_and_logged_without_phone_or_code(
        sms_gateway: Gateway, caplog) -> None:
    caplog.set_level(logging.INFO, logger="poker_floor.paging")

    outcome = send_code("+15551234567", "482913")

    assert outcome == ("sms", None)
    assert sms_gateway.messages == [{"to": "+15551234567",
                                     "message": "Your code for the poker waiting list: 482913"}]
    logged = " ".join(r.getMessage() for r in caplog.records if r.name == "poker_floor.paging")
    assert "sent by sms" in logged
    assert "482913" not in logged and "5551234567" not in logged
