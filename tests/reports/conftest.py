"""The documents through HTTP run on SQLite and PostgreSQL, like the API suite.

Tests here that take no app (the documents from plain data) use no database at all. A test
that takes ``evening`` starts from the evening of tests/reports/evening.py, played by the
dealer (``api``) and the floor (``floor``) once per worker into a template (`tests.scenes`).
"""

from tests.both_databases import admin, api, database_uri, floor
from tests.reports.evening import play_evening
from tests.scenes import scene

evening = scene("evening", play_evening, "api", "floor")

__all__ = ["admin", "api", "database_uri", "evening", "floor"]
