"""The ledger suite runs against SQLite and PostgreSQL too."""

from tests.both_databases import admin, api, database_uri, floor

__all__ = ["admin", "api", "database_uri", "floor"]
