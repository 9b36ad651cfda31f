"""The API suite runs against SQLite and PostgreSQL: `database_uri` comes from `database`."""

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
    """Signed in as a dealer."""
    return Api.sign_in(people, "dealer")


@pytest.fixture
def floor(people: Flask) -> Api:
    """Signed in as a supervisor (the floor)."""
    return Api.sign_in(people, "supervisor")


@pytest.fixture
def admin(people: Flask) -> Api:
    return Api.sign_in(people, "admin")
