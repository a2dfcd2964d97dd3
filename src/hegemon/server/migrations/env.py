"""Alembic's environment: migrations run on the connection `hegemon.server.migrate` hands over (or, from the
`alembic` command line, on `sqlalchemy.url`), against the schema declared in `hegemon.server.storage`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from hegemon.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
