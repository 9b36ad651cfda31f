"""People, managed by an admin: list, add, and deactivate users."""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from dealer.errors import Conflict, NotFound
from dealer.extensions import current_session
from dealer.ledger.hands import MAX_ID
from dealer.models import AuthToken, User, utcnow
from dealer.people import add_user

from . import bp
from .auth import signed_in
from .body import json_body
from .idempotency import json_response, write

USER = "/users/<int(max=2147483647):user_id>"


def user_shape(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "role": user.role, "active": user.active}


@bp.get("/users")
@signed_in("admin")
def list_users() -> Response:
    users = current_session().scalars(select(User).order_by(User.name))
    return json_response({"users": [user_shape(u) for u in users]}, 200)


@bp.post("/users")
@signed_in("admin")
def create_user() -> Response:
    body = json_body("name", "role", "pin")

    def work(session: Session) -> tuple[Any, int]:
        return user_shape(
            add_user(session, body.get("name"), body.get("role"), body.get("pin"))
        ), 201

    return write(work)


@bp.delete(USER)
@signed_in("admin")
def deactivate_user(user_id: int) -> Response:
    """Stop a user signing in; every sign-in of theirs ends now. Their history stays."""

    def work(session: Session) -> tuple[Any, int]:
        user = session.get(User, user_id) if 1 <= user_id <= MAX_ID else None
        if user is None:
            raise NotFound(f"There is no user {user_id}.", "unknown_user")
        if user.role == "admin" and user.active:
            admins = session.scalars(
                select(User).where(User.role == "admin", User.active.is_(True))
            ).all()
            if len(admins) == 1:
                raise Conflict("This is the last active admin: add another first.", "last_admin")
        user.active = False
        session.execute(
            update(AuthToken)
            .where(AuthToken.user_id == user.id, AuthToken.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )
        session.flush()
        return user_shape(user), 200

    return write(work)
