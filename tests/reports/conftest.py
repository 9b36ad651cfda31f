"""The documents through HTTP run on SQLite and PostgreSQL, like the API suite.

Tests here that take no app (the documents from plain data) use no database at all.
"""

from tests.both_databases import admin, api, database_uri, floor

__all__ = ["admin", "api", "database_uri", "floor"]
