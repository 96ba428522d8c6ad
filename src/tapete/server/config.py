"""The casino configuration file (TOML): jurisdiction, tables, games, limits, timing, opening hours, staff.

Validated twice at start-up: its shape by pydantic, its substance by the engine — every table is opened
with its game's `open(jurisdiction, table)`, so a limit the jurisdiction does not allow, an unknown table
key or a game the jurisdiction does not have stops the server before it takes a bet.
"""

from __future__ import annotations

import re
import tomllib
from datetime import datetime, time
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tapete.core.errors import TapeteError
from tapete.server.accounts import PASSWORD_POLICY, ROLES, check_password, staff_who_play

__all__ = ["ROLES"]
Seconds = float                             # an alias: TableConfig has a field named `float`
HOURS = re.compile(r"^(\d{2}):(\d{2})-(\d{2}):(\d{2})$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Timing(Strict):
    """Seconds per phase. `bets`: betting open; `spin`: from no va más to the electronic outcome; `act`:
    for each decision due at a card table (then the game's defaults apply); `pause`: results on show before
    the next round; `confirm`: auto-confirm a keyed result after this long (0: the croupier confirms)."""

    bets: float = Field(20.0, ge=0)
    spin: float = Field(3.0, ge=0)
    act: float = Field(20.0, ge=0)
    pause: float = Field(5.0, ge=0)
    confirm: float = Field(0.0, ge=0)


class TableConfig(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,47}$")
    game: str
    jurisdiction: str | None = None
    name: str | None = None
    source: Literal["rng", "croupier"] = "rng"
    auto: bool = True                       # the server's clock drives the phases; False: the croupier does
    table: dict[str, Any] = Field(default_factory=dict)
    timing: Timing = Field(default_factory=Timing)
    hours: list[str] = Field(default_factory=lambda: ["00:00-24:00"])
    float: int = Field(1_000_000, ge=0)     # cents the bank puts on the table at creation
    recovery: Literal["resume", "void"] = "resume"
    seats: int = Field(0, ge=0)             # 0: as many players as come
    # circle poker: seconds after a hand before its seed (which rebuilds every hole card) reaches the players;
    # None: when the table's session ends (it closes outside its hours). The inspector reads it at once.
    seed_delay: Seconds | None = Field(None, ge=0)
    # a reversible cloth (000:314; 002:254; 003:690): tables naming the same physical table are its cloths, each with
    # its own number and books; the jornada lets one play at a time and counts the game changes (server/jornada)
    cloth_of: str | None = Field(None, pattern=r"^[a-z0-9][a-z0-9-]{0,47}$")

    @field_validator("hours")
    @classmethod
    def _hours(cls, value: list[str]) -> list[str]:
        for h in value:
            m = HOURS.match(h)
            if not m or any(int(hh) > 24 or int(mm) > 59 or (int(hh) == 24 and int(mm)) for hh, mm in ((m[1], m[2]), (m[3], m[4]))):
                raise ValueError(f"opening hours are 'HH:MM-HH:MM' (got {h!r})")
        return value


class UserConfig(Strict):
    username: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    password: str | None = None             # the password policy's (accounts.py); a deployment gives password_hash (argon2)
    password_hash: str | None = None
    roles: list[Literal["player", "croupier", "chief", "cashier", "inspector"]] = Field(default_factory=lambda: ["player"])
    tables: list[str] | None = None         # staff: the tables they may work (None: all)
    chips: int = Field(0, ge=0)             # demo: chips bought at the cage when the user is created

    @model_validator(mode="after")
    def _secret(self) -> UserConfig:
        if not self.password and not self.password_hash:
            raise ValueError(f"user {self.username}: give password or password_hash")
        if staff_who_play(self.roles):     # docs/rulings.md#staff-never-play
            raise ValueError(f"user {self.username}: no account is both {', '.join(staff_who_play(self.roles))} and "
                             "player (staff never play)")
        return self


class Security(Strict):
    session_hours: float = Field(12.0, gt=0)
    login_attempts: int = Field(5, ge=1)    # failed logins per minute per user and per address
    argon2_time_cost: int = Field(3, ge=1)
    argon2_memory_kib: int = Field(65536, ge=8)
    argon2_parallelism: int = Field(1, ge=1)
    open_registration: bool = False         # players may open their own account (POST /api/register)
    register_attempts: int = Field(5, ge=1)  # registrations per minute per address
    hash_workers: int = Field(2, ge=1)      # argon2 hashes at once (a bounded pool: reads never wait behind it)
    max_body_kib: int = Field(64, ge=1)     # larger request bodies are refused (413) before they are read
    trusted_proxies: list[str] = Field(default_factory=list)   # addresses whose X-Forwarded-For/-Proto count
    verify_every_s: float = Field(300.0, ge=0)  # the audit chains and ledger re-verified this often (0: at start only)
    metrics_token: str | None = Field(None, min_length=16)   # /metrics for `Authorization: Bearer TOKEN`; none: loopback only
    # sockets (server/http/sockets.py): a request head within header_timeout_s of connecting (or of the last
    # answer), its body within body_timeout_s; at most max_connections open (0: the open-file limit less a reserve)
    header_timeout_s: float = Field(10.0, gt=0)
    body_timeout_s: float = Field(30.0, gt=0)
    max_connections: int = Field(0, ge=0)


class ClusterNode(Strict):
    """One server process of a routed casino: its name (`tapete serve --node NAME`), its id (the same number as
    the HAProxy `server ... id N` line: the consistent-hash ring is built from it) and the address the other
    processes forward its tables' writes to."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")
    id: int = Field(ge=1, le=65535)
    address: str = Field(pattern=r"^https?://[^/\s]+$")


class Cluster(Strict):
    """Several processes on one PostgreSQL (docs/scaling.md, "Tables owned, writes routed"): each table is
    owned by one node at a time, the one HAProxy's consistent hash of the table id picks among the live nodes;
    a write reaching another node is forwarded to the owner. `takeover_s`: a table whose owner dies is taken
    over by another node within this many seconds (its ownership connection's keepalives and the nodes'
    polling are derived from it)."""

    takeover_s: float = Field(10.0, ge=3, le=120)
    nodes: list[ClusterNode] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> Cluster:
        for what in ("name", "id", "address"):
            values = [getattr(n, what) for n in self.nodes]
            if len(values) != len(set(values)):
                raise ValueError(f"cluster.nodes: each node's {what} must be unique")
        return self

    def node(self, name: str) -> ClusterNode:
        for n in self.nodes:
            if n.name == name:
                return n
        raise TapeteError("bad-option", f"--node {name}: not a node of the casino file's [cluster] "
                          f"({', '.join(n.name for n in self.nodes) or 'none configured'})")


class Players(Strict):
    """Responsible gambling (issue 31; docs/operations.md#responsible-gambling): how long a raised limit waits before
    it counts (a lowered one counts at once), how often the table pages show the reality check, where the help
    link of every page leads, the age a player registers from."""

    raise_delay_h: float = Field(24.0, ge=24.0, le=24.0 * 90)    # cooling-off of a raised limit: a day at least
    reality_check_min: float = Field(60.0, ge=5.0, le=24.0 * 60)
    help_url: str = Field("https://www.jugarbien.es/", pattern=r"^(https?://|/)[^\s<>\"']{0,400}$")
    minimum_age: int = Field(18, ge=18, le=25)                   # Spain: no gambling under 18


class Casino(Strict):
    name: str = "tapete casino"
    jurisdiction: str = "ES"
    timezone: str = "Europe/Madrid"         # the casino's clock: opening hours and every time the staff pages show
    currency: str = "EUR"
    # game changes of a reversible cloth per jornada where the text fixes no number (ES-AN: 003:690); None: one, as
    # ES-IB and ES-GA (000:314; 002:254). docs/rulings.md#reversible-cloths
    cloth_changes: int | None = Field(None, ge=0)

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        from zoneinfo import ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"an IANA time zone such as 'Europe/Madrid' or 'Atlantic/Canary' (got {value!r})") from None
        return value


class CasinoConfig(Strict):
    casino: Casino = Field(default_factory=Casino)
    security: Security = Field(default_factory=Security)
    cluster: Cluster = Field(default_factory=Cluster)
    players: Players = Field(default_factory=Players)
    tables: list[TableConfig] = Field(default_factory=list)
    users: list[UserConfig] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> CasinoConfig:
        ids = [t.id for t in self.tables]
        if len(ids) != len(set(ids)):
            raise ValueError("table ids must be unique")
        names = [u.username for u in self.users]
        if len(names) != len(set(names)):
            raise ValueError("usernames must be unique")
        ZoneInfo(self.casino.timezone)
        return self

    def table(self, table_id: str) -> TableConfig:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise KeyError(table_id)

    def jurisdiction_of(self, t: TableConfig) -> str:
        return t.jurisdiction or self.casino.jurisdiction

    def is_open(self, t: TableConfig, now: datetime | None = None) -> bool:
        """Within the table's opening hours (a range past midnight, '20:00-04:00', spans two days)."""
        local = (now or datetime.now(ZoneInfo(self.casino.timezone))).astimezone(ZoneInfo(self.casino.timezone))
        minute = local.hour * 60 + local.minute
        for h in t.hours:
            m = HOURS.match(h)
            assert m is not None
            start, end = int(m[1]) * 60 + int(m[2]), int(m[3]) * 60 + int(m[4])
            if start == end or (start < end and start <= minute < end) or (start > end and (minute >= start or minute < end)):
                return True
        return False


def load(path: str | Path | None) -> CasinoConfig:
    """Read and validate a casino file; None gives the built-in demo casino."""
    if path is None:
        return validate(demo())
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TapeteError("bad-config", f"cannot read {path}: {exc}") from exc
    return validate(CasinoConfig.model_validate(data))


MAX_TABLE_CENTS = 10**11      # the API's largest amount (models.MAX_CENTS): no table key counts more


def check_table_values(game: Any, values: dict[str, Any]) -> None:
    """The shape of table keys, whoever sets them (the casino file, a chief's limit change): a key the game
    knows; a switch (a key whose default is true or false) takes true or false; an amount is a whole number of
    cents from 0 to MAX_TABLE_CENTS — never true, a float or a string; no other key takes true for 1. What the
    jurisdiction allows is the engine's."""
    known = {k.key: k for k in game.table_keys()}
    for key, value in values.items():
        spec = known.get(key)
        if spec is None:
            continue                     # the engine refuses a key its game does not know, citing the game
        amount = (isinstance(spec.default, int) and not isinstance(spec.default, bool)) or "cents" in spec.description \
            or key.split("-")[0] in ("minimum", "maximum")
        if isinstance(spec.default, bool):
            if not isinstance(value, bool):
                raise TapeteError("bad-table", f"{key} is true or false, not {value!r}")
        elif isinstance(value, bool) or (amount and not isinstance(value, int)):
            raise TapeteError("bad-table", f"{key} takes a whole number{'' if amount else ' or a name'}, not {value!r}")
        elif isinstance(value, int) and not 0 <= value <= MAX_TABLE_CENTS:
            raise TapeteError("bad-table", f"{key} = {value} is out of range (0 to {MAX_TABLE_CENTS} cents)")


def validate(config: CasinoConfig) -> CasinoConfig:
    """Open every table with its game: the engine refuses what the jurisdiction does not allow. (What a live
    table of each family can do is the table service's check at start: tables/adapters.py `check_live`.)"""
    from tapete.catalog import get_game

    for i, u in enumerate(config.users):
        if u.password is not None:
            try:
                check_password(u.password, u.username)
            except TapeteError:
                raise TapeteError("bad-config", f"users[{i}].password: {PASSWORD_POLICY} ({u.username})") from None
    for t in config.tables:
        try:
            game = get_game(t.game)
            check_table_values(game, t.table)
            game.rules_for(config.jurisdiction_of(t))
            game.open(config.jurisdiction_of(t), dict(t.table), *([[]] if game.uses_shoe else []))
        except TapeteError as exc:
            raise TapeteError("bad-config", f"table {t.id} ({t.game}): {exc.message}", source=exc.source) from exc
    return config


DEMO_PASSWORD = "tapete-demo"     # every demo login's (README, examples/casino.toml): the demo listens on loopback only


def demo() -> CasinoConfig:
    """A small casino to play with: electronic and live roulette, staff and two players."""
    from tapete.catalog import all_games

    tables: list[dict[str, Any]] = [
        {"id": "ruleta-1", "game": "roulette-french", "name": "Ruleta electrónica 1", "jurisdiction": "ES-AN",
         "table": {"minimum": 100, "tier": 2}, "timing": {"bets": 20, "spin": 3, "pause": 6}},
        {"id": "ruleta-2", "game": "roulette-french", "name": "Ruleta en vivo", "jurisdiction": "ES-IB",
         "source": "croupier", "auto": False, "table": {"minimum": 500}},
    ]
    known = {g.id for g in all_games()}
    if "blackjack" in known:
        tables.append({"id": "blackjack-1", "game": "blackjack", "jurisdiction": "ES", "table": {"minimum": 500},
                       "timing": {"bets": 20, "act": 20, "pause": 6}})
    if "punto-banca" in known:
        tables.append({"id": "punto-banca-1", "game": "punto-banca", "jurisdiction": "ES", "table": {"minimum": 1000},
                       "timing": {"bets": 20, "pause": 6}})
    if "craps" in known:
        tables.append({"id": "dados-1", "game": "craps", "jurisdiction": "ES", "table": {"minimum": 100},
                       "timing": {"bets": 15, "spin": 3, "pause": 4}})
    return CasinoConfig.model_validate({
        "casino": {"name": "Casino Tapete (demo)", "jurisdiction": "ES-AN"},
        "tables": tables,
        "users": [
            {"username": "croupier", "password": DEMO_PASSWORD, "roles": ["croupier"]},
            {"username": "jefe", "password": DEMO_PASSWORD, "roles": ["chief", "croupier"]},
            {"username": "cajero", "password": DEMO_PASSWORD, "roles": ["cashier"]},
            {"username": "inspector", "password": DEMO_PASSWORD, "roles": ["inspector"]},
            {"username": "ana", "password": DEMO_PASSWORD, "roles": ["player"], "chips": 100_000},
            {"username": "luis", "password": DEMO_PASSWORD, "roles": ["player"], "chips": 100_000},
        ],
    })


def parse_clock(text: str) -> time:
    h, m = text.split(":")
    return time(int(h) % 24, int(m))
