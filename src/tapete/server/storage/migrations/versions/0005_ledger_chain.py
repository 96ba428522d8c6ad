"""the ledger's hash chains (ledger_tx.chain, chain_seq, prev_hash, hash; casino_tables.ledger_seq, ledger_hash),
the existing transactions chained, and each table's chain anchored to its ledger lane and its round records

Revision ID: 0005
Revises: 0004

The transactions already written are chained in the order of their ids, each in its lane (audit/ledger_chain.py:
the cage's kinds and any transaction without a table in the cage lane, the rest in their table's lane), and the
heads stored. Each table's event chain then gets one `books` record naming its ledger lane's head and the hash
of every round record it holds: from here on, `tapete audit verify` finds any later edit of those rows. (An edit
made BEFORE the upgrade is chained with the rest: the upgrade seals the books as they stand.)
"""

from __future__ import annotations

import time
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

CAGE_KINDS = ("deposit", "withdraw", "fill", "credit")


def upgrade() -> None:
    with op.batch_alter_table('ledger_tx', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chain', sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column('chain_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('prev_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('hash', sa.String(length=64), nullable=True))
        batch_op.create_index('ux_ledger_tx_chain', ['chain', 'chain_seq'], unique=True)
    with op.batch_alter_table('casino_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ledger_seq', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('ledger_hash', sa.String(length=64), nullable=True))
    conn = op.get_bind()
    lanes = _chain_existing(conn)
    _anchor_tables(conn, lanes)


def _chain_existing(conn: sa.Connection) -> dict[str, tuple[int, str]]:
    from tapete.server.audit.ledger_chain import CAGE, HEAD_KEY, Lane, table_lane

    lines: dict[int, list[tuple[str, int, str | None]]] = defaultdict(list)
    for tx_id, account, amount, bet in conn.execute(sa.text("SELECT tx_id, account_id, amount, bet_id FROM postings ORDER BY id")):
        lines[int(tx_id)].append((account, int(amount), bet))
    heads: dict[str, Lane] = {}
    updates = []
    found = conn.execute(sa.text("SELECT id, ts, kind, table_id, round_id, actor, memo FROM ledger_tx ORDER BY id")).all()
    for tx_id, ts, kind, table_id, round_id, actor, memo in found:
        name = CAGE if kind in CAGE_KINDS or table_id is None else table_lane(table_id)
        lane = heads.get(name) or heads.setdefault(name, Lane(name, 0, _genesis(name)))
        chain, seq, prev, digest = lane.advance(ts, kind, table_id, round_id, actor, memo, lines.get(int(tx_id), []))
        updates.append({"c": chain, "s": seq, "p": prev, "h": digest, "id": tx_id})
    if updates:
        conn.execute(sa.text("UPDATE ledger_tx SET chain = :c, chain_seq = :s, prev_hash = :p, hash = :h WHERE id = :id"), updates)
    for name, lane in heads.items():
        if name == CAGE:
            conn.execute(sa.text("INSERT INTO meta_kv (key, value) VALUES (:k, :v)"), {"k": HEAD_KEY, "v": f"{lane.seq}:{lane.hash}"})
        else:
            conn.execute(sa.text("UPDATE casino_tables SET ledger_seq = :s, ledger_hash = :h WHERE id = :t"),
                         {"s": lane.seq, "h": lane.hash, "t": name.split(":", 1)[1]})
    return {name: (lane.seq, lane.hash) for name, lane in heads.items()}


def _genesis(name: str) -> str:
    from tapete.server.audit.ledger_chain import genesis

    return genesis(name)


def _anchor_tables(conn: sa.Connection, lanes: dict[str, tuple[int, str]]) -> None:
    import json

    from tapete.server.audit.chains import record_hash, text_hash
    from tapete.server.audit.ledger_chain import table_lane

    pg = conn.dialect.name == "postgresql"
    records: dict[str, dict[str, str]] = defaultdict(dict)
    raw = "CAST(record AS TEXT)" if pg else "record"
    for round_id, table_id, text in conn.execute(sa.text(f"SELECT id, table_id, {raw} FROM rounds WHERE record IS NOT NULL ORDER BY id")):
        records[table_id][str(round_id)] = text_hash(text)
    now = time.time()
    tables = conn.execute(sa.text("SELECT id, round_no, phase, log_seq, log_hash FROM casino_tables ORDER BY id")).all()
    for table_id, round_no, phase, log_seq, log_hash in tables:
        data: dict[str, object] = {"round": round_no, "phase": phase, "upgrade": "0005", "round_records": records.get(table_id, {})}
        if table_lane(table_id) in lanes:
            seq, digest = lanes[table_lane(table_id)]
            data["ledger"] = {"seq": seq, "hash": digest}
        seq = int(log_seq) + 1
        digest = record_hash(log_hash, seq, now, "books", None, data)
        value = "CAST(:d AS JSON)" if pg else ":d"
        conn.execute(sa.text(f"INSERT INTO events (table_id, seq, ts, kind, actor, data, prev_hash, hash) "
                             f"VALUES (:t, :s, :ts, 'books', NULL, {value}, :p, :h)"),
                     {"t": table_id, "s": seq, "ts": now, "d": json.dumps(data), "p": log_hash, "h": digest})
        conn.execute(sa.text("UPDATE casino_tables SET log_seq = :s, log_hash = :h, version = version + 1 WHERE id = :t"),
                     {"s": seq, "h": digest, "t": table_id})


def downgrade() -> None:
    op.get_bind().execute(sa.text("DELETE FROM meta_kv WHERE key = 'ledger-head:cage'"))
    # Plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+): a batch copy of ledger_tx would trip the postings' foreign key.
    op.drop_column('casino_tables', 'ledger_hash')
    op.drop_column('casino_tables', 'ledger_seq')
    op.drop_index('ux_ledger_tx_chain', table_name='ledger_tx')
    for column in ('hash', 'prev_hash', 'chain_seq', 'chain'):
        op.drop_column('ledger_tx', column)
