"""The documents through HTTP run on SQLite and PostgreSQL, like the API suite.

Tests here that take no app (the documents from plain data) use no database at all.
"""

from __future__ import annotations

import pytest
from flask import Flask

from tests.conftest import Database
from tests.helpers import Api, add_people


@pytest.fixture
def database_uri(database: Database) -> str:
    return database.uri


@pytest.fixture
def people(app: Flask) -> Flask:
    add_people(app)
    return app


@pytest.fixture
def api(people: Flask) -> Api:
    """Signed in as a dealer (Dee)."""
    return Api.sign_in(people, "dealer")


@pytest.fixture
def floor(people: Flask) -> Api:
    """Signed in as a supervisor (Sam)."""
    return Api.sign_in(people, "supervisor")
