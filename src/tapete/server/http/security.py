"""The server's edge: what every request passes before an endpoint sees it, and the browser's session.

- `Edge`, an ASGI middleware: the client's address (X-Forwarded-For, -Proto and -Host only from `security.trusted_proxies`),
  a body size cap (413 before the body is read: Content-Length, and a running count for chunked bodies),
  URLs, query values and Idempotency-Keys free of NUL and control characters and of bounded length (400),
  no NUL in a JSON body (PostgreSQL's text cannot hold one), state-changing requests only from this
  site's own pages or from clients that send no Origin (403), and the security headers on every answer.
- Browser sessions: an `HttpOnly; SameSite=Strict` cookie (`Secure` over TLS) that page scripts cannot
  read, with a double-submit CSRF token (cookie + `X-CSRF-Token` header) and the Origin check on every
  state-changing request and on the WebSocket handshake. API clients keep `Authorization: Bearer`.
- Every error, the framework's own included (404, 405, 400, 422), is the project's error document.

docs/server.md §security lists the threat model and the test of each point.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from tapete.core.errors import TapeteError

if TYPE_CHECKING:
    from tapete.server.config import Security

SESSION_COOKIE = "tapete_session"
CSRF_COOKIE = "tapete_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_URL = 2048
MAX_QUERY_VALUE = 256
MAX_IDEMPOTENCY_KEY = 128     # + "username:" fits the idempotency table's varchar(240) on PostgreSQL
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
KEY_CHARS = re.compile(r"^[\x21-\x7e]+$")
JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
           (b"x-frame-options", b"DENY"), (b"cross-origin-opener-policy", b"same-origin")]
DOCS = ("/docs", "/redoc")    # FastAPI's API explorer loads its own scripts: the pages' CSP would blank it

ERROR_CODES = {400: "bad-request", 401: "unauthenticated", 403: "forbidden", 404: "not-found",
               405: "method-not-allowed", 413: "too-large", 415: "unsupported-media-type", 422: "bad-request",
               429: "too-many-attempts"}


def error_body(status: int, code: str, message: str) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    return body, [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]


class Edge:
    """The pure-ASGI middleware described in the module docstring (no per-request thread or task)."""

    def __init__(self, app: Any, security: Security) -> None:
        self.app = app
        self.max_body = security.max_body_kib * 1024
        self.proxies = frozenset(security.trusted_proxies)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope = self._forwarded(scope)
        problem = url_problem(scope)
        if kind == "websocket":
            if problem:
                await receive()                       # websocket.connect
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 4400, "reason": problem[:120]})
                return
            await self.app(scope, receive, send)
            return
        if problem:
            await _refuse(send, 400, "bad-request", problem)
            return
        if scope["method"] not in SAFE_METHODS and cross_origin(scope):
            await _refuse(send, 403, "cross-origin", "a state-changing request from another site's page is refused")
            return
        if scope["method"] not in SAFE_METHODS:
            length = _header(scope, b"content-length")
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                await _refuse(send, 413, "too-large", f"request bodies are limited to {self.max_body // 1024} KiB")
                return
            read = await read_body(receive, self.max_body)
            if read is None:
                return                                # the client went away
            body = read[0]
            if len(body) > self.max_body:
                await _refuse(send, 413, "too-large", f"request bodies are limited to {self.max_body // 1024} KiB")
                return
            if b"\x00" in body or JSON_NUL.search(body):
                await _refuse(send, 400, "bad-request", "a NUL character is not accepted in a request")
                return
            receive = replay_body(body, receive)
        await self.app(scope, receive, _with_headers(scope, send))

    def _forwarded(self, scope: dict[str, Any]) -> dict[str, Any]:
        """The client's address: the peer's, or, when the peer is a configured proxy, the last address of
        X-Forwarded-For that is not one (and the scheme from X-Forwarded-Proto)."""
        client = scope.get("client")
        if not self.proxies or not client or client[0] not in self.proxies:
            return scope
        scope = dict(scope)
        forwarded = _header(scope, b"x-forwarded-for")
        if forwarded:
            hops = [h.strip() for h in forwarded.split(",") if h.strip()]
            while hops and hops[-1] in self.proxies:
                hops.pop()
            if hops:
                scope["client"] = (hops[-1][:64], 0)
        proto = _header(scope, b"x-forwarded-proto")
        if proto in ("http", "https"):
            scope["scheme"] = proto if scope["type"] == "http" else ("wss" if proto == "https" else "ws")
        host = _header(scope, b"x-forwarded-host")      # the address the browser asked for (a proxy that keeps
        if host and HOST.fullmatch(host):               # its own Host upstream): the Origin check compares with it
            scope["headers"] = [(k, v) for k, v in scope["headers"] if k != b"host"] + [(b"host", host.encode())]
        return scope


def url_problem(scope: dict[str, Any]) -> str | None:
    """Why the request's path, query or Idempotency-Key is refused at the edge (None: it is not)."""
    path = scope.get("path", "")
    raw_query = scope.get("query_string", b"")
    if len(path) + len(raw_query) > MAX_URL:
        return f"the address is longer than {MAX_URL} characters"
    if CONTROL.search(path):
        return "a control character (NUL, newline...) is not accepted in the path"
    try:
        pairs = parse_qsl(raw_query.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except (UnicodeDecodeError, ValueError):
        return "the query is not valid UTF-8"
    for name, value in pairs:
        if CONTROL.search(name) or CONTROL.search(value):
            return f"a control character (NUL, newline...) is not accepted in the query parameter {name[:32]!r}"
        if len(value) > MAX_QUERY_VALUE:
            return f"the query parameter {name[:32]!r} is longer than {MAX_QUERY_VALUE} characters"
    key = _header(scope, b"idempotency-key")
    if key is not None and (len(key) > MAX_IDEMPOTENCY_KEY or not KEY_CHARS.match(key)):
        return f"an Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters"
    return None


HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def own_origin(scope: dict[str, Any]) -> str:
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    return f"{scheme}://{_header(scope, b'host') or ''}"


def cross_origin(scope: dict[str, Any]) -> bool:
    """An Origin header naming another site (browsers send one with every POST and WebSocket handshake;
    API clients usually send none)."""
    origin = _header(scope, b"origin")
    return origin is not None and origin != own_origin(scope)


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return v.decode("latin-1")
    return None


def _canonical_encoder() -> Any:
    """`json.dumps(payload, sort_keys=True)`, byte for byte, without building an encoder per call: the C
    encoder json.dumps builds each time, built once (no circular check: a payload comes from JSON)."""
    from json import encoder

    if encoder.c_make_encoder is None:                # no C accelerator: json.dumps itself
        return lambda payload: json.dumps(payload, sort_keys=True)
    base = json.JSONEncoder(sort_keys=True)
    c = encoder.c_make_encoder(None, base.default, encoder.encode_basestring_ascii, None, base.key_separator,
                               base.item_separator, True, base.skipkeys, base.allow_nan)
    return lambda payload: "".join(c(payload, 0))


_canonical = _canonical_encoder()


def fingerprint(method: str, path: str, payload: Any) -> str:
    """What an Idempotency-Key retry must repeat: the method, the path and the body, canonical JSON. One function
    for the endpoints and the bet lane, so a retry may take either path. The canonical text is json.dumps's
    with sorted keys, unchanged: records stored before an upgrade still match their retries (orjson would be
    faster, but its compact, unescaped text would change every fingerprint)."""
    return hashlib.sha256(f"{method} {path} {_canonical(payload)}".encode()).hexdigest()


async def read_body(receive: Any, limit: int) -> tuple[bytes, bool] | None:
    """A request's body as the edge and the bet lane read it: to its end, or until it passes `limit` bytes (then
    `more` says whether the rest is still unread). None: the client went away."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += message.get("body", b"")
        more = message.get("more_body", False)
        if len(body) > limit or not more:
            return bytes(body), more


def replay_body(body: bytes, receive: Any, more: bool = False) -> Any:
    """`receive` for the application behind a reader of the body (the edge, the bet lane): the bytes already
    read, then the rest of the stream (`more`: the reader stopped before the end)."""
    sent = False

    async def again() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return again


def with_security_headers(headers: Any, path: str) -> list[tuple[bytes, bytes]]:
    """An answer's headers and the security headers it lacks (the API explorer's pages keep their own CSP).
    The bet lane (lane.py) adds what this adds."""
    headers = list(headers)
    names = {k.lower() for k, _ in headers}
    headers += [(k, v) for k, v in HEADERS if k not in names]
    if not path.startswith(DOCS) and b"content-security-policy" not in names:
        headers.append((b"content-security-policy", CSP.encode()))
    return headers


def _with_headers(scope: dict[str, Any], send: Any) -> Any:
    path = scope.get("path", "")

    async def send_with(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": with_security_headers(message.get("headers", []), path)}
        await send(message)

    return send_with


async def _refuse(send: Any, status: int, code: str, message: str) -> None:
    body, headers = error_body(status, code, message)
    await send({"type": "http.response.start", "status": status,
                "headers": headers + [(b"connection", b"close")] + HEADERS + [(b"content-security-policy", CSP.encode())]})
    await send({"type": "http.response.body", "body": body})


# -- sessions -----------------------------------------------------------------------------------------
def request_token(request: Request, authorization: str | None) -> tuple[str | None, bool]:
    """The session token and whether it came from the browser's cookie (then CSRF rules apply)."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization.split(" ", 1)[1].strip(), False
    cookie = request.cookies.get(SESSION_COOKIE)
    return (cookie, True) if cookie else (None, False)


def check_csrf(request: Request) -> None:
    """A state-changing request on the session cookie: the CSRF header must repeat the CSRF cookie (a
    page of another site can neither read the cookie nor set the header), and the Origin must be ours."""
    if request.method in SAFE_METHODS:
        return
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get(CSRF_HEADER, "")
    if not cookie or not header or not secrets.compare_digest(cookie, header):
        raise TapeteError("forbidden", "the page's CSRF token is missing or wrong: reload the page")
    origin = request.headers.get("origin")
    if origin is None or origin != own_origin(request.scope):
        raise TapeteError("forbidden", "a state-changing request on a browser session must come from this site")


def websocket_token(websocket: WebSocket, token: str | None) -> str | None:
    """The stream's session: `Authorization: Bearer` or `?token=` (API clients), else the session cookie,
    which is honoured only from this site's own pages (the Origin of the handshake)."""
    header = websocket.headers.get("authorization")
    if header and header.lower().startswith("bearer "):
        return header.split(" ", 1)[1].strip()
    if token:
        return token
    cookie = websocket.cookies.get(SESSION_COOKIE)
    if cookie is None:
        return None
    origin = websocket.headers.get("origin")
    if origin != own_origin(websocket.scope):
        raise TapeteError("forbidden", "a browser's stream must be opened from this site's pages")
    return cookie


def set_session_cookies(response: Any, request: Request, token: str, max_age: int) -> str:
    secure = request.url.scheme == "https"
    csrf = secrets.token_urlsafe(24)
    response.set_cookie(SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="strict", secure=secure, path="/")
    response.set_cookie(CSRF_COOKIE, csrf, max_age=max_age, httponly=False, samesite="strict", secure=secure, path="/")
    return csrf


def clear_session_cookies(response: Any) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="strict")


def client_address(request: Request) -> str:
    return request.client.host if request.client else "?"


# -- errors -------------------------------------------------------------------------------------------
def install(app: FastAPI, security: Security) -> None:
    """The edge middleware and the error document for the framework's own errors (its 404, 405, 400;
    app.py answers validation errors, 422)."""

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = ERROR_CODES.get(exc.status_code, f"http-{exc.status_code}")
        message = exc.detail if isinstance(exc.detail, str) else code
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    app.add_middleware(Edge, security=security)
