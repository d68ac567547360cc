"""A long-running program on one of the cluster's hosts (gunicorn, a Celery worker, beat,
Redis, the relay): started in the host's namespace in a session of its own, its output
in a log file, signalled as a whole (its workers with it)."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from faultlab.netns import Host


class Process:
    """A long-running program on a host, in a session of its own, its output in a log."""

    def __init__(self, host: Host, name: str, argv: list[str], log_dir: Path,
                 env: dict[str, str] | None = None):
        self.host, self.name = host, name
        self.log_path = log_dir / f"{host.name}-{name}.log"
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(host.argv(*argv), stdout=log, stderr=log,
                                     stdin=subprocess.DEVNULL, env=env,
                                     start_new_session=True)
        log.close()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def signal(self, sig: int) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self, timeout: float = 10.0) -> None:
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.proc.wait(timeout=5)

    def children(self) -> list[int]:
        """The pids whose parent is this process (gunicorn's and Celery's workers)."""
        try:
            with open(f"/proc/{self.pid}/task/{self.pid}/children") as f:
                return [int(p) for p in f.read().split()]
        except OSError:
            return []

    def tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""
