"""People and resources (issue 26, items 4, 8, 9, 10, 11): staff never play, the casino file is the truth for the
staff it declares, out-of-the-box credentials, sessions whose streams end with them, and bounded resources (idle
sockets, WebSocket frames, anonymous streams, the login and registration limits under a burst).

Each test fails on the code before its fix; those where the database matters run on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from typer.testing import CliRunner

from .conftest import PASSWORD  # type: ignore[import-not-found]

VIVO = {"id": "vivo", "game": "roulette-french", "jurisdiction": "ES-IB", "source": "croupier", "auto": False,
        "table": {"minimum": 100}}
RULETA = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}


def code(r: Any) -> str:
    return r.json()["error"]["code"]


# -- item 4: staff never play ---------------------------------------------------------------------------
@pytest.mark.parametrize("staff", [["croupier"], ["chief", "croupier"], ["chief"], ["inspector"], ["cashier"]])
def test_no_account_is_both_staff_and_player(make_casino: Any, sqlite_url: str, staff: list[str]) -> None:
    """Refused in the casino file, by the accounts service (the API's and `tapete users add`'s path) and by
    `tapete users roles`."""
    from tapete.cli import app
    from tapete.core.errors import TapeteError
    from tapete.server.config import CasinoConfig

    with pytest.raises(ValueError, match="staff never play"):
        CasinoConfig.model_validate({"users": [{"username": "x", "password": PASSWORD, "roles": [*staff, "player"]}]})
    casino = make_casino([VIVO], sqlite_url)
    with pytest.raises(TapeteError, match="staff never play"):
        casino.client.app.state.server.auth.create_user("x", password=PASSWORD, roles=[*staff, "player"])
    runner = CliRunner()
    args = [f"--role={r}" for r in [*staff, "player"]]
    both = runner.invoke(app, ["users", "roles", "croupier", *args, "--database", sqlite_url])
    assert both.exit_code == 2 and "staff never play" in both.output, both.output
    made = runner.invoke(app, ["users", "add", "mole", *args, "--password-stdin", "--database", sqlite_url],
                         input="correct-horse-battery\n")
    assert made.exit_code == 2 and "staff never play" in made.output, made.output


def test_a_croupier_never_bets_at_his_own_table(make_casino: Any, database_url: str) -> None:
    """The found attack: an account with croupier and player roles (left so in the database) bets at his live
    roulette table and keys the winning number. Every way to bet is refused (the bet lane's bearer path, the
    full stack's cookie path, the acts and seats); his balance never moves."""
    from sqlalchemy import update

    from tapete.server.storage.db import users

    c = make_casino([VIVO], database_url)
    with c.client.app.state.server.db.write() as conn:
        conn.execute(update(users).where(users.c.username == "luis").values(roles="croupier,player"))
    c.post("croupier", "/api/tables/vivo/open", key=None)
    refused = c.bet("luis", "vivo", {"kind": "straight", "on": 17, "amount": 1000}, expect=403)
    assert refused["error"]["code"] == "forbidden" and "staff never play" in refused["error"]["message"]
    browser = c.client.post("/api/session", json={"username": "luis", "password": PASSWORD})
    assert browser.status_code == 200
    r = c.client.post("/api/tables/vivo/bets", json={"bets": [{"kind": "straight", "on": 17, "amount": 1000}]},
                      headers={"Idempotency-Key": "k1", "X-CSRF-Token": c.client.cookies.get("tapete_csrf") or "",
                               "Origin": str(c.client.base_url)})
    c.client.cookies.clear()
    assert r.status_code == 403 and code(r) == "forbidden", r.text
    c.post("luis", "/api/tables/vivo/acts", {"bet": "b1", "do": "prison"}, expect=403)
    c.post("luis", "/api/tables/vivo/close", key="close-1")
    c.post("luis", "/api/tables/vivo/outcome", {"value": 17})
    c.post("luis", "/api/tables/vivo/confirm")
    assert c.get("inspector", "/api/wallets/luis")["balance"] == 100_000
    c.ledger()


# -- item 11: the login and registration limits hold under a burst ------------------------------------------
def _burst(c: Any, monkeypatch: pytest.MonkeyPatch, path: str, bodies: list[dict[str, Any]]) -> tuple[list[int], int]:
    """Send every body at once (40 threads); count the argon2 calls the server made (slowed, so that every request
    is in flight before the first is verified: the race the found burst won)."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    auth = c.client.app.state.server.auth
    hasher, calls, lock = auth.hasher, [0], threading.Lock()

    class Counting:
        def _count(self) -> None:
            with lock:
                calls[0] += 1
            time.sleep(0.05)

        def verify(self, *args: Any) -> Any:
            self._count()
            return hasher.verify(*args)

        def hash(self, *args: Any) -> Any:
            self._count()
            return hasher.hash(*args)

        def __getattr__(self, name: str) -> Any:
            return getattr(hasher, name)

    monkeypatch.setattr(auth, "hasher", Counting())
    with ThreadPoolExecutor(len(bodies)) as pool:
        answers = list(pool.map(lambda body: c.client.post(path, json=body).status_code, bodies))
    return answers, calls[0]


def test_a_burst_of_logins_gets_at_most_the_limit_verified(make_casino: Any, database_url: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The found attack: 40 wrong passwords sent at once were all verified (the limit checked, then recorded after
    the verification). Counted and recorded in one step, at most `login_attempts` (5) are verified."""
    c = make_casino([RULETA], database_url, login_attempts=5)
    answers, verified = _burst(c, monkeypatch, "/api/login", [{"username": "ana", "password": f"guess-{i:04d}-xyz"}
                                                              for i in range(40)])
    assert verified <= 5, verified
    assert sorted(set(answers)) == [401, 429] and answers.count(401) == verified
    assert c.client.post("/api/login", json={"username": "ana", "password": PASSWORD}).status_code == 429


def _identity(n: int) -> dict[str, str]:
    """What a registration asks beside the name and password (issue 31): an adult's birth date, a valid DNI."""
    return {"birth_date": "1990-01-01", "document": f"{n:08d}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"}


def test_a_burst_of_registrations_gets_at_most_the_limit(make_casino: Any, database_url: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    c = make_casino([RULETA], database_url, open_registration=True, register_attempts=3)
    answers, hashed = _burst(c, monkeypatch, "/api/register", [{"username": f"nuevo{i}", "password": "a-long-passphrase-9",
                                                                **_identity(i)} for i in range(40)])
    assert hashed <= 3 and answers.count(200) == hashed and answers.count(429) == 40 - hashed, (hashed, answers)


def test_a_good_login_takes_back_its_count(make_casino: Any, database_url: str) -> None:
    """Counted before it is verified, a login that succeeds is uncounted: the limit is on failed logins."""
    c = make_casino([RULETA], database_url, login_attempts=2)
    for _ in range(5):
        assert c.client.post("/api/login", json={"username": "ana", "password": PASSWORD}).status_code == 200
    assert c.client.post("/api/login", json={"username": "ana", "password": "wrong-password"}).status_code == 401
    assert c.client.post("/api/login", json={"username": "ana", "password": PASSWORD}).status_code == 200


# -- item 10: a stream ends with its session ---------------------------------------------------------------
@contextmanager
def _stream(c: Any, user: str) -> Iterator[Any]:
    with c.client.websocket_connect("/api/tables/vivo/stream", headers=c.login(user)) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        yield ws


def _closed_with_session_ended(ws: Any) -> None:
    """The next thing the stream sends is its close (4401), not the table's next record."""
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed:
        record = ws.receive_json()
        pytest.fail(f"the stream went on after its session ended: {str(record)[:200]}")
    assert closed.value.code == 4401 and closed.value.reason == "session-ended"


def test_a_logout_ends_the_sessions_streams(make_casino: Any, database_url: str) -> None:
    """The found attack: a logged-out croupier's stream kept sending the staff view."""
    c = make_casino([VIVO], database_url)
    with _stream(c, "croupier") as ws, _stream(c, "jefe") as other:     # another session's stream goes on
        c.post("croupier", "/api/logout", key=None)
        c.post("jefe", "/api/tables/vivo/open", key=None)
        _closed_with_session_ended(ws)
        assert other.receive_json()["seq"] > 0


def test_a_change_of_roles_ends_the_accounts_streams(make_casino: Any, database_url: str) -> None:
    """De-roled (here: taken off the table) in this process: the stream with the staff view ends at once."""
    c = make_casino([VIVO, RULETA], database_url)
    with _stream(c, "croupier") as ws:
        c.client.app.state.server.auth.set_roles("croupier", ["croupier"], ["ruleta"], actor="operator")
        c.post("jefe", "/api/tables/vivo/open", key=None)
        _closed_with_session_ended(ws)


def test_a_change_made_by_another_process_ends_the_stream_at_its_next_check(
        make_casino: Any, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`tapete users roles` on the host (another process: no signal reaches this one): the stream's periodic check
    of its session finds it gone. A record published a while later must not reach the stream first."""
    from tapete.server.http import auth, live

    monkeypatch.setattr(live, "RECHECK_S", 0.05)
    monkeypatch.setattr(auth, "SESSION_CACHE_S", 0.05)
    c = make_casino([VIVO, RULETA], database_url)
    with _stream(c, "croupier") as ws:
        _changed_elsewhere(c, ws, database_url)


def _changed_elsewhere(c: Any, ws: Any, database_url: str) -> None:
    import threading

    from tapete.cli import app

    changed = CliRunner().invoke(app, ["users", "roles", "croupier", "-r", "croupier", "-t", "ruleta", "--database", database_url])
    assert changed.exit_code == 0, changed.output
    later = threading.Timer(3.0, lambda: c.post("jefe", "/api/tables/vivo/open", key=None))
    later.start()
    try:
        _closed_with_session_ended(ws)
    finally:
        later.cancel()


# -- item 9: out-of-the-box credentials ---------------------------------------------------------------------
@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "casino.example"])
def test_the_demo_listens_on_loopback_only(host: str, tmp_path: Any) -> None:
    """The demo's passwords are published: without a casino file, any other --host is one line, exit 2."""
    from tapete.cli import app

    r = CliRunner().invoke(app, ["serve", "--host", host, "--database", f"sqlite:///{tmp_path / 'x.db'}"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "loopback" in r.stderr and "Traceback" not in r.output, r.output
    assert not (tmp_path / "x.db").exists()


@pytest.mark.parametrize(("password", "index"), [("croupier", 0), ("short", 1), ("password1234", 1), ("ana-ana", 1)])
def test_casino_file_passwords_meet_the_policy(password: str, index: int, tmp_path: Any) -> None:
    """A casino file's plain passwords obey `tapete users`'s policy; the refusal is one line: key path, expected."""
    from tapete.cli import app

    path = tmp_path / "casino.toml"
    users = [("croupier", PASSWORD if index else password), ("ana", password if index else PASSWORD)]
    path.write_text("".join(f'[[users]]\nusername = "{u}"\npassword = "{p}"\nroles = ["{"player" if u == "ana" else "croupier"}"]\n'
                            for u, p in users), encoding="utf-8")
    r = CliRunner().invoke(app, ["serve", "--config", str(path), "--database", f"sqlite:///{tmp_path / 'x.db'}"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert f"users[{index}].password: at least 10 characters, not a common password, not the user's name" in r.stderr


def test_the_demo_and_the_example_casino_log_in_with_their_published_passwords(make_casino: Any, sqlite_url: str) -> None:
    """`make run` keeps working: the example casino and the built-in demo pass the policy, and their logins (the
    README's) open sessions."""
    from pathlib import Path

    from fastapi.testclient import TestClient

    from tapete.server.config import DEMO_PASSWORD, load
    from tapete.server.http.app import create_app

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"`{DEMO_PASSWORD}`" in readme
    example = load(Path(__file__).parents[2] / "examples" / "casino.toml")
    assert {u.password for u in example.users} == {DEMO_PASSWORD}
    demo = load(None)
    demo.security.argon2_time_cost, demo.security.argon2_memory_kib = 1, 8
    with TestClient(create_app(demo, sqlite_url, clock=False)) as client:
        for u in demo.users:
            r = client.post("/api/login", json={"username": u.username, "password": DEMO_PASSWORD})
            assert r.status_code == 200 and r.json()["roles"] == sorted(u.roles), r.text


def test_serve_prints_the_demo_logins(tmp_path: Any) -> None:
    import subprocess
    import sys

    from .conftest import free_port  # type: ignore[import-not-found]

    proc = subprocess.Popen([sys.executable, "-m", "tapete.cli", "serve", "--port", str(free_port()), "--database",
                             f"sqlite:///{tmp_path / 'demo.db'}", "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
    finally:
        proc.terminate()
        proc.wait(20)
    assert lines[2].startswith("tapete: demo logins: ") and "ana/tapete-demo (player)" in lines[2], lines


# -- item 8: the casino file is the truth for its staff, on every start --------------------------------------
def _file_casino(url: str, users: list[dict[str, Any]]) -> Any:
    """A casino from exactly these [[users]] (each with PASSWORD unless given), as a restart with that file."""
    from fastapi.testclient import TestClient

    from tapete.server.config import CasinoConfig, validate
    from tapete.server.http.app import create_app

    from .conftest import FAST_ARGON2, Casino  # type: ignore[import-not-found]

    config = validate(CasinoConfig.model_validate({
        "casino": {"name": "test casino", "jurisdiction": "ES"}, "security": FAST_ARGON2, "tables": [VIVO, RULETA],
        "users": [{"password": PASSWORD, **u} for u in users]}))
    client = TestClient(create_app(config, url, clock=False))
    client.__enter__()
    return Casino(client)


def _login(c: Any, user: str, password: str = PASSWORD) -> Any:
    return c.client.post("/api/login", json={"username": user, "password": password})


def test_staff_removed_demoted_or_repassworded_in_the_file_follow_it_after_a_restart(database_url: str) -> None:
    """The found attack: a croupier removed from the casino file, a chief demoted, a cashier given a new password
    kept, after a restart, their accounts, roles and old passwords. Now: removed → disabled (no login, sessions
    ended), roles and password from the file, each change in the staff log; untouched staff keep their sessions;
    players are theirs once made; re-declared, an account comes back."""
    new_pw = "a-new-cage-password"
    first = [{"username": "croupier", "roles": ["croupier"]}, {"username": "jefe", "roles": ["chief", "croupier"]},
             {"username": "cajero", "roles": ["cashier"]}, {"username": "inspector", "roles": ["inspector"]},
             {"username": "ana", "roles": ["player"], "chips": 1000}, {"username": "luis", "roles": ["player"]}]
    one = _file_casino(database_url, first)
    tokens = {u: one.login(u) for u in ("croupier", "jefe", "cajero", "inspector", "ana")}
    one.client.__exit__(None, None, None)

    second = [{"username": "jefe", "roles": ["croupier"], "tables": ["vivo"]},          # demoted, one table
              {"username": "cajero", "roles": ["cashier"], "password": new_pw},         # a new password
              {"username": "inspector", "roles": ["inspector"]},                        # unchanged
              {"username": "ana", "roles": ["player"], "chips": 1000}]                  # croupier, luis: gone
    two = _file_casino(database_url, second)
    assert _login(two, "croupier").status_code == 401                                   # removed: disabled
    assert two.client.get("/api/me", headers=tokens["croupier"]).status_code == 401     # and his session ended
    assert two.client.get("/api/me", headers=tokens["jefe"]).status_code == 401
    assert _login(two, "jefe").json()["roles"] == ["croupier"]
    assert two.post("jefe", "/api/tables/ruleta/open", key=None, expect=403)["error"]["code"] == "forbidden"
    assert two.post("jefe", "/api/tables/vivo/void", {"reason": "x"}, expect=403)["error"]["code"] == "forbidden"
    assert _login(two, "cajero").status_code == 401 and _login(two, "cajero", new_pw).status_code == 200
    assert two.client.get("/api/me", headers=tokens["cajero"]).status_code == 401
    assert two.client.get("/api/me", headers=tokens["inspector"]).status_code == 200   # unchanged: still logged in
    assert two.client.get("/api/me", headers=tokens["ana"]).json()["balance"] == 1000  # a player: untouched
    assert _login(two, "luis").status_code == 200                                       # a player removed: his own
    log = two.get("inspector", "/api/staff-log")
    assert log["chain"]["ok"]
    done = {(r["actor"], r["action"], r["subject"]) for r in log["records"]}
    assert {("config", "account-disabled", "croupier"), ("config", "roles-granted", "jefe"),
            ("config", "password-set", "cajero")} <= done
    assert not {r for r in done if r[2] in ("inspector", "ana") and r[1] not in ("account-created", "deposit")}
    two.client.__exit__(None, None, None)

    three = _file_casino(database_url, [*second, {"username": "croupier", "roles": ["croupier"]}])   # back
    assert _login(three, "croupier").json()["roles"] == ["croupier"]
    three.client.__exit__(None, None, None)


def test_the_operators_own_staff_are_not_the_files(database_url: str) -> None:
    """An account made with `tapete users add` and never named by the file survives every start."""
    from tapete.cli import app

    one = _file_casino(database_url, [{"username": "inspector", "roles": ["inspector"]}])
    made = CliRunner().invoke(app, ["users", "add", "noche", "-r", "croupier", "--password-stdin", "--database", database_url],
                              input="correct-horse-battery\n")
    assert made.exit_code == 0, made.output
    one.client.__exit__(None, None, None)
    two = _file_casino(database_url, [{"username": "inspector", "roles": ["inspector"]}])
    assert _login(two, "noche", "correct-horse-battery").json()["roles"] == ["croupier"]
    two.client.__exit__(None, None, None)


# -- item 11: sockets, frames and streams bounded -------------------------------------------------------------
@pytest.fixture
def small_server(tmp_path: Any) -> Iterator[Any]:
    """`tapete serve` under an open-file limit of 256 (soft and hard: it cannot raise it), a 1 s head deadline."""
    import resource
    import subprocess
    import sys
    import time

    import httpx

    from .conftest import FAST_ARGON2, free_port  # type: ignore[import-not-found]

    port = free_port()
    config = tmp_path / "casino.toml"
    config.write_text("[security]\n" + "".join(f"{k} = {v}\n" for k, v in FAST_ARGON2.items()) + "header_timeout_s = 1\n"
                      '[[tables]]\nid = "ruleta"\ngame = "roulette-french"\njurisdiction = "ES"\nauto = false\n'
                      'table = { minimum = 100 }\n'
                      f'[[users]]\nusername = "ana"\npassword = "{PASSWORD}"\n', encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "tapete.cli", "serve", "--port", str(port), "--config", str(config),
                             "--database", f"sqlite:///{tmp_path / 'c.db'}", "--log-level", "warning"],
                            stdout=log, stderr=subprocess.STDOUT, preexec_fn=limit)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()


def test_idle_sockets_never_lock_out_a_request(small_server: int) -> None:
    """The found attack: ~1,100 idle sockets under a 1,024-file limit and nobody else got in. Here 400 idle sockets
    under a 256-file limit: a normal request is still answered (the oldest idle connections make room), and a
    head dribbled a byte at a time is cut at its deadline."""
    import socket

    import httpx

    idle = []
    try:
        for _ in range(400):
            idle.append(socket.create_connection(("127.0.0.1", small_server), timeout=10))
        r = httpx.get(f"http://127.0.0.1:{small_server}/api/health", timeout=20)
        assert r.status_code == 200
    finally:
        for s in idle:
            s.close()
    with socket.create_connection(("127.0.0.1", small_server), timeout=10) as slow:
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        closed = False
        for _ in range(40):                         # one byte every 0.25 s: 10 s if nothing cut it
            try:
                slow.sendall(b"X")
                slow.settimeout(0.25)
                if slow.recv(1024) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        assert closed, "a head dribbled byte by byte held its connection past the head deadline"


def test_websocket_frames_are_small(small_server: int) -> None:
    """The anonymous lobby stream took 16 MiB frames (40 sockets: +1.2 GiB): now a message over 16 KiB closes the
    socket (1009, too big) before it is buffered."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{small_server}/api/lobby/stream", max_size=None, open_timeout=10) as ws:
        ws.recv(timeout=10)
        ws.send("ping")
        ws.send("x" * (1 << 20))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_one_address_takes_only_its_share_of_the_lobby_streams(make_casino: Any, sqlite_url: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby stream needs no session: one address holds at most LOBBY_PER_ADDRESS of them (1013 busy), the
    casino-wide bound stays for everyone else."""
    from starlette.websockets import WebSocketDisconnect

    import tapete.server.http.web as web

    monkeypatch.setattr(web, "LOBBY_PER_ADDRESS", 2)
    c = make_casino([RULETA], sqlite_url)
    with c.client.websocket_connect("/api/lobby/stream") as one, c.client.websocket_connect("/api/lobby/stream") as two:
        assert one.receive_json()["id"] == two.receive_json()["id"] == "ruleta"
        with c.client.websocket_connect("/api/lobby/stream") as third, pytest.raises(WebSocketDisconnect) as closed:
            third.receive_json()
        assert closed.value.code == 1013
    with c.client.websocket_connect("/api/lobby/stream") as again:
        assert again.receive_json()["id"] == "ruleta"
