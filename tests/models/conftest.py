"""The models' guards (append-only history) are held on SQLite and PostgreSQL alike."""

from tests.both_databases import admin, api, database_uri, floor

__all__ = ["admin", "api", "database_uri", "floor"]
