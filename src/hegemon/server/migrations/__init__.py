"""Versioned schema migrations of the web table's database (Alembic). `hegemon.server.migrate.migrate` runs them
at start-up; `versions/` holds one file per schema change, oldest first."""
