"""The documentation's walk-throughs stay true.

A fresh demo is started the way ``bin/run`` starts it — migrate, ``seed_demo``,
``seed_demo_tables``, ``seed_demo_players``, ``simulate_gaming_day``, then gunicorn on a
free loopback port, a Celery worker and Celery beat — on the embedded default (SQLite and
the file broker) in a var directory of its own. Then each page of ``docs/walkthroughs/``
runs, in the order of the site's index (the jackpots page follows the poker hands), as
one bash process: its set-up block, then every ``bash`` block, each one's output compared
line by line with the page's **Expected output** (``tests/docs/walkthrough.py``). A stale
figure fails naming the page and the line. The servers are stopped and the var directory
removed at the end.

The pages walk through 589.11(f) (the reconstruction), 589.11(e) and 589.12(c) (a
settled Lunar round), 637a.11(c) (the button), 637a.17 (the rake ledger), 637a.18(a)
(histories and the dispute calculator), 637a.15(d)-(h) (a Bad Beat verified, displayed,
paid and its boxes counted) and 637a.16(f) (the Tracking Slip).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.conftest import gaming_day_start_far_from_now
from tests.docs import walkthrough

ROOT = Path(__file__).resolve().parents[2]
PAGES_DIR = ROOT / "docs" / "walkthroughs"
# The order of docs/walkthroughs/index.md: jackpots.md needs poker-hands.md before it.
PAGES = ["banked-round.md", "poker-hands.md", "jackpots.md", "finance-day.md",
         "staff-and-rules.md"]
SEED_TIMEOUT = 600  # seconds for the whole seeding, the simulated day included
PAGE_TIMEOUT = 300  # seconds for one page (the Bad Beat count waits for the beat)

#: each page's outcome on this demo (True: kept every promise), in the order they ran
_PAGES_RUN: dict[str, bool] = {}

pytestmark = pytest.mark.celery  # runs a real Celery worker and beat (on the file broker)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _demo_env(var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "DEBUG"}}
    zone = env.get("PROPERTY_TIME_ZONE", "America/New_York")
    env.update(CASINO_VAR_DIR=str(var_dir), PYTHONPATH=str(ROOT),
               # the beat's sweeps every 5 s, so the day's Bad Beat count opens at once
               TIMER_SWEEP_SECONDS="5",
               # the demo is seeded for "today" and the simulated day is "yesterday": the
               # pages' TODAY/YESTERDAY must not shift during the run (no page prints the
               # hour a gaming day starts)
               GAMING_DAY_START_HOUR=str(gaming_day_start_far_from_now(zone)))
    return env


def _get_json(url: str, token: str | None = None, body: dict | None = None) -> object:
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _wait_for(check, what: str, seconds: float) -> None:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(1)
    raise AssertionError(f"the demo never got ready: {what} after {seconds:.0f} s")


@pytest.fixture(scope="module")
def demo() -> Iterator[dict[str, str]]:
    """A fresh demo as ``bin/run`` starts it; yields the environment the pages run in."""
    missing = [tool for tool in ("bash", "curl", "jq", "awk") if shutil.which(tool) is None]
    assert not missing, f"the walk-throughs need {', '.join(missing)} (.ci/run installs them)"
    var_dir = Path(tempfile.mkdtemp(prefix="casino-walkthroughs-"))
    env = _demo_env(var_dir)
    python = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").is_dir() else sys.executable
    bindir = Path(python).parent
    processes: list[subprocess.Popen] = []
    log_files: list[IO[str]] = []
    _PAGES_RUN.clear()
    try:
        started = time.monotonic()
        for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"],
                     ["seed_demo"], ["seed_demo_tables"], ["seed_demo_players"],
                     ["simulate_gaming_day", "--if-empty", "--no-progress"]):
            left = SEED_TIMEOUT - (time.monotonic() - started)
            done = subprocess.run([python, "manage.py", *step], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=max(left, 1))
            assert done.returncode == 0, f"manage.py {step[0]} failed:\n{done.stdout}\n{done.stderr}"
        logs = var_dir / "logs"
        logs.mkdir()
        port = _free_port()  # just before gunicorn binds it, not minutes of seeding before
        for name, argv in (
                ("gunicorn", [str(bindir / "gunicorn"), "casino.wsgi:application", "--bind",
                              f"127.0.0.1:{port}", "--workers", "2", "--log-level", "warning"]),
                ("worker", [str(bindir / "celery"), "-A", "casino", "worker", "--loglevel=WARNING",
                            "--concurrency=1", f"--hostname=walkthroughs-{port}@%h"]),
                ("beat", [str(bindir / "celery"), "-A", "casino", "beat", "--loglevel=WARNING",
                          "--schedule", str(var_dir / "celerybeat-schedule")])):
            out = open(logs / f"{name}.log", "w")  # noqa: SIM115 - closed in the finally
            log_files.append(out)
            processes.append(subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out,
                                              stderr=subprocess.STDOUT, start_new_session=True))
        api = f"http://127.0.0.1:{port}/api/v1"
        _wait_for(lambda: _get_json(f"http://127.0.0.1:{port}/health").get("status") == "ok",
                  "/health", 60)
        # As after `make run`: the beat opens the day's Bad Beat count within its first
        # sweeps, before anyone deals (the jackpots page counts that count's boxes).
        logins = dict(line.split(" ", 1) for line in
                      (var_dir / "demo_logins.txt").read_text().splitlines())
        cashier = _get_json(f"{api}/auth/token/", body={
            "username": "demo_cashier", "password": logins["demo_cashier"]})["token"]
        # (The simulated day's own count is there already, closed: wait for an open one.
        # Up to 150 s: on a loaded CI machine the worker may first be catching up the
        # simulated day's projections on SQLite; a failure prints the processes' logs.)
        try:
            _wait_for(lambda: any(c["state"] != "closed" for c in
                                  _get_json(f"{api}/jackpot-funds/bad-beat/counts/", cashier)),
                      "the beat's Bad Beat count of the day", 150)
        except AssertionError as exc:  # what the worker and the beat said, to see why
            for f in log_files:
                f.flush()
            tails = "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                               for p in sorted(logs.glob("*.log")))
            raise AssertionError(f"{exc}\n{tails}") from None
        yield dict(env, API=api, LOGINS=str(var_dir / "demo_logins.txt"), DEMO_LOGS=str(logs))
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for out in log_files:
            out.close()
        shutil.rmtree(var_dir, ignore_errors=True)


@pytest.mark.parametrize("page", PAGES)
def test_walkthrough_prints_what_its_page_promises(request: pytest.FixtureRequest,
                                                   page: str) -> None:
    """Every bash block of the page runs, and prints its Expected output. The pages share
    one demo and each starts from what the pages before it left (jackpots.md counts the
    boxes of the Bad Beat poker-hands.md dealt): a page whose predecessors did not all
    run, or did not hold, fails saying so rather than with figures that cannot match."""
    earlier = PAGES[:PAGES.index(page)]
    not_run = [p for p in earlier if p not in _PAGES_RUN]
    assert not not_run, (
        f"{page} starts from what {', '.join(not_run)} leave(s) in the demo, and they have "
        "not run on it: the pages run together, in the index's order (run the whole of "
        "tests/docs/test_walkthroughs.py, not one page)")
    failed = [p for p in earlier if not _PAGES_RUN[p]]
    assert not failed, (f"{page} was not run: it starts from what {', '.join(failed)} "
                        "leave(s) in the demo, and that page failed (see its report)")
    demo: dict[str, str] = request.getfixturevalue("demo")  # after the guard: no seeding
    _PAGES_RUN[page] = False
    path = PAGES_DIR / page
    page_blocks, done = walkthrough.run(path, demo, ROOT, PAGE_TIMEOUT)
    problems = walkthrough.mismatches(path, page_blocks, done.stdout, ROOT)
    if done.returncode != 0:
        problems.append(f"bash exited {done.returncode}; its errors:\n{done.stderr[-4000:]}")
    if problems:  # what the servers said, while the directory still exists
        for log in sorted(Path(demo["DEMO_LOGS"]).glob("*.log")):
            lines = [line for line in log.read_text(errors="replace").splitlines()
                     if not line.startswith("AXES:")]  # every login is logged: noise here
            tail = lines[-10:]
            problems.append(f"--- {log.name} (last lines)\n" + "\n".join(tail))
    assert not problems, "the walk-through no longer holds:\n" + "\n".join(problems)
    _PAGES_RUN[page] = True


def test_the_pages_are_the_index_and_every_page_is_tested() -> None:
    """Each walk-through page is in PAGES (so it is run), and PAGES is the order of the
    links in the site's index (the order a reader follows, and the pages' state needs)."""
    on_disk = {p.name for p in PAGES_DIR.glob("*.md")} - {"index.md"}
    assert on_disk == set(PAGES)
    index = (PAGES_DIR / "index.md").read_text(encoding="utf-8")
    linked = list(dict.fromkeys(re.findall(r"\]\(([\w.-]+\.md)(?:#[^)]*)?\)", index)))
    assert linked == PAGES, f"docs/walkthroughs/index.md links the pages as {linked}"
