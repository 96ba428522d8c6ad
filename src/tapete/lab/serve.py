"""`tapete conformance serve`: tapete as the kit's reference endpoint (POST a round document to /settle, get the
answer), and the server the tests use to put faulty systems behind the same protocol."""

from __future__ import annotations

import json
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tapete import __version__
from tapete.core.errors import TapeteError
from tapete.lab.kit import PROTOCOL

Settle = Callable[[Any], Any]
MAX_BODY = 4 * 1024 * 1024      # a round document is a few kilobytes; a shoe of 8 decks with all its events fits


def make_server(host: str, port: int, settle: Settle | None = None) -> ThreadingHTTPServer:
    """An HTTP server answering POST /settle with `settle(document)` (tapete's own by default); GET / says what
    it is. Port 0 picks a free port (`server.server_address[1]`)."""
    from tapete.conformance.document import settle_text

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:   # noqa: A002 - quiet: a lab runs thousands of cases
            return

        def _send(self, status: int, doc: Any) -> None:
            body = json.dumps(doc, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:   # noqa: N802 - http.server's name
            if self.path in ("/", ""):
                self._send(200, {"tapete": __version__, "protocol": PROTOCOL, "settle": "POST /settle"})
            else:
                self._send(404, TapeteError("bad-request", "POST round documents to /settle").document())

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/settle":
                self._send(404, TapeteError("bad-request", "POST round documents to /settle").document())
                return
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._send(413, TapeteError("bad-request", f"a round document has at most {MAX_BODY} bytes").document())
                return
            text = self.rfile.read(length).decode("utf-8", errors="replace")
            if settle is None:      # tapete itself: exactly what `tapete settle` answers to the same text
                self._send(200, settle_text(text))
                return
            try:
                doc = json.loads(text)
            except json.JSONDecodeError as exc:
                self._send(200, TapeteError("bad-document", f"malformed JSON: {exc.msg}").document())
                return
            self._send(200, settle(doc))

    server = _Server((host, port), Handler)
    server.daemon_threads = True
    return server


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (a comparer's timeout) is not an error of the endpoint's: say nothing then."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)
