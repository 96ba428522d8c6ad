"""The table's clock and its recovery: whatever a phase's deadline calls for, and a round resumed (or voided)
when a process takes the table. Above the operations it dispatches to (round_ops, circle_hands)."""

from __future__ import annotations

from typing import Any

from tapete.core.errors import TapeteError
from tapete.engine.events import Void
from tapete.engine.serialize import from_json
from tapete.server.storage import fastjson
from tapete.server.tables import circle, circle_hands, privacy
from tapete.server.tables.round_end import conclude
from tapete.server.tables.round_ops import coup_end, hand_back, op_close, op_confirm, op_draw, op_open
from tapete.server.tables.table_ctx import Ctx


def op_open_round(ctx: Ctx) -> dict[str, Any]:
    """The croupier's or the clock's next round: a circle poker hand (seated players, forced bets, the deal), or
    a round of bets."""
    if circle.table_stakes(ctx.game):
        return circle_hands.op_open(ctx)
    return op_open(ctx)


def op_advance(ctx: Ctx) -> dict[str, Any] | None:
    """The table's clock: whatever the phase's deadline calls for."""
    deadline = ctx.row["deadline"]
    if deadline is None or deadline > ctx.now:
        return None
    phase = ctx.row["phase"]
    if phase == "betting":
        return op_close(ctx, None)
    if phase == "closed" and ctx.spec.source == "rng":
        return op_draw(ctx)
    if phase == "acting":
        ctx.emit("timeout", {"say": "time: the defaults apply"})
        return coup_end(ctx)
    if phase == "confirming":
        return op_confirm(ctx)
    if phase in ("settled", "idle"):
        if not ctx.spec.auto:
            ctx.set(deadline=None)
            return None
        if not ctx.open_now():
            if phase != "idle":
                ctx.set(phase="idle")
                ctx.emit("phase", {"say": "the table closes: outside its opening hours"})
                privacy.end_session(ctx.conn, ctx.table_id, ctx.now)
            ctx.set(deadline=ctx.now + 30)
            return None
        return op_open_round(ctx)
    ctx.set(deadline=None)
    return None


def op_recover(ctx: Ctx) -> dict[str, Any]:
    """A process (re)takes the table: resume the round from its persisted state, or — where the table's
    policy is `void` and the engine agrees — void it and hand every undecided stake back."""
    phase = ctx.row["phase"]
    ctx.emit("recovered", {"policy": ctx.spec.recovery, "was": phase})
    if (ctx.spec.recovery == "void" and phase == "betting" and ctx.game.uses_shoe and ctx.state is not None
            and ctx.adapter.phases.admits("betting", "void")):
        return hand_back(ctx, "server-restart")    # the engine's void would deal the coup first
    if ctx.spec.recovery == "void" and phase in ("betting", "closed", "acting", "confirming") and ctx.state is not None:
        base = ctx.state
        if phase == "confirming" and ctx.row["pre_outcome"]:
            base = from_json(ctx.game.state_type(), fastjson.loads(ctx.row["pre_outcome"]))
        try:
            trial = ctx.game.finish(ctx.game.step(base, Void("server-restart")))
            doc = ctx.game.settle(trial).document(rounding=ctx.rounding)  # type: ignore[arg-type]
        except TapeteError as exc:
            ctx.emit("phase", {"say": f"the round cannot be voided ({exc.code}): it resumes"})
        else:
            if all(e["status"] != "pending" for e in doc["bets"].values()):
                ctx.state = trial
                ctx.state_changed = True
                ctx.emit("void", {"event": {"void": "server-restart"}})
                return conclude(ctx)
            ctx.emit("phase", {"say": "bets would stay on the layout: the round resumes"})
    timing = ctx.spec.timing
    if ctx.spec.auto:
        wait = {"betting": timing.bets, "closed": timing.spin, "acting": timing.act, "settled": timing.pause,
                "idle": 0.0, "confirming": timing.confirm or None}.get(phase)
        ctx.set(deadline=ctx.now + wait if wait is not None else None)
    return {"round": ctx.row["round_no"], "phase": phase}
