"""Fixtures shared by every test: a migrated database, the app on it, its client and CLI runner.

Databases are built once per test session by running the real migrations
(`flask db upgrade`, triggers included, in the worker's own process: `alembic`) into a
template, then copied for each test: a file copy for SQLite; for PostgreSQL a
``CREATE DATABASE ... TEMPLATE`` copy, or one an earlier test used put back as the template
holds it (`tests.postgres`).
`database` is parametrised over both; tests/api and tests/ledger run on both.

A test that asks for `people` (one user of each role, `tests.helpers.PEOPLE`) gets a copy
of a second template, the first with those users added once through the app
(`add_people`), with the checkpoint file that adding them filed: the same rows, links
and checkpoint a test would make itself, made once per worker instead of once per test.
A test that asks for a scene (`tests.scenes`: the reports' ``evening``) gets a copy of a
third, the people's with the scene played into it once through the API (`template_for`),
with its checkpoint file, and the clients it was played by, signed in as it left them.
Every template after the migrated one is made the same way (`derive`).

PostgreSQL is the one at ``DEALER_TEST_POSTGRES`` (default: trust auth on
127.0.0.1:5432). If none answers, its tests skip loudly, or FAIL when
``CI=true`` or ``DEALER_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import gc
import logging
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any, TypeVar

import flask_migrate
import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from dealer import create_app
from dealer.extensions import db
from tests import scenes
from tests.helpers import add_people
from tests.html_check import take, watch
from tests.made_once import made_faster
from tests.postgres import PostgresServer

REPO = Path(__file__).resolve().parent.parent
POSTGRES_URL = os.environ.get(
    "DEALER_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
SKIPPED_POSTGRES: list[str] = []
NOT_RUN = "the PostgreSQL half of the suite did NOT run"
T = TypeVar("T")


def postgres_required() -> bool:
    return os.environ.get("CI") == "true" or os.environ.get("DEALER_REQUIRE_POSTGRES") == "1"


#: A SECRET_KEY that start-up accepts, for the app run outside testing (migrations).
SERVER_KEY = "a key for tests that is long enough to be taken"


def migrate(uri: str) -> None:
    """`flask db upgrade` on ``uri`` (`alembic`)."""
    alembic(uri, "upgrade")


def alembic(uri: str, command: str, revision: str = "head") -> None:
    """Flask-Migrate's ``command`` ("upgrade" or "downgrade") to ``revision`` on ``uri``, as
    `flask --app dealer db` runs it, in this process: an app of its own for the command
    (`test_app`'s, with the testing ledger key), closed after. A process of its own for each
    cost about a second of CPU more (Python, the app and alembic imported again), some 20 a
    run. The root logger is given a handler while it runs, so that migrations/env.py leaves
    the run's logging as it is. A refusal (a migration that will not go back) is raised as
    `MigrationRefused`, with the words the command would have printed."""
    root = logging.getLogger()
    keep = logging.NullHandler()
    root.addHandler(keep)
    try:
        with TemporaryDirectory() as folder:
            app = test_app(uri, Path(folder))
            try:
                with app.app_context():
                    run = getattr(flask_migrate, command)
                    run.__wrapped__(revision=revision)  # without its catch: the refusal raised
            except RuntimeError as exc:
                if "cannot go back" not in str(exc):
                    raise  # not a refusal: an error of its own, as it was raised
                raise MigrationRefused(str(exc)) from exc
            finally:
                close_app(app)
    finally:
        root.removeHandler(keep)


class MigrationRefused(Exception):
    """A migration refused to run (`alembic`): what `flask db` says and exits 1 on."""


@dataclass(frozen=True)
class Database:
    """One test's own database: which kind, and the URI the app connects to."""

    kind: str
    uri: str


TEMPLATE = "template.sqlite3"


def kept_folder(label: str) -> Path | None:
    """Where the SQLite template ``label`` is kept from one test session to the next, when
    ``DEALER_TEST_TEMPLATES`` names a folder: the mutation runs (`python -m bench.mutants`)
    start a session for each mutant, which would otherwise migrate again each time."""
    folder = os.environ.get("DEALER_TEST_TEMPLATES")
    return Path(folder) / label if folder else None


def kept(label: str) -> Path | None:
    """The template ``label`` a session before this one kept, if any (`kept_folder`)."""
    folder = kept_folder(label)
    return folder / TEMPLATE if folder is not None and (folder / TEMPLATE).exists() else None


def keep(label: str, template: Path) -> Path:
    """``template`` (and its folder's checkpoint file), kept for the next sessions when they
    are kept (`kept_folder`): copied whole, then renamed into place."""
    folder = kept_folder(label)
    if folder is None:
        return template
    folder.parent.mkdir(parents=True, exist_ok=True)
    with TemporaryDirectory(dir=folder.parent) as scratch:
        shutil.copytree(template.parent, Path(scratch) / label)
        with suppress(OSError):  # another session kept the same one first
            (Path(scratch) / label).rename(folder)
    return folder / TEMPLATE


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = kept("migrated")
    if made is not None:
        return made
    path = tmp_path_factory.mktemp("template") / TEMPLATE
    migrate(f"sqlite:///{path}")
    return keep("migrated", path)


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


def derive(
    request: pytest.FixtureRequest,
    kind: str,
    base: str,
    base_folder: Path | None,
    label: str,
    fill: Callable[[Flask], T],
) -> tuple[str, Path, T]:
    """A new template of ``kind``: a copy of the template ``base`` (and of the checkpoint
    file in ``base_folder``, when it has one) into which ``fill`` is run once through the
    app, as a test would. Its name (for SQLite its file's path), the folder of its
    checkpoint file, and what ``fill`` returned. A PostgreSQL one is registered with the
    server's templates: its copies are put back as it holds them, and it is dropped at the end.
    """
    folder: Path = request.getfixturevalue("tmp_path_factory").mktemp(label)
    if base_folder is not None:
        copy_checkpoints(base_folder, folder)
    if kind == "sqlite":
        template = str(folder / TEMPLATE)
        shutil.copyfile(base, template)
        uri = f"sqlite:///{template}"
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        template = server.new_template(base, label)
        uri = server.uri(template)
    app = test_app(uri, folder)
    try:
        return template, folder, fill(app)
    finally:
        close_app(app)


@pytest.fixture(scope="session")
def sqlite_people_template(request: pytest.FixtureRequest, sqlite_template: Path) -> Path:
    """The migrated SQLite template with `PEOPLE` added; its checkpoint file beside it."""
    made = kept("people")
    if made is not None:
        return made
    path = derive(request, "sqlite", str(sqlite_template), None, "people", add_people)[0]
    return keep("people", Path(path))


@pytest.fixture(scope="session")
def postgres_people_template(
    request: pytest.FixtureRequest, postgres_server: PostgresServer
) -> tuple:
    """A PostgreSQL template with `PEOPLE` added, and the folder of its checkpoint file."""
    name, folder, _ = derive(
        request, "postgresql", postgres_server.template, None, "people", add_people
    )
    return name, folder


def people_template(request: pytest.FixtureRequest, kind: str) -> tuple[str, Path]:
    """The template with `PEOPLE` of ``kind``, and the folder of its checkpoint file."""
    if kind == "sqlite":
        path: Path = request.getfixturevalue("sqlite_people_template")
        return str(path), path.parent
    name, folder = request.getfixturevalue("postgres_people_template")
    return name, folder


@pytest.fixture(scope="session")
def scene_templates() -> dict[tuple[str, str], tuple[str, Path, scenes.Run]]:
    """This worker's scenes as played, by kind and scene: the template, its checkpoint
    file's folder and the run."""
    return {}


def template_for(request: pytest.FixtureRequest, kind: str) -> tuple[str | None, Path | None]:
    """The template a test's database of ``kind`` is copied from (None: the migrated one)
    and the folder of the checkpoint file copied with it (None: none). A scene's when the
    test asks for one (`tests.scenes`): played now if this worker has not played it yet,
    or played it longer ago than the scene's sign-ins are sure to last (`scenes.KEPT_SECONDS`).
    The people's when the test asks for `people`; else the migrated template."""
    scene = scenes.asked(request)
    if scene is not None:
        played = request.getfixturevalue("scene_templates")
        key = (kind, scene.name)
        if key not in played or not played[key][2].fresh():
            base, folder = people_template(request, kind)
            play = partial(scenes.play_scene, scene)
            played[key] = derive(request, kind, base, folder, scene.name, play)
        template, folder, run = played[key]
        request.node.stash[scenes.HANDED] = run
        return template, folder
    if with_people(request):
        return people_template(request, kind)
    return None, None


def with_people(request: pytest.FixtureRequest) -> bool:
    return "people" in request.fixturenames


def copy_checkpoints(folder: Path, tmp_path: Path) -> None:
    shutil.copy(folder / CHECKPOINTS, tmp_path / CHECKPOINTS)  # its mode too: only its owner's


def sqlite_database(template: Path, tmp_path: Path) -> Database:
    path = tmp_path / "test.sqlite3"
    shutil.copyfile(template, path)
    return Database("sqlite", f"sqlite:///{path}")


def sqlite_copy(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    template: str | None = None,
    folder: Path | None = None,
) -> Database:
    """A copy of the SQLite ``template`` (None: the migrated one) in ``tmp_path``, with the
    checkpoint file in ``folder`` (None: none)."""
    if folder is not None:
        copy_checkpoints(folder, tmp_path)
    if template is None:
        return sqlite_database(request.getfixturevalue("sqlite_template"), tmp_path)
    return sqlite_database(Path(template), tmp_path)


def sqlite_for(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A copy of the SQLite template the test needs (`template_for`)."""
    return sqlite_copy(request, tmp_path, *template_for(request, "sqlite"))


@contextmanager
def database_of(
    request: pytest.FixtureRequest,
    kind: str,
    tmp_path: Path,
    template: str | None = None,
    folder: Path | None = None,
) -> Iterator[Database]:
    """A fresh database of ``kind`` ("sqlite" or "postgresql"), as `sqlite_copy` makes one;
    a PostgreSQL one is given back after."""
    if folder is not None:
        copy_checkpoints(folder, tmp_path)
    if kind == "sqlite":
        yield sqlite_copy(request, tmp_path, template)
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.new_database(template)
    try:
        yield Database("postgresql", server.uri(name))
    finally:
        server.give_back(name)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, migrated database of each kind in turn (`template_for`'s copy)."""
    kind = request.param
    with database_of(request, kind, tmp_path, *template_for(request, kind)) as database:
        yield database


@pytest.fixture
def database_uri(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The app's database outside tests/api and tests/ledger: a migrated SQLite file."""
    return sqlite_for(request, tmp_path).uri


@contextmanager
def app_on(uri: str, folder: Path) -> Iterator[Flask]:
    """The `app` fixture's app on ``uri``, its checkpoints in ``folder``; closed after, and
    every HTML page it answered with checked."""
    app = watch(test_app(uri, folder))
    try:
        yield app
    finally:
        invalid = take(app)
        close_app(app)
    assert not invalid, "pages that are not valid HTML:\n" + "\n".join(invalid)


@pytest.fixture
def app(database_uri: str, tmp_path: Path) -> Iterator[Flask]:
    with app_on(database_uri, tmp_path) as app:
        yield app


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


def pytest_configure(config: Any) -> None:
    """Python's cyclic garbage collector, tuned for a test run (in every pytest process: each
    worker, and the one that leads them).

    A run makes and drops objects by the million (apps, engines, sessions, hypothesis's
    cases), and with the default thresholds (700, 10, 10) the collector ran a young
    collection every 700 allocations and kept walking every module already imported
    (Flask, SQLAlchemy, the rules) in its oldest generation. Those are moved to a
    generation it never walks (``gc.freeze``), and a young collection waits for 50,000
    allocations. Measured (paired runs, this machine): three API, view and screen modules in
    one process 6 % less CPU (four runs each), the ledger and view suites on three workers
    2.5 % less (three each); the whole suite's run-to-run spread is wider than that. Nothing a
    test checks depends on when garbage is collected; the served app keeps Python's defaults
    (the same thresholds made no difference that ``python -m bench.api`` could show)."""
    gc.set_threshold(50_000, 20, 20)
    gc.freeze()
