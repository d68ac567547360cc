"""The faults the harness injects (issue 26 item 2), each as it happens to a casino: how
it starts, how long it lasts, how it ends, and what the operators do after.

A fault's ``inject`` starts it, ``hold`` seconds pass (the terminals keep dealing), its
``heal`` ends it; the harness then waits for service to come back and runs ``after``
(the work an operator does once the floor is running again, such as making a new
standby) outside the measured window. No process of the application is restarted by any
of them: what a fault kills, gunicorn's or Celery's master puts back, or it is a server
the harness runs (PostgreSQL, Redis, beat) started again as its supervisor would.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from dataclasses import dataclass

from faultlab.cluster import Cluster

Step = Callable[[Cluster], None]


def _nothing(cluster: Cluster) -> None:
    pass


@dataclass(frozen=True)
class Fault:
    kind: str
    what: str
    hold: float
    inject: Step
    heal: Step = _nothing
    after: Step = _nothing


# --- the database ------------------------------------------------------------------------

def _primary_kill(cluster: Cluster) -> None:
    cluster.primary.kill()


def _failover(cluster: Cluster) -> None:
    cluster.failovers.append(cluster.failover())


def _new_standby(cluster: Cluster) -> None:
    cluster.attach_standby(progress=lambda *a: None)


def _pg_stop(mode: str) -> Step:
    return lambda cluster: cluster.primary.stop(mode)


def _pg_start(cluster: Cluster) -> None:
    cluster.primary.start()


# --- the broker, the workers, beat, gunicorn ---------------------------------------------

def _redis_kill(cluster: Cluster) -> None:
    cluster.procs["redis"].signal(signal.SIGKILL)


def _redis_start(cluster: Cluster) -> None:
    cluster.start_redis()


def _apps(cluster: Cluster) -> list:
    return [cluster.net["app1"], cluster.net["app2"]]


def _broker_cut(cluster: Cluster) -> None:
    for host in _apps(cluster):
        cluster.net.partition(host, [cluster.net["broker"]])


def _apps_heal(cluster: Cluster) -> None:
    for host in _apps(cluster):
        cluster.net.heal(host)


def _kill_children(name: str, how_many: int | None) -> Step:
    """SIGKILL the worker processes of a master (gunicorn's workers, Celery's pool):
    whatever request or task they were in the middle of dies with them."""
    def step(cluster: Cluster) -> None:
        pids = cluster.procs[name].children()
        for pid in pids[:how_many] if how_many else pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    return step


def _beat_kill(cluster: Cluster) -> None:
    cluster.procs["beat"].signal(signal.SIGKILL)


def _beat_start(cluster: Cluster) -> None:
    cluster.start_beat()


# --- the network between app1 and the database --------------------------------------------

def _dbs(cluster: Cluster) -> list:
    return [cluster.net["db1"], cluster.net["db2"]]


def _slow_lossy(cluster: Cluster) -> None:
    cluster.delay_file("app1").write_text("100")
    cluster.net.lossy(cluster.net["app1"], _dbs(cluster), percent=2)


def _slow_lossy_heal(cluster: Cluster) -> None:
    cluster.delay_file("app1").write_text("0")
    cluster.net.heal(cluster.net["app1"])


def _db_cut(cluster: Cluster) -> None:
    cluster.net.partition(cluster.net["app1"], _dbs(cluster))


def _db_heal(cluster: Cluster) -> None:
    cluster.net.heal(cluster.net["app1"])


def catalogue(broker_seconds: float = 60, partition_seconds: float = 30,
              latency_seconds: float = 20) -> dict[str, Fault]:
    """Every fault kind, in the order the harness runs them."""
    faults = [
        Fault("primary_failover", "primary SIGKILLed, the standby promoted", 1.0,
              _primary_kill, _failover, _new_standby),
        Fault("pg_restart_fast", "PostgreSQL restarted (fast shutdown)", 1.0,
              _pg_stop("fast"), _pg_start),
        Fault("pg_restart_immediate", "PostgreSQL restarted (immediate shutdown)", 1.0,
              _pg_stop("immediate"), _pg_start),
        Fault("redis_restart", "Redis SIGKILLed and started again", 2.0,
              _redis_kill, _redis_start),
        Fault("broker_unreachable", "the broker cut off from both app hosts",
              broker_seconds, _broker_cut, _apps_heal),
        Fault("worker_kill", "Celery's pool processes on app1 SIGKILLed mid-task", 0.0,
              _kill_children("app1-worker", None)),
        Fault("beat_restart", "beat SIGKILLed and started again", 3.0,
              _beat_kill, _beat_start),
        Fault("gunicorn_worker_kill", "a gunicorn worker on app1 SIGKILLed mid-request",
              0.0, _kill_children("app1-gunicorn", 1)),
        Fault("latency_loss", "100 ms more latency and 2 % loss, app1 to the database",
              latency_seconds, _slow_lossy, _slow_lossy_heal),
        Fault("partition", "app1 cut off from the database", partition_seconds,
              _db_cut, _db_heal),
    ]
    return {f.kind: f for f in faults}
