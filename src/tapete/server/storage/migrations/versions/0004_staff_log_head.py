"""the staff log's stored head (meta_kv staff-log-head), filled from the log as it stands

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    last = conn.execute(sa.text("SELECT seq, hash FROM staff_log ORDER BY seq DESC LIMIT 1")).first()
    if last is not None:
        conn.execute(sa.text("INSERT INTO meta_kv (key, value) VALUES ('staff-log-head', :v)"), {"v": f"{last[0]}:{last[1]}"})


def downgrade() -> None:
    op.get_bind().execute(sa.text("DELETE FROM meta_kv WHERE key = 'staff-log-head'"))
