"""The bet lane ahead of FastAPI and the edge (lane.py) and the writers' hand-off (writers.py): whatever the
edge and the FastAPI stack guarantee still holds on the lane, and the lane's answer is the endpoint's, byte
for byte. Each test fails without its point; each runs on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from .conftest import PASSWORD, ServerProcess, raw_request, write_config  # type: ignore[import-not-found]

TABLE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}
BETS = "/api/tables/ruleta/bets"
RED = b'{"bets":[{"kind":"red","amount":100}]}'


@pytest.fixture
def casino(make_casino: Any, database_url: str) -> Any:
    c = make_casino([TABLE], database_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    return c


class Paths:
    """Which path answered: counts the requests the lane handed to the full application."""

    def __init__(self, casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.handed = 0
        lane = casino.client.app.lane
        full = lane.full

        async def counting(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if scope["path"].endswith("/bets"):
                self.handed += 1
            await full(scope, receive, send)

        monkeypatch.setattr(lane, "full", counting)

    def lane(self, answer: httpx.Response) -> httpx.Response:
        assert self.handed == 0, "the full application answered"
        return answer

    def endpoint(self, answer: httpx.Response) -> httpx.Response:
        assert self.handed == 1, "the lane answered"
        self.handed = 0
        return answer


def _headers(casino: Any, user: str, key: str, **more: str) -> dict[str, str]:
    return {**casino.login(user), "Idempotency-Key": key, "Content-Type": "application/json", **more}


def _post(casino: Any, path: str, body: Any, headers: Any) -> httpx.Response:
    return casino.client.post(path, content=body, headers=headers)


def _code(r: httpx.Response) -> str:
    return r.json()["error"]["code"]


# -- the same answer ----------------------------------------------------------------------------------------
def test_a_lane_answer_is_the_endpoints_with_its_security_headers(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(casino, monkeypatch)
    # ?via=endpoint: a query string is not the lane's case (the endpoint ignores the parameter)
    lane = paths.lane(_post(casino, BETS, RED, _headers(casino, "ana", "h1")))
    endpoint = paths.endpoint(_post(casino, BETS + "?via=endpoint", RED, _headers(casino, "luis", "h2")))
    assert lane.status_code == endpoint.status_code == 200
    assert lane.headers.raw == endpoint.headers.raw           # the edge's headers, in the same order
    assert dict(lane.headers)["content-security-policy"].startswith("default-src 'self'")
    assert {**lane.json(), "bets": None} == {**endpoint.json(), "bets": None}
    # a refusal: the same error document and headers, byte for byte
    casino.post("croupier", "/api/tables/ruleta/close")
    lane = paths.lane(_post(casino, BETS, RED, _headers(casino, "ana", "h3")))
    endpoint = paths.endpoint(_post(casino, BETS + "?via=endpoint", RED, _headers(casino, "ana", "h4")))
    assert lane.status_code == endpoint.status_code == 409 and _code(lane) == "bet-closed"
    assert lane.content == endpoint.content and lane.headers.raw == endpoint.headers.raw


def test_a_key_used_on_the_lane_gets_its_first_answer_through_the_endpoint(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A retry may take either path: the lane and the endpoint fingerprint the body with the same function."""
    paths = Paths(casino, monkeypatch)
    body = b'{"bets": [{"on": [17], "amount": 100, "kind": "straight", "extra": {}}]}'
    first = paths.lane(_post(casino, BETS, body, _headers(casino, "ana", "k-lane")))
    browser = TestClient(casino.client.app)                   # the same player on a cookie session (CSRF, Origin)
    browser.post("/api/session", json={"username": "ana", "password": PASSWORD})
    cookie = {"X-CSRF-Token": browser.cookies["tapete_csrf"], "Origin": "http://testserver",
              "Content-Type": "application/json"}
    again = paths.endpoint(browser.post(BETS, content=body, headers={**cookie, "Idempotency-Key": "k-lane"}))
    assert again.status_code == 200 and again.content == first.content
    # and the other way round: first through the endpoint, the retry on the lane
    first = paths.endpoint(browser.post(BETS, content=RED, headers={**cookie, "Idempotency-Key": "k-cookie"}))
    again = paths.lane(_post(casino, BETS, RED, _headers(casino, "ana", "k-cookie")))
    assert first.status_code == 200 and again.content == first.content
    other = paths.lane(_post(casino, BETS, body, _headers(casino, "ana", "k-cookie")))
    assert other.status_code == 422 and _code(other) == "idempotency-key-reused"
    assert casino.balance("ana") == 100_000 - 200             # two bets, each taken once


def test_a_session_missing_from_the_cache_still_takes_the_lane(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(casino, monkeypatch)
    headers = _headers(casino, "ana", "miss-1")
    casino.client.app.state.server.auth._cache.clear()
    assert paths.lane(_post(casino, BETS, RED, headers)).status_code == 200
    r = paths.endpoint(_post(casino, BETS, RED, {**headers, "Authorization": "Bearer not-a-session", "Idempotency-Key": "m2"}))
    assert r.status_code == 401 and _code(r) == "unauthenticated"
    r = paths.endpoint(_post(casino, BETS, RED, _headers(casino, "croupier", "m3")))     # not a player
    assert r.status_code == 403 and _code(r) == "forbidden"


def test_an_unexpected_error_on_the_lane_is_answered_as_the_stack_answers_it(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(casino, monkeypatch)
    batches = casino.client.app.state.server.service.batches

    def broken(*_: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(batches, "_write", broken)
    raw = TestClient(casino.client.app, raise_server_exceptions=False)
    lane = paths.lane(raw.post(BETS, content=RED, headers=_headers(casino, "ana", "e1")))
    endpoint = paths.endpoint(raw.post(BETS + "?via=endpoint", content=RED, headers=_headers(casino, "ana", "e2")))
    assert lane.status_code == endpoint.status_code == 500
    assert lane.content == endpoint.content and lane.headers.raw == endpoint.headers.raw


# -- the edge's guarantees ----------------------------------------------------------------------------------
def test_oversized_bet_bodies_get_the_edges_413_on_the_lane(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(casino, monkeypatch)
    big = b'{"bets":[{"kind":"red","amount":100,"extra":{"x":"' + b"a" * 70_000 + b'"}}]}'
    login = casino.client.post("/api/login", content=big, headers={"Content-Type": "application/json"})
    r = paths.endpoint(_post(casino, BETS, big, _headers(casino, "ana", "big-1")))      # Content-Length over the cap
    assert r.status_code == 413 and _code(r) == "too-large"
    assert r.content == login.content and r.headers.raw == login.headers.raw
    chunked = iter([big[:40_000], big[40_000:]])               # no Content-Length: counted as it is read
    r = paths.endpoint(_post(casino, BETS, chunked, _headers(casino, "ana", "big-2")))
    assert r.status_code == 413 and r.content == login.content
    small = iter([RED[:10], RED[10:]])                         # a small chunked body is the lane's
    assert paths.lane(_post(casino, BETS, small, _headers(casino, "ana", "small"))).status_code == 200
    assert casino.balance("ana") == 100_000 - 100


def test_the_lane_keeps_the_edges_refusals(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(casino, monkeypatch)
    nul = b'{"bets":[{"kind":"red","amount":100,"extra":{"note":"a\\u0000b"}}]}'
    r = paths.endpoint(_post(casino, BETS, nul, _headers(casino, "ana", "nul-1")))
    assert r.status_code == 400 and _code(r) == "bad-request"
    r = paths.endpoint(_post(casino, BETS, RED, _headers(casino, "ana", "o-1", Origin="https://evil.example")))
    assert r.status_code == 403 and _code(r) == "cross-origin"
    for key in ("k" * 129, "with space"):
        r = paths.endpoint(_post(casino, BETS, RED, _headers(casino, "ana", key)))
        assert r.status_code == 400 and _code(r) == "bad-request", key
    assert casino.balance("ana") == 100_000


def test_the_lane_takes_only_what_the_endpoint_reads_alike(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(casino, monkeypatch)
    no_type = {k: v for k, v in _headers(casino, "ana", "t-1").items() if k != "Content-Type"}
    r = paths.endpoint(_post(casino, BETS, RED, no_type))      # FastAPI reads no JSON without a JSON Content-Type
    assert r.status_code == 422 and _code(r) == "bad-request"
    twice = [*_headers(casino, "ana", "t-2").items(), ("Authorization", casino.login("luis")["Authorization"])]
    assert paths.endpoint(_post(casino, BETS, RED, twice)).status_code == 200   # the first Authorization counts
    assert casino.balance("ana") == 100_000 - 100 and casino.balance("luis") == 100_000


# -- the writers' hand-off ----------------------------------------------------------------------------------
def test_a_bet_taken_by_another_threads_flush_is_answered_when_that_flush_ends(casino: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """No va más writes the queued batch in its own thread (tables.py): a request it takes is answered when
    that write ends, though its table's writer found nothing left to write."""
    server = casino.client.app.state.server
    service, writers = server.service, server.writers
    gate, committed, release = threading.Event(), threading.Event(), threading.Event()
    write = writers._write

    def gated(*args: Any) -> None:                             # the table's writer starts when the test says
        gate.wait(30)
        write(*args)

    monkeypatch.setattr(writers, "_write", gated)

    def hold(table_id: str, batch: list[Any]) -> None:
        if threading.current_thread().name == "other-flush":
            committed.set()
            release.wait(30)

    service.batches.after_commit = hold
    answer = casino.client.portal.start_task_soon(writers.bet, "ruleta", "ana", [{"kind": "red", "amount": 100}],
                                                  ("ana:taken", "fp"))
    deadline = time.monotonic() + 10
    while not service.batches.pending("ruleta") and time.monotonic() < deadline:
        time.sleep(0.01)
    other = threading.Thread(target=service.batches.flush, args=("ruleta",), name="other-flush")
    other.start()
    assert committed.wait(10)                                  # taken and committed, not yet answered
    service._closed_busy["ruleta"] = 1                         # the table's writer does not wait for the lock
    try:
        gate.set()
        time.sleep(0.3)                                        # the writer has found nothing and left
        assert not answer.done()
    finally:
        release.set()
        other.join(10)
        service._closed_busy.pop("ruleta", None)
        service.batches.after_commit = None
    assert answer.result(10)["bets"][0]["amount"] == 100


# -- a real `tapete serve` ----------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("lane")
    url = f"sqlite:///{tmp / 'casino.db'}" if request.param == "sqlite" else request.getfixturevalue("postgres").create_database()
    server = ServerProcess(write_config(tmp / "casino.toml", [TABLE], {"ana": 100_000}), url).start()
    server.token = httpx.post(f"{server.base}/api/login", json={"username": "ana", "password": PASSWORD}).json()["token"]
    yield server
    server.stop()


def test_oversized_bet_bodies_are_refused_before_they_are_read(live: ServerProcess, tmp_path: Path) -> None:
    head = (f"POST {BETS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {live.token}\r\nIdempotency-Key: big\r\n"
            "Content-Type: application/json\r\n").encode()
    assert raw_request(live.port, head + b"Content-Length: 30000000\r\n\r\n", []).startswith(b"HTTP/1.1 413")
    chunk = b"%x\r\n%s\r\n" % (50_000, b" " * 50_000)
    assert raw_request(live.port, head + b"Transfer-Encoding: chunked\r\n\r\n", [chunk, chunk]).startswith(b"HTTP/1.1 413")
