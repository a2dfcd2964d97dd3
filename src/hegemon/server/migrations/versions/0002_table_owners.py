"""The creator token of each table (who may stop or delete it).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a database made by an earlier development build may have the table already (it was made by create_all)
    if not sa.inspect(op.get_bind()).has_table("table_owners"):
        op.create_table(
            "table_owners",
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("creator", sa.String(64), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("table_owners")
