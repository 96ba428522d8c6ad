"""the jornada: each table's opening with its anticipo and its closing counted (server/jornada)

Revision ID: 0006_jornada
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006_jornada'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('jornadas',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('day', sa.String(length=10), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('cloth_of', sa.String(length=64), nullable=True),
    sa.Column('game', sa.String(length=64), nullable=False),
    sa.Column('jurisdiction', sa.String(length=8), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('opened_at', sa.Float(), nullable=False),
    sa.Column('opened_by', sa.String(length=64), nullable=True),
    sa.Column('anticipo', sa.BigInteger(), nullable=False),
    sa.Column('anticipo_due', sa.BigInteger(), nullable=False),
    sa.Column('minimum', sa.BigInteger(), nullable=True),
    sa.Column('open_mark', sa.Integer(), nullable=False),
    sa.Column('closed_at', sa.Float(), nullable=True),
    sa.Column('closed_by', sa.String(length=64), nullable=True),
    sa.Column('close_mark', sa.Integer(), nullable=True),
    sa.Column('counted', sa.JSON(), nullable=True),
    sa.Column('books', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('jornadas', schema=None) as batch_op:
        batch_op.create_index('ix_jornadas_table', ['table_id', 'status'], unique=False)
        batch_op.create_index('ix_jornadas_day', ['day'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('jornadas', schema=None) as batch_op:
        batch_op.drop_index('ix_jornadas_day')
        batch_op.drop_index('ix_jornadas_table')
    op.drop_table('jornadas')
