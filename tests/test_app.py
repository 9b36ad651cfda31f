"""The app factory, the start page, the health check and the migration set-up."""

import multiprocessing
import os
import re
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from dealer import create_app
from dealer.config import (
    Config,
    WeakSecretKey,
    instance_secret,
    instance_secret_key,
    make_instance_folder,
    sqlalchemy_uri,
)
from dealer.words.catalogue import language, say, use_language
from tests.conftest import SERVER_KEY
from tests.helpers import add_people

REPO = Path(__file__).resolve().parent.parent


def test_factory_applies_test_config_over_defaults(tmp_path: Path) -> None:
    """Does create_app take TESTING and the database URI from test_config?"""
    uri = f"sqlite:///{tmp_path / 'chosen.sqlite3'}"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
    assert app.testing
    assert app.config["SQLALCHEMY_DATABASE_URI"] == uri


def test_factory_reads_the_environment_without_test_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without test_config, do SECRET_KEY and DATABASE_URL come from the environment?"""
    uri = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    monkeypatch.setenv("SECRET_KEY", "from-the-environment-and-long-enough-to-be-taken")
    monkeypatch.setenv("DATABASE_URL", uri)
    app = create_app()
    assert not app.testing
    assert app.config["SECRET_KEY"] == "from-the-environment-and-long-enough-to-be-taken"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == uri


def test_a_language_with_no_catalogue_still_speaks_english(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Is DEALER_LANGUAGE the catalogue's language, and English said where it has none?"""
    monkeypatch.setenv("DEALER_LANGUAGE", "xx")
    uri = f"sqlite:///{tmp_path / 'words.sqlite3'}"
    try:
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri})
        assert app.config["LANGUAGE"] == "xx" and language() == "xx"
        assert say("Page {page} of {pages}", page=1, pages=2) == "Page 1 of 2"
    finally:
        use_language("en")
    assert language() == "en"


def test_secret_key_is_kept_across_restarts(tmp_path: Path) -> None:
    """Is the generated secret key written once to the instance folder and then reused?"""
    first = instance_secret_key(str(tmp_path))
    assert (tmp_path / "secret_key").read_text().strip() == first
    assert instance_secret_key(str(tmp_path)) == first
    assert len(first) >= 32


def _take_the_key(folder: str, barrier: Any, keys: Any) -> None:
    barrier.wait()
    keys.put(instance_secret(folder, "ledger_key"))


def test_processes_starting_at_once_all_read_the_one_key(tmp_path: Path) -> None:
    """Four processes asking for the instance's ledger key at the same moment (gunicorn's
    workers, the tests' workers migrating): each gets the same key, never an empty one (a
    file made but not yet written), round after round."""
    processes = multiprocessing.get_context("fork")
    for round_ in range(20):
        folder = tmp_path / str(round_)
        folder.mkdir()
        barrier, keys = processes.Barrier(4), processes.Queue()
        started = [
            processes.Process(target=_take_the_key, args=(str(folder), barrier, keys))
            for _ in range(4)
        ]
        for process in started:
            process.start()
        taken = {keys.get(timeout=30) for _ in started}
        for process in started:
            process.join(30)
        assert len(taken) == 1 and len(taken.pop()) == 64, round_
        assert [f.name for f in folder.iterdir()] == ["ledger_key"]  # nothing left beside it


def test_the_ledger_key_and_checkpoints_default_to_the_instance_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without LEDGER_KEY, is a key made once, readable by its owner only, and kept?"""
    for name in ("LEDGER_KEY", "CHECKPOINT_FILE"):
        monkeypatch.delenv(name, raising=False)
    config = Config(str(tmp_path))
    key_file = tmp_path / "ledger_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_text().strip() == config.LEDGER_KEY
    assert Config(str(tmp_path)).LEDGER_KEY == config.LEDGER_KEY
    assert str(tmp_path / "checkpoints.jsonl") == config.CHECKPOINT_FILE
    monkeypatch.setenv("LEDGER_KEY", "from-the-environment")
    monkeypatch.setenv("CHECKPOINT_FILE", "/var/lib/dealer/checkpoints.jsonl")
    config = Config(str(tmp_path))
    assert config.LEDGER_KEY == "from-the-environment"
    assert config.CHECKPOINT_FILE == "/var/lib/dealer/checkpoints.jsonl"


@pytest.mark.parametrize(
    ("database_url", "uri"),
    [
        ("postgres://u:p@db/dealer", "postgresql+psycopg://u:p@db/dealer"),
        ("postgresql://u:p@db/dealer", "postgresql+psycopg://u:p@db/dealer"),
        ("postgresql+psycopg://u:p@db/dealer", "postgresql+psycopg://u:p@db/dealer"),
        ("sqlite:///dealer.sqlite3", "sqlite:///dealer.sqlite3"),
    ],
)
def test_database_url_uses_the_installed_postgresql_driver(database_url: str, uri: str) -> None:
    """Is a plain PostgreSQL DATABASE_URL sent to psycopg 3, and anything else left alone?"""
    assert sqlalchemy_uri(database_url) == uri


def test_healthz_reports_app_and_database_ok(client: FlaskClient) -> None:
    """Does /healthz answer 200 once the database answers SELECT 1?"""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}


def test_healthz_reports_unreachable_database(tmp_path: Path) -> None:
    """Does /healthz answer 503 when the database cannot be opened?"""
    missing = tmp_path / "no-such-folder" / "dealer.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{missing}"})
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["database"] == "error"


def test_start_page_names_the_app(app: Flask, client: FlaskClient) -> None:
    """Does the start page render inside base.html with the app's name and stylesheet?"""
    add_people(app)  # with nobody yet, the first screen creates the first admin instead
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "<h1>dealer</h1>" in page
    assert "/static/app.css" in page


def test_unknown_api_path_is_a_json_404(client: FlaskClient) -> None:
    """Does an unknown /api/ address answer with the API's error shape?"""
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.get_json() == {
        "error": {"code": "not_found", "message": "There is nothing at this address."}
    }


def test_unknown_screen_address_is_a_page_in_the_readers_language(
    app: Flask, client: FlaskClient
) -> None:
    """A mistyped address or a stale link answers 404 with a page of the screens, styled and
    in the reader's words, not the web framework's English; a method a screen does not take
    answers 405 with what it does."""
    add_people(app)
    for code, words in (("en", "There is nothing at this address."), ("es", "No hay nada")):
        response = client.get("/no/such/screen", headers={"Accept-Language": code})
        page = response.get_data(as_text=True)
        assert response.status_code == 404 and response.mimetype == "text/html"
        assert words in page and "/static/app.css" in page and f'lang="{code}"' in page
        assert "The requested URL was not found" not in page
    refused = client.delete("/sign-in")
    assert refused.status_code == 405 and "GET" in refused.headers["Allow"]
    assert "This address does not accept that method." in refused.get_data(as_text=True)


def test_wrong_method_on_api_path_is_a_json_405(app: Flask) -> None:
    """Does a method an /api/ address does not take answer 405 with the error shape?"""
    app.add_url_rule("/api/v1/probe", "probe", lambda: {"probe": True}, methods=["GET"])
    response = app.test_client().post("/api/v1/probe")
    assert response.status_code == 405
    assert response.get_json()["error"]["code"] == "method_not_allowed"


def test_crash_under_api_path_is_a_json_500(app: Flask) -> None:
    """Does an unexpected exception in an API view answer 500 with the error shape?"""

    def crash() -> None:
        raise RuntimeError("boom")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.add_url_rule("/api/v1/crash", "crash", crash)
    response = app.test_client().get("/api/v1/crash")
    assert response.status_code == 500
    assert response.get_json()["error"]["code"] == "internal_error"


def test_unknown_page_outside_api_stays_html(client: FlaskClient) -> None:
    """Do addresses outside /api/ keep Flask's HTML error page?"""
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_db_upgrade_on_a_new_sqlite_file(tmp_path: Path) -> None:
    """Does `flask --app dealer db upgrade` create a new SQLite database from migrations/?"""
    database = tmp_path / "fresh.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
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
    with sqlite3.connect(database) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "alembic_version" in tables


@pytest.mark.parametrize("key", ["changeme", "secret", "dev", "testing", "short-but-not-listed"])
def test_a_weak_secret_key_stops_the_app_from_starting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, key: str
) -> None:
    """Outside debug and testing, is a known-weak or short SECRET_KEY refused, with a
    sentence saying how to set one?"""
    monkeypatch.setenv("SECRET_KEY", key)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'weak.sqlite3'}")
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    with pytest.raises(WeakSecretKey, match=r"secrets\.token_hex"):
        create_app()


def test_without_a_secret_key_a_fresh_clone_keeps_a_strong_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`make run` on a fresh clone sets no SECRET_KEY: the app starts with a random key kept
    in the instance folder, readable by its owner only."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    app = create_app()
    key_file = Path(app.instance_path) / "secret_key"
    assert app.config["SECRET_KEY"] == key_file.read_text().strip()
    assert len(app.config["SECRET_KEY"]) >= 64


def test_a_new_sqlite_file_and_the_instance_folder_are_the_owners_only(tmp_path: Path) -> None:
    """Is a new SQLite database file created 0600 (it holds the PIN hashes), and a new
    instance folder 0700?"""
    database = tmp_path / "new.sqlite3"
    create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    folder = tmp_path / "instance"
    make_instance_folder(str(folder))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_the_stylesheet_closes_every_block_it_opens() -> None:
    """A block left open swallows every rule after it (a browser reads them as nested in it,
    and they apply nowhere): a merge once dropped a closing brace of static/app.css."""
    sheet = (REPO / "static" / "app.css").read_text(encoding="utf-8")
    sheet = re.sub(r"/\*.*?\*/", "", sheet, flags=re.DOTALL)
    sheet = re.sub(r'"[^"\n]*"' + r"|'[^'\n]*'", '""', sheet)
    depth = 0
    for number, line in enumerate(sheet.splitlines(), start=1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"static/app.css closes a block it never opened at line {number}"
    assert depth == 0, f"static/app.css leaves {depth} block(s) open at its end"
