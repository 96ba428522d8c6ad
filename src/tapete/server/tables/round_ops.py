"""The operations on a table, each run inside TableService.run on a locked table: open, bets, no va más, the
deal and the decisions, the draw or the keyed result, corrections, voids, limits, the clock, recovery."""

from __future__ import annotations

import copy
from typing import Any

from sqlalchemy import insert, text

from tapete.core.errors import TapeteError
from tapete.engine.events import Close, Deal, Limits, Outcome, Void
from tapete.engine.serialize import from_json, to_json
from tapete.server.audit import staff_log
from tapete.server.config import check_table_values
from tapete.server.money import ledger
from tapete.server.storage import fastjson
from tapete.server.storage.db import rounds
from tapete.server.tables import banker, circle
from tapete.server.tables.fairness import commitment, draw_rng, event_document, new_seed, pick
from tapete.server.tables.protocol import PhaseError, admit
from tapete.server.tables.round_end import conclude, reopen_announced, takes_bets
from tapete.server.tables.shoes import add_cards, dealt_cards, open_state, prepare
from tapete.server.tables.table_ctx import (
    STAFF,
    Ctx,
    apply_bet,
    book,
    commit_entry,
    is_table_verb,
    load_open_bets,
    load_state,
    parse,
    probe_staked,
    round_record,
    settlement_doc,
    step,
    sync_stakes,
    wallet_balance,
)
from tapete.server.tables.visibility import redact


def op_open(ctx: Ctx, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new round; `table`: the table keys to open it with (circle poker: the seats of this hand)."""
    admit(ctx, "open")
    if table is None and not ctx.open_now():   # the croupier's open obeys the hours the players' bets obey (op_bets)
        raise TapeteError("table-closed", f"table {ctx.table_id} is outside its opening hours")
    spec, game = ctx.spec, ctx.game
    booked = dict(ctx.row["booked"] or {})
    fresh = ctx.state is None or booked.get("rollover", True)
    if not fresh and table is None and not game.uses_shoe and not takes_bets(ctx) and not load_open_bets(ctx):
        # A carried state that refuses bets with nothing riding (a table an older version stopped for good):
        # open it afresh, an announced limit change announced again (docs/rulings.md#server-limit-change-after-a-void).
        if ctx.adapter.announced(ctx.state) is not None:
            reopen_announced(ctx)
        else:
            fresh = True
    shoe_info = dict(ctx.row["shoe"]) if ctx.row["shoe"] else None
    if fresh:
        config = dict(ctx.row["config"] if table is None else table)
        if game.uses_shoe and spec.source == "rng":
            if shoe_info is None or shoe_info.get("ended"):
                shoe_info = new_shoe(ctx, config, shoe_info)
            ctx.state = open_state(game, ctx.jurisdiction, config, spec.source, seed=None, shoe=shoe_info)
            shoe_info["start"] = shoe_info["position"]
            ctx.set(shoe=shoe_info)
        else:
            ctx.state = open_state(game, ctx.jurisdiction, config, spec.source, seed=None)
        ctx.state_changed = True
        booked = {"commission": 0, "carry": {}, "rollover": False}
    else:
        booked["rollover"] = False
    if spec.source == "rng":    # monte-banca lays its four cards before the bets (003:6174-6186)
        ctx.adapter.lay_out(ctx.state)
        ctx.state_changed = True
    number = ctx.row["round_no"] + 1
    seed = new_seed() if spec.source == "rng" and not game.uses_shoe else None
    commit_hash = commitment(seed) if seed else (shoe_info or {}).get("commitment")
    round_id = ctx.conn.execute(insert(rounds).values(
        table_id=ctx.table_id, number=number, status="open", opened_at=ctx.now, commitment=commit_hash)).inserted_primary_key[0]
    log_lines = getattr(ctx.state, "log", None)
    ctx.round_record = {"start_seq": ctx.row["log_seq"] + len(ctx.records), "fresh": fresh,
                        "table": dict(ctx.row["config"] if table is None else table),   # a circle hand: with its seats
                        "commitment": commit_hash,
                        "log_start": len(log_lines) if isinstance(log_lines, list) else 0, "draws": []}
    ctx.round_dirty = True
    deadline = ctx.now + spec.timing.bets if spec.auto else None
    ctx.set(round_no=number, round_id=int(round_id), seed=seed, draws=0, phase="betting", deadline=deadline,
            booked=booked, pre_outcome=None)
    ctx.emit("open", {"commitment": commit_hash, "limits": ctx.row["config"], "deadline": deadline, "fresh": fresh})
    return {"round": number, "round_id": int(round_id), "commitment": commit_hash, "phase": "betting", "deadline": deadline}


def new_shoe(ctx: Ctx, config: dict[str, Any], old: dict[str, Any] | None) -> dict[str, Any]:
    """A fresh electronic shoe: a new seed, its commitment logged before any bet of the shoe."""
    seed = new_seed()
    prepared = prepare(ctx.game, ctx.jurisdiction, config, seed)
    total = len(prepared["cards"])
    info = {"seed": seed, "commitment": commitment(seed), "position": prepared["position"], "cut": prepared["cut"],
            "total": total, "number": (old or {}).get("number", 0) + 1, "ended": False}
    ctx.emit("shoe", {"event": "new", "number": info["number"], "commitment": info["commitment"], "cards": total,
                      "cut": prepared["cut"], "burned": prepared["position"]})
    return info


def op_bets(ctx: Ctx, user: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    if ctx.row["phase"] in ("closed", "confirming", "acting"):
        raise TapeteError("bet-closed", f"table {ctx.table_id}: no va más has been called, bets wait for the next round",
                          source="001:159; 003:396-400")
    admit(ctx, "bets")
    if not ctx.open_now():
        raise TapeteError("table-closed", f"table {ctx.table_id} is outside its opening hours")
    if ctx.spec.seats:
        players = {b["player"] for b in load_open_bets(ctx).values() if b["round_id"] == ctx.row["round_id"]}
        if user not in players and len(players) >= ctx.spec.seats:
            raise TapeteError("table-full", f"table {ctx.table_id} seats {ctx.spec.seats} players")
    placed: list[str] = []
    entry = ledger.Entry("bet", ctx.table_id, ctx.row["round_id"], user)
    for item in items:
        seq = ctx.row["bet_seq"] + 1
        ctx.set(bet_seq=seq)
        bet_id = f"b{seq}"
        body = {"id": bet_id, "player": user, "kind": item["kind"], "amount": item["amount"]}
        if item.get("on") is not None:
            body["on"] = item["on"]
        for k, v in (item.get("extra") or {}).items():
            if k in body:
                raise TapeteError("bad-request", f"bet key {k!r} is set by the server")
            body[k] = v
        event = parse(ctx, {"bet": body})
        apply_bet(ctx, event, {"player": user})
        staked = probe_staked(ctx, event)
        ctx.new_bets[bet_id] = {"table_id": ctx.table_id, "bet_id": bet_id, "round_id": ctx.row["round_id"], "player": user,
                                "kind": event.kind, "spot": list(event.on) if event.on is not None else None,
                                "amount": event.amount, "collected": 0, "returned": 0, "status": "open",
                                "placed_at": ctx.now, "settled_at": None}
        if ctx.open_bets is not None:
            ctx.open_bets[bet_id] = ctx.new_bets[bet_id]
        entry.move(circle.purse(ctx, user), banker.stake_account(ctx, event.kind), staked, bet_id)
        ctx.new_bets[bet_id]["collected"] = staked
        placed.append(bet_id)
    after = commit_entry(ctx, entry) or {}
    return {"round": ctx.row["round_no"], "bets": [
        {"id": b, "kind": ctx.new_bets[b]["kind"], "on": ctx.new_bets[b]["spot"], "amount": ctx.new_bets[b]["amount"],
         "staked": ctx.new_bets[b]["collected"]} for b in placed],
        "balance": after[ledger.wallet(user)] if ledger.wallet(user) in after else wallet_balance(ctx, user)}


def op_close(ctx: Ctx, cards: list[Any] | None) -> dict[str, Any]:
    admit(ctx, "close")
    if ctx.game.uses_shoe:
        return deal(ctx, cards)
    changed = ctx.state_changed
    step(ctx, Close(), "close")          # in place (table_ctx.apply_event)
    if ctx.spec.source == "rng" and not ctx.game.chance(ctx.state):
        # Nothing would ride on the spin: the wheel does not turn and the engine's state is never closed, so
        # a state the next round carries (an announced limit change counting spins) still takes bets. The
        # state as it was (the database's: nothing is written yet) replaces the one closed in place.
        del ctx.records[-1]
        ctx.state = load_state(ctx.conn, ctx.game, ctx.table_id)
        ctx.state_changed = changed
        ctx.emit("no-outcome", {"reason": "no bet rides on chance: the wheel does not spin"})
        return conclude(ctx)
    ctx.set(phase="closed", deadline=ctx.now + ctx.spec.timing.spin if ctx.spec.auto and ctx.spec.source == "rng" else None)
    ctx.emit("phase", {"say": "no va más"})
    round_record(ctx)
    return {"round": ctx.row["round_no"], "phase": "closed"}


def deal(ctx: Ctx, cards: list[Any] | None) -> dict[str, Any]:
    has_bets = any(b["round_id"] == ctx.row["round_id"] and b["kind"] not in ctx.game.bank_kinds   # a bank alone: no coup
                   for b in load_open_bets(ctx).values())
    if not has_bets:
        ctx.emit("no-outcome", {"reason": "no bets: no coup is dealt"})
        return conclude(ctx)
    if ctx.spec.source == "croupier":
        if not cards:
            raise TapeteError("bad-request", "a live table deals the cards the croupier keys: give 'cards'")
        ctx.state = copy.deepcopy(ctx.state)
        add_cards(ctx.state, cards)
    try:
        step(ctx, Deal(), "deal", {"cards": list(cards) if cards else None})
    except TapeteError as exc:
        # An electronic shoe that runs out before the coup is dealt: the server ends it (its seed revealed) and
        # hands every stake back; the next round opens a new shoe. A live table's croupier keys more cards or
        # voids. Never a table stuck in `betting` with the stakes locked on the layout.
        if exc.code != "shoe-exhausted" or ctx.spec.source != "rng" or ctx.adapter.player_banked:
            raise
        return shoe_ran_out(ctx, exc.message)
    return after_decision(ctx)


def shoe_ran_out(ctx: Ctx, why: str) -> dict[str, Any]:
    info = dict(ctx.row["shoe"] or {})
    if info:
        info["ended"] = True
        ctx.set(shoe=info)
        ctx.emit("shoe", {"event": "end", "number": info.get("number"), "reason": why, "seed": info.get("seed"),
                          "commitment": info.get("commitment")})
    return hand_back(ctx, f"the shoe ran out before the coup ({why}): every stake is handed back")


def hand_back(ctx: Ctx, reason: str) -> dict[str, Any]:
    """A card table's round annulled before the deal (a void, a restart, a shoe that ran out): every open stake
    back where it came from, the engine's state dropped (the next round opens a fresh one). The engine's own
    void would deal the coup first (a document may omit the deal): no card is drawn here
    (R: docs/rulings.md#server-void-before-the-deal)."""
    entry = ledger.Entry("settle", ctx.table_id, ctx.row["round_id"], ctx.actor, memo="void before the deal")
    results: dict[str, dict[str, Any]] = {}
    for bet_id, b in load_open_bets(ctx).items():
        if b["status"] != "open":
            continue
        c = b["collected"]
        if c:
            entry.post(banker.stake_account(ctx, b["kind"]), -c, bet_id).post(circle.purse(ctx, b["player"]), c, bet_id)
        b.update(status="void", returned=c, settled_at=ctx.now)
        ctx.changed_bets.add(bet_id)
        results[bet_id] = {"player": b["player"], "kind": b["kind"], "status": "void", "staked": c, "returned": c}
    ledger.commit(ctx.conn, entry, balances=False, lane=ctx.lane)
    ctx.emit("hand-back", {"reason": reason, "bets": results})
    ctx.state = None
    ctx.state_changed = True
    out = conclude(ctx)
    out["bets"] = results
    return out


def acts_due(ctx: Ctx) -> list[dict[str, Any]]:
    return [{"do": a.verb, "bet": a.bet, **({"by": a.by} if a.by else {})}
            for a in ctx.game.legal_actions(ctx.state) if not is_table_verb(a)]


def after_decision(ctx: Ctx) -> dict[str, Any]:
    """After a deal or an act at a card table: wait for the next decision, or end the coup."""
    ctx.state = ctx.game.advance(ctx.state)      # the forced steps, so the table shows them before anyone decides
    due = acts_due(ctx)
    if due:
        ctx.set(phase="acting", deadline=ctx.now + ctx.spec.timing.act if ctx.spec.auto else None)
        ctx.emit("acting", {"due": due})
        sync_stakes(ctx, settlement_doc(ctx))
        return {"round": ctx.row["round_no"], "phase": "acting", "due": due}
    return coup_end(ctx)


def coup_end(ctx: Ctx) -> dict[str, Any]:
    """Every decision made (or timed out): the game applies its defaults and the coup settles."""
    # Not at circle poker: a hand nobody showed is another player's secret (docs/server.md §fairness), and the
    # round record reaches players; its pages rebuild the showdown from what the table showed.
    if ctx.adapter.keeps_coup:
        ctx.coup = redact(to_json(ctx.state))   # the hands as dealt (the engine may clear them when it settles);
        # redact: the shoe's undealt cards stay out of the round record
    finished = ctx.game.end_round(copy.deepcopy(ctx.state))
    ctx.state = finished
    ctx.state_changed = True
    return conclude(ctx)


def op_draw(ctx: Ctx) -> dict[str, Any]:
    admit(ctx, "draw")
    if ctx.spec.source != "rng":
        raise TapeteError("wrong-source", f"table {ctx.table_id} takes the croupier's keyed result, not the CSPRNG")
    chances = ctx.game.chance(ctx.state)
    if not chances:
        ctx.emit("no-outcome", {"reason": "no bet rides on chance: the wheel does not spin"})
        return conclude(ctx)
    index = ctx.row["draws"]
    event = pick(chances, draw_rng(ctx.row["seed"], index))
    record = round_record(ctx)
    record.setdefault("draws", []).append({"index": index, "state": fastjson.state_doc(ctx.state), "outcome": event_document(event)})
    ctx.round_dirty = True
    ctx.set(draws=index + 1)
    step(ctx, event, "outcome", {"source": "rng", "draw": index})
    return after_outcome(ctx, event)


def after_outcome(ctx: Ctx, event: Any | None) -> dict[str, Any]:
    if event is not None and isinstance(event, Outcome):
        history = list(ctx.row["history"] or [])
        history.append(event.value)
        ctx.set(history=history[-50:])
    return conclude(ctx)


def op_key(ctx: Ctx, value: Any, name: str | None, last: bool) -> dict[str, Any]:
    admit(ctx, "key")
    if ctx.spec.source != "croupier":
        raise TapeteError("wrong-source", f"table {ctx.table_id} draws its outcomes with the CSPRNG")
    if ctx.game.uses_shoe:
        raise TapeteError("wrong-phase", "a card table's result is the cards dealt: key them with close (deal) and acts")
    name = outcome_name(ctx, name)
    event = parse(ctx, {name: value, **({"last": True} if last else {})})
    if ctx.row["phase"] == "betting":
        step(ctx, Close(), "close")
    ctx.set(pre_outcome=fastjson.state_text(ctx.state))
    step(ctx, event, "outcome", {"source": "croupier"})
    preview = settlement_doc(ctx)
    ctx.set(phase="confirming", deadline=ctx.now + ctx.spec.timing.confirm if ctx.spec.timing.confirm > 0 else None)
    ctx.emit("phase", {"say": "result keyed: awaiting confirmation"})
    return {"round": ctx.row["round_no"], "phase": "confirming", "preview": preview_of(ctx, preview)}


def outcome_name(ctx: Ctx, name: str | None) -> str:
    names = ctx.game.outcome_names
    if not names:
        raise TapeteError("wrong-phase", f"{ctx.game.id} has no keyed outcome: its results are the cards dealt")
    if name is not None and name not in names:
        raise TapeteError("bad-request", f"{ctx.game.id} takes a {' or '.join(names)}, not a {name!r}")
    return name or names[0]


def preview_of(ctx: Ctx, doc: dict[str, Any] | None) -> dict[str, Any] | None:
    if doc is None:
        return None
    open_bets = load_open_bets(ctx)
    return {"bets": {k: {**v, "player": open_bets[k]["player"]} for k, v in doc["bets"].items() if k in open_bets},
            "house": doc["house"]}


def op_confirm(ctx: Ctx) -> dict[str, Any]:
    admit(ctx, "confirm")
    ctx.set(pre_outcome=None)
    ctx.emit("confirm", {})
    return after_outcome(ctx, _last_outcome(ctx))


def _last_outcome(ctx: Ctx) -> Outcome | None:
    for kind, _, data in reversed(ctx.records):
        if kind in ("outcome", "correct"):
            return _outcome_from(data["event"])
    found = ctx.conn.execute(text("SELECT data FROM events WHERE table_id = :t AND kind IN ('outcome', 'correct') "
                                  "ORDER BY seq DESC LIMIT 1"),
                             {"t": ctx.table_id}).first()
    if found is None:
        return None
    data = found[0] if isinstance(found[0], dict) else fastjson.loads(found[0])
    return _outcome_from(data["event"])


def _outcome_from(doc: dict[str, Any]) -> Outcome:
    name = next(k for k in doc if k != "last")
    return Outcome(name, doc[name], bool(doc.get("last", False)))


def op_correct(ctx: Ctx, value: Any, name: str | None, last: bool, reason: str | None = None) -> dict[str, Any]:
    admit(ctx, "correct")
    name = outcome_name(ctx, name)
    event = parse(ctx, {name: value, **({"last": True} if last else {})})
    before = _last_outcome(ctx)
    ctx.state = from_json(ctx.game.state_type(), fastjson.loads(ctx.row["pre_outcome"]))
    why = {"reason": reason} if reason else {}     # in the table's log (the players' feed reads it) and the staff log
    step(ctx, event, "correct", {"was": event_document(before) if before else None, **why})
    staff_log.record(ctx.conn, ctx.actor, "correct", ctx.table_id, {"value": event_document(event), "round": ctx.row["round_no"],
                                                                  "was": event_document(before) if before else None, **why})
    return {"round": ctx.row["round_no"], "phase": "confirming", "preview": preview_of(ctx, settlement_doc(ctx))}


def op_void(ctx: Ctx, reason: str) -> dict[str, Any]:
    admit(ctx, "void")
    if ctx.phase == "betting":          # a card table before the deal (protocol: CARD_ROUTES)
        staff_log.record(ctx.conn, ctx.actor, "void", ctx.table_id, {"reason": reason, "round": ctx.row["round_no"]})
        return hand_back(ctx, reason)
    annulled = None
    if ctx.row["phase"] == "confirming":
        ctx.state = from_json(ctx.game.state_type(), fastjson.loads(ctx.row["pre_outcome"]))
        ctx.set(pre_outcome=None)
        last = _last_outcome(ctx)
        annulled = event_document(last) if last else None
    step(ctx, Void(reason), "void", {"annulled": annulled} if annulled else None)
    staff_log.record(ctx.conn, ctx.actor, "void", ctx.table_id, {"reason": reason, "round": ctx.row["round_no"]})
    return after_void(ctx)


def after_void(ctx: Ctx) -> dict[str, Any]:
    """A void spin is relaunched when the engine keeps the bets riding; otherwise the round ends with
    whatever the engine calls void handed back."""
    bets_open = any(a.verb == "bet" for a in ctx.game.legal_actions(ctx.state))
    if not ctx.game.uses_shoe and not bets_open and ctx.game.chance(ctx.state):
        auto_rng = ctx.spec.auto and ctx.spec.source == "rng"
        ctx.set(phase="closed", deadline=ctx.now + ctx.spec.timing.spin if auto_rng else None)
        ctx.emit("phase", {"say": "the spin is relaunched"})
        return {"round": ctx.row["round_no"], "phase": "closed", "relaunch": True}
    return conclude(ctx)


def op_limits(ctx: Ctx, values: dict[str, Any]) -> dict[str, Any]:
    admit(ctx, "limits")
    if ctx.state is None:
        ctx.state = open_state(ctx.game, ctx.jurisdiction, ctx.row["config"], ctx.spec.source, seed=None)
        ctx.state_changed = True
    check_table_values(ctx.game, values)
    step(ctx, Limits(dict(values)), "limits")
    staff_log.record(ctx.conn, ctx.actor, "limits", ctx.table_id, {"values": dict(values), "round": ctx.row["round_no"]})
    booked = dict(ctx.row["booked"] or {})
    booked["rollover"] = False          # keep the state: the engine decides when the new limits apply
    ctx.set(booked=booked)
    note = getattr(ctx.state, "log", [""])[-1] if getattr(ctx.state, "log", None) else ""
    return {"round": ctx.row["round_no"], "announced": values, "note": note}


def _round_numbers(ctx: Ctx, round_ids: set[int]) -> dict[int, int]:
    """The table's round numbers of these rounds' ids (what a player reads: "round 6")."""
    from sqlalchemy import select

    if not round_ids:
        return {}
    rows = ctx.conn.execute(select(rounds.c.id, rounds.c.number).where(rounds.c.id.in_(sorted(round_ids))))
    return {row[0]: row[1] for row in rows}


def op_act(ctx: Ctx, user: str, roles: set[str], body: dict[str, Any], cards: list[Any] | None) -> dict[str, Any]:
    admit(ctx, "act", body.get("do") if isinstance(body.get("do"), str) else None)
    event = parse(ctx, {"act": body})
    open_bets = load_open_bets(ctx)
    staff = bool(roles & set(STAFF)) and ctx.spec.source == "croupier"
    if event.bet is not None:
        b = open_bets.get(event.bet)
        if b is None:
            raise TapeteError("unknown-bet", f"no open bet {event.bet!r} at table {ctx.table_id}")
        if b["player"] != user and not staff:
            raise TapeteError("forbidden", f"bet {event.bet} is not yours")
    elif not staff and not any(b["player"] == user for b in open_bets.values()):
        raise TapeteError("forbidden", "only a player with a bet at this table (or its croupier) decides for a hand")
    banker.check_decider(ctx, event, user, staff)
    if cards:
        if not staff:
            raise TapeteError("forbidden", "only the croupier of a live table keys cards")
        ctx.state = copy.deepcopy(ctx.state)
        add_cards(ctx.state, cards)
    before = _dealt_now(ctx)
    try:
        step(ctx, event, "act", {"cards": list(cards) if cards else None})
    except TapeteError:
        _no_card_before_the_deal(ctx, before, body)     # the engine's refusal may name the cards it drew
        raise
    _no_card_before_the_deal(ctx, before, body)
    doc = settlement_doc(ctx)
    sync_stakes(ctx, doc)
    if ctx.row["phase"] == "acting":
        result = after_decision(ctx)
    else:
        booked = book(ctx, doc, include_void=False) if doc else {}
        if booked:
            placed_in = _round_numbers(ctx, {open_bets[b]["round_id"] for b in booked if b in open_bets})
            for bet_id, result_of in booked.items():    # a bet settled after its round (a zero's half back): its round
                if bet_id in open_bets and open_bets[bet_id]["round_id"] in placed_in:
                    result_of["round"] = placed_in[open_bets[bet_id]["round_id"]]
            ctx.emit("settlement", {"bets": booked, "partial": True})
        result = {"round": ctx.row["round_no"], "phase": ctx.row["phase"]}
    mine = open_bets.get(event.bet) if event.bet else None
    result["balance"] = ledger.balance(ctx.conn, ledger.wallet(mine["player"] if mine else user))
    return result


def _dealt_now(ctx: Ctx) -> int | None:
    """Outside `acting`, how many cards the state has dealt (None where no card can be at stake)."""
    if not ctx.game.uses_shoe or ctx.phase == "acting" or ctx.state is None:
        return None
    return len(dealt_cards(ctx.game, ctx.state) or [])


def _no_card_before_the_deal(ctx: Ctx, before: int | None, body: dict[str, Any]) -> None:
    """Belt and braces behind the phase table: an act taken outside `acting` must not deal (the engine deals a
    coup a document omitted). Refused as out of its phase, in the server's words, the transaction rolled back."""
    if before is not None and len(dealt_cards(ctx.game, ctx.state) or []) != before:
        raise PhaseError(ctx.table_id, ctx.phase, f"the act {body.get('do')!r}", ctx.phases.act_phases("") or ("acting",))
