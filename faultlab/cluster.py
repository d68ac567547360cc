"""The cluster on one machine (issue 26 item 1): a PostgreSQL primary and a streaming
standby with synchronous replication, a Redis, two application hosts each with gunicorn
and a Celery worker, one beat, each on a host (network namespace) of its own.

Hosts and addresses (``<subnet>`` defaults to ``10.77.0``):

=========  ===========  ==================================================
``db1``    ``.11``      PostgreSQL (primary at the start)
``db2``    ``.12``      PostgreSQL (the synchronous standby at the start)
``broker`` ``.31``      Redis, with an append-only file
``app1``   ``.21``      gunicorn on :8000, a Celery worker, beat, the relay
``app2``   ``.22``      gunicorn on :8000, a Celery worker, the relay
=========  ===========  ==================================================

The application reaches the database through a multi-host URL with
``target_session_attrs=read-write`` (both servers, in order): after a failover its next
connection finds the new primary, no process restarted. Each application host's
connections go through its relay (:mod:`faultlab.link`, which adds delay on demand, as
this kernel has no netem); the relay's connections cross the bridge, where the faults
are.

The failover step is the documented one (docs: Operations → Failover): promote the
standby (``pg_ctl promote``), then, since it has no standby of its own yet, clear its
``synchronous_standby_names`` so that commits do not wait for one; later a new standby
is made from it with ``pg_basebackup`` on the failed host and named synchronous again.

Every server runs as the ``postgres`` user (PostgreSQL refuses root) from data
directories under one work directory, which :meth:`Cluster.remove` deletes with the
namespaces.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from faultlab.netns import Host, Network, NetworkError
from faultlab.process import Process

HOSTS = {"db1": 11, "db2": 12, "broker": 31, "app1": 21, "app2": 22}
PG_PORT = 5432
APP_PORT = 8000
#: each application host's relay listens here for db1 and db2
RELAY_PORTS = {"db1": 15432, "db2": 15433}
STANDBY_NAME = "standby"
DB_NAME = "casino"
#: entering a namespace needs root, PostgreSQL refuses it: the namespace is entered as
#: root, then the program runs as postgres
AS_POSTGRES = ("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--")
_SECRET = "faultlab-secret-key-that-is-long-enough-for-the-checks-12345"

_PG_CONF = """
listen_addresses = '*'
port = {port}
wal_level = replica
max_wal_senders = 10
wal_keep_size = 512MB
hot_standby = on
wal_retrieve_retry_interval = 500ms
synchronous_commit = on
max_connections = 200
shared_buffers = 64MB
fsync = on
log_min_messages = warning
# a client cut off mid-transaction (a partition) is noticed in about 4 s and its session
# ended, so its locks do not outlive the partition (idle_in_transaction is 60 s)
tcp_keepalives_idle = 2
tcp_keepalives_interval = 1
tcp_keepalives_count = 2
tcp_user_timeout = 4000
log_line_prefix = '%m [%p] '
"""
_PG_HBA = """
local all all trust
host all all 127.0.0.1/32 trust
host all all {subnet}.0/24 trust
host replication all {subnet}.0/24 trust
"""


class ClusterError(RuntimeError):
    """The cluster could not be built or a step of it failed (with what it printed)."""


def _postgres_user() -> tuple[int, int]:
    entry = pwd.getpwnam("postgres")
    return entry.pw_uid, entry.pw_gid


class PgServer:
    """One PostgreSQL server on a host: its data directory and ``pg_ctl``."""

    def __init__(self, cluster: Cluster, host: Host):
        self.cluster, self.host = cluster, host
        self.data = cluster.work / f"pg-{host.name}"
        self.sockets = cluster.work / f"sock-{host.name}"
        self.log = cluster.logs / f"{host.name}-postgres.log"

    def _run(self, *argv: str, timeout: float = 120) -> str:
        return _checked(self.host.argv(*AS_POSTGRES, *argv),
                        f"{self.host.name}: {' '.join(argv)}", timeout=timeout)

    def _fresh_dirs(self) -> None:
        uid, gid = _postgres_user()
        shutil.rmtree(self.data, ignore_errors=True)
        shutil.rmtree(self.sockets, ignore_errors=True)  # a killed server's lock files
        for d in (self.data, self.sockets):
            d.mkdir(parents=True, exist_ok=True)
            os.chown(d, uid, gid)
        self.data.chmod(0o700)

    def initdb(self) -> None:
        self._fresh_dirs()
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--locale=C.UTF-8")
        with open(self.data / "postgresql.conf", "a") as f:
            f.write(_PG_CONF.format(port=PG_PORT))
        (self.data / "pg_hba.conf").write_text(_PG_HBA.format(subnet=self.cluster.net.subnet))

    def basebackup_from(self, primary: PgServer) -> None:
        """A standby of ``primary``: its data copied with ``pg_basebackup -R`` (which
        writes ``primary_conninfo`` and ``standby.signal``), named ``standby`` so that the
        primary's ``synchronous_standby_names`` finds it."""
        self._fresh_dirs()
        conninfo = (f"host={primary.host.ip} port={PG_PORT} user=postgres "
                    f"application_name={STANDBY_NAME}")
        self._run("pg_basebackup", "-d", conninfo, "-D", str(self.data), "-R",
                  "-X", "stream", "-c", "fast")
        # the copy's settings are the primary's, synchronous standby included; a standby
        # waits for nobody, and after a promotion it must not either until it has one
        self._run("sed", "-i", "/synchronous_standby_names/d",
                  str(self.data / "postgresql.auto.conf"))

    def start(self) -> None:
        # the socket directory is the host's own (a standby's copied settings name its
        # primary's)
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "-o", f"-c unix_socket_directories={self.sockets}", "start")

    def stop(self, mode: str) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def kill(self) -> None:
        """The host loses power: every process on it SIGKILLed at once."""
        self.cluster.net.kill_all(self.host)

    def promote(self) -> None:
        """``pg_promote()``, waiting until the server takes writes (as ``pg_ctl promote``
        does, without its one-second polling)."""
        if not self.sql("SELECT pg_promote(true, 60)", timeout=5)[0]:
            raise ClusterError(f"{self.host.name}: pg_promote() did not finish in 60 s")

    def connect(self, timeout: int = 3) -> psycopg.Connection:
        return psycopg.connect(host=self.host.ip, port=PG_PORT, user="postgres",
                               dbname="postgres", connect_timeout=timeout, autocommit=True)

    def sql(self, query: str, timeout: int = 3) -> Any:
        with self.connect(timeout) as conn:
            cur = conn.execute(query)
            return cur.fetchone() if cur.description else None

    def is_primary(self) -> bool:
        try:
            return self.sql("SELECT NOT pg_is_in_recovery()")[0]
        except psycopg.Error:
            return False


class Cluster:
    """Build it with :meth:`up`, take it down with :meth:`remove` (also on failure)."""

    def __init__(self, subnet: str = "10.77.0", work: Path | None = None,
                 app_env: dict[str, str] | None = None):
        self.net = Network(subnet, HOSTS)
        self.work = work or Path(tempfile.mkdtemp(prefix="faultlab-"))
        self.logs = self.work / "logs"
        self.shared = self.work / "shared"  # the digests and their key: one store
        self.app_env_extra = app_env or {}
        self.servers = {name: PgServer(self, self.net[name]) for name in ("db1", "db2")}
        self.primary_name, self.standby_name = "db1", "db2"
        self.procs: dict[str, Process] = {}
        #: seconds each failover step took (promotion until the new primary took writes)
        self.failovers: list[float] = []

    # --- addresses -----------------------------------------------------------------------

    @property
    def primary(self) -> PgServer:
        return self.servers[self.primary_name]

    @property
    def standby(self) -> PgServer:
        return self.servers[self.standby_name]

    def database_url(self) -> str:
        """The primary as the harness (in the root namespace) reaches it."""
        return f"postgres://postgres@{self.primary.host.ip}:{PG_PORT}/{DB_NAME}"

    def app_database_url(self) -> str:
        """What every application host is given: both servers through its relay, the
        one that takes writes chosen at connect time."""
        hosts = ",".join(f"127.0.0.1:{RELAY_PORTS[n]}" for n in ("db1", "db2"))
        return (f"postgres://postgres@{hosts}/{DB_NAME}"
                "?target_session_attrs=read-write&connect_timeout=2")

    def broker_url(self) -> str:
        return f"redis://{self.net['broker'].ip}:6379/0"

    def app_urls(self) -> list[str]:
        return [f"http://{self.net[h].ip}:{APP_PORT}" for h in ("app1", "app2")]

    def app_env(self, host: str) -> dict[str, str]:
        root = Path(__file__).resolve().parent.parent
        env = {k: v for k, v in os.environ.items()
               if k in ("PATH", "LANG", "LC_ALL", "HOME", "TZ")}
        env.update(
            DJANGO_SETTINGS_MODULE="casino.settings", PYTHONPATH=str(root),
            DATABASE_URL=self.app_database_url(), CELERY_BROKER_URL=self.broker_url(),
            SECRET_KEY=_SECRET, CASINO_VAR_DIR=str(self.work / f"var-{host}"),
            DIGEST_DIR=str(self.shared / "digests"),
            DIGEST_SIGNING_KEY_FILE=str(self.shared / "digest-signing-key.pem"),
            ALLOWED_HOSTS=",".join(self.net[h].ip for h in ("app1", "app2")),
            TIMER_SWEEP_SECONDS="5", SEAL_INTERVAL_SECONDS="5",
            DIGEST_INTERVAL_SECONDS="10", PYTHONUNBUFFERED="1")
        env.update(self.app_env_extra)
        return env

    def manage_env(self) -> dict[str, str]:
        """The harness's own ``manage.py`` runs (migrate, seed, verify_events)."""
        env = dict(os.environ, **self.app_env("root"))
        env["DATABASE_URL"] = self.database_url()
        return env

    # --- building ------------------------------------------------------------------------

    def up(self, progress: Any = print) -> None:
        # the namespaces' names are fixed, so one run at a time: what a killed run left
        # (its namespaces are removed by Network.up) goes too
        for old in Path(tempfile.gettempdir()).glob("faultlab-*"):
            if old != self.work:
                shutil.rmtree(old, ignore_errors=True)
        for d in (self.logs, self.shared / "digests"):
            d.mkdir(parents=True, exist_ok=True)
        self.work.chmod(0o755)  # the servers run as postgres: they must reach their dirs
        self.logs.chmod(0o777)
        self._signing_key()
        progress("network: bridge and five hosts")
        self.net.up()
        progress("db1: initdb, start (primary)")
        self.primary.initdb()
        self.primary.start()
        self.primary.sql(f"CREATE DATABASE {DB_NAME}")
        self.attach_standby(progress)
        progress("broker: redis")
        self.start_redis()
        progress("database: migrate")
        self.manage("migrate", "--noinput", "-v0", timeout=600)

    def attach_standby(self, progress: Any = print) -> None:
        """A new standby from the primary, then named synchronous: from then on a commit
        is acknowledged only once the standby has it."""
        progress(f"{self.standby_name}: pg_basebackup from {self.primary_name}, start (standby)")
        self.standby.basebackup_from(self.primary)
        self.standby.start()
        self.primary.sql(f"ALTER SYSTEM SET synchronous_standby_names = '{STANDBY_NAME}'")
        self.primary.sql("SELECT pg_reload_conf()")
        self._wait(lambda: (self.primary.sql(
            "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") or [0])[0]
            == 1, 60, "the standby did not become synchronous")

    def failover(self) -> float:
        """The documented failover step, after the primary died: promote the standby,
        clear its ``synchronous_standby_names`` (it has no standby yet). Returns the
        seconds it took."""
        start = time.monotonic()
        new = self.standby
        new.promote()
        self._wait(new.is_primary, 60, "the promoted standby does not take writes")
        new.sql("ALTER SYSTEM RESET synchronous_standby_names")
        new.sql("SELECT pg_reload_conf()")
        self.primary_name, self.standby_name = self.standby_name, self.primary_name
        return time.monotonic() - start

    def start_redis(self) -> None:
        broker = self.net["broker"]
        data = self.work / "redis"
        data.mkdir(exist_ok=True)
        self.procs["redis"] = Process(broker, "redis", [
            "redis-server", "--bind", broker.ip, "--port", "6379", "--dir", str(data),
            "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
            "--protected-mode", "no"], self.logs)
        self._wait(lambda: _redis_ping(broker.ip), 20, "redis did not start")

    def start_apps(self, progress: Any = print) -> None:
        python = sys.executable
        for name in ("app1", "app2"):
            host, env = self.net[name], self.app_env(name)
            Path(env["CASINO_VAR_DIR"]).mkdir(parents=True, exist_ok=True)
            progress(f"{name}: relay, gunicorn, celery worker" + (", beat" if name == "app1" else ""))
            pairs = [f"127.0.0.1:{RELAY_PORTS[db]}={self.net[db].ip}:{PG_PORT}"
                     for db in ("db1", "db2")]
            self.procs[f"{name}-relay"] = Process(host, "relay", [
                python, "-m", "faultlab.link", "--control", str(self.delay_file(name)),
                *pairs], self.logs, env=env)
            self.start_gunicorn(name)
            self.start_worker(name)
        self.start_beat()
        for url in self.app_urls():
            self._wait(lambda url=url: _http_ok(url + "/health"), 90,
                       f"{url} did not answer /health")

    def start_gunicorn(self, name: str) -> None:
        host, env = self.net[name], self.app_env(name)
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        self.procs[f"{name}-gunicorn"] = Process(host, "gunicorn", [
            gunicorn, "casino.wsgi:application", "--bind", f"{host.ip}:{APP_PORT}",
            "--workers", "2", "--worker-class", "gthread", "--threads", "4",
            "--timeout", "30", "--graceful-timeout", "5", "--keep-alive", "30",
            "--log-level", "warning", "--chdir", env["PYTHONPATH"]], self.logs, env=env)

    def start_worker(self, name: str) -> None:
        host, env = self.net[name], self.app_env(name)
        celery = str(Path(sys.executable).with_name("celery"))
        self.procs[f"{name}-worker"] = Process(host, "worker", [
            celery, "-A", "casino", "worker", "-l", "warning", "-c", "2", "-n",
            f"worker@{name}", "--without-gossip", "--without-mingle"], self.logs, env=env)

    def start_beat(self) -> None:
        host, env = self.net["app1"], self.app_env("app1")
        celery = str(Path(sys.executable).with_name("celery"))
        self.procs["beat"] = Process(host, "beat", [
            celery, "-A", "casino", "beat", "-l", "warning", "-s",
            str(Path(env["CASINO_VAR_DIR"]) / "celerybeat-schedule")], self.logs, env=env)

    def delay_file(self, name: str) -> Path:
        return self.work / f"{name}-link-delay-ms"

    # --- running -------------------------------------------------------------------------

    def manage(self, *args: str, timeout: float = 300) -> str:
        """``manage.py`` in the root namespace against the current primary."""
        root = Path(__file__).resolve().parent.parent
        return _checked([sys.executable, str(root / "manage.py"), *args],
                        f"manage.py {' '.join(args)}", timeout=timeout,
                        env=self.manage_env(), cwd=root)

    def remove(self) -> None:
        """Every process, namespace and file the cluster made."""
        for proc in self.procs.values():
            proc.signal(signal.SIGKILL)
        for server in self.servers.values():
            server.kill()
        try:
            self.net.remove()
        except NetworkError:
            pass
        shutil.rmtree(self.work, ignore_errors=True)

    def _signing_key(self) -> None:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        path = self.shared / "digest-signing-key.pem"
        path.write_bytes(Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
        path.chmod(0o600)

    @staticmethod
    def _wait(ok: Any, seconds: float, message: str) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if ok():
                    return
            except Exception:  # noqa: BLE001  not up yet
                pass
            time.sleep(0.2)
        raise ClusterError(message)


def _checked(argv: list[str], what: str, timeout: float, **popen: Any) -> str:
    """Run ``argv`` to its end; its output, or :class:`ClusterError` with the tail of
    what it printed when it failed."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **popen)
    if done.returncode != 0:
        raise ClusterError(f"{what}: exit {done.returncode}: "
                           f"{(done.stderr or done.stdout).strip()[-2000:]}")
    return done.stdout


def _redis_ping(ip: str) -> bool:
    import redis

    return bool(redis.Redis(host=ip, port=6379, socket_connect_timeout=1).ping())


def _http_ok(url: str) -> bool:
    import requests

    return requests.get(url, timeout=3).status_code < 500
