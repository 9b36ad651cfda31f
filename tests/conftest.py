"""Fixtures shared by every test: a migrated database, the app on it, its client and CLI runner.

Databases are built once per test session by running the real migrations
(`flask db upgrade`, triggers included) into a template, then copied for each
test: a file copy for SQLite; for PostgreSQL a ``CREATE DATABASE ... TEMPLATE`` copy, or
one an earlier test used put back as the template holds it (`tests.postgres`).
`database` is parametrised over both; tests/api and tests/ledger run on both.

A test that asks for `people` (one user of each role, `tests.helpers.PEOPLE`) gets a copy
of a second template, the first with those users added once through the app
(`add_people`), with the checkpoint file that adding them filed: the same rows, links
and checkpoint a test would make itself, made once per worker instead of once per test.

PostgreSQL is the one at ``DEALER_TEST_POSTGRES`` (default: trust auth on
127.0.0.1:5432). If none answers, its tests skip loudly, or FAIL when
``CI=true`` or ``DEALER_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from dealer import create_app
from dealer.extensions import db
from tests.html_check import take, watch
from tests.made_once import made_faster
from tests.postgres import PostgresServer

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


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    try:
        server = PostgresServer(POSTGRES_URL, migrate)
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


CHECKPOINTS = "checkpoints.jsonl"


def test_app(uri: str, folder: Path) -> Flask:
    """The app as the `app` fixture makes it: testing, on ``uri``, its checkpoints in ``folder``;
    sharing what the worker's earlier apps made (`tests.made_once`)."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": False,
            "CHECKPOINT_FILE": str(folder / CHECKPOINTS),
        }
    )
    return made_faster(app)


def close_app(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()


def add_people_once(uri: str, folder: Path) -> None:
    """Add `PEOPLE` to the database at ``uri`` as a test would, filing into ``folder``."""
    from tests.helpers import add_people

    app = test_app(uri, folder)
    add_people(app)
    close_app(app)


@pytest.fixture(scope="session")
def sqlite_people_template(sqlite_template: Path) -> Path:
    """The migrated SQLite template with `PEOPLE` added; its checkpoint file beside it."""
    folder = sqlite_template.parent / "people"
    folder.mkdir()
    shutil.copyfile(sqlite_template, folder / sqlite_template.name)
    add_people_once(f"sqlite:///{folder / sqlite_template.name}", folder)
    return folder / sqlite_template.name


@pytest.fixture(scope="session")
def postgres_people_template(postgres_server: PostgresServer, tmp_path_factory: Any) -> tuple:
    """A PostgreSQL template with `PEOPLE` added, and the folder of its checkpoint file."""
    folder = tmp_path_factory.mktemp("people")
    name = f"{postgres_server.prefix}_people"
    postgres_server.execute(f'CREATE DATABASE "{name}" TEMPLATE "{postgres_server.template}"')
    postgres_server.templates.append(name)
    add_people_once(postgres_server.uri(name), folder)
    return name, folder


def with_people(request: pytest.FixtureRequest) -> bool:
    return "people" in request.fixturenames


def copy_checkpoints(folder: Path, tmp_path: Path) -> None:
    shutil.copy(folder / CHECKPOINTS, tmp_path / CHECKPOINTS)  # its mode too: only its owner's


def sqlite_database(template: Path, tmp_path: Path) -> Database:
    path = tmp_path / "test.sqlite3"
    shutil.copyfile(template, path)
    return Database("sqlite", f"sqlite:///{path}")


def sqlite_for(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A copy of the SQLite template, with `PEOPLE` when the test asks for `people`."""
    if not with_people(request):
        return sqlite_database(request.getfixturevalue("sqlite_template"), tmp_path)
    template: Path = request.getfixturevalue("sqlite_people_template")
    copy_checkpoints(template.parent, tmp_path)
    return sqlite_database(template, tmp_path)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, migrated database of each kind in turn."""
    if request.param == "sqlite":
        yield sqlite_for(request, tmp_path)
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    template = None
    if with_people(request):
        template, folder = request.getfixturevalue("postgres_people_template")
        copy_checkpoints(folder, tmp_path)
    name = server.new_database(template)
    yield Database("postgresql", server.uri(name))
    server.give_back(name)


@pytest.fixture
def database_uri(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The app's database outside tests/api and tests/ledger: a migrated SQLite file."""
    return sqlite_for(request, tmp_path).uri


@pytest.fixture
def app(database_uri: str, tmp_path: Path) -> Iterator[Flask]:
    app = watch(test_app(database_uri, tmp_path))
    yield app
    invalid = take(app)
    close_app(app)
    assert not invalid, "pages that are not valid HTML:\n" + "\n".join(invalid)


@pytest.fixture
def people(app: Flask) -> Flask:
    """The app with one user of each role (`tests.helpers.PEOPLE`): its database was copied
    from the template they were added to (see the module's docstring)."""
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
