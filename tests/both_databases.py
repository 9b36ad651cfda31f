"""Fixtures for the suites that run on SQLite and PostgreSQL alike (api, ledger, reports).

Each of those suites' conftest imports these, so the database choice and the signed-in
clients are written once. A test that starts from a scene (`tests.scenes`) gets the clients
the scene was played by, signed in as the play left them.
"""

from __future__ import annotations

import pytest
from flask import Flask

from tests.conftest import Database
from tests.helpers import Api
from tests.scenes import signed_in


@pytest.fixture
def database_uri(database: Database) -> str:
    return database.uri


@pytest.fixture
def api(request: pytest.FixtureRequest, people: Flask) -> Api:
    """Signed in as a dealer (Dee)."""
    return signed_in(request, people, "api")


@pytest.fixture
def floor(request: pytest.FixtureRequest, people: Flask) -> Api:
    """Signed in as a supervisor (Sam, the floor)."""
    return signed_in(request, people, "floor")


@pytest.fixture
def admin(request: pytest.FixtureRequest, people: Flask) -> Api:
    """Signed in as an admin (Ada)."""
    return signed_in(request, people, "admin")
