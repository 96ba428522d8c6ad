"""The server's edge (issue 17, items 4-10): rate-limited registration, the request size cap, input refused at
the edge before PostgreSQL sees it, the cage's idempotency under concurrency, the audit chain's head, the
login limiter in the database, trusted proxies, error documents, WebSocket close codes, security headers
and browser sessions. Each test fails without its fix; each runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text, update

from .conftest import PASSWORD, ServerProcess, raw_request, write_config  # type: ignore[import-not-found]

ROULETTE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}
BLACKJACK = {"id": "bjm", "game": "blackjack", "jurisdiction": "ES", "auto": False, "table": {"minimum": 500}}
TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "tapete" / "server" / "http" / "web" / "templates"


def code(r: httpx.Response) -> str:
    doc = r.json()
    assert set(doc) == {"error"}, doc
    return doc["error"]["code"]


@pytest.fixture
def casino(make_casino: Any, database_url: str) -> Any:
    return make_casino([ROULETTE, BLACKJACK], database_url, open_registration=True, register_attempts=3)


def spin(c: Any, rounds: int = 2) -> None:
    for _ in range(rounds):
        c.post("croupier", "/api/tables/ruleta/open", key=None)
        c.bet("ana", "ruleta", {"kind": "red", "amount": 100})
        c.post("croupier", "/api/tables/ruleta/close")
        c.post("croupier", "/api/tables/ruleta/draw")


def _identity(n: int) -> dict[str, str]:
    """What a registration asks beside the name and password (issue 31): an adult's birth date, a valid DNI."""
    return {"birth_date": "1990-01-01", "document": f"{n:08d}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"}


# -- 4. registration ----------------------------------------------------------------------------------
def test_registration_is_rate_limited_per_address(casino: Any) -> None:
    for i in range(3):
        r = casino.client.post("/api/register", json={"username": f"nuevo{i}", "password": "a-long-passphrase-9",
                                                      **_identity(i)})
        assert r.status_code == 200, r.text
    r = casino.client.post("/api/register", json={"username": "nuevo9", "password": "a-long-passphrase-9",
                                                  **_identity(9)})
    assert r.status_code == 429 and code(r) == "too-many-attempts"


# -- 5. request size -----------------------------------------------------------------------------------
def test_oversized_bodies_get_413_on_every_route(casino: Any) -> None:
    big = b'{"username": "' + b"a" * 70_000 + b'", "password": "x"}'
    posts = sorted({r.path for r in casino.client.app.routes if "POST" in getattr(r, "methods", ())})
    assert "/api/login" in posts and len(posts) > 15
    for path in posts:
        path = path.replace("{table_id}", "ruleta")
        r = casino.client.post(path, content=big, headers={"content-type": "application/json", **casino.login("ana")})
        assert r.status_code == 413 and code(r) == "too-large", (path, r.status_code)
    # a chunked body (no Content-Length) is counted as it arrives
    r = casino.client.post("/api/login", content=iter([b"{" + b" " * 40_000] * 3), headers={"content-type": "application/json"})
    assert r.status_code == 413 and code(r) == "too-large"


def test_oversized_bodies_refused_before_they_are_read(live: ServerProcess) -> None:
    # Content-Length of 30 MB: answered at once, with not one byte of the body sent
    head = (b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 30000000\r\n\r\n")
    assert raw_request(live.port, head, []).startswith(b"HTTP/1.1 413")
    # chunked: refused once the cap is passed, long before the (never sent) end of the body
    head = b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    chunk = b"%x\r\n%s\r\n" % (50_000, b" " * 50_000)
    assert raw_request(live.port, head, [chunk, chunk]).startswith(b"HTTP/1.1 413")


# -- 6. input PostgreSQL cannot hold ------------------------------------------------------------------
def test_nul_and_overlong_input_is_a_400_not_a_500(casino: Any) -> None:
    ana = casino.login("ana")
    for path in ("/api/rounds?table=%00", "/api/wallets/%00", "/api/tables/bjm/hint?bet=%00", "/api/tables/%00",
                 "/api/tables/bjm/hint?bet=a%0Ab", "/api/rounds?table=" + "r" * 300):
        r = casino.client.get(path, headers=ana)
        assert r.status_code == 400 and code(r) == "bad-request", (path, r.status_code, r.text)
    cashier = {**casino.login("cajero"), "Idempotency-Key": "k" * 200}
    r = casino.client.post("/api/cashier/deposit", json={"user": "ana", "amount": 100}, headers=cashier)
    assert r.status_code == 400 and code(r) == "bad-request"
    cashier["Idempotency-Key"] = "k" * 128        # the longest key, with the longest user prefix, fits the column
    assert casino.client.post("/api/cashier/deposit", json={"user": "ana", "amount": 100}, headers=cashier).status_code == 200
    cashier["Idempotency-Key"] = "a-key"
    r = casino.client.post("/api/cashier/deposit", json={"user": "ana", "amount": 100, "memo": "x\u0000y"}, headers=cashier)
    assert r.status_code == 400 and code(r) == "bad-request"
    assert casino.balance("ana") == 100_000 + 100
    casino.ledger()


# -- 7. the cage's idempotency under concurrency --------------------------------------------------------
def _together(casino: Any, path: str, body: dict[str, Any], key: str, n: int = 20) -> list[httpx.Response]:
    headers = {**casino.login("cajero"), "Idempotency-Key": key}
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(lambda _: casino.client.post(path, json=body, headers=headers), range(n)))


def test_concurrent_retries_of_a_deposit_get_the_first_answer(casino: Any) -> None:
    answers = _together(casino, "/api/cashier/deposit", {"user": "luis", "amount": 500}, "dep-1")
    assert [r.status_code for r in answers] == [200] * 20, [r.text for r in answers if r.status_code != 200]
    assert len({r.text for r in answers}) == 1                 # one transaction, replayed 19 times
    assert casino.balance("luis") == 100_000 + 500
    casino.ledger()


def test_concurrent_retries_of_a_withdraw_all_get_the_first_answer(casino: Any) -> None:
    answers = _together(casino, "/api/cashier/withdraw", {"user": "eva", "amount": 100_000}, "out-1")
    assert [r.status_code for r in answers] == [200] * 20, [r.text for r in answers if r.status_code != 200]
    assert len({r.text for r in answers}) == 1
    assert casino.balance("eva") == 0
    casino.ledger()


# -- 8. the audit chain's head ------------------------------------------------------------------------
def _tamper(casino: Any, how: str) -> None:
    """What someone with write access to the database does: rewrite and re-hash the last record, or cut it."""
    from tapete.server.audit import chains as audit
    from tapete.server.storage.db import events

    db = casino.client.app.state.server.db
    with db.write() as conn:
        last = conn.execute(text("SELECT seq, ts, kind, actor, data, prev_hash FROM events WHERE table_id = 'ruleta' "
                                 "ORDER BY seq DESC LIMIT 1")).mappings().first()
        if how == "cut":
            conn.execute(text("DELETE FROM events WHERE table_id = 'ruleta' AND seq = :s"), {"s": last["seq"]})
            return
        data = last["data"] if isinstance(last["data"], dict) else json.loads(last["data"])
        data = {**data, "forged": True}
        h = audit.record_hash(last["prev_hash"], last["seq"], last["ts"], last["kind"], last["actor"], data)
        conn.execute(update(events).where(events.c.table_id == "ruleta", events.c.seq == last["seq"]).values(data=data, hash=h))


@pytest.mark.parametrize("how", ["rewrite", "cut"])
def test_a_tampered_tail_breaks_the_chain(casino: Any, database_url: str, how: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tapete.cli import app as cli

    spin(casino)
    before = casino.get("inspector", "/api/tables/ruleta/log")
    assert before["chain"]["ok"] and before["head"]["hash"] == before["records"][-1]["hash"]
    assert casino.get(None, "/api/health")["log_heads"]["ruleta"] == before["head"]
    good = tmp_path / "good.jsonl"
    runner = CliRunner()
    assert runner.invoke(cli, ["audit", "export", "--table", "ruleta", "--database", database_url, "--out", str(good)]).exit_code == 0
    assert runner.invoke(cli, ["audit", "verify", str(good), "--head", before["head"]["hash"]]).exit_code == 0

    _tamper(casino, how)
    after = casino.get("inspector", "/api/tables/ruleta/log")
    assert not after["chain"]["ok"] and "head" in after["chain"]["reason"], after["chain"]
    bad = tmp_path / "bad.jsonl"
    out = runner.invoke(cli, ["audit", "export", "--table", "ruleta", "--database", database_url, "--out", str(bad)])
    assert out.exit_code == 1
    # offline: the export links up by itself; only the head the inspector noted gives it away
    assert runner.invoke(cli, ["audit", "verify", str(bad)]).exit_code == 0
    out = runner.invoke(cli, ["audit", "verify", str(bad), "--head", before["head"]["hash"]])
    assert out.exit_code == 1 and '"ok": false' in out.output
    assert runner.invoke(cli, ["audit", "verify", str(bad), "--head", f"ruleta={before['head']['hash']}"]).exit_code == 1


# -- 9. login limiter, proxies, error documents -----------------------------------------------------------
def test_login_limiter_is_shared_by_processes_and_survives_restarts(make_casino: Any, database_url: str) -> None:
    one = make_casino([ROULETTE], database_url, login_attempts=5)
    two = make_casino([ROULETTE], database_url, login_attempts=5)
    for i in range(5):
        r = (one if i % 2 else two).client.post("/api/login", json={"username": "ana", "password": "wrong"})
        assert r.status_code == 401
    for c in (one, two):
        r = c.client.post("/api/login", json={"username": "ana", "password": PASSWORD})
        assert r.status_code == 429 and code(r) == "too-many-attempts"
    three = make_casino([ROULETTE], database_url, login_attempts=5)          # a restart
    assert three.client.post("/api/login", json={"username": "ana", "password": PASSWORD}).status_code == 429


def test_forwarded_for_only_from_configured_proxies(make_casino: Any, database_url: str) -> None:
    direct = make_casino([ROULETTE], database_url, login_attempts=3)
    for i in range(3):      # a client rotating X-Forwarded-For is still one address
        r = direct.client.post("/api/login", json={"username": f"u{i}", "password": "wrong"},
                               headers={"X-Forwarded-For": f"10.0.0.{i}"})
        assert r.status_code == 401
    r = direct.client.post("/api/login", json={"username": "ana", "password": PASSWORD}, headers={"X-Forwarded-For": "10.0.0.9"})
    assert r.status_code == 429
    # behind a configured proxy (the test client's peer is "testclient"), the forwarded address counts
    proxied = make_casino([ROULETTE], database_url.replace("casino.db", "proxied.db") if "sqlite" in database_url
                          else database_url, login_attempts=3, trusted_proxies=["testclient"])
    for i in range(3):
        proxied.client.post("/api/login", json={"username": f"v{i}", "password": "wrong"}, headers={"X-Forwarded-For": "10.1.1.1"})
    ok = proxied.client.post("/api/login", json={"username": "luis", "password": PASSWORD}, headers={"X-Forwarded-For": "10.2.2.2"})
    assert ok.status_code == 200, ok.text


def test_forwarded_for_is_not_trusted_by_tapete_serve(live: ServerProcess) -> None:
    for i in range(3):
        r = httpx.post(f"{live.base}/api/login", json={"username": f"w{i}", "password": "wrong"},
                       headers={"X-Forwarded-For": f"10.9.9.{i}"})
        assert r.status_code == 401
    r = httpx.post(f"{live.base}/api/login", json={"username": "ana", "password": PASSWORD}, headers={"X-Forwarded-For": "10.9.9.99"})
    assert r.status_code == 429, r.text


def test_every_error_is_an_error_document(casino: Any) -> None:
    ana = casino.login("ana")
    cases = [("GET", "/api/nothing-here", None, 404, "not-found"), ("DELETE", "/api/health", None, 405, "method-not-allowed"),
             ("GET", "/static/nothing.js", None, 404, "not-found"),
             ("POST", "/api/login", b"{not json", 422, "bad-request"), ("GET", "/api/rounds?limit=zero", None, 422, "bad-request"),
             ("GET", "/api/rounds/0", None, 422, "bad-request")]
    for method, path, body, status, expected in cases:
        r = casino.client.request(method, path, content=body, headers={**ana, "content-type": "application/json"})
        assert r.status_code == status and code(r) == expected, (path, r.status_code, r.text)
        assert "detail" not in r.text


# -- 9. WebSocket close codes (a real server: a close before the handshake reaches clients as HTTP 403) --
def _closed_with(url: str, **headers: str) -> int | None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(url, additional_headers=headers or None, open_timeout=10) as ws:
        try:
            ws.recv(timeout=10)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
    return None


def test_websocket_refusals_close_with_their_codes(live: ServerProcess) -> None:
    ws = live.base.replace("http", "ws")
    assert _closed_with(f"{ws}/api/tables/ruleta/stream") == 4401
    assert _closed_with(f"{ws}/api/tables/ruleta/stream?token=forged") == 4401
    assert _closed_with(f"{ws}/api/tables/nowhere/stream?token={live.token}") == 4404
    # a browser's cookie, from another site's page (cross-site WebSocket hijacking): refused
    cookie = live.cookie
    assert _closed_with(f"{ws}/api/tables/ruleta/stream", Cookie=f"tapete_session={cookie}", Origin="https://evil.example") == 4403
    from websockets.sync.client import connect

    with connect(f"{ws}/api/tables/ruleta/stream", additional_headers={"Cookie": f"tapete_session={cookie}", "Origin": live.base}) as s:
        assert json.loads(s.recv(timeout=10))["type"] == "snapshot"


# -- 10. headers and browser sessions ------------------------------------------------------------------
def test_pages_carry_security_headers_and_no_inline_script(casino: Any) -> None:
    for path in ("/", "/login", "/tables/ruleta", "/inspector", "/api/tables", "/static/app.js"):
        r = casino.client.get(path)
        assert r.status_code == (403 if path == "/inspector" else 200), path     # a staff page: refused to a visitor
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "same-origin"
    assert len(list(TEMPLATES.glob("*.html"))) > 5, TEMPLATES                  # the pages' templates, all read
    for template in TEMPLATES.glob("*.html"):
        source = template.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", source):
            assert "src=" in tag or "application/json" in tag, (template.name, tag)   # JSON data is not run
        assert not re.search(r"\son[a-z]+=", source), template.name                  # no inline handlers


def test_browser_session_is_an_httponly_cookie_with_csrf(casino: Any) -> None:
    c = casino.client
    r = c.post("/api/session", json={"username": "cajero", "password": PASSWORD})
    assert r.status_code == 200 and "token" not in r.json()
    cookies = r.headers.get_list("set-cookie")
    session = next(x for x in cookies if x.startswith("tapete_session="))
    assert "HttpOnly" in session and "SameSite=strict" in session and "Secure" not in session
    csrf = c.cookies["tapete_csrf"]
    assert c.get("/api/me").json()["user"] == "cajero"                     # reads: the cookie alone
    body = {"user": "ana", "amount": 100}
    key = {"Idempotency-Key": "csrf-1"}
    origin = {"Origin": "http://testserver"}
    r = c.post("/api/cashier/deposit", json=body, headers={**key, **origin})
    assert r.status_code == 403 and code(r) == "forbidden"                   # no CSRF header
    r = c.post("/api/cashier/deposit", json=body, headers={**key, **origin, "X-CSRF-Token": "guess"})
    assert r.status_code == 403
    r = c.post("/api/cashier/deposit", json=body, headers={**key, "X-CSRF-Token": csrf})
    assert r.status_code == 403                                              # a cookie's write names its Origin
    r = c.post("/api/cashier/deposit", json=body, headers={**key, "X-CSRF-Token": csrf, "Origin": "https://evil.example"})
    assert r.status_code == 403 and code(r) == "cross-origin"
    r = c.post("/api/cashier/deposit", json=body, headers={**key, **origin, "X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert c.post("/api/logout", headers={**origin, "X-CSRF-Token": csrf}).status_code == 200
    c.cookies.clear()
    # another site's page cannot even log a browser in (login CSRF)
    r = c.post("/api/session", json={"username": "ana", "password": PASSWORD}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and code(r) == "cross-origin"
    # API clients: bearer tokens as before, no CSRF (a page of another site cannot set the header)
    assert casino.post("cajero", "/api/cashier/deposit", body)["balance"] == 100_000 + 200


def test_session_cookie_is_secure_over_tls(make_casino: Any, database_url: str) -> None:
    c = make_casino([ROULETTE], database_url, trusted_proxies=["testclient"])
    r = c.client.post("/api/session", json={"username": "ana", "password": PASSWORD}, headers={"X-Forwarded-Proto": "https"})
    session = next(x for x in r.headers.get_list("set-cookie") if x.startswith("tapete_session="))
    assert "Secure" in session and "HttpOnly" in session


# -- a real `tapete serve` -------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("edge")
    url = f"sqlite:///{tmp / 'casino.db'}" if request.param == "sqlite" else request.getfixturevalue("postgres").create_database()
    config = write_config(tmp / "casino.toml", [ROULETTE], {"ana": 100_000, "luis": 100_000})
    text_ = config.read_text().replace("login_attempts = 1000", "login_attempts = 3")
    config.write_text(text_)
    server = ServerProcess(config, url).start()
    # sessions taken before any test spends the address's login attempts
    server.token = httpx.post(f"{server.base}/api/login", json={"username": "luis", "password": PASSWORD}).json()["token"]
    server.cookie = httpx.post(f"{server.base}/api/session",
                               json={"username": "luis", "password": PASSWORD}).cookies["tapete_session"]
    yield server
    server.stop()
    time.sleep(0.1)


def test_session_cache_forgets_stale_sessions(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory (item 9): every token ever seen stayed in the session cache; stale entries are dropped."""
    from tapete.server.http import auth as auth_module

    auth = casino.client.app.state.server.auth
    monkeypatch.setattr(auth_module, "CACHE_PRUNE_AT", 8, raising=False)
    monkeypatch.setattr(auth_module, "SESSION_CACHE_S", 0.0)
    for _ in range(30):
        token = casino.client.post("/api/login", json={"username": "luis", "password": PASSWORD}).json()["token"]
        assert casino.client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert len(auth._cache) <= 8


def test_reads_never_wait_behind_password_hashing(casino: Any) -> None:
    """Item 4: logins whose argon2 hash is stuck hold the hashing pool, not the worker threads reads need (a
    read completes while every hash is still blocked). Before, each login held a worker thread while it hashed."""
    import threading

    auth = casino.client.app.state.server.auth
    gate, entered = threading.Event(), threading.Event()
    hasher = auth.hasher

    class Stuck:
        def verify(self, *args: Any) -> Any:
            entered.set()
            gate.wait(60)
            return hasher.verify(*args)

        def __getattr__(self, name: str) -> Any:
            return getattr(hasher, name)

    auth.hasher = Stuck()
    # more logins than the server has worker threads (2 on SQLite, 8 on PostgreSQL)
    logins = [threading.Thread(target=casino.client.post, args=("/api/login",),
                               kwargs={"json": {"username": "luis", "password": PASSWORD}}) for _ in range(12)]
    for t in logins:
        t.start()
    assert entered.wait(30)
    answers: list[int] = []
    reader = threading.Thread(target=lambda: answers.extend(
        casino.client.get(p).status_code for p in ("/api/tables", "/api/tables/ruleta/layout", "/api/health")))
    reader.start()
    reader.join(20)
    read_while_stuck = answers == [200, 200, 200]
    gate.set()
    reader.join(30)
    for t in logins:
        t.join(30)
    auth.hasher = hasher
    assert read_while_stuck, answers


def test_a_flood_of_logins_is_told_busy(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past HASH_QUEUE logins waiting for the hashing pool, the next is answered 503 busy at once."""
    auth = casino.client.app.state.server.auth
    monkeypatch.setattr(type(auth), "HASH_QUEUE", -1, raising=False)
    r = casino.client.post("/api/login", json={"username": "luis", "password": PASSWORD})
    assert r.status_code == 503 and code(r) == "busy"
