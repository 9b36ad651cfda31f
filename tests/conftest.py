"""Fixtures shared by every test: a migrated database, the app on it, its client and CLI runner.

Databases are built once per test session by running the real migrations
(`flask db upgrade`, triggers included) into a template, then copied for each
test: a file copy for SQLite, ``CREATE DATABASE ... TEMPLATE`` for PostgreSQL.
`database` is parametrised over both; tests/api and tests/ledger run on both.

PostgreSQL is the one at ``DEALER_TEST_POSTGRES`` (default: trust auth on
127.0.0.1:5432). If none answers, its tests skip loudly, or FAIL when
``CI=true`` or ``DEALER_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy.engine import make_url

from dealer import create_app
from dealer.extensions import db
from tests.html_check import take, watch

REPO = Path(__file__).resolve().parent.parent
POSTGRES_URL = os.environ.get(
    "DEALER_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
SKIPPED_POSTGRES: list[str] = []
NOT_RUN = "the PostgreSQL half of the suite did NOT run"


def postgres_required() -> bool:
    return os.environ.get("CI") == "true" or os.environ.get("DEALER_REQUIRE_POSTGRES") == "1"


#: A SECRET_KEY that start-up accepts, for the app run outside testing (migrations).
SERVER_KEY = "a key for tests that is long enough to be taken"


def migrate(uri: str) -> None:
    """Run `flask --app dealer db upgrade` against ``uri`` in a fresh process."""
    env = {
        **os.environ,
        "DATABASE_URL": uri,
        "SECRET_KEY": SERVER_KEY,
    }
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "dealer", "db", "upgrade"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


@dataclass(frozen=True)
class Database:
    """One test's own database: which kind, and the URI the app connects to."""

    kind: str
    uri: str


class PostgresServer:
    """The PostgreSQL server the suite makes its throwaway databases on."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.prefix = f"dealer_test_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        self.admin = psycopg.connect(
            host=self.url.host,
            port=self.url.port or 5432,
            user=self.url.username,
            password=self.url.password,
            dbname=self.url.database or "postgres",
            autocommit=True,
            connect_timeout=3,
        )
        self.count = 0
        self.template = f"{self.prefix}_template"
        self.execute(f'CREATE DATABASE "{self.template}"')
        migrate(self.uri(self.template))

    def uri(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def execute(self, sql: str) -> None:
        self.admin.execute(sql)  # type: ignore[arg-type]

    def new_database(self) -> str:
        self.count += 1
        name = f"{self.prefix}_{self.count}"
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        return name

    def drop(self, name: str) -> None:
        self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        self.drop(self.template)
        self.admin.close()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    try:
        server = PostgresServer(POSTGRES_URL)
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL is not reachable at {POSTGRES_URL} ({exc}): " + NOT_RUN
        if postgres_required():
            pytest.fail(reason + " (CI=true or DEALER_REQUIRE_POSTGRES=1 require it)")
        pytest.skip(reason)
    yield server
    server.close()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note a test skipped for want of PostgreSQL. The reports reach this hook in the process
    that prints the summary, with or without worker processes (pytest-xdist)."""
    skipped = report.longrepr if report.skipped else None
    if isinstance(skipped, tuple) and NOT_RUN in str(skipped[2]) and not SKIPPED_POSTGRES:
        SKIPPED_POSTGRES.append(str(skipped[2]).removeprefix("Skipped: "))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say it at the end, in red, when the PostgreSQL tests were skipped."""
    if SKIPPED_POSTGRES:
        terminalreporter.write_sep("!", "PostgreSQL tests SKIPPED", red=True, bold=True)
        terminalreporter.write_line(SKIPPED_POSTGRES[0], red=True)


def sqlite_database(template: Path, tmp_path: Path) -> Database:
    path = tmp_path / "test.sqlite3"
    shutil.copyfile(template, path)
    return Database("sqlite", f"sqlite:///{path}")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, migrated database of each kind in turn."""
    if request.param == "sqlite":
        yield sqlite_database(request.getfixturevalue("sqlite_template"), tmp_path)
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.new_database()
    yield Database("postgresql", server.uri(name))
    server.drop(name)


@pytest.fixture
def database_uri(sqlite_template: Path, tmp_path: Path) -> str:
    """The app's database outside tests/api and tests/ledger: a migrated SQLite file."""
    return sqlite_database(sqlite_template, tmp_path).uri


@pytest.fixture
def app(database_uri: str, tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_uri,
            "WTF_CSRF_ENABLED": False,
            "CHECKPOINT_FILE": str(tmp_path / "checkpoints.jsonl"),
        }
    )
    watch(app)
    yield app
    invalid = take(app)
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()
    assert not invalid, "pages that are not valid HTML:\n" + "\n".join(invalid)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
