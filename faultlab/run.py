"""One run of the harness: the cluster built, eight terminals dealing, each fault
injected in turn under load, then the checks of issue 26 item 3 on what the terminals
kept.

For each injection the harness notes when the fault began and ended (wall clock, the
history's clock), then measures from the history: the longest time no terminal got a
2xx, how long after the fault ended each application host answered a command 2xx again
(``back_after``, the issue's 10 s), and the latency of what was answered during the fault
and outside every fault. After the last one the terminals stop, the async projections,
seals and digests are waited for, and the log is checked: every acknowledged command in
it exactly once, nothing recorded twice, ``verify_events`` passing.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from faultlab import checks
from faultlab.cluster import Cluster
from faultlab.faults import Fault, catalogue
from faultlab.history import History
from faultlab.terminals import Terminal

#: service must be back this long after a fault ends (issue 26 item 3)
BACK_WITHIN_SECONDS = 10.0
#: a request not answered in this long is a hang (the terminals give up on it then)
REQUEST_TIMEOUT_SECONDS = 10.0
#: how long the harness waits for service to come back before it calls it not back
_RECOVERY_WAIT_SECONDS = 30.0


@dataclass
class Injection:
    kind: str
    number: int
    began: float
    ended: float
    back_after: dict[str, float | None] = field(default_factory=dict)
    longest_unavailable: float = 0.0
    latency: dict[str, Any] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)
    error: str | None = None

    @property
    def window_end(self) -> float:
        backs = [b for b in self.back_after.values() if b is not None]
        return self.ended + (max(backs) if backs else _RECOVERY_WAIT_SECONDS)


def _first_ok_after(history: History, terminal: str, t: float) -> float | None:
    done = [a.done for a in history.attempts()
            if a.ok and a.key is not None and a.terminal == terminal and a.done >= t]
    return min(done) - t if done else None


def _wait_back(history: History, terminals: list[str], ended: float
               ) -> dict[str, float | None]:
    """For each terminal, how long after the fault's end its first command was answered
    2xx (the slowest is the run's figure: service is back when every terminal is)."""
    deadline = time.time() + _RECOVERY_WAIT_SECONDS
    back: dict[str, float | None] = {}
    while time.time() < deadline:
        back = {t: _first_ok_after(history, t, ended) for t in terminals}
        if all(b is not None for b in back.values()):
            break
        time.sleep(0.25)
    return back


def inject(cluster: Cluster, history: History, fault: Fault, number: int,
           terminals: list[str]) -> Injection:
    began = time.time()
    error = None
    try:
        try:
            fault.inject(cluster)
            time.sleep(fault.hold)
        finally:
            fault.heal(cluster)  # a fault half-injected is undone all the same
    except Exception as exc:  # noqa: BLE001  reported, and the run fails on it
        error = f"{type(exc).__name__}: {exc}"
    ended = time.time()
    shot = Injection(fault.kind, number, began, ended, error=error)
    shot.back_after = _wait_back(history, terminals, ended)
    time.sleep(1.0)  # the answers in flight at the return come in
    # per host: a fault of one host's (a partition) leaves the other one serving
    everyone = history.attempts()
    shot.longest_unavailable = max(
        History([a for a in everyone if a.base_url == url]).longest_unavailability(
            began, shot.window_end) for url in cluster.app_urls())
    shot.latency = history.latency(began, shot.window_end, commands_only=True)
    shot.statuses = history.status_counts(began, shot.window_end)
    try:
        fault.after(cluster)
    except Exception as exc:  # noqa: BLE001
        shot.error = (shot.error or "") + f" after: {type(exc).__name__}: {exc}"
    return shot


def _outside(history: History, shots: list[Injection], start: float, end: float
             ) -> dict[str, Any]:
    """The latency of the commands (keyed requests) answered, sent outside every fault's
    window."""
    windows = [(s.began, s.window_end) for s in shots]
    took = sorted(a.took for a in history.attempts()
                  if a.status is not None and a.key is not None and start <= a.sent < end
                  and not any(lo <= a.sent < hi for lo, hi in windows))
    if not took:
        return {"p50": None, "p99": None, "count": 0}
    at = lambda q: took[min(len(took) - 1, round(q * (len(took) - 1)))]  # noqa: E731
    return {"p50": at(0.5), "p99": at(0.99), "count": len(took)}


def _verify_events(cluster: Cluster) -> tuple[int, str]:
    from faultlab.cluster import ClusterError

    try:
        return 0, cluster.manage("verify_events", timeout=600)
    except ClusterError as exc:
        return 1, str(exc)


def log_state(cluster: Cluster) -> dict[str, Any]:
    """Where the log's head is, and how far the async projections (events of the types
    each follows past its checkpoint), the seals and the digests (files in the shared
    digest store, named by the position they sign) are behind it."""
    import psycopg

    from casino.eventstore import projections

    followers = [p for p in projections.registered().values() if p.mode == "async"]
    with psycopg.connect(cluster.database_url(), connect_timeout=5) as conn:
        head = conn.execute("SELECT coalesce(max(position), 0) FROM casino_event"
                            ).fetchone()[0]
        behind = {}
        for p in followers:
            row = conn.execute("SELECT position FROM casino_projection_checkpoint "
                               "WHERE name = %s", [p.name]).fetchone()
            types = sorted(p.event_types) if p.event_types is not None else None
            behind[p.name] = conn.execute(
                "SELECT count(*) FROM casino_event WHERE position > %s"
                + (" AND type = ANY(%s)" if types is not None else ""),
                [row[0] if row else 0] + ([types] if types is not None else [])
            ).fetchone()[0]
        sealed = conn.execute("SELECT coalesce(max(last_position), 0) FROM casino_event_seal"
                              ).fetchone()[0]
    digested = max((int(p.name.split("-")[1]) for p in
                    (cluster.shared / "digests").glob("*.json")), default=0)
    return {"head": head, "projections_behind": behind,
            "seals_behind": head > sealed, "digests_behind": head > digested}


def _caught_up(cluster: Cluster, seconds: float) -> dict[str, Any]:
    """Wait until the async projections, the newest seal and the newest digest all reach
    the head: beat's tasks due during the faults ran afterwards."""
    start = time.time()
    state: dict[str, Any] = {}
    while time.time() < start + seconds:
        try:
            state = log_state(cluster)
        except Exception as exc:  # noqa: BLE001  reported if it never answers
            state = {"error": f"{type(exc).__name__}: {exc}"}
        else:
            if (not any(state["projections_behind"].values()) and not state["seals_behind"]
                    and not state["digests_behind"]):
                return {"ok": True, "waited_s": round(time.time() - start, 1), **state}
        time.sleep(1.0)
    return {"ok": False, "waited_s": seconds, **state}


def run(kinds: list[str], injections: int, progress: Callable[[str], None],
        steady_seconds: float = 8.0, out_dir: Path | None = None,
        durations: dict[str, float] | None = None) -> dict[str, Any]:
    faults = catalogue(**(durations or {}))
    unknown = [k for k in kinds if k not in faults]
    if unknown:
        raise ValueError(f"unknown fault kinds: {', '.join(unknown)}")
    cluster = Cluster()
    history = History(compact_answers=True)  # a long run keeps what the checks read
    stop = threading.Event()
    terminals: list[Terminal] = []
    try:
        cluster.up(progress)
        progress("demo data and the terminals' tables")
        cluster.manage("seed_demo")
        cluster.manage("seed_demo_tables")
        seed = json.loads(cluster.manage("faults_seed", "--poker", "4", "--banked", "4")
                          .strip().splitlines()[-1])
        cluster.start_apps(progress)
        urls = cluster.app_urls()
        budget = sum(faults[k].hold + _RECOVERY_WAIT_SECONDS + 30 for k in kinds)
        deadline = time.time() + steady_seconds * 2 + budget * injections + 60
        terminals = [Terminal(f"t{i}", urls[i % 2], login, history, stop, deadline,
                              request_timeout=REQUEST_TIMEOUT_SECONDS, seed=i)
                     for i, login in enumerate(seed["logins"])]
        for t in terminals:
            t.start()
        start = time.time()
        progress(f"8 terminals dealing; {steady_seconds:g} s before the first fault")
        time.sleep(steady_seconds)
        shots: list[Injection] = []
        for kind in kinds:
            for n in range(injections):
                progress(f"fault {kind} #{n + 1}: {faults[kind].what}")
                shot = inject(cluster, history, faults[kind], n + 1,
                              [t.name for t in terminals])
                shots.append(shot)
                progress(f"  back after {_fmt(shot.back_after)}, longest unavailable "
                         f"{shot.longest_unavailable:.1f} s" +
                         (f", ERROR {shot.error}" if shot.error else ""))
                time.sleep(2.0)
        time.sleep(steady_seconds)
        end = time.time()
        stop.set()
        for t in terminals:
            t.join(timeout=REQUEST_TIMEOUT_SECONDS * 3)
        progress("waiting for projections, seals and digests to catch up")
        catch_up = _caught_up(cluster, 120)
        progress("checking the log against the history")
        verdict = checks.check(history, cluster.database_url())
        verify_rc, verify_out = _verify_events(cluster)
        if out_dir:
            out_dir.mkdir(parents=True, exist_ok=True)
            history.dump(out_dir / "history.jsonl")
        result = report(history, shots, verdict, catch_up, (verify_rc, verify_out),
                        _outside(history, shots, start, end), terminals)
        result["failover_step_s"] = [round(s, 2) for s in cluster.failovers]
        return result
    finally:
        stop.set()
        for t in terminals:
            t.join(timeout=5)
        if out_dir:
            import shutil

            shutil.copytree(cluster.logs, out_dir / "logs", dirs_exist_ok=True)
        cluster.remove()


def _fmt(back: dict[str, float | None]) -> str:
    if any(b is None for b in back.values()):
        return "never for " + ", ".join(t for t, b in back.items() if b is None)
    return f"{max(back.values()):.1f} s (the slowest terminal)"


def report(history: History, shots: list[Injection], verdict: dict[str, Any],
           catch_up: dict[str, Any], verify: tuple[int, str], outside: dict[str, Any],
           terminals: list[Terminal]) -> dict[str, Any]:
    kinds: dict[str, Any] = {}
    for s in shots:
        k = kinds.setdefault(s.kind, {"injections": 0, "longest_unavailable_s": 0.0,
                                      "back_after_s_max": 0.0, "p99_during_s": 0.0,
                                      "statuses": {}, "errors": []})
        k["injections"] += 1
        k["longest_unavailable_s"] = round(max(k["longest_unavailable_s"],
                                               s.longest_unavailable), 2)
        backs = [b for b in s.back_after.values()]
        worst = None if any(b is None for b in backs) else max(backs, default=0.0)
        k["back_after_s_max"] = (None if worst is None or k["back_after_s_max"] is None
                                 else round(max(k["back_after_s_max"], worst), 2))
        if s.latency.get("p99") is not None:
            k["p99_during_s"] = round(max(k["p99_during_s"], s.latency["p99"]), 3)
        for code, n in s.statuses.items():
            k["statuses"][code] = k["statuses"].get(code, 0) + n
        if s.error:
            k["errors"].append(s.error)
    back_ok = all(k["back_after_s_max"] is not None
                  and k["back_after_s_max"] <= BACK_WITHIN_SECONDS for k in kinds.values())
    errors = [e for k in kinds.values() for e in k["errors"]]
    terminal_errors = [t.failure for t in terminals if getattr(t, "failure", None)]
    bare_503 = sum(1 for a in history.attempts() if a.status == 503 and not a.retry_after)
    ok = (not bare_503 and verdict.get("ok") and not verdict.get("lost") and not verdict.get("duplicated")
          and verify[0] == 0 and catch_up["ok"] and back_ok and not errors
          and not terminal_errors)
    return {
        "ok": bool(ok),
        "acknowledged": verdict.get("acknowledged"),
        "lost": len(verdict.get("lost", [])),
        "duplicated": len(verdict.get("duplicated", [])),
        "http_500": verdict.get("http_500"),
        "hung": verdict.get("hung"),
        "attempts": len(history),
        "503_without_retry_after": bare_503,
        "p99_outside_faults_s": outside["p99"],
        "p50_outside_faults_s": outside["p50"],
        "back_within_s": BACK_WITHIN_SECONDS,
        "kinds": kinds,
        "caught_up": catch_up,
        "verify_events": {"exit": verify[0], "last_line": verify[1].strip()[-300:]},
        "check": {k: v for k, v in verdict.items() if k not in ("lost", "duplicated")},
        "lost_keys": verdict.get("lost", [])[:20],
        "duplicated_keys": verdict.get("duplicated", [])[:20],
        "terminal_errors": terminal_errors,
    }
