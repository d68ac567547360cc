"""Rate limits counted in the cache every process shares (issue 35, item 4): a probe met
no 429 in 1,300 feed requests a minute at the default 600, the counts being each
process's own; and the kiosk's hourly limit was one bucket for every player behind the
proxy.

Each test runs with the embedded default's file-based cache (a folder of its own) and,
where a Redis is reachable (the PostgreSQL runs' ``CELERY_BROKER_URL``), with Redis as
``CACHE_URL`` sets it. The second process is a real one: a Python subprocess configured
from the environment as a gunicorn worker is (``casino.settings``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from casino.rate_limits import counted

ROOT = Path(__file__).resolve().parents[2]
JSON = "/poker/live/PA-TEST-1/feed.json"
PROXY = "10.35.4.1"
REDIS = os.environ.get("CELERY_BROKER_URL", "")
BACKENDS = ["file", pytest.param("redis", marks=pytest.mark.skipif(
    not REDIS.startswith("redis://"), reason="no Redis in this run"))]

#: the second process: counts requests through the feed's own limit check, or counts a
#: key directly, and prints what it saw as JSON
CHILD = r"""
import json, os, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup()
from django.test import RequestFactory
from django.test.utils import override_settings
mode, n = sys.argv[1], int(sys.argv[2])
if mode == "feed":
    from poker_floor.feed_views import _rate_limited
    with override_settings(FEED_RATE_PER_MINUTE=int(sys.argv[3])):
        answers = [_rate_limited(RequestFactory().get(
            "/poker/live/PA-TEST-1/feed.json", REMOTE_ADDR=sys.argv[4])) for _ in range(n)]
    print(json.dumps([429 if a is not None else 200 for a in answers]))
else:
    from casino.rate_limits import counted
    print(json.dumps([counted("shared-test", 3600) for _ in range(n)]))
"""


@pytest.fixture(params=BACKENDS)
def shared_cache(request: Any, settings: Any, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The default cache as ``casino.settings`` builds it for the backend, here and in
    the child's environment (a var folder of the test's own; for Redis, CACHE_URL)."""
    env = {k: v for k, v in os.environ.items() if k != "CACHE_URL"}
    env.update(PYTHONPATH=str(ROOT), CASINO_VAR_DIR=str(tmp_path))
    if request.param == "redis":
        env["CACHE_URL"] = REDIS
        settings.CACHES = {"default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS,
            "KEY_PREFIX": "default"}}
    else:
        settings.CACHES = {"default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache" / "default")}}
    caches["default"].clear()
    yield env
    caches["default"].clear()


def _child(env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _result(child: subprocess.Popen) -> list[int]:
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


def _not_at_a_minutes_end() -> None:
    """The feed counts in fixed minutes: start where the test's requests all fall in one."""
    left = 60 - time.time() % 60
    if left < 20:
        time.sleep(left + 0.1)


@pytest.mark.django_db
def test_the_feeds_limit_is_shared_by_two_processes(shared_cache: dict[str, str],
                                                    settings: Any, demo_property: Any
                                                    ) -> None:
    """A limit of 6 a minute: 3 requests here and 3 in another process use it up; the
    7th, here, is 429. (Counted per process, this one would have allowed 6 more.)"""
    _not_at_a_minutes_end()
    settings.FEED_RATE_PER_MINUTE = 6
    here = Client(REMOTE_ADDR="198.51.100.20")
    assert [here.get(JSON).status_code for _ in range(3)] == [200, 200, 200]
    assert _result(_child(shared_cache, "feed", "3", "6", "198.51.100.20")) == [200] * 3
    late = here.get(JSON)
    assert late.status_code == 429 and late.json()["code"] == "rate_limited"
    # The other process sees the same count: its next request is refused too.
    assert _result(_child(shared_cache, "feed", "1", "6", "198.51.100.20")) == [429]
    # Another address has a count of its own.
    assert Client(REMOTE_ADDR="198.51.100.21").get(JSON).status_code == 200


def test_two_processes_counting_at_once_lose_no_count(shared_cache: dict[str, str]) -> None:
    """Two processes add 150 each to one count at the same time: every value from 1 to
    300 is answered exactly once (the file-based cache counts under an flock; Redis's
    INCR is atomic)."""
    children = [_child(shared_cache, "count", "150") for _ in range(2)]
    seen = sorted(_result(children[0]) + _result(children[1]))
    assert seen == list(range(1, 301))
    assert counted("shared-test", 3600) == 301  # and this process shares it


@pytest.mark.django_db
def test_the_feeds_clients_behind_the_proxy_are_counted_apart(
        shared_cache: dict[str, str], settings: Any, demo_property: Any) -> None:
    _not_at_a_minutes_end()
    settings.FEED_RATE_PER_MINUTE = 2
    settings.TRUSTED_PROXIES = [PROXY]
    first = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.30")
    second = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.31")
    assert [first.get(JSON).status_code for _ in range(3)] == [200, 200, 429]
    assert second.get(JSON).status_code == 200
