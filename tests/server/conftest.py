"""Fixtures of the table-server suite: casinos, clients, and a throw-away PostgreSQL on loopback.

PostgreSQL: the Debian server binaries (`make deps`) run from a temporary directory, on 127.0.0.1 and a
free port, owned by the `postgres` user when the tests run as root (initdb refuses root). Without them
the PostgreSQL half of the suite is skipped with the reason.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

FAST_ARGON2 = {"argon2_time_cost": 1, "argon2_memory_kib": 8, "login_attempts": 5}
PASSWORD = "secret-pw-2026"


# -- PostgreSQL ---------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pg_bin() -> Path | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "initdb").exists():
            return Path(candidate)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


class Postgres:
    """A PostgreSQL cluster in a temporary directory, listening on 127.0.0.1 only."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL server binaries not found (make deps installs them)")
        self.dir = Path(tempfile.mkdtemp(prefix="tapete-pg-"))
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.dir, "postgres")
        data = self.dir / "data"
        self._run("initdb", "-D", str(data), "-U", "tapete", "--auth=trust", "-E", "UTF8", "--no-sync")
        self._run("pg_ctl", "-D", str(data), "-l", str(self.dir / "log"), "-w", "-t", "60", "-o",
                  f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
                  "-c full_page_writes=off -c max_connections=200", "start")
        self.data = data

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, capture_output=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://tapete@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    try:
        pg = Postgres()
    except (RuntimeError, subprocess.CalledProcessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        pytest.skip(f"PostgreSQL cannot start here: {exc} {detail.decode(errors='replace')[-300:]}")
    yield pg
    pg.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each server test runs against both databases."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'casino.db'}"
    return request.getfixturevalue("postgres").create_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'casino.db'}"


# -- casinos ------------------------------------------------------------------------------------------
def casino_config(tables: list[dict[str, Any]], players: dict[str, int] | None = None,
                  staff: list[dict[str, Any]] | None = None, **security: Any) -> Any:
    """`staff`: more accounts of the casino file (staff are created by the operator, never through the API)."""
    from tapete.server.config import CasinoConfig, validate

    players = {"ana": 100_000, "luis": 100_000, "eva": 100_000} if players is None else players
    users = [
        {"username": "croupier", "password": PASSWORD, "roles": ["croupier"]},
        {"username": "jefe", "password": PASSWORD, "roles": ["chief", "croupier"]},
        {"username": "cajero", "password": PASSWORD, "roles": ["cashier"]},
        {"username": "inspector", "password": PASSWORD, "roles": ["inspector"]},
        *({"username": p, "password": PASSWORD, "roles": ["player"], "chips": c} for p, c in players.items()),
        *({"password": PASSWORD, **u} for u in staff or []),
    ]
    return validate(CasinoConfig.model_validate({
        "casino": {"name": "test casino", "jurisdiction": "ES"},
        "security": {**FAST_ARGON2, **security}, "tables": tables, "users": users}))


class Casino:
    """A TestClient on an in-process server, with logins and the ledger at hand."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.tokens: dict[str, dict[str, str]] = {}

    def login(self, user: str) -> dict[str, str]:
        if user not in self.tokens:
            r = self.client.post("/api/login", json={"username": user, "password": PASSWORD})
            assert r.status_code == 200, r.text
            self.tokens[user] = {"Authorization": f"Bearer {r.json()['token']}"}
        return self.tokens[user]

    def post(self, user: str, path: str, body: Any = None, key: str | None = "auto", expect: int | None = 200) -> Any:
        headers = dict(self.login(user))
        if key is not None:
            headers["Idempotency-Key"] = uuid.uuid4().hex if key == "auto" else key
        r = self.client.post(path, json=body if body is not None else {}, headers=headers)
        if expect is not None:
            assert r.status_code == expect, f"{path}: {r.status_code} {r.text}"
        return r.json()

    def get(self, user: str | None, path: str, expect: int | None = 200) -> Any:
        r = self.client.get(path, headers=self.login(user) if user else {})
        if expect is not None:
            assert r.status_code == expect, f"{path}: {r.status_code} {r.text}"
        return r.json()

    def bet(self, user: str, table: str, *bets: dict[str, Any], expect: int = 200, key: str | None = "auto") -> Any:
        return self.post(user, f"/api/tables/{table}/bets", {"bets": list(bets)}, key=key, expect=expect)

    def balance(self, user: str) -> int:
        return self.get(user, "/api/me")["balance"]

    def ledger(self) -> dict[str, Any]:
        report = self.get("inspector", "/api/ledger")
        assert report["ok"], report
        assert report["sum"] == 0
        from tapete.server.audit.verify import verify_database

        # and the books reconcile with the chained logs (tapete audit verify)
        books = verify_database(self.client.app.state.server.db)
        assert books.ok, books.problems
        return report


@pytest.fixture
def make_casino() -> Iterator[Any]:
    """make_casino(tables, database_url, players=...) -> Casino (closed at teardown)."""
    from fastapi.testclient import TestClient

    from tapete.server.http.app import create_app

    opened: list[Any] = []

    def make(tables: list[dict[str, Any]], url: str, players: dict[str, int] | None = None, clock: bool = False,
             staff: list[dict[str, Any]] | None = None, **security: Any) -> Casino:
        app = create_app(casino_config(tables, players, staff, **security), url, clock=clock)
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return Casino(client)

    yield make
    for c in opened:
        c.__exit__(None, None, None)


# -- a real uvicorn process -------------------------------------------------------------------------
def raw_request(port: int, head: bytes, chunks: list[bytes]) -> bytes:
    """Send a request's head and a few body chunks, NOT the rest, and read what the server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        for chunk in chunks:
            s.sendall(chunk)
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = s.recv(65536)
            if not data:
                break
            answer += data
        return answer


class ServerProcess:
    """`tapete serve` in a subprocess on 127.0.0.1 (for crash and scale-out tests)."""

    def __init__(self, config_path: Path, url: str, port: int | None = None, log: Path | None = None,
                 args: list[str] | None = None) -> None:
        self.config_path, self.url, self.args = config_path, url, list(args or [])
        self.port = port or free_port()
        self.log = log or config_path.with_suffix(f".{self.port}.log")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        import httpx

        env = {**os.environ, "TAPETE_DATABASE_URL": self.url, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as fh:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tapete.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--config", str(self.config_path), "--log-level", "warning", *self.args], stdout=fh, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()          # SIGKILL: no shutdown handler runs
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def write_config(path: Path, tables: list[dict[str, Any]], players: dict[str, int]) -> Path:
    """The same casino as casino_config, as a TOML file for `tapete serve --config`."""
    import json

    def toml_value(v: Any) -> str:
        return json.dumps(v) if not isinstance(v, dict) else "{" + ", ".join(f'"{k}" = {toml_value(x)}' for k, x in v.items()) + "}"

    lines = ['[casino]', 'name = "test casino"', 'jurisdiction = "ES"', '', '[security]']
    lines += [f"{k} = {v}" for k, v in {**FAST_ARGON2, "login_attempts": 1000}.items()] + [""]
    for t in tables:
        lines.append("[[tables]]")
        lines += [f"{k} = {toml_value(v)}" for k, v in t.items()]
        lines.append("")
    users = [("croupier", ["croupier"], 0), ("jefe", ["chief", "croupier"], 0), ("cajero", ["cashier"], 0),
             ("inspector", ["inspector"], 0), *((p, ["player"], c) for p, c in players.items())]
    for name, roles, chips in users:
        lines += ["[[users]]", f'username = "{name}"', f'password = "{PASSWORD}"', f"roles = {json.dumps(roles)}",
                  f"chips = {chips}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


class Player(threading.Thread):
    """A player for the tests that kill servers: bets straight-ups and dozens (never pending) on its table through
    `base[0]` until told to stop; a failed request is sent again with the same
    key and body, so the player learns the outcome of every request it sent."""

    def __init__(self, name: str, table: str, base: list[str], stop: threading.Event, timeout: float = 20.0) -> None:
        super().__init__(daemon=True)
        self.timeout = timeout
        self.accepted_at: list[float] = []           # when each accepted answer came (monotonic)
        self.name_, self.table, self.base, self.stop_ = name, table, base, stop
        self.known: dict[tuple[str, str], int] = {}     # (table, bet id) -> amount, as the server answered
        self.errors: list[str] = []
        self.sent = self.retried = 0
        self.owners: set[str] = set()

    def run(self) -> None:
        client = httpx.Client(timeout=httpx.Timeout(self.timeout, connect=2.0))
        token: str | None = None
        pending: tuple[str, dict[str, Any]] | None = None
        n = 0
        while True:
            if pending is None:
                if self.stop_.is_set():
                    break
                n += 1
                bet = {"kind": "straight", "on": [n % 37], "amount": 100} if n % 2 else {"kind": "dozen", "on": [n % 3 + 1], "amount": 200}
                pending = (uuid.uuid4().hex, {"bets": [bet]})
            try:
                if token is None:
                    token = client.post(f"{self.base[0]}/api/login", json={"username": self.name_, "password": PASSWORD}).json()["token"]
                r = client.post(f"{self.base[0]}/api/tables/{self.table}/bets", json=pending[1],
                                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": pending[0]})
            except (httpx.HTTPError, KeyError, ValueError):
                self.retried += 1
                time.sleep(0.05)
                continue
            if r.status_code == 200:
                for b in r.json()["bets"]:
                    self.known[(self.table, b["id"])] = b["amount"]
                self.owners.add(r.headers.get("x-tapete-owner", "here"))
                self.accepted_at.append(time.monotonic())
                self.sent += 1
                pending = None
            elif r.status_code in (409, 502, 503):     # between rounds, or the table changing hands: the same again
                self.retried += r.status_code != 409
                time.sleep(0.02)
                if self.stop_.is_set() and r.status_code == 409:
                    pending = None
            elif r.status_code == 401:
                token = None
            else:
                self.errors.append(f"{r.status_code} {r.text}")
                pending = None
        client.close()
