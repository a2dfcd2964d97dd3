"""The first schema: tables, their secret salts, and the append-only actions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("game_version", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("turn_timer", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_table(
        "table_secrets",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("salt", sa.String(64), nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("actor", sa.Integer, nullable=False),
        sa.Column("note", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    for name in ("actions", "table_secrets", "tables"):
        op.drop_table(name)
