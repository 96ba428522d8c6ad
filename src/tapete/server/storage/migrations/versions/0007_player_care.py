"""the player's care (issue 31): identity, limits and self-exclusion per player; the operator's excluded documents

Revision ID: 0007_player_care
Revises: 0006_jornada
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007_player_care'
down_revision = '0006_jornada'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('player_care',
    sa.Column('username', sa.String(length=64), nullable=False),
    sa.Column('birth_date', sa.String(length=10), nullable=True),
    sa.Column('document', sa.String(length=16), nullable=True),
    sa.Column('limits', sa.JSON(), nullable=True),
    sa.Column('excluded_until', sa.Float(), nullable=True),
    sa.Column('excluded_for_good', sa.Boolean(), server_default='0', nullable=False),
    sa.Column('session_started_at', sa.Float(), nullable=True),
    sa.Column('updated_at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['username'], ['users.username'], ),
    sa.PrimaryKeyConstraint('username'),
    sa.UniqueConstraint('document')
    )
    op.create_table('excluded_documents',
    sa.Column('document', sa.String(length=16), nullable=False),
    sa.Column('added_at', sa.Float(), nullable=False),
    sa.Column('note', sa.String(length=200), nullable=True),
    sa.PrimaryKeyConstraint('document')
    )


def downgrade() -> None:
    op.drop_table('excluded_documents')
    op.drop_table('player_care')
