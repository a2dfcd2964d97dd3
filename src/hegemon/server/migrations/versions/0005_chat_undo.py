"""The table chat (the seated players' messages, a bounded history per table) and each table's undo setting.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("table_chat_table", "table_chat", ["table_id", "id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("undo", sa.String(8), nullable=False, server_default="off"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("undo")
    op.drop_index("table_chat_table", "table_chat")
    op.drop_table("table_chat")
