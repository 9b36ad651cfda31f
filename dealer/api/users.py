"""People, managed by an admin: list, add, and deactivate users (`dealer.people`)."""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer import people
from dealer.extensions import current_session
from dealer.models import User
from dealer.web.refusals import json_response
from dealer.web.signin import signed_in

from . import bp
from .body import json_body
from .writes import write

USER = "/users/<int(max=2147483647):user_id>"


def user_shape(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "role": user.role, "active": user.active}


@bp.get("/users")
@signed_in("admin")
def list_users() -> Response:
    users = people.list_users(current_session())
    return json_response({"users": [user_shape(u) for u in users]}, 200)


@bp.post("/users")
@signed_in("admin")
def create_user() -> Response:
    body = json_body("name", "role", "pin")

    def work(session: Session) -> tuple[Any, int]:
        user = people.add_user(session, body.get("name"), body.get("role"), body.get("pin"))
        return user_shape(user), 201

    return write(work)


@bp.delete(USER)
@signed_in("admin")
def deactivate_user(user_id: int) -> Response:
    """Stop a user signing in; every sign-in of theirs ends now. Their history stays."""

    def work(session: Session) -> tuple[Any, int]:
        return user_shape(people.deactivate_user(session, user_id)), 200

    return write(work)
