"""The API suite runs against SQLite and PostgreSQL: `database_uri` comes from `database`."""

from tests.both_databases import admin, api, database_uri, floor

__all__ = ["admin", "api", "database_uri", "floor"]
