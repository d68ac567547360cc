"""The fault harness's clients (issue 26 item 2): floor terminals that deal poker hands
and play house-banked rounds through the HTTP API while faults are injected, and keep
every attempt in a :class:`~faultlab.history.History`.

Each terminal is a thread with a ``requests.Session`` of its own and a login of its own
(``POST auth/token/``; the password is sent again only after no answer, a 5xx or a 429,
never after a refusal: a wrong one counts towards the lock-out). It sends every command
with a fresh ``uuid4`` ``Idempotency-Key`` and, when the answer is lost (connection
refused or reset, a timeout), a 5xx or ``409 idempotency_key_in_flight``, sends it again
**with the same key and body** -- after ``Retry-After`` (capped at
:data:`RETRY_AFTER_CAP`) when the server names one, else after a short growing backoff --
until a definite answer or its deadline. A definite refusal that means the state moved
(a stale version, a hand already over, a round in another phase) is answered by reading
the state again and going on with a new command and a new key.

Load balancer: a terminal given two application hosts (``base_urls``) talks to one and
moves to the other when a request gets no answer or a 502/503/504, as a floor's load
balancer with a readiness check would take a host out that cannot reach the database;
the retry keeps its key, so the move is safe whichever host ran the first attempt.

Poker terminals reuse the bench's HTTP terminal (:class:`poker_room.management.commands.
_bench_http.HttpTerminal`: rebuys, the start, :func:`~poker_room.management.commands.
_bench_room.decide` per action) with this module's sending under it. Banked terminals
play Lunar Poker (589) rounds: open (the deck the table names next; a count due is done
first, by the dealer, 589.11(g)), every Ante with "no more bets" as one command, the deal
from the server's shuffle, every decision with "lock", ``no_force`` when the dealer does
not qualify (589.11(e)(2)), close.

Every loop is bounded: by the terminal's deadline (``time.time()``), by ``stop`` (no new
command once it is set; the one in flight is given :data:`DRAIN_SECONDS` more to get a
definite answer), and by counts per hand and per round.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

import requests
from django.core.management.base import CommandError

from faultlab.history import CONNECT_TIMEOUT, Attempt, History
from poker_room.management.commands._bench_http import API, HttpTerminal

#: the longest a terminal waits on a ``Retry-After`` before sending again (seconds)
RETRY_AFTER_CAP = 2.0
#: the backoff after an answer that names no wait: first, growth, cap (seconds)
BACKOFF = (0.05, 2.0, 1.0)
#: once ``stop`` is set, how long the command in flight may still be retried (with a
#: 10 s request timeout and the 2 s logout, a terminal ends within 22 s of ``stop``)
DRAIN_SECONDS = 10.0
#: statuses after which the same request is sent again (with the same key)
RETRIED = frozenset({500, 502, 503, 504})
#: statuses after which a terminal with two hosts moves to the other one
FAIL_OVER = frozenset({502, 503, 504})
#: what the terminal's dealer states at a manual shoe (x.8(a), 579.8(c)): the deal records
#: only what is stated, so a simulated dealer says it
MANUAL_SHOE_STATED = {"placed_by": "dealer", "card_hand": "closest_to_shoe"}
#: commands a banked round takes at most (open, wagers, deal, lock, up to 5 no_force,
#: close and the re-reads between): more means the round is stuck
MAX_STEPS_PER_ROUND = 40
#: definite refusals in a row after which a terminal stops (something is wrong with the
#: table, not with the network)
MAX_REFUSALS_IN_A_ROW = 8
#: a poker start or rebuy refused because a hand is still in progress (one whose commands
#: were refused or never answered): the terminal voids it, then deals on
IN_PROGRESS = ("hand_in_progress", "seat_in_hand", "chips_mid_hand")
#: the Lunar Poker (589) positions a banked terminal plays
BANKED_POSITIONS = (1, 2, 3, 4, 5)


class GaveUp(Exception):
    """The deadline (or the drain after ``stop``) passed before a definite answer."""


class TerminalError(Exception):
    """The terminal cannot go on (a login refused, decks it cannot change, a stuck
    round): it stops and says why in ``Terminal.error``."""


@dataclass(frozen=True)
class Answer:
    """The definite answer to a request: its status and parsed body."""

    status: int
    body: Any
    code: str | None
    took: float

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


class Terminal(threading.Thread):
    """One floor terminal (a thread): logs in, then deals hands (``login["kind"] ==
    "poker"``) or plays banked rounds (``"banked"``) at ``login["table"]`` until ``stop``
    is set or ``deadline`` passes.

    ``login``: a row of ``faults_seed``'s output (``username``, ``password``, ``table``,
    ``kind``; banked: ``ante_cents``). ``base_url``: an application host
    (``http://10.0.0.2:8000``), or several (a list, or ``base_urls=``): the terminal
    starts at ``seed % len`` of them and moves on when one does not answer or answers
    502/503/504. After the
    run: ``error`` (None, or why it stopped early), ``acknowledged`` (commands answered
    2xx), ``refusals``, ``resends`` (attempts after the first of a key), ``hands``,
    ``rounds``, ``unresolved`` (keys left without a definite answer at the deadline)."""

    def __init__(self, name: str, base_url: str | list[str] | None, login: dict[str, Any],
                 history: History, stop: threading.Event, deadline: float,
                 request_timeout: float = 10.0, seed: int = 0, *,
                 base_urls: list[str] | None = None) -> None:
        super().__init__(name=name, daemon=True)
        urls = list(base_urls or ([base_url] if isinstance(base_url, str) else base_url or []))
        if not urls:
            raise ValueError("a terminal needs base_url or base_urls")
        self.base_urls = [u.rstrip("/") for u in urls]
        self.host = seed % len(self.base_urls)
        self.login, self.history, self.stop = login, history, stop
        self.deadline, self.request_timeout, self.seed = deadline, request_timeout, seed
        self.kind = login["kind"]
        self.manual_shoe = False  # read with the table before each banked round
        if self.kind not in ("poker", "banked"):
            raise ValueError(f"unknown terminal kind {self.kind!r}")
        self.table = str(login["table"])
        self.rng = random.Random(seed)
        self.session = requests.Session()
        self.session.headers["Accept"] = "application/json"
        self.error: str | None = None
        self.acknowledged = self.refusals = self.resends = self.hands = self.rounds = 0
        self.unresolved: list[str] = []
        self._refused_in_a_row = 0
        self._stop_seen: float | None = None
        # the server has the whole request timeout to answer once connected (the product's
        # promise: an answer, 503 at worst, within it); no answer in that time is a hang,
        # which the checks count (a ReadTimeout), as they count an attempt past both
        self._timeouts = (min(CONNECT_TIMEOUT, request_timeout / 3), request_timeout)

    # --- the wire ----------------------------------------------------------------------

    @property
    def base(self) -> str:
        return self.base_urls[self.host]

    def _fail_over(self) -> None:
        self.host = (self.host + 1) % len(self.base_urls)

    def _give_up_at(self) -> float:
        """When the request in flight stops being retried: the deadline, or the drain
        after ``stop``, whichever comes first."""
        if self.stop.is_set():
            if self._stop_seen is None:
                self._stop_seen = time.time()
            return min(self.deadline, self._stop_seen + DRAIN_SECONDS)
        return self.deadline

    def send(self, op: str, method: str, path: str, body: Any = None, *,
             command: bool = True) -> Answer:
        """``method path`` under ``/api/v1`` until a definite answer; a command with a
        fresh Idempotency-Key, the same on every retry. Raises :class:`GaveUp` when the
        deadline (or the drain after ``stop``) passes first, or before the first attempt
        when ``stop`` is already set."""
        if self.stop.is_set() or time.time() >= self.deadline:
            raise GaveUp(op)
        key = str(uuid.uuid4()) if command else None
        headers = {"Idempotency-Key": key} if key else {}
        wait, tries = BACKOFF[0], 0
        while True:
            if tries and time.time() >= self._give_up_at():
                if key:
                    self.unresolved.append(key)
                raise GaveUp(op)
            if tries:
                self.resends += 1
            tries += 1
            base = self.base
            sent, t0 = time.time(), time.perf_counter()
            try:
                r = self.session.request(method, base + API + path, json=body,
                                         headers=headers, timeout=self._timeouts)
            except requests.RequestException as exc:
                self.history.record(Attempt(
                    self.name, op, method, path, key, sent, time.perf_counter() - t0, None,
                    error=f"{type(exc).__name__}: {exc}"[:500], base_url=base))
                if len(self.base_urls) > 1:
                    self._fail_over()
                wait = self._pause(None, wait)
                continue
            took = time.perf_counter() - t0
            try:
                parsed = r.json()
            except ValueError:
                parsed = None
            code = parsed.get("code") if isinstance(parsed, dict) and r.status_code >= 300 \
                else None
            retry_after = r.headers.get("Retry-After")
            ok = 200 <= r.status_code < 300
            self.history.record(Attempt(
                self.name, op, method, path, key, sent, took, r.status_code, code=code,
                retry_after=retry_after, answer=parsed if ok else None, base_url=base))
            if (r.status_code in RETRIED or r.status_code == 429
                    or (r.status_code == 409 and code == "idempotency_key_in_flight")):
                if r.status_code in FAIL_OVER and len(self.base_urls) > 1:
                    self._fail_over()
                wait = self._pause(retry_after, wait)
                continue
            return Answer(r.status_code, parsed, code, took)

    def _pause(self, retry_after: str | None, wait: float) -> float:
        """Sleep before the next attempt (never past the point of giving up); the next
        backoff."""
        try:
            pause = min(float(retry_after), RETRY_AFTER_CAP) if retry_after else None
        except ValueError:  # an HTTP date: not sent by this server; the backoff instead
            pause = None
        if pause is None:
            pause = wait * (0.5 + self.rng.random())
        time.sleep(max(0.0, min(pause, self._give_up_at() - time.time())))
        return min(wait * BACKOFF[1], BACKOFF[2])

    def command(self, op: str, path: str, body: Any = None) -> Answer:
        """A command (POST with a key): counted as acknowledged or refused."""
        answer = self.send(op, "POST", path, {} if body is None else body)
        if answer.ok:
            self.acknowledged += 1
            self._refused_in_a_row = 0
        else:
            self.refusals += 1
            self._refused_in_a_row += 1
            if self._refused_in_a_row >= MAX_REFUSALS_IN_A_ROW:
                raise TerminalError(f"refused_{MAX_REFUSALS_IN_A_ROW}_times: the last, "
                                    f"{op} {path}: {answer.status} {answer.code}")
        return answer

    def read(self, op: str, path: str) -> Any:
        """A read (GET, no key), retried as a command is; its body, or
        :class:`TerminalError` when refused."""
        answer = self.send(op, "GET", path, command=False)
        if not answer.ok:
            raise TerminalError(f"read_refused: GET {path} answered {answer.status} "
                                f"{answer.code}")
        return answer.body

    # --- the thread --------------------------------------------------------------------

    def run(self) -> None:
        try:
            self._log_in()
            play = self._poker_round if self.kind == "poker" else self._banked_round
            while not self.stop.is_set() and time.time() < self.deadline:
                play()
        except GaveUp:
            pass
        except (TerminalError, CommandError) as exc:
            self.error = str(exc)
        except Exception as exc:  # noqa: BLE001 -- the harness reports it, whatever it is
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self._log_out()

    def _log_in(self) -> None:
        """A token of its own. A 409 (the login's stream moved under another terminal's
        login of the same account at that moment) is asked again; any other refusal
        stops the terminal: a wrong password is never sent twice."""
        wait = BACKOFF[0]
        for _ in range(MAX_REFUSALS_IN_A_ROW):
            answer = self.send("login", "POST", "/auth/token/",
                               {"username": self.login["username"],
                                "password": self.login["password"]}, command=False)
            if answer.status != 409:
                break
            wait = self._pause(None, wait)
        if not answer.ok:
            raise TerminalError(f"login_refused: {self.login['username']} got "
                                f"{answer.status} {answer.code}")
        self.session.headers["Authorization"] = f"Token {answer.body['token']}"

    def _log_out(self) -> None:
        """The token revoked, once, if there is time: a lost answer is not sent again
        (the token expires by itself)."""
        if "Authorization" not in self.session.headers or time.time() >= self.deadline:
            self.session.close()
            return
        sent, t0 = time.time(), time.perf_counter()
        try:
            r = self.session.post(self.base + API + "/auth/logout/",
                                  timeout=min(self.request_timeout, 2.0))
            status, error = r.status_code, None
            code = r.json().get("code") if status >= 300 else None
        except requests.RequestException as exc:
            status, error, code = None, f"{type(exc).__name__}: {exc}"[:500], None
        except ValueError:  # not JSON: the status says enough
            code = None
        self.history.record(Attempt(self.name, "logout", "POST", "/auth/logout/", None,
                                    sent, time.perf_counter() - t0, status, code=code,
                                    error=error, base_url=self.base))
        self.session.close()

    # --- poker -------------------------------------------------------------------------

    def _poker_round(self) -> None:
        """One hand through the bench's HTTP terminal; a hand left in progress (its
        start refused because one is) is voided first, a new command of its own."""
        play = self._poker
        try:
            play.hand()
            self.hands += 1
        except CommandError as exc:
            if not any(code in str(exc) for code in IN_PROGRESS):
                raise
            seats = self.read("seats", f"/poker-tables/{self.table}/seats/")
            current = (seats.get("state") or {}).get("current_hand")
            if current:
                self.command("void", f"/hands/{current}/command/",
                             {"command": {"type": "void"}})
            play.stacks.clear()  # read afresh from the next hand's answer

    @property
    def _poker(self) -> _PokerPlay:
        if not hasattr(self, "_poker_play"):
            self._poker_play = _PokerPlay(self)
        return self._poker_play

    # --- banked ------------------------------------------------------------------------

    def _banked_round(self) -> None:
        """One round from the table as it stands: a round left open is played on, else a
        new one opened with the deck the table names next."""
        table = self.read("table", f"/tables/{self.table}/")
        # x.8(a), 579.8(c): at a manual shoe the deal carries the dealer's statements
        self.manual_shoe = table.get("dealing_method") == "manual-shoe"
        if table.get("current_round"):
            if not self._play_round(table["current_round"], None):
                time.sleep(0.2)  # closed, but the table still names it: not in a tight loop
            return
        deck = table.get("next_deck")
        if deck is None:
            raise TerminalError(f"no_deck_in_play: table {self.table} has no deck in play "
                                "(the floor's work; the terminal cannot)")
        answer = self.command("round_open", "/rounds/", {"table": self.table, "deck": deck})
        if answer.ok:
            self._play_round(answer.body["id"], None)
        elif answer.code == "deck_count_due":  # 589.11(g): the dealer counts, then opens
            self.command("deck_count", f"/decks/{deck}/count/", {"cards": 52})
        # any other refusal (wrong_deck, round_in_progress ...): the table is read again

    def _play_round(self, rid: str, state: dict[str, Any] | None) -> bool:
        """The round played on to its close; False when it was closed already."""
        path = f"/rounds/{rid}/"
        tried: set[int] = set()
        folded = False
        for _ in range(MAX_STEPS_PER_ROUND):
            if state is None:
                state = self.read("round", path + "play/")
            phase, v = state["phase"], state["version"]
            if phase == "closed" or state.get("state") == "closed":
                return False
            if phase == "betting":
                ante = int(self.login.get("ante_cents", 1000)) * self.rng.choice((1, 2))
                step = ("wagers", path + "wagers/batch/", {
                    "expected_version": v, "no_more_bets": True,
                    "wagers": [{"position": n, "wager": "ante", "amount": ante}
                               for n in BANKED_POSITIONS]})
                if any(p["wagered_cents"] for p in state["positions"]):
                    step = ("no_more_bets", path + "no-more-bets/", {"expected_version": v})
            elif phase == "dealing":
                step = ("deal", path + "deal-from-shuffle/", {
                    "expected_version": v,
                    **(MANUAL_SHOE_STATED if self.manual_shoe else {})})
            elif phase == "decisions":
                # mostly bets; all folds after a lock was refused (a straight flush in
                # the first five cards is declared, not bet on: 589.11(b))
                step = ("lock", path + "lock/", {"expected_version": v, "decisions": [
                    {"position": p["position"],
                     "decision": "fold" if folded or self.rng.random() < 0.2 else "bet"}
                    for p in state["positions"]
                    if p["wagered_cents"] and p["decision"] is None]})
            elif phase == "forcing":  # 589.11(e)(2): nobody forces the dealer here
                left = [p["position"] for p in state["positions"]
                        if "bet" in p["wagered_cents"] and p["position"] not in tried]
                if not left:
                    raise TerminalError(f"round_stuck: round {rid} waits in forcing")
                n = max(left)  # counterclockwise: the highest position answers first
                tried.add(n)
                step = ("no_force", path + "decisions/",
                        {"expected_version": v, "position": n, "decision": "no_force"})
            elif phase == "settled":
                step = ("round_close", path + "close/", {})
            else:
                raise TerminalError(f"round_stuck: round {rid} is in phase {phase}")
            answer = self.command(*step)
            if step[0] == "round_close" and answer.ok:
                self.rounds += 1
                return True
            if step[0] == "lock" and not answer.ok:
                folded = True
            # a 2xx is the round as it now stands; a refusal means it moved: read it
            state = answer.body if answer.ok and "phase" in answer.body else None
        raise TerminalError(f"round_stuck: round {rid} took {MAX_STEPS_PER_ROUND} steps")

    def summary(self) -> dict[str, Any]:
        return {"terminal": self.name, "kind": self.kind, "table": self.table,
                "acknowledged": self.acknowledged, "refusals": self.refusals,
                "resends": self.resends, "hands": self.hands, "rounds": self.rounds,
                "unresolved": len(self.unresolved), "error": self.error}


class _PokerPlay(HttpTerminal):
    """The bench's HTTP dealer terminal with this module's sending under it: every
    command through :meth:`Terminal.command` (its key kept across retries, every attempt
    in the history)."""

    def __init__(self, terminal: Terminal) -> None:
        super().__init__(terminal.base, "", terminal.table, terminal.seed)
        self.session.close()
        self.session = terminal.session
        self.terminal = terminal

    def _post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
        op = ("hand_start" if path.endswith("/hands/") else
              "rebuy" if path.endswith("/seats/chips/") else
              "act" if path.endswith("/command/") else "command")
        answer = self.terminal.command(op, path, body)
        return answer.status, answer.body if isinstance(answer.body, dict) else {}, \
            answer.took

    def decks_due(self) -> None:
        raise TerminalError(f"decks_due: table {self.table_id}'s decks need the floor "
                            "(faults_seed puts two in play; a run this long should not "
                            "need more)")

    def refused_in_hand(self, path: str, status: int, body: dict[str, Any]
                        ) -> dict[str, Any]:
        """The hand moved under the command (a stale version, already over): read it
        again and go on from there."""
        return self.terminal.read("hand", path.removesuffix("command/"))

    def logout(self) -> None:  # the Terminal logs out (once, bounded)
        pass
