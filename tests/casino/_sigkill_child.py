"""The process the SIGKILL test kills (tests/casino/test_command_atomic_under_sigkill.py).

Run by the test as ``python tests/casino/_sigkill_child.py`` with ``DATABASE_URL`` naming
the test's database. It sets Django up once, then reads one job a line from stdin
(``{"command": "hand" | "lock" | "close", "user": <pk>, "round": "<uuid>", "commands":
[...], "kill_at": N | null, "kill_at_sync": K | null}``) and runs each in a forked
process of its own, so a job costs a fork, not a Python start. The forked process
connects, loads the actor, then counts every statement psycopg sends while the command
runs and SIGKILLs itself right after the ``kill_at``-th returns (between statement N and
N+1), or right after the ``kill_at_sync``-th pipeline has ended (its Sync sent, its
answers read). This instruments the database library, not our code: the command runs
exactly as in production.

Each job answers one JSON line on stdout: ``signal`` (9 when killed), ``exit``, the
backend's pid (the test waits for the server to have seen the process die), the
statements sent (their first words), after how many statements each pipeline ended, and
any error.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")


def _send(fd: int, message: dict[str, Any]) -> None:
    os.write(fd, (json.dumps(message) + "\n").encode())


class _KillAfter:
    """psycopg's ``Cursor.execute``/``executemany`` wrapped to count each statement once
    (``Connection.execute`` and Django's cursors go through them; the runner's raw
    cursors and its pipeline too) and to SIGKILL this process once the ``kill_at``-th has
    been sent. In pipeline mode ``execute`` returns once the statement is flushed to the
    socket, before its answer is read: a kill right after COMMIT is "sent, not answered"."""

    def __init__(self, kill_at: int | None, kill_at_sync: int | None, report: int) -> None:
        self.kill_at, self.kill_at_sync, self.report = kill_at, kill_at_sync, report
        self.sent = self.synced = 0

    def __enter__(self) -> None:
        import psycopg

        self._saved = (psycopg.Cursor.execute, psycopg.Cursor.executemany,
                       psycopg.Pipeline.__exit__)
        execute, executemany, pipeline_exit = self._saved

        def counted(original: Any) -> Any:
            def run(cur: Any, query: Any, *args: Any, **kw: Any) -> Any:
                out = original(cur, query, *args, **kw)
                self._sent(query)
                return out
            return run

        def synced(pipeline: Any, *exc: Any) -> Any:
            out = pipeline_exit(pipeline, *exc)
            self._synced()
            return out

        psycopg.Cursor.execute = counted(execute)          # type: ignore[method-assign]
        psycopg.Cursor.executemany = counted(executemany)  # type: ignore[method-assign]
        psycopg.Pipeline.__exit__ = synced                 # type: ignore[method-assign]

    def _sent(self, query: Any) -> None:
        self.sent += 1
        text = query if isinstance(query, str) else str(getattr(query, "obj", query))
        _send(self.report, {"statement": " ".join(text.split())[:70]})
        if self.sent == self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def _synced(self) -> None:
        """A pipeline ended: its Sync sent and every answer read (the runner's locked
        read; its appends and COMMIT)."""
        self.synced += 1
        _send(self.report, {"sync": self.sent})
        if self.synced == self.kill_at_sync:
            os.kill(os.getpid(), signal.SIGKILL)

    def __exit__(self, *exc: object) -> None:
        import psycopg

        (psycopg.Cursor.execute, psycopg.Cursor.executemany,
         psycopg.Pipeline.__exit__) = self._saved


def _command(job: dict[str, Any]) -> Any:
    """The command the job names, as the dealer terminal's API calls it."""
    from poker_room.services import hands
    from tables.services import banked

    if job["command"] == "hand":
        return lambda actor: hands.hand_command(actor=actor, round_id=job["round"],
                                                commands=job["commands"])
    if job["command"] == "lock":
        return lambda actor: banked.round_lock_decisions(actor=actor, round_id=job["round"])
    if job["command"] == "close":
        return lambda actor: banked.round_close_banked(actor=actor, round_id=job["round"])
    raise ValueError(f"unknown command {job['command']!r}")


def _run(job: dict[str, Any], report: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from casino.actors import actor_of

    connection.ensure_connection()
    _send(report, {"backend_pid": connection.connection.info.backend_pid})
    actor = actor_of(get_user_model().objects.get(pk=job["user"]))
    command = _command(job)
    with _KillAfter(job.get("kill_at"), job.get("kill_at_sync"), report):
        command(actor)
    _send(report, {"done": True})


def _job(job: dict[str, Any]) -> dict[str, Any]:
    """Fork, run the job in the child, gather what it reported and how it ended."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read)
        code = 0
        try:
            _run(job, write)
        except BaseException as exc:  # noqa: BLE001  reported to the test, which fails
            _send(write, {"error": f"{type(exc).__name__}: {exc}"})
            code = 1
        os._exit(code)
    os.close(write)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    _, status = os.waitpid(pid, 0)
    messages = [json.loads(line) for line in data.decode().splitlines()]
    answer: dict[str, Any] = {
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "statements": [m["statement"] for m in messages if "statement" in m],
        "syncs": [m["sync"] for m in messages if "sync" in m],
        "done": any(m.get("done") for m in messages)}
    for m in messages:
        answer.update({k: v for k, v in m.items() if k in ("backend_pid", "error")})
    return answer


def main() -> None:
    import django

    django.setup()
    # imported once here, not in every forked child, and the showdown's hand tables
    # built (seconds, on first use) for every child to inherit
    import poker_room.services.hands  # noqa: F401
    import tables.services.banked  # noqa: F401
    from django.db import connections

    from poker_room.domain import evaluate

    evaluate.tables()
    connections.close_all()  # no connection may cross a fork
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(_job(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
