"""Backups that restore (issue 26 item 6), for real: the production procedure of
docs/operations/backups.md run against a PostgreSQL of the test's own.

The test starts its own server (``initdb`` into a temporary directory, a free port on
127.0.0.1, run as the ``postgres`` user: PostgreSQL refuses root) with WAL archiving on
(the documented ``archive_command``), migrates the casino schema into it and seeds it
(``manage.py`` as subprocesses, with a var directory and a digest store of its own), writes
a digest, takes a base backup (``pg_basebackup``, checked with ``pg_verifybackup``), then
plays banked rounds through the services (tests/casino/_restore_load.py, every
acknowledged command written down) with digests written between the loads and a named
restore point ``mid`` half way. Then the WAL is switched and archived, the server is
stopped as a crash would (``-m immediate``) and its data directory destroyed.

* Restored from the base backup with every archived WAL segment replayed: every
  acknowledged command's events are there, once, and ``verify_events`` passes with every
  digest checked.
* Restored again to ``mid`` (``recovery_target_name``): what was acknowledged before
  ``mid`` is there, nothing after it, and ``verify_events`` exits 1 naming exactly the
  first digest written after ``mid``: "restored to before digest N at position P"; the
  digests before it match.

It prints the base backup's time, each restore's time (start to promoted) and the WAL
bytes each replayed. Everything it started is stopped and its directory removed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 12  # per load phase: about 70 commands, some 450 events
TIMEOUT = 120  # seconds any one step may take


def _bindir() -> Path:
    return Path(subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                               check=True).stdout.strip())


def _lsn(text: str) -> int:
    """A WAL location ``X/Y`` as a byte offset."""
    high, low = text.split("/")
    return (int(high, 16) << 32) + int(low, 16)


def archive_command(archive: Path) -> str:
    """The documented ``archive_command`` (docs/operations/backups.md): never overwrites a
    segment (one already archived with the same bytes, as after a crash between the copy
    and PostgreSQL noting it, counts as done; with other bytes, fails), copies under a
    temporary name, flushes it, renames it into place and flushes the directory, so a
    segment reported archived survives a power cut."""
    a = str(archive)
    return (f"if test -f {a}/%f; then cmp -s %p {a}/%f; else cp %p {a}/%f.part && "
            f"sync {a}/%f.part && mv {a}/%f.part {a}/%f && sync {a}; fi")


class Server:
    """A PostgreSQL of the test's own: data directory, WAL archive and base backup under
    one temporary directory owned by ``postgres``."""

    def __init__(self, root: Path, port: int):
        self.root, self.port, self.bin = root, port, _bindir()
        self.data, self.archive, self.base = root / "data", root / "archive", root / "base"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.starts = 0

    def run(self, *args: str, **kw: Any) -> subprocess.CompletedProcess:
        """A PostgreSQL program as the server's user; its output kept for the failure."""
        done = subprocess.run([*self.as_postgres, str(self.bin / args[0]), *args[1:]],
                              capture_output=True, text=True, timeout=TIMEOUT, **kw)
        assert done.returncode == 0, f"{args[0]} failed: {done.stdout}{done.stderr}"
        return done

    def init(self) -> None:
        self.archive.mkdir()
        if self.as_postgres:
            shutil.chown(self.archive, "postgres", "postgres")
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                 "--data-checksums", "-E", "UTF8", "--locale=C")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"""
port = {self.port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '{self.root}'
shared_buffers = 32MB
wal_level = replica
archive_mode = on
archive_command = '{archive_command(self.archive)}'
max_wal_senders = 4
""")

    def start(self) -> None:
        self.starts += 1
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.root / f"log-{self.starts}"),
                 "-w", "-t", str(TIMEOUT), "start")

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def sql(self, query: str, *params: Any, db: str = "casino") -> list[tuple]:
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname=db,
                             autocommit=True, connect_timeout=10) as conn:
            cur = conn.execute(query, params)
            return cur.fetchall() if cur.description else []

    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/casino"

    def restore(self, **recovery: str) -> float:
        """The documented restore: the base backup copied into an empty data directory,
        ``restore_command`` reading the archive, ``recovery.signal``; the seconds from
        the copy's start until the server has replayed the WAL and been promoted."""
        assert not self.data.exists()
        started = time.perf_counter()
        shutil.copytree(self.base, self.data)
        settings = {"restore_command": f"cp {self.archive}/%f %p", **recovery}
        with open(self.data / "postgresql.auto.conf", "a") as conf:
            conf.write("".join(f"{k} = '{v}'\n" for k, v in settings.items()))
        (self.data / "recovery.signal").touch()
        if self.as_postgres:
            subprocess.run(["chown", "-R", "postgres:postgres", str(self.data)], check=True)
        self.data.chmod(0o700)
        self.start()  # answers once consistent, while the archive is still replayed
        deadline = started + TIMEOUT
        while self.sql("SELECT pg_is_in_recovery()", db="postgres")[0][0]:
            assert time.perf_counter() < deadline, "recovery did not end"
            time.sleep(0.1)
        return time.perf_counter() - started


@pytest.fixture
def server() -> Iterator[Server]:
    from poker_room.management.commands._bench_http import free_port

    root = Path(tempfile.mkdtemp(prefix="casino-restore-"))
    srv = Server(root, free_port())
    if srv.as_postgres:
        shutil.chown(root, "postgres", "postgres")
    try:
        yield srv
    finally:
        try:
            srv.stop("immediate")
        except (AssertionError, subprocess.TimeoutExpired):  # pg_ctl could not: the pid
            pid = int((srv.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGKILL)
        finally:
            shutil.rmtree(root, ignore_errors=True)


def _keys(srv: Server) -> None:
    """A digest key pair of the test's own, outside the data directory and the var
    directory, as production keeps it (docs/operations/digests-and-keys.md)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    (srv.root / "keys").mkdir()
    (srv.root / "keys/signing.pem").write_bytes(private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    (srv.root / "keys/public.pem").write_bytes(private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))


def _env(srv: Server, *, signing: bool) -> dict[str, str]:
    """The test's own database, var directory, digest store and keys (the signing key
    only where digests are written: verifying needs the public key alone); no broker to
    leave tasks in (what the commands queue is not what a restore must keep)."""
    env = dict(os.environ, DATABASE_URL=srv.url(), CASINO_VAR_DIR=str(srv.root / "var"),
               DIGEST_DIR=str(srv.root / "digests"), CELERY_BROKER_URL="memory://",
               DIGEST_PUBLIC_KEY_FILE=str(srv.root / "keys/public.pem"),
               PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="casino.settings")
    if signing:
        env["DIGEST_SIGNING_KEY_FILE"] = str(srv.root / "keys/signing.pem")
    return env


def _manage(srv: Server, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = _env(srv, signing=args[0] != "verify_events")
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if check:
        assert done.returncode == 0, f"manage.py {args[0]}: {done.stdout}{done.stderr}"
    return done


def _digest(srv: Server) -> dict[str, Any]:
    from casino.eventstore.digests import digest_name

    digest = json.loads(_manage(srv, "digest_write").stdout)
    return {**digest, "name": digest_name(digest)}


def _load(srv: Server, phase: str) -> list[dict[str, Any]]:
    out = srv.root / f"load-{phase}.json"
    done = subprocess.run([sys.executable, str(ROOT / "tests/casino/_restore_load.py"),
                           str(ROUNDS), str(out)], cwd=ROOT, env=_env(srv, signing=True),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"load {phase}: {done.stderr[-3000:]}"
    result = json.loads(out.read_text())
    assert result["rounds"] == ROUNDS
    return result["acknowledged"]


def _missing(srv: Server, acked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The acknowledged commands whose events the log does not hold, each exactly once."""
    ids = [i for a in acked for i in a.get("event_ids", ())]
    found = dict(srv.sql("SELECT event_id::text, count(*) FROM casino_event "
                         "WHERE event_id = ANY(%s::uuid[]) GROUP BY event_id", ids))
    typed = {(s, t) for s, t in srv.sql(
        "SELECT stream_id, type FROM casino_event WHERE stream_id = ANY(%s)",
        [a["stream_id"] for a in acked if "stream_id" in a])}
    assert all(n == 1 for n in found.values())  # event_id is unique: never twice
    return [a for a in acked if any(i not in found for i in a.get("event_ids", ()))
            or ("stream_id" in a and (a["stream_id"], a["type"]) not in typed)]


def test_a_base_backup_and_the_archived_wal_restore_every_acknowledged_command(
        server: Server) -> None:
    """issue 26 item 6: restore to the end keeps every acknowledged command and passes
    every digest; restore to an earlier point is named by the first digest it lost."""
    srv, t0 = server, time.perf_counter()
    srv.init()
    _keys(srv)
    srv.start()
    srv.sql("CREATE DATABASE casino", db="postgres")
    _manage(srv, "migrate", "--no-input")
    _manage(srv, "seed_demo")
    _manage(srv, "seed_demo_tables")
    seeded = _digest(srv)

    started = time.perf_counter()
    srv.run("pg_basebackup", "-h", "127.0.0.1", "-p", str(srv.port), "-U", "postgres",
            "-D", str(srv.base), "-X", "stream", "-c", "fast", "--manifest-checksums=SHA256")
    backup_seconds = time.perf_counter() - started
    srv.run("pg_verifybackup", str(srv.base))
    manifest = json.loads((srv.base / "backup_manifest").read_text())
    backup_lsn = _lsn(manifest["WAL-Ranges"][0]["Start-LSN"])

    before_mid = _load(srv, "a")
    first = _digest(srv)
    before_mid += _load(srv, "b")
    (mid_lsn,) = srv.sql("SELECT pg_create_restore_point('mid')::text")[0]
    after_mid = _load(srv, "c")
    lost = _digest(srv)  # the first digest written after 'mid'
    after_mid += _load(srv, "d")
    last = _digest(srv)
    written = [seeded, first, lost, last]
    assert [d["position"] for d in written] == sorted({d["position"] for d in written})

    (end_lsn, segment) = srv.sql("SELECT s::text, pg_walfile_name(s) FROM pg_switch_wal() s")[0]
    deadline = time.perf_counter() + TIMEOUT
    while not (srv.archive / segment).exists():  # the last segment archived: nothing owed
        assert time.perf_counter() < deadline, f"{segment} was not archived"
        time.sleep(0.1)
    srv.stop("immediate")
    shutil.rmtree(srv.data)  # the primary's data directory is gone

    # --- restore to the end of the archive --------------------------------------------
    end_seconds = srv.restore()
    acked = before_mid + after_mid
    assert len(acked) > 4 * ROUNDS and _missing(srv, acked) == []
    done = _manage(srv, "verify_events", "--no-progress")
    assert "4 digests checked" in done.stdout and done.stderr == ""
    verified_end = done.stdout.strip()
    srv.stop()
    shutil.rmtree(srv.data)

    # --- restore to 'mid' -------------------------------------------------------------
    mid_seconds = srv.restore(recovery_target_name="mid", recovery_target_timeline="current",
                              recovery_target_action="promote")
    assert _missing(srv, before_mid) == []
    assert _missing(srv, after_mid) == after_mid  # nothing after 'mid' came back
    done = _manage(srv, "verify_events", "--no-progress", check=False)
    assert done.returncode == 1
    assert done.stderr == (f"restored to before digest {lost['name']} at position "
                           f"{lost['position']}: the log's seals end at position "
                           f"{first['position']} (2 of 4 digests before it match)\n")

    base_bytes = sum(f.stat().st_size for f in srv.base.rglob("*") if f.is_file())
    print(f"\nbackup and restore: base backup {backup_seconds:.2f} s ({base_bytes} bytes); "
          f"restore to the end (copy, replay, promote) {end_seconds:.2f} s replaying "
          f"{_lsn(end_lsn) - backup_lsn} WAL bytes; restore to 'mid' {mid_seconds:.2f} s "
          f"replaying {_lsn(mid_lsn) - backup_lsn} WAL bytes; {len(acked)} commands "
          f"acknowledged; the whole test {time.perf_counter() - t0:.1f} s\n"
          f"verify_events after the restore to the end: {verified_end}\n"
          f"verify_events after the restore to 'mid': {done.stderr.strip()}")
