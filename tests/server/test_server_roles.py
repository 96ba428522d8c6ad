"""Who may do what, endpoint by endpoint and role by role (docs/server.md § Roles and authorisation).

The found attack: a chief restricted to one table (`tables = ["ruleta"]`) opened, through POST /api/users, an
unrestricted chief+croupier account, or a player+cashier account that deposited 10^11 cents into its own wallet.
The policy: staff accounts come from the operator only (the casino file, `tapete users`); through the API a cashier
opens player accounts and nobody else opens any; no account is both cashier and player; a cashier never moves
money to or from his own wallet; staff with a `tables` list act on, and see the private side of, those tables only.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from .conftest import PASSWORD  # type: ignore[import-not-found]

RULETA = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}}
VIVO = {"id": "vivo", "game": "roulette-french", "jurisdiction": "ES-IB", "source": "croupier", "auto": False,
        "table": {"minimum": 100}}
STAFF = [{"username": "jefa", "roles": ["chief", "croupier"], "tables": ["ruleta"]},
         {"username": "cajera", "roles": ["cashier"], "tables": ["ruleta"]}]
ROLES = ("anonymous", "ana", "croupier", "jefe", "jefa", "cajero", "cajera", "inspector")
TABLES = ("ruleta", "vivo")

Rule = Callable[[str, str], bool]          # (user, table) -> allowed


def anyone(user: str, table: str) -> bool:
    return True


def logged_in(user: str, table: str) -> bool:
    return user != "anonymous"


def nobody(user: str, table: str) -> bool:
    return False


def only(*users: str, works: bool = False) -> Rule:
    """These users; with `works`, the restricted ones (jefa, cajera work ruleta) only at their table."""
    def rule(user: str, table: str) -> bool:
        return user in users and (not works or user not in ("jefa", "cajera") or table == "ruleta")
    return rule


CROUPIERS = only("croupier", "jefe", "jefa", works=True)
CHIEFS = only("jefe", "jefa", works=True)
MATRIX: list[tuple[str, str, Any, Rule]] = [
    ("GET", "/api/health", None, anyone),
    ("GET", "/api/health/live", None, anyone),
    ("POST", "/api/health/verify", None, only("jefe", "inspector")),
    ("GET", "/api/games", None, anyone),
    ("GET", "/api/tables", None, anyone),
    ("GET", "/api/tables/{t}", None, logged_in),
    ("GET", "/api/tables/{t}/actions", None, logged_in),
    ("GET", "/api/tables/{t}/view", None, logged_in),
    ("GET", "/api/tables/{t}/layout", None, anyone),
    ("GET", "/api/tables/{t}/hint?bet=b1", None, logged_in),
    ("POST", "/api/login", {"username": "ana", "password": PASSWORD}, anyone),
    ("POST", "/api/session", {"username": "ana", "password": PASSWORD}, anyone),    # the browser's login (cookie)
    ("POST", "/api/register", {"username": "nuevo", "password": "a-long-new-password"}, nobody),   # the cashier's desk here
    ("GET", "/api/me", None, logged_in),
    ("POST", "/api/me/name", {"name": "Nombre {u}"}, only("ana")),
    ("GET", "/api/me/care", None, only("ana")),                      # issue 31: the player's own, staff have none
    ("POST", "/api/me/limits", {"kind": "session", "value": 600}, only("ana")),
    ("GET", "/api/me/statement", None, only("ana")),
    ("GET", "/api/me/rounds", None, only("ana")),
    ("GET", "/api/me/disputes", None, only("ana")),                 # the player's own complaints (issue 30)
    ("POST", "/api/users", {"username": "p-{u}", "password": "a-long-new-password"}, only("cajero", "cajera")),
    ("GET", "/api/wallets/luis", None, only("cajero", "cajera", "inspector")),
    ("POST", "/api/cashier/deposit", {"user": "luis", "amount": 100}, only("cajero", "cajera")),
    ("POST", "/api/cashier/withdraw", {"user": "luis", "amount": 100}, only("cajero", "cajera")),
    ("POST", "/api/tables/{t}/float", {"amount": 100}, only("cajero", "cajera", "jefe", "jefa", works=True)),
    ("GET", "/api/ledger", None, only("cajero", "jefe", "inspector")),
    ("GET", "/api/stats", None, only("cajero", "jefe", "inspector")),
    ("POST", "/api/tables/{t}/bets", {"bets": [{"kind": "red", "amount": 100}]}, only("ana")),
    ("POST", "/api/tables/{t}/acts", {"bet": "b1", "do": "prison"}, only("ana", "croupier", "jefe", "jefa", works=True)),
    ("POST", "/api/tables/{t}/seats", {"seat": 1, "buy_in": 1000}, only("ana")),
    ("POST", "/api/tables/{t}/seats/leave", None, only("ana")),
    ("POST", "/api/tables/{t}/seats/rebuy", {"amount": 1000}, only("ana")),
    ("POST", "/api/tables/{t}/seats/rest", {"rest": True}, only("ana")),
    ("DELETE", "/api/tables/{t}/seats", None, only("ana")),
    ("POST", "/api/tables/{t}/open", None, CROUPIERS),
    ("POST", "/api/tables/{t}/close", None, CROUPIERS),
    ("POST", "/api/tables/{t}/draw", None, CROUPIERS),
    ("POST", "/api/tables/{t}/outcome", {"value": 7}, CROUPIERS),
    ("POST", "/api/tables/{t}/confirm", None, CROUPIERS),
    ("POST", "/api/tables/{t}/correct", {"value": 7, "reason": "keyed wrong"}, CHIEFS),
    ("POST", "/api/tables/{t}/void", {"reason": "inspector"}, CHIEFS),
    ("POST", "/api/tables/{t}/limits", {"values": {"minimum": 200}}, CHIEFS),
    ("POST", "/api/tables/{t}/jornada/open", {"anticipo": 1000}, CHIEFS),          # the jornada (issue 30)
    ("POST", "/api/tables/{t}/drop", {"player": "luis", "amount": 100}, CROUPIERS),
    ("POST", "/api/tables/{t}/tip", {"amount": 100}, only("ana")),
    ("POST", "/api/tables/{t}/jornada/close", {"float": 1}, CHIEFS),
    ("POST", "/api/tables/{t}/disputes", {"round": 1, "reason": "short paid"}, only("jefe", "jefa", "inspector", works=True)),
    ("POST", "/api/tables/{t}/disputes/999/close", {"outcome": "upheld", "note": "paid"},
     only("jefe", "jefa", "inspector", works=True)),
    ("GET", "/api/jornada", None, only("jefe", "jefa", "inspector")),
    ("GET", "/api/tables/{t}/log", None, only("jefe", "jefa", "inspector", works=True)),
    ("GET", "/api/staff-log", None, only("inspector")),
    ("GET", "/api/players?q=lu", None, only("cajero", "cajera", "inspector")),          # the cashier's search (issue 30)
    ("GET", "/api/tables/{t}/preview", None, CROUPIERS),
    ("GET", "/api/audit/tables/{t}", None, only("jefe", "jefa", "inspector", works=True)),
    ("GET", "/api/audit/staff", None, only("jefe", "jefa", "inspector")),              # a chief: his tables' records
    ("GET", "/api/audit/incidents", None, only("jefe", "jefa", "inspector")),
    ("GET", "/api/rounds", None, logged_in),
    ("GET", "/api/rounds/1", None, logged_in),
    ("POST", "/api/logout", None, logged_in),
    ("POST", "/api/me/exclusion", {"days": 1, "confirm": True}, only("ana")),   # last: ana is excluded after it
]


@pytest.fixture
def casino(make_casino: Any, database_url: str) -> Any:
    return make_casino([RULETA, VIVO], database_url, staff=STAFF)


def call(c: Any, user: str, method: str, path: str, body: Any) -> Any:
    headers = {"Idempotency-Key": uuid.uuid4().hex}
    if user != "anonymous":
        headers.update(c.login(user) if method != "POST" or path != "/api/logout" else _fresh_token(c, user))
    answer = c.client.request(method, path, json=body if body is not None or method == "GET" else {}, headers=headers)
    c.client.cookies.clear()        # POST /api/session sets the browser's cookie: each call stands on its own
    return answer


def _fresh_token(c: Any, user: str) -> dict[str, str]:
    token = c.client.post("/api/login", json={"username": user, "password": PASSWORD}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_every_endpoint_is_in_the_matrix(casino: Any) -> None:
    routes = {(m, r.path) for r in casino.client.app.routes if r.path.startswith("/api/") and hasattr(r, "methods")
              for m in r.methods if m != "HEAD"}
    listed = {(m, p.split("?")[0].replace("{t}", "{table_id}").replace("/1", "/{round_id}").replace("/luis", "/{username}")
                 .replace("/999/", "/{dispute_id}/"))
              for m, p, _, _ in MATRIX}
    assert routes - listed == set(), "an endpoint without its row in the role matrix"


def test_role_matrix(casino: Any) -> None:
    """Every endpoint x every role x both tables: refused (401/403) exactly where the policy says."""
    wrong = []
    for method, path, body, allowed in MATRIX:
        for table in TABLES if "{t}" in path else (None,):
            for user in ROLES:
                url = path.replace("{t}", table or "")
                doc = {k: (v.replace("{u}", f"{user}{table or ''}") if isinstance(v, str) else v) for k, v in body.items()} \
                    if isinstance(body, dict) else body
                r = call(casino, user, method, url, doc)
                refused = r.status_code in (401, 403)
                if refused == allowed(user, table or ""):
                    wrong.append(f"{method} {url} as {user}: {r.status_code} {r.text[:120]}")
                if refused:
                    assert r.json()["error"]["code"] in ("unauthenticated", "forbidden"), r.text
    assert wrong == []


def test_restricted_chief_cannot_create_accounts(casino: Any) -> None:
    """The found attack, both ways: no new chief, no player+cashier to fund itself."""
    c = casino
    for roles in (["chief", "croupier"], ["player", "cashier"], ["player"], ["croupier"], ["inspector"]):
        answer = c.post("jefa", "/api/users", {"username": "mole", "password": "a-long-new-password", "roles": roles},
                        key=None, expect=403)
        assert answer["error"]["code"] == "forbidden"
    assert c.post("jefe", "/api/users", {"username": "mole", "password": "a-long-new-password", "roles": ["chief"]},
                  key=None, expect=403)["error"]["code"] == "forbidden"       # an unrestricted chief neither
    assert c.client.post("/api/login", json={"username": "mole", "password": "a-long-new-password"}).status_code == 401


def test_cashier_opens_players_only(casino: Any) -> None:
    c = casino
    for roles, tables in ((["player", "cashier"], None), (["cashier"], None), (["croupier"], None), (["player"], ["ruleta"])):
        body = {"username": "mole", "password": "a-long-new-password", "roles": roles, **({"tables": tables} if tables else {})}
        assert c.post("cajero", "/api/users", body, key=None, expect=403)["error"]["code"] == "forbidden"
    c.post("cajero", "/api/users", {"username": "nueva", "password": "a-long-new-password"}, key=None)
    assert c.client.post("/api/login", json={"username": "nueva", "password": "a-long-new-password"}).json()["roles"] == ["player"]


def test_cashier_never_funds_his_own_wallet(casino: Any) -> None:
    c = casino
    for path in ("/api/cashier/deposit", "/api/cashier/withdraw"):
        assert c.post("cajero", path, {"user": "cajero", "amount": 10**11}, expect=403)["error"]["code"] == "forbidden"
    c.ledger()


def test_an_account_both_cashier_and_player_is_refused_everywhere(casino: Any, database_url: str) -> None:
    from sqlalchemy import update

    from tapete.core.errors import TapeteError
    from tapete.server.config import CasinoConfig
    from tapete.server.storage.db import users

    with pytest.raises(ValueError, match="both cashier and player"):
        CasinoConfig.model_validate({"users": [{"username": "x", "password": "p", "roles": ["cashier", "player"]}]})
    server = casino.client.app.state.server
    with pytest.raises(TapeteError, match="both cashier and player"):
        server.auth.create_user("x", password="a-long-new-password", roles=["cashier", "player"])
    with server.db.write() as conn:       # an account left so by an older version: the cage refuses it outright
        conn.execute(update(users).where(users.c.username == "luis").values(roles="cashier,player"))
    for target in ("luis", "eva"):
        answer = casino.post("luis", "/api/cashier/deposit", {"user": target, "amount": 10**11}, expect=403)
        assert answer["error"]["code"] == "forbidden"
    assert casino.balance("luis") == 100_000
    casino.ledger()


def test_restricted_staff_see_nothing_private_of_other_tables(casino: Any) -> None:
    c = casino
    c.post("croupier", "/api/tables/vivo/open", key=None)
    c.bet("luis", "vivo", {"kind": "red", "amount": 500})
    assert c.get("jefa", "/api/tables/vivo")["open_bets"] == []          # a restricted chief: another table's bets
    assert len(c.get("jefe", "/api/tables/vivo")["open_bets"]) == 1
    c.get("jefa", "/api/tables/vivo/log", expect=403)
    c.get("jefa", "/api/ledger", expect=403)
    c.post("jefa", "/api/tables/vivo/acts", {"bet": "b1", "do": "prison"}, expect=403)


def test_staff_come_from_the_operator(casino: Any, database_url: str) -> None:
    """`tapete users` on the server's host: staff accounts, role grants, passwords — each in the staff log."""
    from tapete.cli import app

    runner = CliRunner()
    db = ["--database", database_url]
    made = runner.invoke(app, ["users", "add", "jefa2", "-r", "chief", "-r", "croupier", "-t", "vivo", "--password-stdin", *db],
                         input="correct-horse-battery\n")
    assert made.exit_code == 0, made.output
    weak = runner.invoke(app, ["users", "add", "jefa3", "-r", "chief", "--password-stdin", *db], input="password123\n")
    assert weak.exit_code == 2 and "weak-password" in weak.output
    short = runner.invoke(app, ["users", "add", "jefa3", "-r", "chief", "--password-stdin", *db], input="Tq9#zL\n")
    assert short.exit_code == 2 and "10 characters" in short.output
    both = runner.invoke(app, ["users", "roles", "jefa2", "-r", "cashier", "-r", "player", *db])
    assert both.exit_code == 2 and "both cashier and player" in both.output
    assert runner.invoke(app, ["users", "roles", "jefa2", "-r", "chief", "-t", "vivo", *db]).exit_code == 0
    r = casino.client.post("/api/login", json={"username": "jefa2", "password": "correct-horse-battery"})
    assert r.json()["roles"] == ["chief"]
    log = casino.get("inspector", "/api/staff-log")
    assert log["chain"]["ok"]
    actions = [(x["actor"], x["action"], x["subject"]) for x in log["records"]]
    assert ("operator", "account-created", "jefa2") in actions and ("operator", "roles-granted", "jefa2") in actions
    assert ("config", "account-created", "jefe") in actions
