"""Start page and health check."""

from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, render_template, url_for
from flask_login import current_user
from sqlalchemy.exc import SQLAlchemyError

from dealer.extensions import db
from dealer.health import storage_answers, storage_writable
from dealer.screens.auth.guard import home_for, who

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> Any:
    """Signed in, straight to work: the floor or the tables. Signed out, the start page."""
    if current_user.is_authenticated:
        return redirect(home_for(who()), 303)
    return render_template("main/index.html")


@bp.get("/favicon.ico")
def favicon() -> Any:
    """Browsers ask here before reading the page's icon link: the same icon, no 404."""
    return redirect(url_for("static", filename="favicon.svg"), 301)


@bp.get("/healthz")
def healthz() -> Any:
    """Report whether the app is up and its database answers and takes a write (a real one,
    committed: `dealer.health.storage_writable`), so a full disk is a 503 here as it is
    for every write."""
    try:
        storage_answers(db.session())
        writable = storage_writable(db.session())
    except SQLAlchemyError:
        current_app.logger.exception("Health check: the database did not answer")
        db.session.rollback()
        return jsonify(status="error", database="error"), 503
    if not writable:
        current_app.logger.error("Health check: the database cannot write")
        return jsonify(status="error", database="cannot write"), 503
    return jsonify(status="ok", database="ok")
