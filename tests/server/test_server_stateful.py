"""Table integrity, searched for (issue 26): a Hypothesis state machine drives a real server (the app, its
database, its writer threads) through random sequences of bets, acts, no va más, draws, voids, limit changes,
logouts and restarts, by random roles, at roulette, blackjack, punto y banca, chemin de fer and hold'em. After
every step:

- the ledger balances (every transaction sums to zero, and so does the whole book);
- an act the server took was one it offered that player a moment before (`GET /actions`): nothing is taken
  outside its phase, and a refused act changed nothing — not the money, not the phase;
- no card reaches a player before it is public: a card named in anything a player was answered (his view, his
  actions, the answers to his requests, refusals included) is a card already dealt in that table's round, and at
  hold'em (one deck: every card is unique) no player sees another's hole cards;
and at the end of every sequence no table is stuck: the staff bring each one back to a round that takes bets.

CI runs a bounded number of sequences (`TAPETE_STATEFUL_EXAMPLES`, default 6 per table, of up to 30 steps; a third of that on PostgreSQL);
`benchmarks/bench_stateful.py` runs a long search and stores its result.
"""

from __future__ import annotations

import os
import re
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tapete.server.tables.shoes import dealt_cards

from .conftest import PASSWORD, casino_config  # type: ignore[import-not-found]

PLAYERS = {"ana": 500_000, "luis": 500_000, "eva": 500_000, "pepe": 500_000}
TABLES = [
    {"id": "ru", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 100}},
    {"id": "bj", "game": "blackjack", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 500}},
    {"id": "pb", "game": "punto-banca", "jurisdiction": "ES", "auto": False, "table": {"minimum": 1000}},
    {"id": "cf", "game": "chemin-de-fer", "jurisdiction": "ES", "auto": False, "table": {"minimum": 1000}},
    {"id": "he", "game": "holdem", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 200, "forced": "blinds"}},
]
TABLE_IDS = [t["id"] for t in TABLES]
STAFF = ("croupier", "jefe", "inspector", "cajero")
USERS = (*PLAYERS, *STAFF)
VERBS = {   # the verbs tried at each table, offered or not (decision names of the engines)
    "ru": ("prison", "half"),
    "bj": ("stand", "hit", "double", "split", "insurance", "surrender", "even-money"),
    "pb": ("draw", "stand"),
    "cf": ("banco", "draw", "stand", "pass", "take"),
    "he": ("check", "call", "fold", "raise", "show"),
}
CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|X[1-9])\b")
EXAMPLES = int(os.environ.get("TAPETE_STATEFUL_EXAMPLES", "6"))


def bets_for(table: str, player_no: int) -> list[dict[str, Any]]:
    """The stakes a player may try at each table (some are refused, which is part of the search)."""
    seat = player_no + 1
    return {
        "ru": [{"kind": "straight", "on": [17], "amount": 100}, {"kind": "red", "amount": 500},
               {"kind": "even", "amount": 300}, {"kind": "dozen", "on": [2], "amount": 200}],
        "bj": [{"kind": "main", "amount": 500, "extra": {"box": seat}}, {"kind": "main", "amount": 1000, "extra": {"box": seat}}],
        "pb": [{"kind": "player", "amount": 1000}, {"kind": "banker", "amount": 2000}, {"kind": "tie", "amount": 1000}],
        "cf": [{"kind": "bank", "amount": 20_000, "extra": {"seat": seat}},
               {"kind": "player", "amount": 1000, "extra": {"seat": seat}},
               {"kind": "player", "amount": 3000, "extra": {"seat": seat}}],
        "he": [],
    }[table]


def cards_in(doc: Any, skip: frozenset[str] = frozenset({"recent"})) -> set[str]:
    """Every card named anywhere in a JSON document (keys in `skip` — past coups — left out)."""
    found: set[str] = set()
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k not in skip:
                found |= cards_in(v, skip)
    elif isinstance(doc, list):
        for v in doc:
            found |= cards_in(v, skip)
    elif isinstance(doc, str):
        found |= set(CARD.findall(doc))
    return found


class Server:
    """The app on one database, restartable; logins kept per user until logout or restart."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.client: Any = None
        self.tokens: dict[str, str] = {}
        self.start()

    def start(self) -> None:
        from fastapi.testclient import TestClient

        from tapete.server.http.app import create_app

        app = create_app(casino_config(TABLES, PLAYERS, [{"username": "eva2", "roles": ["player"], "chips": 0}]),
                         self.url, clock=False)
        self.client = TestClient(app)
        self.client.__enter__()
        owner = app.state.server.ownership
        import time

        end = time.monotonic() + 20
        while set(TABLE_IDS) - set(owner.owned) and time.monotonic() < end:
            time.sleep(0.05)
        self.tokens = {}

    def stop(self) -> None:
        if self.client is not None:
            self.client.__exit__(None, None, None)
            self.client = None

    def headers(self, user: str | None) -> dict[str, str]:
        if user is None:
            return {}
        if user not in self.tokens:
            r = self.client.post("/api/login", json={"username": user, "password": PASSWORD})
            assert r.status_code == 200, r.text
            self.tokens[user] = r.json()["token"]
        return {"Authorization": f"Bearer {self.tokens[user]}"}

    def post(self, user: str, path: str, body: Any = None) -> tuple[int, Any]:
        h = {**self.headers(user), "Idempotency-Key": uuid.uuid4().hex}
        r = self.client.post(path, json=body if body is not None else {}, headers=h)
        assert r.status_code < 500, f"{path}: {r.status_code} {r.text}"
        return r.status_code, r.json()

    def get(self, user: str | None, path: str) -> tuple[int, Any]:
        r = self.client.get(path, headers=self.headers(user))
        assert r.status_code < 500, f"{path}: {r.status_code} {r.text}"
        return r.status_code, r.json()

    def app_server(self) -> Any:
        return self.client.app.state.server

    def state(self, table: str) -> tuple[dict[str, Any], Any]:
        server = self.app_server()
        with server.db.read() as conn:
            return server.service.state_of(conn, table)

    def balances(self) -> dict[str, int]:
        from tapete.server.money import ledger

        server = self.app_server()
        with server.db.read() as conn:
            return ledger.balances(conn)


class TableIntegrity(RuleBasedStateMachine):
    """Random staff and players at five tables; the invariants in the module's docstring after every step."""

    url: str = ""
    table: str = "ru"      # the table this machine plays (one per test: the search stays where the play is)

    def __init__(self) -> None:
        super().__init__()
        self.server = Server(self.url)
        self.answers: list[tuple[str, str, Any]] = []     # (user, table, document) answered in this step

    def teardown(self) -> None:
        try:
            self.bring_back(self.table)
        finally:
            self.server.stop()

    # -- helpers ------------------------------------------------------------------------------------
    def phase(self, table: str) -> str:
        return self.server.state(table)[0]["phase"]

    def offered(self, user: str, table: str) -> list[dict[str, Any]]:
        status, doc = self.server.get(user, f"/api/tables/{table}/actions")
        self.answers.append((user, table, doc))
        return doc.get("decisions", []) if status == 200 else []

    def money_and_phase(self, table: str) -> tuple[dict[str, int], str]:
        return self.server.balances(), self.phase(table)

    def remember(self, user: str, table: str, doc: Any) -> None:
        if user in PLAYERS:
            self.answers.append((user, table, doc))

    def open_bets(self, user: str, table: str) -> list[str]:
        server = self.server.app_server()
        from sqlalchemy import select

        from tapete.server.storage.db import bets

        with server.db.read() as conn:
            return [r for r in conn.execute(select(bets.c.bet_id).where(
                bets.c.table_id == table, bets.c.player == user, bets.c.status == "open")).scalars()]

    def bring_back(self, table: str) -> None:
        """The staff finish or void whatever is in progress; then a round opens and (but at hold'em) takes a bet."""
        s = self.server
        for _ in range(60):
            phase = self.phase(table)
            if phase in ("idle", "settled", "betting"):
                break
            if phase == "closed":
                s.post("croupier", f"/api/tables/{table}/draw")
            elif phase == "confirming":
                s.post("croupier", f"/api/tables/{table}/confirm")
            elif phase == "acting" and not self.take_a_due_decision(table):
                s.post("jefe", f"/api/tables/{table}/void", {"reason": "stuck in the test"})
        phase = self.phase(table)
        assert phase in ("idle", "settled", "betting"), f"table {table} stuck in {phase}"
        if table == "he":
            return
        if phase != "betting":
            status, doc = s.post("croupier", f"/api/tables/{table}/open")
            assert status == 200, f"table {table} cannot open: {doc}"
        bet = {"ru": {"kind": "red", "amount": 500}, "bj": {"kind": "main", "amount": 500, "extra": {"box": 7}},
               "pb": {"kind": "player", "amount": 1000}, "cf": None}[table]
        if bet is not None:
            status, doc = s.post("ana", f"/api/tables/{table}/bets", {"bets": [bet]})
            assert status == 200, f"table {table} takes no bet: {doc}"

    def take_a_due_decision(self, table: str) -> bool:
        """Whoever holds the first decision the table offers takes it. False when nobody can."""
        for user in (*PLAYERS, "croupier"):
            mine = [d for d in self.offered(user, table) if d.get("mine")]
            if mine:
                d = mine[0]
                body = {k: d[k] for k in ("bet", "by", "do") if d.get(k) is not None}
                if d.get("minimum") is not None and d["do"] in ("raise", "bet"):
                    body["fields"] = {"amount": d["minimum"]}
                if d["do"] == "set":
                    return False
                status, _ = self.server.post(user, f"/api/tables/{table}/acts", body)
                if status == 200:
                    return True
        return False

    # -- rules --------------------------------------------------------------------------------------
    @initialize()
    def fresh(self) -> None:
        """Every table but hold'em opens for bets: the sequences start where the play is."""
        if self.table != "he":
            self.server.post("croupier", f"/api/tables/{self.table}/open")
        self.answers.clear()

    @precondition(lambda self: self.table != "he")
    @rule(who=st.integers(0, 3))
    def round_with_stakes(self, who: int) -> None:
        table = self.table
        """A round the usual way: open where needed, two players stake, no va más."""
        if self.phase(table) != "betting":
            self.server.post("croupier", f"/api/tables/{table}/open")
        for n in (who, (who + 1) % 4):
            player = list(PLAYERS)[n]
            _, doc = self.server.post(player, f"/api/tables/{table}/bets", {"bets": [bets_for(table, n)[0]]})
            self.remember(player, table, doc)

    @rule(user=st.sampled_from(("croupier", "jefe", "ana")))
    def open(self, user: str) -> None:
        table = self.table
        status, doc = self.server.post(user, f"/api/tables/{table}/open")
        self.remember(user, table, doc)
        if user == "ana":
            assert status in (401, 403), doc

    @precondition(lambda self: self.table != "he")
    @rule(who=st.integers(0, 3), which=st.integers(0, 3))
    def bet(self, who: int, which: int) -> None:
        table = self.table
        player = list(PLAYERS)[who]
        choices = bets_for(table, who)
        before, phase = self.money_and_phase(table)
        status, doc = self.server.post(player, f"/api/tables/{table}/bets", {"bets": [choices[which % len(choices)]]})
        self.remember(player, table, doc)
        if status == 200:
            assert phase == "betting", (table, phase, doc)
        else:
            assert self.server.balances() == before, (table, doc)

    @precondition(lambda self: self.table == "he")
    @rule(who=st.integers(0, 3), seat=st.integers(1, 6), buy_in=st.sampled_from([5_000, 20_000]))
    def sit(self, who: int, seat: int, buy_in: int) -> None:
        player = list(PLAYERS)[who]
        status, doc = self.server.post(player, "/api/tables/he/seats", {"seat": seat, "buy_in": buy_in})
        self.remember(player, "he", doc)

    @precondition(lambda self: self.table == "he")
    @rule(who=st.integers(0, 3))
    def leave(self, who: int) -> None:
        player = list(PLAYERS)[who]
        _, doc = self.server.post(player, "/api/tables/he/seats/leave")
        self.remember(player, "he", doc)

    @rule(who=st.integers(0, 3), verb=st.integers(0, 6), offered_first=st.booleans())
    def act(self, who: int, verb: int, offered_first: bool) -> None:
        """A player acts: either a decision he is offered, or any verb on any of his open bets, in any phase
        (a player with a bet at the table acts, where there is one: that is where a wrong phase would bite)."""
        table = self.table
        holders = [p for p in PLAYERS if self.open_bets(p, table)]
        player = holders[who % len(holders)] if holders else list(PLAYERS)[who]
        offered = [d for d in self.offered(player, table) if d.get("mine")]
        if offered_first and offered:
            d = offered[0]
            body = {k: d[k] for k in ("bet", "by", "do") if d.get(k) is not None}
            if d.get("minimum") is not None and d["do"] in ("raise", "bet"):
                body["fields"] = {"amount": d["minimum"]}
        else:
            mine = self.open_bets(player, table)
            body = {"do": VERBS[table][verb % len(VERBS[table])], **({"bet": mine[0]} if mine else {"by": "punto"})}
        before, phase = self.money_and_phase(table)
        status, doc = self.server.post(player, f"/api/tables/{table}/acts", body)
        self.remember(player, table, doc)
        if status == 200:
            allowed = {(d.get("bet"), d.get("by"), d["do"]) for d in offered}
            assert (body.get("bet"), body.get("by"), body["do"]) in allowed, \
                f"{table}: {player} took {body} in phase {phase}, offered {offered}"
        else:
            after, phase_after = self.money_and_phase(table)
            assert after == before and phase_after == phase, (table, body, doc)

    @rule(user=st.sampled_from(("croupier", "jefe", "luis")))
    def close(self, user: str) -> None:
        table = self.table
        status, doc = self.server.post(user, f"/api/tables/{table}/close")
        self.remember(user, table, doc)
        if user == "luis":
            assert status in (401, 403), doc

    @rule()
    def draw(self) -> None:
        self.server.post("croupier", f"/api/tables/{self.table}/draw")

    @rule()
    def confirm(self) -> None:
        self.server.post("croupier", f"/api/tables/{self.table}/confirm")

    @rule(user=st.sampled_from(("jefe", "croupier")))
    def void(self, user: str) -> None:
        table = self.table
        status, doc = self.server.post(user, f"/api/tables/{table}/void", {"reason": "the test voids"})
        if user == "croupier":
            assert status in (401, 403), doc

    @rule(minimum=st.sampled_from([100, 200, 500, 1000, 2000]))
    def limits(self, minimum: int) -> None:
        self.server.post("jefe", f"/api/tables/{self.table}/limits", {"values": {"minimum": minimum}})

    @rule()
    def finish(self) -> None:
        """Someone due decides (the round moves on, so sequences reach settlements)."""
        if self.phase(self.table) == "acting":
            self.take_a_due_decision(self.table)

    @rule(user=st.sampled_from(USERS))
    def logout(self, user: str) -> None:
        if user in self.server.tokens:
            self.server.post(user, "/api/logout")
            self.server.tokens.pop(user, None)

    @precondition(lambda self: True)
    @rule()
    def restart(self) -> None:
        self.server.stop()
        self.server.start()

    # -- invariants ---------------------------------------------------------------------------------
    @invariant()
    def ledger_balances(self) -> None:
        status, report = self.server.get("inspector", "/api/ledger")
        assert status == 200 and report["ok"] and report["sum"] == 0, report

    @invariant()
    def no_card_before_it_is_public(self) -> None:
        dealt: dict[str, set[str]] = {}
        _, state = self.server.state(self.table)
        game = self.server.app_server().service.game(self.server.app_server().service.spec(self.table))
        dealt[self.table] = set(dealt_cards(game, state) or ())
        for user in PLAYERS:
            _, doc = self.server.get(user, f"/api/tables/{self.table}/view")
            self.answers.append((user, self.table, doc))
        for user, table, doc in self.answers:
            seen = cards_in(doc)
            assert seen <= dealt[table], f"{user} at {table} was shown {sorted(seen - dealt[table])}, not dealt yet: {doc}"
        self.answers.clear()

    @precondition(lambda self: self.table == "he")
    @invariant()
    def no_hole_card_crosses_players(self) -> None:
        """Hold'em deals from one deck: a card in one player's view but not in the public view is his alone. The
        public view is a logged-in player's who never sits (eva2): the view asks for a login, and a visitor's
        answer (401) would hide the board every player is shown."""
        status, public = self.server.get("eva2", "/api/tables/he/view")
        assert status == 200, public
        shown = cards_in(public)
        private = {}
        for user in PLAYERS:
            _, doc = self.server.get(user, "/api/tables/he/view")
            private[user] = cards_in(doc) - shown
        for user, cards in private.items():
            for other, theirs in private.items():
                assert other == user or not (cards & theirs), f"{user} sees {other}'s cards {sorted(cards & theirs)}"


def machine_for(table: str, url_of: Any, examples: int, steps: int = 30) -> type[TableIntegrity]:
    """A TableIntegrity machine at `table`, each sequence on a fresh database from `url_of()`."""

    class Fresh(TableIntegrity):
        def __init__(self) -> None:
            type(self).url = url_of()
            super().__init__()

    Fresh.table = table
    Fresh.TestCase.settings = settings(max_examples=examples, stateful_step_count=steps, deadline=None,
                                       suppress_health_check=list(HealthCheck))
    return Fresh


def fresh_databases(database_url: str, tmp_path: Any) -> Any:
    """A new, empty database per sequence on the fixture's server (SQLite: a new file)."""
    counter = iter(range(1_000_000))
    if database_url.startswith("sqlite"):
        return lambda: f"sqlite:///{tmp_path / f'casino-{next(counter)}.db'}"
    base = database_url.rsplit("/", 1)[0]

    def create() -> str:
        import psycopg

        name = f"s_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"{base}/{name}"
    return create


@pytest.mark.parametrize("table", TABLE_IDS)
def test_table_integrity_state_machine(table: str, database_url: str, tmp_path: Any) -> None:
    examples = EXAMPLES if database_url.startswith("sqlite") else max(1, EXAMPLES // 3)
    machine_for(table, fresh_databases(database_url, tmp_path), examples).TestCase().runTest()


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
