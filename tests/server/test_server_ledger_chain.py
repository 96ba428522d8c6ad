"""The ledger's hash chain (audit/ledger_chain.py) as a property: any single edit of a lane — a field or a posting
changed, a posting added or moved, a transaction deleted, inserted or two swapped — is reported by the
verification's lane check, and an untouched lane never is. No database: the rows as verify reads them."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.server.audit import verify
from tapete.server.audit.ledger_chain import Lane, genesis

LANE = "table:t1"
postings = st.lists(st.tuples(st.sampled_from(["wallet:ana", "wallet:luis", "stakes:t1", "float:t1"]),
                              st.integers(-10**6, 10**6), st.sampled_from([None, "b1", "b2"])), min_size=1, max_size=4)
transactions = st.lists(st.tuples(st.sampled_from(["bet", "settle"]), postings, st.floats(1e9, 2e9)), min_size=1, max_size=8)


def build(spec: list[tuple[str, list[tuple[str, int, str | None]], float]]) -> tuple[list[dict[str, Any]], dict[int, list[Any]]]:
    lane = Lane(LANE, 0, genesis(LANE))
    txs, lines, pid = [], {}, 0
    for i, (kind, moves, ts) in enumerate(spec, start=1):
        chain, seq, prev, digest = lane.advance(ts, kind, "t1", 7, "ana", None, moves)
        txs.append({"id": i, "ts": ts, "kind": kind, "table_id": "t1", "round_id": 7, "actor": "ana", "memo": None,
                    "chain": chain, "chain_seq": seq, "prev_hash": prev, "hash": digest})
        lines[i] = []
        for a, m, b in moves:
            pid += 1
            lines[i].append((pid, a, m, b))
    return txs, lines


def problems(txs: list[dict[str, Any]], lines: dict[int, list[Any]]) -> list[str]:
    report = verify.Report()
    verify._lane(LANE, sorted(txs, key=lambda tx: tx["chain_seq"]), lines, report)
    return report.problems


@given(transactions)
@settings(max_examples=60, deadline=None)
def test_an_untouched_lane_holds(spec: Any) -> None:
    txs, lines = build(spec)
    assert problems(txs, lines) == []


@given(transactions, st.sampled_from(["amount", "account", "bet", "add", "move", "kind", "ts", "delete", "swap", "insert"]),
       st.data())
@settings(max_examples=150, deadline=None)
def test_any_single_edit_is_reported(spec: Any, edit: str, data: st.DataObject) -> None:
    txs, lines = build(spec)
    i = data.draw(st.integers(0, len(txs) - 1))
    tx = txs[i]
    own = lines[tx["id"]]
    if edit == "amount":
        pid, a, m, b = own[0]
        own[0] = (pid, a, m + data.draw(st.integers(1, 500)), b)
    elif edit == "account":
        pid, a, m, b = own[0]
        own[0] = (pid, a + "x", m, b)
    elif edit == "bet":
        pid, a, m, b = own[0]
        own[0] = (pid, a, m, "b9")
    elif edit == "add":
        own.append((999, "wallet:eva", 500_000, None))
    elif edit == "move":
        if len(txs) == 1:
            return
        other = lines[txs[(i + 1) % len(txs)]["id"]]
        other.append(own.pop())
    elif edit == "kind":
        tx["kind"] = "credit"
    elif edit == "ts":
        tx["ts"] += 1.0
    elif edit == "delete":
        if i == len(txs) - 1:          # the tail: only the stored head gives it away (checked elsewhere)
            return
        del txs[i]
    elif edit == "swap":
        if len(txs) == 1 or spec[i] == spec[(i + 1) % len(spec)]:
            return
        j = (i + 1) % len(txs)
        txs[i]["chain_seq"], txs[j]["chain_seq"] = txs[j]["chain_seq"], txs[i]["chain_seq"]
    elif edit == "insert":
        txs.append({**tx, "id": 1000, "chain_seq": tx["chain_seq"]})
        lines[1000] = [(1001, "float:t1", -500_000, None), (1002, "wallet:ana", 500_000, None)]
    assert problems(txs, lines), edit
