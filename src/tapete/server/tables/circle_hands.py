"""Circle poker's hands: each opened with the players seated whose stack is above zero, their forced bets
posted from their stacks, and dealt at once (the seating and the money are circle.py's)."""

from __future__ import annotations

import logging
from typing import Any

from tapete.engine.events import Deal
from tapete.games.poker.circle import CircleState
from tapete.server.money import ledger
from tapete.server.tables import circle, round_ops
from tapete.server.tables.protocol import admit
from tapete.server.tables.table_ctx import Ctx, step

log = logging.getLogger("tapete.server")


def _free_rested_seats(ctx: Ctx, seating: dict[int, str]) -> dict[str, int]:
    """003:4209-4214: two hands rested and not back: the seat is free, the stack goes back to the wallet."""
    resting = circle.load_resting(ctx.conn, ctx.table_id)
    for player in [p for p, n in resting.items() if n >= 2]:
        seat = next((s for s, p in seating.items() if p == player), None)
        if seat is not None:
            circle.op_leave(ctx, player)
            del seating[seat]
            log.info("table %s: %s rested two hands, seat %s is free (003:4209-4214)", ctx.table_id, player, seat)
        del resting[player]
    resting = {p: n for p, n in resting.items() if p in seating.values()}
    circle.save_resting(ctx.conn, ctx.table_id, resting)
    return resting


def op_open(ctx: Ctx) -> dict[str, Any]:
    """The next hand: the seated players with chips, their forced bets posted from their stacks, the deal.
    A draw pot waiting for the next deal (a blank hand) is dealt again to the same players."""
    admit(ctx, "open")
    carried = ctx.state is not None and not (ctx.row["booked"] or {}).get("rollover", True)
    if carried:
        out = round_ops.op_open(ctx, table=dict(ctx.row["config"]))
        step(ctx, Deal(), "deal", {"cards": None})
        return {**out, **round_ops.after_decision(ctx)}
    if not ctx.open_now():
        return waiting(ctx, "the table is outside its opening hours", 0)
    seating = circle.load_seating(ctx.conn, ctx.table_id)
    resting = _free_rested_seats(ctx, seating)
    stacks = ledger.balances(ctx.conn, [ledger.stack(ctx.table_id, p) for p in seating.values()])
    players = {p: s for s, p in sorted(seating.items())
               if stacks.get(ledger.stack(ctx.table_id, p), 0) > 0 and p not in resting}
    least = ctx.game.rules_for(ctx.jurisdiction).min_players  # type: ignore[attr-defined]
    if len(players) < least:      # 000:1491: sintético in Baleares starts and goes on with four (#minimum-player-counts)
        return waiting(ctx, f"a hand needs {least} seated players with chips", len(players))
    table = circle.table_config(ctx.game, ctx.row["config"])
    table["seats"] = [{"seat": s, "player": p, "stack": stacks[ledger.stack(ctx.table_id, p)]} for p, s in players.items()]
    button = next_button(ctx, sorted(players.values()))
    if button is not None:
        table["button"] = button
    round_ops.op_open(ctx, table=table)
    if resting:
        circle.save_resting(ctx.conn, ctx.table_id, {p: n + 1 for p, n in resting.items()})
    for player, amount in ctx.game.hand_bets(ctx.state, list(players)):  # type: ignore[attr-defined]
        round_ops.op_bets(ctx, player, [{"kind": "hand", "amount": amount}])
    return round_ops.op_close(ctx, None)


def waiting(ctx: Ctx, why: str, seated: int) -> dict[str, Any]:
    if ctx.spec.auto:
        ctx.set(deadline=ctx.now + max(ctx.spec.timing.pause, 1.0))     # the clock looks again
    elif ctx.row["deadline"] is not None:
        ctx.set(deadline=None)
    return {"round": ctx.row["round_no"], "phase": ctx.row["phase"], "waiting": why, "seated": seated}


def next_button(ctx: Ctx, seats: list[int]) -> int | None:
    """The marca where the last hand moved it (003:4451-4458); if that seat was left, the next occupied seat
    the way it moves. None: the engine's default (the first seat to the croupier's right)."""
    previous = ctx.state.button if isinstance(ctx.state, CircleState) else None
    if previous is None or not seats:
        return None
    if previous in seats:
        return previous
    if ctx.game.rules_for(ctx.jurisdiction).direction == "counter-clockwise":  # type: ignore[attr-defined]
        return min([s for s in seats if s > previous] or seats)
    return max([s for s in seats if s < previous] or seats)
