"""Fixtures for the suites that run on SQLite and PostgreSQL alike (api, ledger, reports).

Each of those suites' conftest imports these, so the database choice and the signed-in
clients are written once.
"""

from __future__ import annotations

import pytest
from flask import Flask

from tests.conftest import Database
from tests.helpers import Api


@pytest.fixture
def database_uri(database: Database) -> str:
    return database.uri


@pytest.fixture
def api(people: Flask) -> Api:
    """Signed in as a dealer (Dee)."""
    return Api.sign_in(people, "dealer")


@pytest.fixture
def floor(people: Flask) -> Api:
    """Signed in as a supervisor (Sam, the floor)."""
    return Api.sign_in(people, "supervisor")


@pytest.fixture
def admin(people: Flask) -> Api:
    """Signed in as an admin (Ada)."""
    return Api.sign_in(people, "admin")
