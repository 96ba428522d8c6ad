"""Tables owned, writes routed (issue 33): `tapete serve --node` processes of one casino on one PostgreSQL.

Each table is owned by one node (advisory locks, tables/cluster.py); a write reaching another node is forwarded
to the owner (http/routing.py) and never written there; a node killed with SIGKILL has its tables taken over
within the casino file's `cluster.takeover_s`, no bet lost or paid twice, the ledger summing to zero.
"""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from tapete.server.audit import chains as audit
from tapete.server.money import ledger
from tapete.server.storage.db import bets, ledger_tx, normalise_url, postings
from tapete.server.tables.cluster import preferred

from .conftest import PASSWORD, Player, ServerProcess, free_port, write_config  # type: ignore[import-not-found]
from .test_server_crash import PLAYERS, wait_settled  # type: ignore[import-not-found]

TAKEOVER_S = 10.0


def spread_tables(nodes: list[str], per_node: int = 2) -> list[str]:
    """Table ids the rendezvous hash spreads evenly over `nodes` (the test knows who should own what)."""
    chosen: dict[str, list[str]] = {n: [] for n in nodes}
    i = 0
    while any(len(v) < per_node for v in chosen.values()):
        t = f"ruleta-{i}"
        owner = preferred(t, nodes)
        if owner is not None and len(chosen[owner]) < per_node:
            chosen[owner].append(t)
        i += 1
    return [t for n in nodes for t in chosen[n]]


def cluster_config(path: Path, tables: list[dict[str, Any]], nodes: dict[str, Any], takeover_s: float = TAKEOVER_S,
                   front: str = "127.0.0.1") -> Path:
    """The casino file of a cluster: `nodes` name -> a port on loopback, or 'host:port'; `front`: the proxy."""
    write_config(path, tables, PLAYERS)
    lines = ["", "[cluster]", f"takeover_s = {takeover_s}"]
    for i, (name, where) in enumerate(nodes.items(), start=1):
        address = where if isinstance(where, str) else f"127.0.0.1:{where}"
        lines += ["[[cluster.nodes]]", f'name = "{name}"', f"id = {i}", f'address = "http://{address}"']
    text = path.read_text(encoding="utf-8").replace("[security]\n", f'[security]\ntrusted_proxies = ["{front}"]\n', 1)
    path.write_text(text + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def health(base: str) -> dict[str, Any]:
    return httpx.get(f"{base}/api/health", timeout=3).json()


def wait_for(predicate: Any, timeout: float = 30.0, what: str = "") -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            if predicate():
                return time.monotonic() - start
        except (httpx.HTTPError, KeyError, ValueError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def login(base: str, user: str) -> dict[str, str]:
    token = httpx.post(f"{base}/api/login", json={"username": user, "password": PASSWORD}, timeout=10).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def check_books(url: str, players: list[Player]) -> dict[str, Any]:
    """Every bet a player was told about exists once (none invented), collected once and paid at most once,
    every wallet is its chips less its stakes plus its returns, the ledger sums to zero, the chains hold."""
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            report = ledger.check(conn)
            assert report["ok"] and report["sum"] == 0, report
            rows = {(r["table_id"], r["bet_id"]): dict(r) for r in conn.execute(select(bets)).mappings()}
            for name in PLAYERS:
                mine = {k: r["amount"] for k, r in rows.items() if r["player"] == name}
                told = {k: v for p in players if p.name_ == name for k, v in p.known.items()}
                assert mine == told, (name, set(mine) ^ set(told))
            per_bet = conn.execute(
                select(ledger_tx.c.table_id, postings.c.bet_id, ledger_tx.c.kind, func.count())
                .join(ledger_tx, ledger_tx.c.id == postings.c.tx_id)
                .where(postings.c.account_id.like("wallet:%"), postings.c.bet_id.is_not(None))
                .group_by(ledger_tx.c.table_id, postings.c.bet_id, ledger_tx.c.kind)).all()
            for table_id, bet_id, kind, count in per_bet:
                assert count == 1, (table_id, bet_id, kind, count)
            assert {(t, b) for t, b, k, _ in per_bet if k == "bet"} == set(rows)
            for name, chips in PLAYERS.items():
                returned = sum(r["returned"] for r in rows.values() if r["player"] == name)
                staked = sum(r["collected"] for r in rows.values() if r["player"] == name)
                assert ledger.balance(conn, ledger.wallet(name)) == chips - staked + returned
            chain = audit.verify_chain(audit.iter_rows(conn))
            assert chain["ok"], chain
    finally:
        engine.dispose()
    from tapete.server.audit.verify import verify_database
    from tapete.server.storage.db import Database

    db = Database(url)
    try:
        books = verify_database(db)
        assert books.ok, books.problems
    finally:
        db.dispose()
    return {"bets": len(rows), "report": report}


@pytest.fixture
def two_nodes(postgres: Any, tmp_path: Path) -> Any:
    """Nodes a and b of one casino on one PostgreSQL: (url, tables, {name: ServerProcess})."""
    url = postgres.create_database()
    tables = spread_tables(["a", "b"])
    specs = [{"id": t, "game": "roulette-french", "jurisdiction": "ES", "auto": True, "table": {"minimum": 100},
              "timing": {"bets": 0.4, "spin": 0.05, "pause": 0.05}} for t in tables]
    ports = {"a": free_port(), "b": free_port()}
    config = cluster_config(tmp_path / "casino.toml", specs, ports)
    nodes = {n: ServerProcess(config, url, port=p, args=["--node", n]) for n, p in ports.items()}
    try:
        for node in nodes.values():
            node.start()
        wait_for(lambda: all(len(health(n.base)["cluster"]["owners"]) == len(tables) for n in nodes.values())
                 and all(health(n.base)["cluster"]["owners"] == {t: preferred(t, ["a", "b"]) for t in tables}
                         for n in nodes.values()), what="the tables spread over both nodes")
        yield url, tables, nodes
    finally:
        for node in nodes.values():
            node.stop()


def test_a_bet_to_the_non_owner_is_forwarded_once_and_written_by_the_owner(postgres: Any, tmp_path: Path) -> None:
    """Croupier tables (open until the croupier closes them), one owned by each node. A bet sent to b for a's table
    is forwarded to a, written there (the answer says X-Tapete-Owner: a), its replay answered with the same bet, b
    writing nothing; then, the table's writes reaching b and none a, the table moves to b (ownership follows the
    writes: the front decides where tables live)."""
    url = postgres.create_database()
    tables = spread_tables(["a", "b"], per_node=1)
    specs = [{"id": t, "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}
             for t in tables]
    ports = {"a": free_port(), "b": free_port()}
    config = cluster_config(tmp_path / "casino.toml", specs, ports)
    nodes = {n: ServerProcess(config, url, port=p, args=["--node", n]) for n, p in ports.items()}
    try:
        for node in nodes.values():
            node.start()
        want = {t: preferred(t, ["a", "b"]) for t in tables}
        wait_for(lambda: all(health(n.base)["cluster"]["owners"] == want for n in nodes.values()), what="one table each")
        a, b = nodes["a"], nodes["b"]
        table = next(t for t in tables if want[t] == "a")
        croupier, player = login(a.base, "croupier"), login(b.base, "p0")
        # the open is a's last direct write: the forwarded bet and its replay follow it within cluster.QUIET_S, after
        # which a would let b have the table (the logins, slow on a loaded machine, come before it)
        opened = httpx.post(f"{a.base}/api/tables/{table}/open", json={}, headers={**croupier, "Idempotency-Key": "o1"})
        assert opened.status_code == 200, opened.text
        key, body = uuid.uuid4().hex, {"bets": [{"kind": "dozen", "on": [1], "amount": 300}]}
        r = httpx.post(f"{b.base}/api/tables/{table}/bets", json=body, headers={**player, "Idempotency-Key": key}, timeout=10)
        assert r.status_code == 200, r.text
        assert r.headers["x-tapete-owner"] == "a"                 # written by the owner, relayed by b
        bet_id = r.json()["bets"][0]["id"]
        again = httpx.post(f"{b.base}/api/tables/{table}/bets", json=body, headers={**player, "Idempotency-Key": key}, timeout=10)
        assert again.status_code == 200 and again.json()["bets"][0]["id"] == bet_id       # the replay: the same bet
        assert again.headers["x-tapete-owner"] == "a"
        assert health(b.base)["cluster"]["routed"]["forwarded"] == 2
        assert health(a.base)["cluster"]["routed"]["received"] == 2
        engine = create_engine(normalise_url(url))
        try:
            with engine.connect() as conn:
                assert conn.execute(select(func.count()).select_from(bets).where(
                    bets.c.table_id == table, bets.c.bet_id == bet_id)).scalar_one() == 1
        finally:
            engine.dispose()
        placed = 1
        released, recovered = health(a.base)["cluster"]["moves"]["released"], health(b.base)["cluster"]["moves"]["recovered"]

        def keep_betting_on_b() -> bool:          # the table's writes keep reaching b (as the front would send them)
            nonlocal placed
            more = httpx.post(f"{b.base}/api/tables/{table}/bets", json=body,
                              headers={**player, "Idempotency-Key": uuid.uuid4().hex}, timeout=10)
            assert more.status_code == 200, more.text
            placed += 1
            return "x-tapete-owner" not in more.headers and health(b.base)["cluster"]["owners"][table] == "b"

        wait_for(keep_betting_on_b, what="the table to follow its writes to b")       # written on b, its owner now
        assert health(a.base)["cluster"]["moves"]["released"] == released + 1
        assert health(b.base)["cluster"]["moves"]["recovered"] == recovered      # handed over as it stood, not recovered
        assert httpx.get(f"{b.base}/api/me", headers=player).json()["balance"] == PLAYERS["p0"] - 300 * placed
    finally:
        for node in nodes.values():
            node.stop()


def test_a_killed_node_s_tables_are_taken_over_within_the_setting(two_nodes: Any) -> None:
    """SIGKILL node a under load: b owns a's tables within takeover_s, the rounds go on, and every bet a player
    was told about exists once, collected once, paid at most once; the ledger sums to zero."""
    url, tables, nodes = two_nodes
    a, b = nodes["a"], nodes["b"]
    stop = threading.Event()
    bases = {name: [a.base if i % 2 else b.base] for i, name in enumerate(PLAYERS)}
    players = [Player(name, tables[i % len(tables)], bases[name], stop) for i, name in enumerate(PLAYERS)]
    try:
        for p in players:
            p.start()
        wait_for(lambda: sum(p.sent for p in players) > 40, what="bets on every table")
        a.kill()
        killed = time.monotonic()
        for name in PLAYERS:
            bases[name][0] = b.base                           # the players reconnect to the survivor
        taken = wait_for(lambda: sorted(health(b.base)["owned_tables"]) == sorted(tables), timeout=TAKEOVER_S + 20,
                         what="the takeover")
        taken_s = time.monotonic() - killed
        sent = sum(p.sent for p in players)
        wait_for(lambda: sum(p.sent for p in players) > sent + 40, what="bets taken after the takeover")
        stop.set()
        for p in players:
            p.join(60)
        wait_settled(url, timeout=30)
    finally:
        stop.set()
    print(f"takeover after SIGKILL: {taken_s:.2f} s (waited {taken:.2f} s); {sum(p.sent for p in players)} bets, "
          f"{sum(p.retried for p in players)} retried")
    assert taken_s <= TAKEOVER_S, taken_s
    assert not any(p.errors for p in players), [p.errors for p in players]
    assert health(b.base)["cluster"]["moves"]["recovered"] >= 2     # a's tables, recovered as `recovery` says
    check_books(url, players)


# -- the casino file's [cluster], as `tapete config check` and `tapete serve --node` read it ------------------
CLUSTER_FILE = """
[casino]
name = "Casino de prueba"
jurisdiction = "ES"

[[tables]]
id = "ruleta-1"
game = "roulette-french"
table = {{ minimum = 100 }}

[cluster]
takeover_s = {takeover}

[[cluster.nodes]]
name = "a"
id = 1
address = "http://10.0.0.1:8000"

[[cluster.nodes]]
name = "b"
id = {second_id}
address = "http://10.0.0.2:8000"
"""


def config_check(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    from typer.testing import CliRunner

    from tapete.cli import app

    path = tmp_path / "casino.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["config", "check", str(path)])
    return result.exit_code, result.output.strip().splitlines()


def test_config_check_reads_the_cluster(tmp_path: Path) -> None:
    code, lines = config_check(tmp_path, CLUSTER_FILE.format(takeover=10, second_id=2))
    assert code == 0, lines
    code, lines = config_check(tmp_path, CLUSTER_FILE.format(takeover=1, second_id=2))
    assert code == 2 and any("cluster.takeover_s" in line and "at least 3" in line for line in lines), lines
    code, lines = config_check(tmp_path, CLUSTER_FILE.format(takeover=10, second_id=1))
    assert code == 2 and any("id must be unique" in line for line in lines), lines


def test_serve_refuses_a_node_the_file_does_not_name(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tapete.cli import app

    path = tmp_path / "casino.toml"
    path.write_text(CLUSTER_FILE.format(takeover=10, second_id=2), encoding="utf-8")
    result = CliRunner().invoke(app, ["serve", "--config", str(path), "--port", "0", "--node", "z"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error bad-option: --node z: not a node of the casino file's [cluster] (a, b)"], result.output


def test_a_cluster_node_needs_postgresql_and_every_process_a_node(tmp_path: Path) -> None:
    """A process of a casino whose file names its nodes is one of them (else it would own tables unseen by the
    others); a node on SQLite is refused (one writer per database: nothing to route)."""
    import tomllib

    from tapete.core.errors import TapeteError
    from tapete.server.config import CasinoConfig, validate
    from tapete.server.http.app import create_app

    config = validate(CasinoConfig.model_validate(tomllib.loads(CLUSTER_FILE.format(takeover=10, second_id=2))))
    with pytest.raises(TapeteError, match="start each process with --node NAME"):
        create_app(config, "postgresql://tapete@127.0.0.1:9/casino")
    with pytest.raises(TapeteError, match="needs PostgreSQL"):
        create_app(config, f"sqlite:///{tmp_path / 'casino.db'}", node="a")
