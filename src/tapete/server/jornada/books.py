"""A table's books for a jornada, derived from the ledger rows of its window (the transactions after its opening
and before its closing) and the rows of the bets they settled.

  opening   the anticipo counted in               fills, credits   the cage's moves of the float
  drop      cash changed into chips at the table  cagnotte         the house's deductions (commission, rake)
  tips      counted apart, never in the win       closing          the float counted out (open: as it stands)
  win       closing - opening + credits - fills + drop             (the float's own result: reconciled against
                                                                    the float's postings of the play itself)
  result    win + cagnotte: what the house kept from the table's play, which the theoretical win predicts
  handle    the total staked by the bets settled (voided ones not counted); hold % = result / handle
  theoretical win   each bet settled x its house edge per unit of the initial bet (theory.py: `tapete edge`), or,
            where players bank or play each other (player-banked baccarat, circle poker), the cagnotte itself: the
            house takes no risk; its standard deviation from each bet's variance, and how many of them the
            result lies from it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, select

from tapete.server.money import ledger
from tapete.server.storage.db import bets, ledger_tx, postings
from tapete.server.tables.adapters import adapter_for

FINAL = ("won", "lost", "push")
CAGE_MOVES = ("fill", "credit", "drop", "jornada-open", "jornada-close")


def _window(conn: Connection, table_id: str, after: int, before: int | None) -> list[tuple[int, float, str, str, int, str | None]]:
    q = (select(ledger_tx.c.id, ledger_tx.c.ts, ledger_tx.c.kind, postings.c.account_id, postings.c.amount, postings.c.bet_id)
         .join(postings, postings.c.tx_id == ledger_tx.c.id)
         .where(ledger_tx.c.table_id == table_id, ledger_tx.c.id > after).order_by(ledger_tx.c.id, postings.c.id))
    if before is not None:
        q = q.where(ledger_tx.c.id < before)
    return [(int(a), float(b), c, d, int(e), f) for a, b, c, d, e, f in conn.execute(q)]


def books(conn: Connection, row: dict[str, Any]) -> dict[str, Any]:
    """The books of one jornada row (open: so far, the closing float the ledger's; closed: as counted)."""
    from tapete.catalog import get_game

    t = row["table_id"]
    lines = _window(conn, t, int(row["open_mark"]), row.get("close_mark"))
    flt, box, tips_box, cagnotte_box = ledger.float_(t), f"drop:{t}", f"tips:{t}", ledger.commission(t)
    fills = sum(m for _, _, k, a, m, _ in lines if a == flt and k == "fill")
    credits = -sum(m for _, _, k, a, m, _ in lines if a == flt and k == "credit")
    drop = sum(m for _, _, k, a, m, _ in lines if a == box and k == "drop")
    tips = sum(m for _, _, k, a, m, _ in lines if a == tips_box and k == "tip")
    cagnotte = sum(m for _, _, k, a, m, _ in lines if a == cagnotte_box and k not in CAGE_MOVES)
    play = sum(m for _, _, k, a, m, _ in lines if a == flt and k not in CAGE_MOVES)
    opening = int(row["anticipo"])
    counted = row.get("counted") or {}
    closing = int(counted["float"]) if row["status"] == "closed" else ledger.balance(conn, flt)
    win = closing - opening + credits - fills + drop
    game = get_game(row["game"])
    adapter = adapter_for(game)
    house_banked = not (adapter.player_banked or adapter.table_stakes)
    settled = _settled_bets(conn, t, lines)
    theory = _theory(row, settled, house_banked, cagnotte)
    handle = sum(int(b["collected"]) for b in settled)
    result = win + cagnotte
    sd = theory["sd"]
    return {
        "jornada": int(row["id"]), "day": row["day"], "table": t, "cloth_of": row.get("cloth_of"), "game": row["game"],
        "game_name_es": game.name_es, "game_name_en": game.name_en,
        "jurisdiction": row["jurisdiction"], "status": row["status"], "opened_at": row["opened_at"],
        "opened_by": row["opened_by"], "closed_at": row.get("closed_at"), "closed_by": row.get("closed_by"),
        "opening_float": opening, "anticipo_due": int(row["anticipo_due"]), "fills": fills, "credits": credits,
        "drop": drop, "cagnotte": cagnotte, "tips": tips, "closing_float": closing, "win": win, "result": result,
        "reconciled": win == play, "float_play": play,
        "handle": handle, "hold_pct": round(100 * result / handle, 4) if handle else None, "bets": len(settled),
        "theoretical_win": theory["cents"], "theoretical_exact": theory["exact"], "theoretical_sd": sd,
        "deviations": round((result - theory["value"]) / sd, 4) if sd else None,
        "strategy": theory["strategy"], "unpriced_bets": theory["unpriced"], "edges": theory["edges"],
        "series": _series(lines, settled, flt, cagnotte_box, theory["per_bet"]),
    }


def _settled_bets(conn: Connection, table_id: str, lines: list[tuple[int, float, str, str, int, str | None]]) -> list[dict[str, Any]]:
    """The bets a settlement of the window booked, final (won, lost, push): what was staked and decided."""
    ids = sorted({b for _, _, k, _, _, b in lines if k == "settle" and b is not None})
    found: list[dict[str, Any]] = []
    for i in range(0, len(ids), 500):
        q = select(bets).where(bets.c.table_id == table_id, bets.c.bet_id.in_(ids[i:i + 500]), bets.c.status.in_(FINAL))
        found.extend(dict(r) for r in conn.execute(q).mappings())
    return found


def _theory(row: dict[str, Any], settled: list[dict[str, Any]], house_banked: bool, cagnotte: int) -> dict[str, Any]:
    if not house_banked:
        return {"cents": cagnotte, "exact": str(cagnotte), "value": Fraction(cagnotte), "sd": 0.0, "unpriced": 0,
                "strategy": "players bank or play each other: the house's win is its cagnotte or rake, at no risk",
                "edges": {}, "per_bet": {}}
    from tapete.server.jornada.theory import theory

    figures = theory(row["game"], row["jurisdiction"])
    total, variance, unpriced, per_bet, used = Fraction(0), 0.0, 0, {}, {}
    for b in settled:
        f = figures.get(b["kind"])
        if f is None or f.variance is None:
            unpriced += 1
            if f is None:
                continue
        amount = int(b["amount"])
        per_bet[b["bet_id"]] = f.edge * amount
        total += f.edge * amount
        variance += (f.variance or 0.0) * amount * amount
        used[b["kind"]] = {"edge": str(f.edge), "edge_pct": round(float(f.edge) * 100, 4), "method": f.edge_method,
                           "sd_per_unit": round(f.sd, 6) if f.sd is not None else None, "sd_method": f.variance_method,
                           "option": f.option, "strategy": f.strategy}
    strategy = "; ".join(f"{k}: {v['strategy']}" for k, v in sorted(used.items())) or "no bet settled"
    return {"cents": round(total), "exact": str(total), "value": total, "sd": round(math.sqrt(variance), 2),
            "unpriced": unpriced, "strategy": strategy, "edges": used, "per_bet": per_bet}


def _series(lines: list[tuple[int, float, str, str, int, str | None]], settled: list[dict[str, Any]], flt: str,
            cagnotte_box: str, per_bet: dict[str, Fraction]) -> list[dict[str, Any]]:
    """The result and the theoretical win, cumulative, after each settlement of the window (the chart's points)."""
    final = {b["bet_id"] for b in settled}
    out: list[dict[str, Any]] = []
    actual, expected, seen = 0, Fraction(0), set()
    last_tx = None
    for tx, ts, kind, account, amount, bet in lines:
        if kind in CAGE_MOVES:
            continue
        if account in (flt, cagnotte_box):
            actual += amount
        if kind == "settle" and bet in final and bet not in seen:
            seen.add(bet)
            expected += per_bet.get(bet, Fraction(0))
        if kind == "settle" and tx != last_tx:
            out.append({"ts": ts, "actual": actual, "theoretical": float(round(expected, 2))})
            last_tx = tx
        elif kind == "settle" and out:
            out[-1].update(actual=actual, theoretical=float(round(expected, 2)))
    return out
