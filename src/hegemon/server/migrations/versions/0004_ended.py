"""When each table ended (finished, or stopped by its creator), so that ended tables expire from the database
without being loaded into memory, and an index on the status, so that start-up reads only the live tables.
Tables that ended before this migration get the time of the migration (they never expire early).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("ended", sa.Float, nullable=True))
    op.create_index("tables_status", "tables", ["status"])
    tables = sa.table("tables", sa.column("status", sa.String), sa.column("ended", sa.Float))
    op.execute(tables.update().where(tables.c.status.in_(("finished", "stopped"))).values(ended=time.time()))


def downgrade() -> None:
    op.drop_index("tables_status", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("ended")
