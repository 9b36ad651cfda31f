"""Start page and health check."""

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from dealer.extensions import db

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    return render_template("main/index.html")


@bp.get("/healthz")
def healthz() -> Any:
    """Report whether the app is up and its database answers."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        current_app.logger.exception("Health check: the database did not answer")
        db.session.rollback()
        return jsonify(status="error", database="error"), 503
    return jsonify(status="ok", database="ok")
