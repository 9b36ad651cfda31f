"""Dealer assist and chip ledger for live Panguingue tables."""

from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from sqlalchemy.orm import Session
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from dealer import settings, transactions, write_behind
from dealer.config import (
    Config,
    TestingConfig,
    check_key_apart,
    check_ledger_key,
    check_secret_key,
    check_settings,
    create_sqlite_file,
    key_beside_database,
    make_instance_folder,
    sqlite_file,
)
from dealer.extensions import csrf, db, login, migrate
from dealer.web import assets, cookie, headers, language, request_line, signin, storage
from dealer.words.catalogue import say, say_later, use_language

# Templates and static files sit at the repository root, beside the package.
ROOT = Path(__file__).resolve().parent.parent

# Codes and sentences (said in the request's language) for errors raised before any API view
# can answer.
API_ERRORS = {
    400: ("bad_request", say_later("The request could not be read.")),
    404: ("not_found", say_later("There is nothing at this address.")),
    405: ("method_not_allowed", say_later("This address does not accept that method.")),
    413: ("too_large", say_later("The request is too large.")),
    414: ("uri_too_long", say_later("The address is too long.")),
    500: ("internal_error", say_later("Something went wrong on the server.")),
}


#: Where errors are answered in the API's JSON shape: the API, and the documents it signs for.
JSON_ERROR_PATHS = storage.JSON_DOORS


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions and blueprints."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_relative_config=True,
    )
    make_instance_folder(app.instance_path)
    _configure(app, test_config)
    _bind_extensions(app)
    _register_doors(app)
    return app


def _configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The app's settings: the config class's, then ``test_config``'s, checked."""
    testing = bool(test_config and test_config.get("TESTING"))
    config_class = TestingConfig if testing else Config
    app.config.from_object(config_class(app.instance_path))
    if test_config is not None:
        app.config.from_mapping(test_config)
    check_settings(app.config)
    # The floor's default language: what a request, a thread or a command speaks when nobody
    # chose another (`dealer.web.language` chooses each request's).
    use_language(app.config.get("LANGUAGE"))
    if not (app.debug or app.testing):
        check_secret_key(app.config.get("SECRET_KEY"))
        check_ledger_key(app.config.get("LEDGER_KEY"))
    if int(app.config.get("PROXY_HOPS", 0)) > 0:
        # Behind a proxy every client has the proxy's address; believe X-Forwarded-For
        # only from as many proxies as configured (else anyone could name any source).
        hops = int(app.config["PROXY_HOPS"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


def _bind_extensions(app: Flask) -> None:
    """The extensions bound to the app, the database's engines and sessions instrumented."""
    db.init_app(app)
    # Batch mode lets Alembic alter tables on SQLite, which has no ALTER COLUMN.
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    login.init_app(app)
    signin.install(login)
    app.before_request(signin.claim_device)
    app.teardown_request(signin.forget_device)
    language.install(app)
    with app.app_context():
        # The SQLite file as the engine opens it, made owner-only before SQLite makes it.
        app.config["DATABASE_FILE"] = sqlite_file(db.engine.url)
        create_sqlite_file(app.config["DATABASE_FILE"])
        for engine in db.engines.values():
            transactions.install(engine)
            settings.bind(engine, settings.Settings(app.config, app.instance_path))
            write_behind.install_engine(engine)
    # Every commit bumps the live marks of what it changed (open screens ask for them).
    from dealer import live

    live.install(Session)
    # What an event adds and never reads back goes to PostgreSQL in one round trip, the live
    # marks included: installed after them.
    write_behind.install_session(Session)
    # Every flush that adds or changes a user, table, seating, player or dealer's session
    # writes and links a new version of it (who the chips belong to, under what rules).
    from dealer.ledger import identity

    identity.install(Session)


def _register_doors(app: Flask) -> None:
    """The front doors, each one blueprint (or two), registered here and nowhere else."""
    from dealer import api, cli, models, screens  # noqa: F401  (models: its tables)
    from dealer.reports import build_routes, printing, routes  # noqa: F401  (their routes)
    from dealer.screens import auth
    from dealer.screens.main import routes as main

    app.register_blueprint(main.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(screens.bp)
    app.register_blueprint(printing.bp)
    # The JSON API proves a request is not cross-site in its own way: see web/signin.py.
    csrf.exempt(api.bp)
    app.register_blueprint(api.bp)
    cli.register(app)
    headers.install(app)
    assets.install(app)  # gives the app its session interface: the cookie's reader after
    cookie.install(app)
    storage.install(app)
    request_line.install(app)
    register_api_errors(app)


def serve_app() -> Flask:
    """The app as production serves it (gunicorn.conf.py, `make serve`): refused while the
    ledger key sits in the SQLite database's folder, unless the operator says so on purpose
    (``DEALER_KEY_BESIDE_DATABASE=1``: then it starts, and says so in the log)."""
    app = create_app()
    check_key_apart(app.config)
    if key_beside_database(app.config):
        app.logger.warning(
            "Serving with the ledger key in %s, beside the database, on purpose "
            "(DEALER_KEY_BESIDE_DATABASE=1): whoever can change the database can re-sign it.",
            app.config["LEDGER_KEY_FILE"],
        )
    return app


def register_api_errors(app: Flask) -> None:
    """Answer HTTP errors under /api/, /reports/ and /exports/ as JSON; elsewhere as a page of
    the screens, in the reader's language (an address mistyped or a link gone stale)."""

    def api_error(error: HTTPException) -> Any:
        code = error.code or 500
        name, message = API_ERRORS[code]
        message = say(message)
        if not request.path.startswith(JSON_ERROR_PATHS):
            try:
                page = render_template("screens/refused.html", status=code, message=message)
            except Exception:  # a page that cannot be drawn (its database gone, say)
                return error  # leaves the framework's own, rather than a second failure
            return page, code, [(k, v) for k, v in error.get_headers() if k.lower() == "allow"]
        # Keep werkzeug's own headers but its HTML type: a 405 must say what is Allowed.
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        return jsonify(error={"code": name, "message": message}), code, headers

    for code in API_ERRORS:
        app.register_error_handler(code, api_error)
