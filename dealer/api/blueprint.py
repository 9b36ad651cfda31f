"""The JSON API's blueprint, which every module of the API adds its routes to."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

__all__ = ["bp"]
