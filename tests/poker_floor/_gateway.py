"""A fake SMS gateway on localhost: what the pages "sent" is what it received.

A threading HTTP server on a free port records each POST (its path, its query and its
body: JSON or form fields). The product reaches it through Apprise's own ``json://``
service, configured by URL as a real gateway would be (``PAGING_SMS_URL``): the player's
phone goes into the posted body as ``to`` (``?:to={phone}``: Apprise's ``:key=value``
adds a field to the JSON it posts) and the text is the body's ``message``.

``sms_gateway`` (a fixture) points ``PAGING_SMS_URL`` at a gateway for one test; a Celery
worker in another process is given ``gateway.sms_url`` as its ``PAGING_SMS_URL``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest


class Gateway:
    """A gateway answering every POST with ``status`` (200 by default; 500 to fail),
    ``delay`` seconds after it arrived (a slow carrier)."""

    def __init__(self, status: int = 200, delay: float = 0.0) -> None:
        self.status = status
        self.delay = delay
        self.received: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8", "replace")
                kind = self.headers.get("Content-Type", "")
                if "json" in kind:
                    body: Any = json.loads(raw or "null")
                else:
                    body = {k: v[0] for k, v in parse_qs(raw).items()}
                url = urlsplit(self.path)
                time.sleep(gateway.delay)
                with gateway._lock:
                    gateway.received.append({"path": url.path, "query": parse_qs(url.query),
                                             "body": body})
                self.send_response(gateway.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def sms_url(self) -> str:
        """The ``PAGING_SMS_URL`` template that sends to this gateway."""
        return f"json://127.0.0.1:{self.port}/sms?:to={{phone}}"

    @property
    def messages(self) -> list[dict[str, Any]]:
        """Each text received: ``{"to": phone, "message": text}``."""
        with self._lock:
            return [{"to": r["body"].get("to"), "message": r["body"].get("message")}
                    for r in self.received if isinstance(r["body"], dict)]

    def start(self) -> Gateway:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)


def closed_port() -> int:
    """A localhost port nothing listens on (bound for a moment, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def gateway() -> Iterator[Gateway]:
    """A gateway that accepts every text, stopped after the test."""
    g = Gateway().start()
    yield g
    g.stop()


@pytest.fixture
def sms_gateway(settings: Any, gateway: Gateway) -> Gateway:
    """``PAGING_SMS_URL`` pointed at a gateway for this test (with a short timeout)."""
    settings.PAGING_SMS_URL = gateway.sms_url
    settings.PAGING_TIMEOUT_SECONDS = 2
    return gateway
