"""Settings are parsed strictly; money and gaming days (no database)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino import env
from casino.domain.gaming_day import gaming_day_of
from casino.domain.money import MoneyError, format_money, parse_money


@pytest.mark.parametrize("name, value, call", [
    ("GAMING_DAY_START_HOUR", "25", lambda: env.env_int("GAMING_DAY_START_HOUR", 6, minimum=0,
                                                       maximum=23)),
    ("GAMING_DAY_START_HOUR", "six", lambda: env.env_int("GAMING_DAY_START_HOUR", 6)),
    ("DEBUG", "maybe", lambda: env.env_bool("DEBUG", False)),
    ("PROPERTY_TIME_ZONE", "Mars/Olympus", lambda: env.env_timezone("PROPERTY_TIME_ZONE",
                                                                    "UTC")),
    ("DATABASE_URL", "mysql://x/y", lambda: env.env_database("DATABASE_URL", Path("/tmp/x"))),
    ("CELERY_BROKER_URL", "carrier-pigeon://", lambda: env.env_broker("CELERY_BROKER_URL")),
    ("ALLOWED_HOSTS", " , ", lambda: env.env_list("ALLOWED_HOSTS", [])),
])
def test_bad_setting_stops_start_up_naming_the_variable(monkeypatch, name, value, call) -> None:  # noqa: ANN001
    monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=name):
        call()


def test_secret_key_is_required_off_the_embedded_default(monkeypatch, tmp_path) -> None:  # noqa: ANN001
    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        env.secret_key(debug=False, embedded=False, var_dir=tmp_path)


def test_embedded_default_generates_the_secret_key_once(monkeypatch, tmp_path) -> None:  # noqa: ANN001
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = env.secret_key(debug=False, embedded=True, var_dir=tmp_path)
    assert len(first) >= 50
    assert env.secret_key(debug=False, embedded=True, var_dir=tmp_path) == first


@pytest.mark.parametrize("text, cents", [("25", 2500), ("25.5", 2550), ("$1,234.56", 123456),
                                         ("0.05", 5)])
def test_parse_money(text: str, cents: int) -> None:
    assert parse_money(text) == cents


@pytest.mark.parametrize("text", ["-5", "1.234", "abc", "1,23", ""])
def test_parse_money_refuses_what_is_not_an_amount(text: str) -> None:
    with pytest.raises(MoneyError):
        parse_money(text)


def test_format_money() -> None:
    assert format_money(123456) == "$1,234.56"
    assert format_money(-500) == "-$5.00"
    with pytest.raises(MoneyError):
        format_money(12.5)


def test_gaming_day_starts_at_the_configured_local_hour() -> None:
    # 10:59 UTC on 2 March = 05:59 EST: still the gaming day of 1 March with a 6 a.m. start
    assert gaming_day_of(datetime(2026, 3, 2, 10, 59, tzinfo=UTC),
                         time_zone="America/New_York", start_hour=6) == date(2026, 3, 1)
    assert gaming_day_of(datetime(2026, 3, 2, 11, 0, tzinfo=UTC),
                         time_zone="America/New_York", start_hour=6) == date(2026, 3, 2)
