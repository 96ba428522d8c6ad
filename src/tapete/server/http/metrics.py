"""Prometheus metrics at `/metrics` (issue 29), with `prometheus_client`, one registry per server process.

Counted as requests pass (the outermost ASGI callable, so the bet lane's requests are counted too):
  tapete_http_requests_total{route,method,status}   requests answered, by route template
  tapete_http_request_seconds{route}                 latency histogram, by route template
  tapete_errors_total{status}                        4xx and 5xx answers
Read from the database at each scrape (the truth across restarts and processes):
  tapete_bets_total{table}, tapete_rounds_total{table}   bets placed, rounds settled
  tapete_handle_cents{table}, tapete_win_cents{table}    total staked on settled bets; the house's win on them
  tapete_sessions_open                                   login sessions not expired
And from this process:
  tapete_stream_clients                                  open table streams
  tapete_audit_ok, tapete_audit_verified_timestamp       the last verification of the chains and ledger
  tapete_bet_batches_total, _requests_total, _statements_total, _round_trips_total, _lock_seconds_total,
  tapete_bet_lock_max_seconds, _transaction_seconds_total, _writer_cpu_seconds_total   the group commit's profile
Route templates keep the label set bounded: ids become `{table}`, `{round}`, `{user}`; unknown paths `other`.
"""

from __future__ import annotations

import re
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
ROUTE_CACHE = 2048          # paths remembered with their route template (cleared when full: any path may come)
ROUTES = [
    (re.compile(r"/api/tables/[^/]+/(bets|acts|seats|seats/leave|seats/rebuy|seats/rest|open|close|draw|outcome|"
                r"confirm|correct|void|limits|float|log|actions|view|layout|hint|stream)"), r"/api/tables/{table}/\1"),
    (re.compile(r"/api/tables/[^/]+"), "/api/tables/{table}"),
    (re.compile(r"/api/rounds/[^/]+"), "/api/rounds/{round}"),
    (re.compile(r"/api/wallets/[^/]+"), "/api/wallets/{user}"),
    (re.compile(r"/api/[a-z/-]+"), None),            # a fixed API path: itself
    (re.compile(r"/static/.*"), "/static"),
    (re.compile(r"/(docs|redoc|openapi\.json|metrics)"), None),
    (re.compile(r"/(tables|table|croupier|cashier|inspector|chief|account|login|register)?(/[^/]+)?"), "page"),
]


def route_of(path: str) -> str:
    for pattern, template in ROUTES:
        found = pattern.fullmatch(path)
        if found:
            return path if template is None else found.expand(template) if "\\" in template else template
    return "other"


class _FromDatabase:
    """A collector that reads the books at scrape time."""

    def __init__(self, server: Any) -> None:
        self.server = server

    def collect(self) -> Any:
        from sqlalchemy import case, func, select

        from tapete.server.storage.db import bets, rounds, sessions

        db = self.server.db
        placed = CounterMetricFamily("tapete_bets", "Bets placed, by table", labels=["table"])
        settled = CounterMetricFamily("tapete_rounds", "Rounds settled, by table", labels=["table"])
        handle = GaugeMetricFamily("tapete_handle_cents", "Total staked on settled bets, by table (cents)", labels=["table"])
        win = GaugeMetricFamily("tapete_win_cents", "The house's win on settled bets, by table (cents)", labels=["table"])
        open_sessions = GaugeMetricFamily("tapete_sessions_open", "Login sessions not expired")
        try:
            with db.read() as conn:
                done = bets.c.status.in_(("won", "lost", "push"))
                for table, n, staked, back in conn.execute(
                        select(bets.c.table_id, func.count(), func.sum(case((done, bets.c.amount), else_=0)),
                               func.sum(case((done, bets.c.returned), else_=0))).group_by(bets.c.table_id)):
                    placed.add_metric([table], n)
                    handle.add_metric([table], int(staked or 0))
                    win.add_metric([table], int(staked or 0) - int(back or 0))
                for table, n in conn.execute(select(rounds.c.table_id, func.count()).where(rounds.c.status == "settled")
                                             .group_by(rounds.c.table_id)):
                    settled.add_metric([table], n)
                open_sessions.add_metric([], conn.execute(select(func.count()).select_from(sessions)
                                                          .where(sessions.c.expires_at > time.time())).scalar_one())
        except Exception:  # noqa: BLE001 - a scrape without the database still gives this process's figures
            return
        yield from (placed, settled, handle, win, open_sessions)


class _FromProcess:
    def __init__(self, server: Any, streams: Any) -> None:
        self.server, self.streams = server, streams

    def collect(self) -> Any:
        clients = GaugeMetricFamily("tapete_stream_clients", "Open table streams (WebSocket) in this process")
        clients.add_metric([], self.streams())
        check = self.server.health.last
        ok = GaugeMetricFamily("tapete_audit_ok", "1 when the last verification of the chains and ledger held, 0 when "
                               "it failed, -1 before the first")
        ok.add_metric([], -1 if check.ok is None else int(check.ok))
        when = GaugeMetricFamily("tapete_audit_verified_timestamp", "When the chains and ledger were last verified")
        when.add_metric([], check.at or 0)
        yield from (clients, ok, when)
        # Where the bets' time goes (tables/bet_stats.py): counts and CPU, which a shared machine does not distort.
        for name, value in self.server.service.batches.stats.snapshot().items():
            unit = "seconds" if name.endswith("_s") else "total"
            family = GaugeMetricFamily if name.endswith("_max_s") else CounterMetricFamily
            yield family(f"tapete_bet_{name.removesuffix('_s')}_{unit}" if unit == "seconds" else f"tapete_bet_{name}",
                         f"Bet batches of this process: {name} (tables/bet_stats.py)", value=value)


class Metrics:
    """The registry, the request instruments, and the ASGI wrapper that feeds them."""

    def __init__(self, server: Any, streams: Any) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("tapete_http_requests", "HTTP requests answered", ["route", "method", "status"],
                                registry=self.registry)
        self.latency = Histogram("tapete_http_request_seconds", "Time to answer, by route", ["route"],
                                 buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5), registry=self.registry)
        self.errors = Counter("tapete_errors", "Answers of status 400 and above", ["status"], registry=self.registry)
        self.registry.register(_FromDatabase(server))
        self.registry.register(_FromProcess(server, streams))
        # Per request, on the event loop, before these caches: the route's regexes and three label lookups were
        # ≈ 90 µs of a bet's CPU on a loaded machine (issue 33). Paths are bounded by clearing; keys by the templates.
        self._routes: dict[str, str] = {}
        self._children: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}

    def render(self) -> bytes:
        return generate_latest(self.registry)

    async def observe(self, scope: dict[str, Any], receive: Any, send: Any, call: Any) -> None:
        """Run `call` (the application) and count its answer."""
        if scope["type"] != "http":
            await call(scope, receive, send)
            return
        start = time.perf_counter()
        status = [500]

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await call(scope, receive, sending)
        finally:
            path = scope["path"]
            route = self._routes.get(path)
            if route is None:
                if len(self._routes) >= ROUTE_CACHE:
                    self._routes.clear()
                route = self._routes[path] = route_of(path)
            key = (route, scope["method"], status[0])
            children = self._children.get(key)
            if children is None:
                code = str(status[0])
                children = self._children[key] = (self.requests.labels(route, key[1], code), self.latency.labels(route),
                                                  self.errors.labels(code) if status[0] >= 400 else None)
            children[0].inc()
            children[1].observe(time.perf_counter() - start)
            if children[2] is not None:
                children[2].inc()
