"""The sign-in pages' blueprint."""

from flask import Blueprint

bp = Blueprint("auth", __name__)
