"""The ledger's key kept apart from the database, and never a guessable one.

Production serving (gunicorn.conf.py, `make serve`) refuses to start while the key sits in a
file beside the SQLite database, unless the operator says so on purpose; `make run` on the
defaults still starts, and its admins read a warning on every screen. A weak LEDGER_KEY stops
the app from starting at all.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from unittest.mock import patch

import pytest
from flask import Flask
from sqlalchemy import text

from dealer import create_app, serve_app
from dealer.config import KeyBesideDatabase, WeakLedgerKey, check_ledger_key
from dealer.extensions import db
from tests.conftest import SERVER_KEY
from tests.helpers import PEOPLE, add_people

REPO = Path(__file__).resolve().parent.parent
STRONG = "0f3a9c2e7b51d84c6a0e9f1b3d5c7a29e8b4f6d0c2a1e3b5d7f9a8c6e4b2d0f1"


@pytest.mark.parametrize(
    "key",
    ["a", "testing", "changeme", "x" * 64, "ab" * 32, "0123456789abcdef0123456789abcde"],
)
def test_a_weak_ledger_key_stops_the_app_from_starting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, key: str
) -> None:
    """A LEDGER_KEY under 32 characters, with fewer than 10 different ones, or a well-known
    one is refused, with a sentence that says the rule and how to make a key."""
    monkeypatch.setenv("SECRET_KEY", SERVER_KEY)
    monkeypatch.setenv("LEDGER_KEY", key)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'weak.sqlite3'}")
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    with pytest.raises(WeakLedgerKey, match=r"secrets\.token_hex") as refused:
        create_app()
    assert "at least 32 characters" in str(refused.value) or "well-known" in str(refused.value)


def test_a_strong_ledger_key_is_taken() -> None:
    check_ledger_key(STRONG)
    check_ledger_key("a passphrase of many words, 32+ long")


def check_config(database: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """gunicorn loading the app as `make serve` does, then stopping (``--check-config``)."""
    environment = {
        key: value for key, value in os.environ.items() if key not in ("LEDGER_KEY", "HOST")
    }
    environment.update(
        {"DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": SERVER_KEY, "PORT": "0", **env}
    )
    return subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py", "--check-config"],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture
def beside_the_key() -> Iterator[Path]:
    """A database file in the instance folder, where the default ledger key is kept."""
    folder = REPO / "instance"
    folder.mkdir(mode=0o700, exist_ok=True)
    database = folder / f"beside-the-key-{os.getpid()}.sqlite3"
    yield database
    for made in folder.glob(f"{database.name}*"):
        made.unlink()


def test_serving_refuses_the_key_beside_the_database(beside_the_key: Path) -> None:
    refused = check_config(beside_the_key)
    assert refused.returncode != 0
    said = refused.stdout + refused.stderr
    assert "in the same folder as the database" in said
    assert "at least 32 characters" in said  # the rule for the key to set instead


def serving(monkeypatch: pytest.MonkeyPatch, url: str, **env: str) -> Flask:
    """`serve_app` in this process, on the environment `check_config` gives gunicorn: what
    the gunicorn runs above show is wired to it, without a process for each spelling."""
    monkeypatch.delenv("LEDGER_KEY", raising=False)
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    for name, value in {"DATABASE_URL": url, "SECRET_KEY": SERVER_KEY, **env}.items():
        monkeypatch.setenv(name, value)
    return serve_app()


def test_serving_starts_with_the_key_apart_or_beside_on_purpose(
    beside_the_key: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    apart = check_config(beside_the_key, LEDGER_KEY=STRONG)
    assert apart.returncode == 0, apart.stdout + apart.stderr
    serving(monkeypatch, f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")
    with patch.object(Flask, "logger") as logger:
        serving(monkeypatch, f"sqlite:///{beside_the_key}", DEALER_KEY_BESIDE_DATABASE="1")
    assert "beside the database, on purpose" in logger.warning.call_args.args[0]


def screen_for(app: Flask, role: str) -> str:
    name, pin = PEOPLE[role]
    client = app.test_client()
    assert client.post("/sign-in", data={"name": name, "pin": pin}).status_code == 303
    return unescape(client.get("/floor").get_data(as_text=True))


WARNING = "The ledger's key is kept in the same folder as the database"


@pytest.mark.parametrize("beside", [True, False])
def test_make_run_on_the_defaults_warns_the_admin_on_every_screen(
    database_uri: str, tmp_path: Path, beside: bool
) -> None:
    """`make run` keeps the key in the instance folder beside the SQLite file: it starts, and
    an admin reads why that is not how to serve a floor; a dealer is not told."""
    folder = Path(database_uri.removeprefix("sqlite:///")).parent
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_uri,
            "LEDGER_KEY_FILE": str((folder if beside else tmp_path / "apart") / "ledger_key"),
            "CHECKPOINT_FILE": str(tmp_path / "checkpoints.jsonl"),
        }
    )
    add_people(app)
    try:
        assert (WARNING in screen_for(app, "admin")) is beside
        assert WARNING not in screen_for(app, "dealer")
    finally:
        with app.app_context():
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()


@pytest.mark.parametrize(
    "spelling",
    [
        "sqlite:///{name}",
        "sqlite+pysqlite:///{name}",
        "sqlite+pysqlite:///{path}",
        "sqlite:///file:{path}?uri=true",
    ],
)
def test_serving_refuses_the_key_beside_the_database_however_the_url_spells_it(
    beside_the_key: Path, spelling: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative SQLite path is a file in the instance folder (Flask-SQLAlchemy puts it
    there, beside instance/ledger_key), and ``sqlite+pysqlite:`` or a ``file:`` URI is SQLite
    too: each is refused as the plain spelling of the same file is."""
    url = spelling.format(name=beside_the_key.name, path=beside_the_key)
    with pytest.raises(KeyBesideDatabase, match="in the same folder as the database"):
        serving(monkeypatch, url)
    assert not (REPO / beside_the_key.name).exists()  # nothing made where it was started


def test_a_relative_database_is_made_in_the_instance_folder_owner_only(
    beside_the_key: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sqlite:///name`` opens instance/name: that file is made 0600 before SQLite makes it,
    and nothing is made in the folder the app was started from."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SECRET_KEY", SERVER_KEY)
    monkeypatch.setenv("LEDGER_KEY", STRONG)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{beside_the_key.name}")
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    app = create_app()
    try:
        with app.app_context():
            db.session.execute(text("CREATE TABLE made (id INTEGER)"))
            db.session.commit()
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    assert beside_the_key.stat().st_mode & 0o777 == 0o600
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("scheme", ["sqlite", "sqlite+pysqlite"])
def test_sqlite_is_served_by_one_worker_whatever_is_asked(
    scheme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's writers queue in one process: gunicorn.conf.py gives it one worker however
    the URL is spelled and whatever WEB_CONCURRENCY says; PostgreSQL takes WEB_CONCURRENCY."""
    monkeypatch.delenv("DEALER_LIVE_HELD", raising=False)  # the settings write it
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("DATABASE_URL", f"{scheme}:///dealer.sqlite3")
    assert runpy.run_path(str(REPO / "gunicorn.conf.py"))["workers"] == 1
    monkeypatch.setenv("DATABASE_URL", "postgresql://dealer@db-host/dealer")
    assert runpy.run_path(str(REPO / "gunicorn.conf.py"))["workers"] == 3
