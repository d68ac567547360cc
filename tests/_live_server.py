"""The product served on a real socket for the browser tests: one way for every page test
(the boards, the reports, the printables). A thread serves it, so it sees what the test
commits; it can be stopped and started again on the same port, as a server restart."""

from __future__ import annotations

import threading
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.db import connections


class _Quiet(WSGIRequestHandler):
    # One request per connection: no request thread outlives the server holding a
    # database session, and a stopped server really is gone for the page (a kept-alive
    # connection would go on being served by its request thread).
    protocol_version = "HTTP/1.0"

    def log_message(self, *args: Any) -> None:
        pass


class _JoinedServer(ThreadedWSGIServer):
    # Request threads are joined when the server closes (Django's are daemons, never
    # joined): a page still polling when its test ends (the console's home) cannot leave
    # a request thread holding a database session past the test, where the session's
    # final DROP DATABASE would trip on it.
    daemon_threads = False
    block_on_close = True


class LiveServer:
    """The product on a free port of its own (kept across a restart)."""

    def __init__(self) -> None:
        self.handler = WSGIHandler()
        self.port = 0
        self.httpd: Any = None

    def _app(self, environ: dict, start_response: Any) -> list[bytes]:
        try:
            return list(self.handler(environ, start_response))
        finally:
            connections.close_all()  # this request's thread ends with it

    def start(self) -> None:
        self.httpd = _JoinedServer(("127.0.0.1", self.port), _Quiet)
        self.httpd.set_app(self._app)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
