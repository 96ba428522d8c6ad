"""Circle poker (*póquer en círculo*) at a live table: seats, buy-ins, cash-outs, and each hand dealt to the
players seated when it starts.

The players play against each other with the chips in front of them (*table stakes*, 003:4228-4233): a player
takes a free seat with a buy-in (the *resto inicial*) moved from his wallet to his stack at the table,
`stack:<table>:<player>`, in one balanced ledger transaction. Each hand opens the engine's state with the
players seated whose stack is above zero (`table.seats` from the seating, their stacks from the ledger, the
*marca* where the last hand left it), posts their `hand` bets (the forced bets the engine names) and deals.
The stakes of the hand are collected from the stacks and the settlement pays the pots back to them, the
house's take to `commission:<table>`; a stack changes only through hands. Leaving between hands returns the
stack to the wallet. The engine validates every act; this module only seats people and moves money.

A seated player may rebuy (a *reposición*) between hands and rest for two hands at most
(003:4209-4214): at the third his seat is freed and his stack goes back to his wallet.

Rulings: docs/rulings.md#circle-server-buy-in, #circle-server-seating, #circle-server-rebuy-and-sit-out.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, insert, select, update

from tapete.core.errors import TapeteError
from tapete.engine.game import Game
from tapete.games.poker.circle import CircleState
from tapete.server.money import ledger
from tapete.server.storage.db import meta_kv, users
from tapete.server.tables.adapters import adapter_for
from tapete.server.tables.open_bets import load_open_bets

if TYPE_CHECKING:
    from tapete.server.config import TableConfig
    from tapete.server.tables.service import TableService
    from tapete.server.tables.table_ctx import Ctx

log = logging.getLogger("tapete.server")

STATUS = {"seat-taken": 409, "already-seated": 409, "not-seated": 409}
SEAT_KEYS = ("seats", "button")          # the table keys the server fills for each hand from the seating
TABLE_RANGE = range(1, 11)               # seats 1-10 from the croupier's right (003:4052-4056)
ONE_SEAT = "003:4261-4263"               # no playing at two tables at once, nor holding two seats at one
# (also 003:4274-4275: "jugar en más de una mesa al mismo tiempo")


def table_stakes(game: Game) -> bool:
    """A game whose players bet only the chips in front of them, bought in at the table (circle poker)."""
    return adapter_for(game).table_stakes


def purse(ctx: Ctx, player: str) -> str:
    """The account a player's stakes come from and his returns go to: his stack at a table-stakes table,
    else his wallet."""
    return ledger.stack(ctx.table_id, player) if table_stakes(ctx.game) else ledger.wallet(player)


def table_config(game: Game, table: dict[str, Any]) -> dict[str, Any]:
    """The table keys in force without the seating (the server fills it for each hand)."""
    if not table_stakes(game):
        return dict(table)
    return {k: v for k, v in table.items() if k not in SEAT_KEYS}


# -- the seating: {seat: player}, in the database with the table's other state ----------------------------
def _key(table_id: str) -> str:
    return f"seats:{table_id}"


def load_seating(conn: Connection, table_id: str) -> dict[int, str]:
    raw = conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == _key(table_id))).scalar()
    return {int(k): v for k, v in json.loads(raw).items()} if raw else {}


def save_seating(conn: Connection, table_id: str, seating: dict[int, str]) -> None:
    value = json.dumps({str(k): v for k, v in sorted(seating.items())})
    if conn.execute(select(meta_kv.c.key).where(meta_kv.c.key == _key(table_id))).first() is None:
        conn.execute(insert(meta_kv).values(key=_key(table_id), value=value, flag=None))
    else:
        conn.execute(update(meta_kv).where(meta_kv.c.key == _key(table_id)).values(value=value))


def _rest_key(table_id: str) -> str:
    return f"rest:{table_id}"


def load_resting(conn: Connection, table_id: str) -> dict[str, int]:
    """The players resting at the table: {player: hands dealt without him since he rested}."""
    raw = conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == _rest_key(table_id))).scalar()
    return json.loads(raw) if raw else {}


def save_resting(conn: Connection, table_id: str, resting: dict[str, int]) -> None:
    value = json.dumps(resting, sort_keys=True)
    if conn.execute(select(meta_kv.c.key).where(meta_kv.c.key == _rest_key(table_id))).first() is None:
        conn.execute(insert(meta_kv).values(key=_rest_key(table_id), value=value, flag=None))
    else:
        conn.execute(update(meta_kv).where(meta_kv.c.key == _rest_key(table_id)).values(value=value))


def lock_player(conn: Connection, user: str) -> None:
    """Serialise a player's sits across tables: each sit locks its own table's row only, so on PostgreSQL two sits
    at two tables both found the player seated nowhere else and he played at four tables at once (003:4274-4275).
    The player's user row is common to all of them: the second sit waits for the first to commit, then sees it.
    SQLite has one writer at a time: nothing to lock."""
    if conn.dialect.name != "sqlite":
        conn.execute(select(users.c.username).where(users.c.username == user).with_for_update()).first()


def seated_elsewhere(conn: Connection, table_id: str, user: str) -> str | None:
    for key, raw in conn.execute(select(meta_kv.c.key, meta_kv.c.value).where(meta_kv.c.key.like("seats:%"))):
        if key != _key(table_id) and raw and user in json.loads(raw).values():
            return key.split(":", 1)[1]
    return None


def buy_in_range(game: Game, jurisdiction: str, config: dict[str, Any]) -> tuple[int, int]:
    return game.buy_in_range(jurisdiction, table_config(game, config))  # type: ignore[attr-defined]


def summary(conn: Connection, spec: TableConfig, game: Game, jurisdiction: str, config: dict[str, Any],
            state: Any) -> dict[str, Any] | None:
    """The seats of a circle table for the listing and the page: who sits where with what stack, the free
    seats, the buy-in range, the marca."""
    if not table_stakes(game):
        return None
    seating = load_seating(conn, spec.id)
    stacks = ledger.balances(conn, [ledger.stack(spec.id, p) for p in seating.values()])
    most = min(game.rules_for(jurisdiction).max_players, spec.seats or len(TABLE_RANGE))  # type: ignore[attr-defined]
    low, high = buy_in_range(game, jurisdiction, config)
    free = [s for s in TABLE_RANGE if s not in seating] if len(seating) < most else []
    return {"seats": [{"seat": s, "player": p, "stack": stacks.get(ledger.stack(spec.id, p), 0)} for s, p in sorted(seating.items())],
            "free": free, "max_players": most, "buy_in": {"minimum": low, "maximum": high},
            "button": state.button if isinstance(state, CircleState) else None}


# -- operations: each runs inside TableService.run on the locked table --------------------------------
def op_sit(ctx: Ctx, user: str, seat: int, amount: int) -> dict[str, Any]:
    """Take a free seat with a buy-in from the wallet (R: docs/rulings.md#circle-server-buy-in)."""
    game, t = ctx.game, ctx.table_id
    if not table_stakes(game):
        raise TapeteError("bad-request", f"table {t} plays {game.id}: its players bet from the wallet, there is no seat to take")
    if not ctx.open_now():
        raise TapeteError("table-closed", f"table {t} is outside its opening hours")
    lock_player(ctx.conn, user)
    seating = load_seating(ctx.conn, t)
    mine = next((s for s, p in seating.items() if p == user), None)
    if mine is not None:
        raise TapeteError("already-seated", f"{user} sits at seat {mine} of table {t} already: one seat per player",
                          source=ONE_SEAT)
    other = seated_elsewhere(ctx.conn, t, user)
    if other is not None:
        raise TapeteError("already-seated", f"{user} sits at table {other}: one circle table at a time", source=ONE_SEAT)
    if seat not in TABLE_RANGE:
        raise TapeteError("bad-request", "seats are numbered 1-10 from the croupier's right", source="003:4052-4056")
    if seat in seating:
        raise TapeteError("seat-taken", f"seat {seat} of table {t} is taken", source="003:4198-4200")  # never whose: a login
    rules = game.rules_for(ctx.jurisdiction)
    most = min(rules.max_players, ctx.spec.seats or len(TABLE_RANGE))  # type: ignore[attr-defined]
    if len(seating) >= most:
        raise TapeteError("table-full", f"table {t} seats {most} players", source=rules.sources["max_players"])
    low, high = buy_in_range(game, ctx.jurisdiction, ctx.row["config"])
    source = rules.sources["buy_in"]
    if amount < low:
        raise TapeteError("under-minimum", f"the buy-in (resto inicial) at table {t} is at least {low}", source=source)
    if amount > high:
        raise TapeteError("over-maximum", f"the buy-in (resto inicial) at table {t} is at most {high}", source=source)
    account = ledger.stack(t, user)
    ledger.ensure_account(ctx.conn, account, owner=user)
    after = ledger.commit(ctx.conn, ledger.Entry("buy-in", t, None, user, memo=f"seat {seat}")
                          .move(ledger.wallet(user), account, amount), lane=ctx.lane) or {}
    seating[seat] = user
    save_seating(ctx.conn, t, seating)
    ctx.emit("sit", {"seat": seat, "player": user, "buy_in": amount})
    return {"table": t, "seat": seat, "player": user, "stack": after.get(account, amount),
            "balance": after.get(ledger.wallet(user), ledger.balance(ctx.conn, ledger.wallet(user)))}


def op_leave(ctx: Ctx, user: str) -> dict[str, Any]:
    """Leave between hands: the whole stack back to the wallet (R: docs/rulings.md#circle-server-seating)."""
    t = ctx.table_id
    seating = load_seating(ctx.conn, t)
    seat = next((s for s, p in seating.items() if p == user), None)
    if seat is None:
        raise TapeteError("not-seated", f"{user} has no seat at table {t}")
    if any(b["player"] == user for b in load_open_bets(ctx).values()):
        raise TapeteError("wrong-phase", f"{user} plays the hand in progress at table {t}: leave when it is over "
                          "(his chips in the pot belong to the hand)", source="003:4228-4233")
    account = ledger.stack(t, user)
    stack = ledger.balance(ctx.conn, account)
    after = ledger.commit(ctx.conn, ledger.Entry("cash-out", t, None, user, memo=f"seat {seat}")
                          .move(account, ledger.wallet(user), stack), lane=ctx.lane) or {}
    del seating[seat]
    save_seating(ctx.conn, t, seating)
    ctx.emit("leave", {"seat": seat, "player": user, "cash_out": stack})
    return {"table": t, "seat": seat, "player": user, "cashed_out": stack,
            "balance": after.get(ledger.wallet(user), ledger.balance(ctx.conn, ledger.wallet(user)))}


def _between_hands(ctx: Ctx, user: str, what: str) -> int:
    """The seat of a player who is not in the hand in progress (his chips in the pot belong to the hand)."""
    seat = next((s for s, p in load_seating(ctx.conn, ctx.table_id).items() if p == user), None)
    if seat is None:
        raise TapeteError("not-seated", f"{user} has no seat at table {ctx.table_id}")
    if any(b["player"] == user for b in load_open_bets(ctx).values()):
        raise TapeteError("wrong-phase", f"{user} plays the hand in progress at table {ctx.table_id}: {what} when it is "
                          "over", source="003:4228-4233")
    return seat


def op_rebuy(ctx: Ctx, user: str, amount: int) -> dict[str, Any]:
    """A reposición between hands, from the wallet to the stack, bounded as the table's rebuys are
    (000:1483-1487; 003:4378-4380; R: docs/rulings.md#circle-server-rebuy-and-sit-out)."""
    seat = _between_hands(ctx, user, "rebuy")
    table = table_config(ctx.game, ctx.row["config"])
    ctx.game.check_table_rebuy(ctx.jurisdiction, table, amount)  # type: ignore[attr-defined]
    account = ledger.stack(ctx.table_id, user)
    after = ledger.commit(ctx.conn, ledger.Entry("rebuy", ctx.table_id, None, user, memo=f"seat {seat}")
                          .move(ledger.wallet(user), account, amount), lane=ctx.lane) or {}
    ctx.emit("rebuy", {"seat": seat, "player": user, "amount": amount})
    return {"table": ctx.table_id, "seat": seat, "player": user, "stack": after.get(account),
            "balance": after.get(ledger.wallet(user), ledger.balance(ctx.conn, ledger.wallet(user)))}


def op_rest(ctx: Ctx, user: str, rest: bool) -> dict[str, Any]:
    """Rest from the next hand, or come back (003:4209-4214): at most two hands dealt without him."""
    seat = _between_hands(ctx, user, "rest")
    resting = load_resting(ctx.conn, ctx.table_id)
    if rest:
        resting.setdefault(user, 0)
    else:
        resting.pop(user, None)
    save_resting(ctx.conn, ctx.table_id, resting)
    ctx.emit("rest" if rest else "back", {"seat": seat, "player": user})
    return {"table": ctx.table_id, "seat": seat, "player": user, "resting": rest,
            "hands_rested": resting.get(user, 0)}


# -- the service's entry points ---------------------------------------------------------------------
def sit(service: TableService, table_id: str, user: str, seat: int, amount: int, idem: tuple[str, str] | None = None) -> Any:
    return service.run(table_id, user, lambda ctx: op_sit(ctx, user, seat, amount), idem)


def leave(service: TableService, table_id: str, user: str, idem: tuple[str, str] | None = None) -> Any:
    return service.run(table_id, user, lambda ctx: op_leave(ctx, user), idem)


def rebuy(service: TableService, table_id: str, user: str, amount: int, idem: tuple[str, str] | None = None) -> Any:
    return service.run(table_id, user, lambda ctx: op_rebuy(ctx, user, amount), idem)


def rest(service: TableService, table_id: str, user: str, resting: bool, idem: tuple[str, str] | None = None) -> Any:
    return service.run(table_id, user, lambda ctx: op_rest(ctx, user, resting), idem)


def seat_configured(service: TableService) -> None:
    """A demo casino's `table.seats`: each listed player sits with that buy-in from his wallet, once (the
    first start); a seat that cannot be taken (no such player, short wallet, a buy-in out of range) is
    skipped with a warning."""
    for spec in service.config.tables:
        game = service.game(spec)
        wanted = spec.table.get("seats") if table_stakes(game) else None
        if not wanted:
            continue
        with service.db.read() as conn:
            if conn.execute(select(meta_kv.c.key).where(meta_kv.c.key == _key(spec.id))).first() is not None:
                continue
        for entry in wanted:
            player, seat, stack = entry.get("player"), entry.get("seat"), entry.get("stack")
            try:
                sit(service, spec.id, player, seat, stack)
            except TapeteError as exc:
                log.warning("table %s: %s cannot sit at seat %s with %s: %s", spec.id, player, seat, stack, exc.message)
