"""Health for two readers and the Prometheus metrics (issue 29): an audit log record edited in the database makes
`/api/health` say `degraded` with the reason (after the scheduled or on-demand verification, never on a probe),
while `/api/health/live` stays 200; the metrics count requests by route, bets and rounds by table, and the
verification's result."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

ROULETTE = {"id": "ru", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}


def play(c: Any) -> None:
    c.post("croupier", "/api/tables/ru/open", key=None)
    c.bet("ana", "ru", {"kind": "dozen", "on": [1], "amount": 500})     # a dozen loses on zero: settled whatever the ball
    c.bet("luis", "ru", {"kind": "straight", "on": [17], "amount": 100})
    if c.post("croupier", "/api/tables/ru/close")["phase"] == "closed":
        c.post("croupier", "/api/tables/ru/draw")


def test_an_edited_log_record_degrades_health_but_not_liveness(make_casino: Any, database_url: str) -> None:
    c = make_casino([ROULETTE], database_url)
    play(c)
    first = c.client.get("/api/health")
    assert first.status_code == 200 and first.json()["status"] == "ok", first.json()
    assert first.json()["audit"]["ok"] is True and first.json()["tables"]["ru"]["phase"] == "settled"
    assert c.client.get("/api/health/live").json() == {"status": "live"}
    with c.client.app.state.server.db.write() as conn:     # someone with write access edits a record's data
        conn.execute(text("UPDATE events SET actor = 'nobody' WHERE table_id = 'ru' AND seq = 2"))
    assert c.client.get("/api/health").json()["status"] == "ok"         # a probe never verifies by itself
    assert c.post("ana", "/api/health/verify", key=None, expect=403)["error"]["code"] == "forbidden"
    checked = c.post("inspector", "/api/health/verify", key=None)
    assert checked["ok"] is False and "table ru" in checked["problems"][0]
    health = c.client.get("/api/health")
    assert health.status_code == 200
    doc = health.json()
    assert doc["status"] == "degraded" and any("event log breaks at record 2" in r for r in doc["reasons"]), doc
    live = c.client.get("/api/health/live")
    assert live.status_code == 200 and live.json()["status"] == "live"


def test_the_chains_are_verified_at_start_and_on_schedule(make_casino: Any, sqlite_url: str) -> None:
    import time

    c = make_casino([ROULETTE], sqlite_url, verify_every_s=0.2)
    play(c)
    server = c.client.app.state.server
    started = server.health.last.at
    assert started is not None and server.health.last.ok is True
    with server.db.write() as conn:
        conn.execute(text("UPDATE events SET actor = 'nobody' WHERE table_id = 'ru' AND seq = 2"))
    end = time.monotonic() + 10
    while server.health.last.ok is not False and time.monotonic() < end:
        time.sleep(0.05)
    assert server.health.last.ok is False and server.health.last.at > started


def test_health_is_503_when_the_database_cannot_serve(make_casino: Any, sqlite_url: str, monkeypatch: Any) -> None:
    c = make_casino([ROULETTE], sqlite_url)
    monkeypatch.setattr(c.client.app.state.server.db, "ping", lambda: False)
    for path in ("/api/health", "/api/health/live"):
        answer = c.client.get(path)
        assert answer.status_code == 503 and answer.json()["status"] == "down", path


def metric(body: str, name: str, **labels: str) -> float:
    for line in body.splitlines():
        if line.startswith(name + "{" if labels else name + " ") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} {labels} not in the scrape")


def test_metrics_scrape(make_casino: Any, database_url: str) -> None:
    c = make_casino([ROULETTE], database_url)
    play(c)
    c.get("ana", "/api/tables/ru/view")
    c.client.get("/api/tables/nope")                         # anonymous: 401
    scrape = c.client.get("/metrics")
    assert scrape.status_code == 200 and scrape.headers["content-type"].startswith("text/plain")
    body = scrape.text
    assert metric(body, "tapete_http_requests_total", route="/api/tables/{table}/bets", method="POST", status="200") == 2
    assert metric(body, "tapete_http_requests_total", route="/api/tables/{table}/view", method="GET", status="200") == 1
    assert metric(body, "tapete_errors_total", status="401") >= 1
    assert metric(body, "tapete_http_request_seconds_count", route="/api/tables/{table}/bets") == 2
    assert metric(body, "tapete_bets_total", table="ru") == 2
    assert metric(body, "tapete_rounds_total", table="ru") == 1
    assert metric(body, "tapete_handle_cents", table="ru") == 600
    assert metric(body, "tapete_sessions_open") == 3               # croupier, ana, luis logged in
    assert metric(body, "tapete_stream_clients") == 0
    assert metric(body, "tapete_audit_ok") == 1
    assert "/api/tables/ru" not in body                      # ids never become labels


def test_metrics_need_the_token_when_one_is_set(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([ROULETTE], sqlite_url, metrics_token="a-long-metrics-token")
    assert c.client.get("/metrics").status_code == 401
    assert c.client.get("/metrics", headers={"Authorization": "Bearer wrong-token-of-length"}).status_code == 401
    ok = c.client.get("/metrics", headers={"Authorization": "Bearer a-long-metrics-token"})
    assert ok.status_code == 200 and "tapete_http_requests_total" in ok.text
