"""A database that cannot be reached or cannot write, wherever it shows: a 503 in words.

A write that fails to commit is answered by `dealer.transactions.writing` (`StorageUnavailable`);
this answers everything else the database's failure reaches: a read, the sign-in's own read of
the token or the PIN's hash, a connection refused or cut, or none free in the pool in time.
The JSON doors answer in the API's error shape (``storage_unavailable``); a screen answers a
page in words, and a form sent from it comes back in that page, to be sent again once the
database is back (the tablet's script keeps it too). An error the database raised for any
other reason is a bug, and stays a 500.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from flask import Flask, g, render_template, request
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from dealer.errors import busy_words, read_busy_words, read_storage_words, storage_words
from dealer.extensions import current_session, login
from dealer.storage import database_busy, storage_failed
from dealer.web.refusals import error_response

#: Where errors are answered in the API's JSON shape: the API, and the documents it signs for.
JSON_DOORS = ("/api/", "/reports/", "/exports/")
#: A form's fields never written back into a page: the PINs.
SECRET_FIELDS = frozenset({"pin", "supervisor_pin"})
#: A form's fields the dealer did not type (sent again, not shown).
UNSEEN_FIELDS = frozenset({"csrf_token", "key", "page", "action"})
READS = frozenset({"GET", "HEAD", "OPTIONS"})


def unavailable(error: DBAPIError) -> Any:
    """The answer to a request the database failed: 503 in words (or the error itself, raised
    again, when the database did not fail but the statement was wrong)."""
    if not storage_failed(error):
        raise error
    return _in_words(busy=database_busy(error))


def too_busy(_error: PoolTimeout) -> Any:
    """The answer to a request that found every connection of its worker's pool in use past
    the pool's wait (a floor far past what the server can take): nothing was read or written,
    the same 503 in words, so the tablet keeps the entry and sends it again."""
    return _in_words()


def _in_words(*, busy: bool = False) -> Any:
    with suppress(SQLAlchemyError):
        current_session().rollback()
    if request.method in READS:
        message = read_busy_words() if busy else read_storage_words()
    else:
        message = busy_words() if busy else storage_words()
    if request.path.startswith(JSON_DOORS):
        return error_response(503, "storage_unavailable", message)
    # The page is drawn as if signed out: who is signed in cannot be read from the database.
    g._login_user = login.anonymous_user()
    kept = []
    if request.method == "POST":
        kept = [(k, v) for k, v in request.form.items(multi=True) if k not in SECRET_FIELDS]
    shown = [v for k, v in kept if k not in UNSEEN_FIELDS and v.strip()]
    page = render_template(
        "unavailable.html", message=message, kept=kept, shown=shown, action=request.path
    )
    return page, 503


def end_session(_error: BaseException | None = None) -> None:
    """End the request's database session before Flask-SQLAlchemy removes it (teardowns run
    last registered, first). A connection the database server cut cannot roll back, and that
    failure, raised after the answer is made and outside every error handler, would turn the
    answer into a 500: the session's connections are then dropped as invalid instead. (Closed,
    not rolled back: what the request read stays readable, as Flask-SQLAlchemy leaves it.)"""
    session = current_session()
    try:
        session.close()
    except SQLAlchemyError:
        with suppress(SQLAlchemyError):
            session.invalidate()


def install(app: Flask) -> None:
    app.register_error_handler(DBAPIError, unavailable)
    app.register_error_handler(PoolTimeout, too_busy)
    app.teardown_appcontext(end_session)
