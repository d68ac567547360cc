"""What the fault harness's terminals saw (issue 26 item 3): every HTTP attempt, its
Idempotency-Key and its answer, kept as a Jepsen-style history the checks read.

An :class:`Attempt` is one request on the wire: a command retried with the same key is
several attempts of one key. The history is shared by the eight terminal threads, so
every read and write takes its lock; the figures (latency, unavailability, statuses)
are worked from the attempts sent in a window of wall-clock time (``time.time()``, the
clock the harness stamps its faults with).
"""

from __future__ import annotations

import hashlib
import json
import threading
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any


#: seconds a terminal gives itself to make the TCP connection to an application host
#: (refused is immediate); the request timeout is the server's, from then on
CONNECT_TIMEOUT = 2.0


@dataclass(frozen=True)
class Attempt:
    """One request a terminal sent and what came of it.

    ``status`` None: no answer (connection refused or reset, a timeout) and ``error``
    says which; ``code`` the problem+json ``code`` of a refusal; ``answer`` the parsed
    JSON of a 2xx (None otherwise); ``sent`` the wall clock when it was sent and
    ``took`` the seconds until the answer or the failure."""

    terminal: str
    op: str
    method: str
    path: str
    key: str | None
    sent: float
    took: float
    status: int | None
    code: str | None = None
    retry_after: str | None = None
    error: str | None = None
    answer: Any = None
    #: the application host the attempt went to (a terminal fails over between two)
    base_url: str | None = None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def done(self) -> float:
        return self.sent + self.took


#: what of a 2xx answer the checks read (faultlab.checks), kept by a compact history
KEPT_FIELDS = ("id", "round_id", "stream_id", "stream_version", "state", "opened_at",
               "closed_at", "phase", "version")
#: the key under which a compact answer keeps the digest of the whole answer
DIGEST = "_sha256"


def answer_digest(answer: Any) -> str:
    """SHA-256 of the answer's JSON (keys sorted): equal answers, equal digests."""
    text = json.dumps(answer, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def compact(answer: Any) -> Any:
    """An answer cut to what the checks read -- the ids, versions and the ``events``' version
    and type -- and the digest of the whole (to compare with the answer the server kept
    under the key). A long run's hand answers (about 1.2 KB each) then cost a tenth."""
    if not isinstance(answer, dict) or DIGEST in answer:
        return answer
    out: dict[str, Any] = {k: answer[k] for k in KEPT_FIELDS if k in answer}
    if isinstance(answer.get("events"), list):
        out["events"] = [{"version": e.get("version"), "type": e.get("type")}
                         for e in answer["events"] if isinstance(e, dict)]
    out[DIGEST] = answer_digest(answer)
    return out


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


class History:
    """The attempts of every terminal, in the order recorded (thread-safe).
    ``compact_answers``: each 2xx answer kept as :func:`compact` makes it (for long
    runs; the checks read either)."""

    def __init__(self, attempts: list[Attempt] | None = None, *,
                 compact_answers: bool = False) -> None:
        self._lock = threading.Lock()
        self._attempts: list[Attempt] = list(attempts or [])
        self.compact_answers = compact_answers

    def record(self, attempt: Attempt) -> None:
        if self.compact_answers and attempt.answer is not None:
            attempt = replace(attempt, answer=compact(attempt.answer))
        with self._lock:
            self._attempts.append(attempt)

    def attempts(self) -> list[Attempt]:
        """A copy of every attempt so far."""
        with self._lock:
            return list(self._attempts)

    def __len__(self) -> int:
        with self._lock:
            return len(self._attempts)

    def acknowledged(self) -> list[Attempt]:
        """The commands answered 2xx: per key, the first 2xx attempt (a retry answered
        from the stored key is the same command, not another one). Reads (no key) are
        left out: they record nothing."""
        seen: set[str] = set()
        out = []
        for a in self.attempts():
            if a.ok and a.key is not None and a.key not in seen:
                seen.add(a.key)
                out.append(a)
        return out

    def _window(self, from_t: float | None, to_t: float | None) -> list[Attempt]:
        lo = float("-inf") if from_t is None else from_t
        hi = float("inf") if to_t is None else to_t
        return [a for a in self.attempts() if lo <= a.sent < hi]

    def latency(self, from_t: float | None = None, to_t: float | None = None, *,
                commands_only: bool = False) -> dict[str, float | int | None]:
        """p50, p99 and max seconds of the attempts sent in the window that got an answer
        (any status), and how many; ``commands_only``: the commands' (with a key), not
        the reads, logins and logouts."""
        took = [a.took for a in self._window(from_t, to_t) if a.status is not None
                and (a.key is not None or not commands_only)]
        if not took:
            return {"p50": None, "p99": None, "max": None, "count": 0}
        return {"p50": _pct(took, 0.5), "p99": _pct(took, 0.99), "max": max(took),
                "count": len(took)}

    def longest_unavailability(self, from_t: float | None = None,
                               to_t: float | None = None) -> float:
        """The longest span (seconds) inside the window in which no terminal got a 2xx
        to a command while at least one was trying (any request in flight): a gap
        between two successive 2xx answers (or the window's edges) counts only as far as
        some attempt was outstanding in it, so a stretch where every terminal was idle
        (stopped, thinking) is not unavailability. A read's 2xx is not availability: a
        server that reads but cannot record is down for a terminal. Answers are placed
        at the moment they came back (``sent + took``)."""
        attempts = self.attempts()
        if not attempts:
            return 0.0
        lo = min(a.sent for a in attempts) if from_t is None else from_t
        hi = max(a.done for a in attempts) if to_t is None else to_t
        if hi <= lo:
            return 0.0
        oks = sorted(a.done for a in attempts
                     if a.ok and a.key is not None and lo <= a.done <= hi)
        # the intervals in which some request was in flight, merged, clipped to the window
        busy: list[list[float]] = []
        for s, e in sorted((max(a.sent, lo), min(a.done, hi)) for a in attempts
                           if a.done > lo and a.sent < hi):
            if busy and s <= busy[-1][1]:
                busy[-1][1] = max(busy[-1][1], e)
            else:
                busy.append([s, e])
        starts, ends = [s for s, _ in busy], [e for _, e in busy]
        edges = [lo, *oks, hi]
        longest = 0.0
        for a, b in zip(edges, edges[1:], strict=False):
            # the part of (a, b) in which someone was trying: from the first outstanding
            # moment to the last one (a short idle moment inside does not split it); the
            # merged intervals are sorted and disjoint, so both ends bisect
            first, last = bisect_right(ends, a), bisect_left(starts, b) - 1
            if first <= last:
                longest = max(longest, min(ends[last], b) - max(starts[first], a))
        return longest

    def status_counts(self, from_t: float | None = None, to_t: float | None = None
                      ) -> dict[str, int]:
        """How many attempts sent in the window got each status (``"none"``: no
        answer)."""
        counts = Counter("none" if a.status is None else str(a.status)
                         for a in self._window(from_t, to_t))
        return dict(sorted(counts.items()))

    def dump(self, path: str | Path) -> None:
        """Every attempt as a JSON line (in the order recorded)."""
        with open(path, "w", encoding="utf-8") as f:
            for a in self.attempts():
                f.write(json.dumps(asdict(a), default=str) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> History:
        """A history :meth:`dump` wrote."""
        with open(path, encoding="utf-8") as f:
            return cls([Attempt(**json.loads(line)) for line in f if line.strip()])
