"""People, managed by an admin: list, add, and deactivate users (`dealer.people.users`)."""

from __future__ import annotations

from typing import Any

from flask import Response
from sqlalchemy.orm import Session

from dealer.api.blueprint import bp, door
from dealer.api.writes import write
from dealer.extensions import current_session
from dealer.inputs import NewUser
from dealer.people import users
from dealer.people.languages import choose_language
from dealer.views.people import UsersView, UserView, user_view, users_view
from dealer.web.contract import ID, given
from dealer.web.refusals import json_response
from dealer.web.signin import principal

USER = f"/users/<{ID}:user_id>"


@bp.get("/users")
@door({200: (UsersView, "The users.")}, role="admin")
def list_users() -> Response:
    """Every user."""
    listed = users.list_users(current_session())
    return json_response(users_view(listed).answer(), 200)


@bp.post("/users")
@door({201: (UserView, "The user.")}, json=NewUser, write=True, role="admin")
def create_user() -> Response:
    """Add a user who signs in with a name and a PIN of 4 to 8 digits.

    A name that reads as another user's (`dealer.bounds.skeleton`: case, a run of spaces,
    full-width or look-alike letters) is refused, 409 ``user_exists``.
    """
    body = given(NewUser)

    def work(session: Session) -> tuple[Any, int]:
        user = users.add_user(session, body.name, body.role, body.pin, principal().user)
        choose_language(session, "user", user.id, body.language)
        return user_view(user).answer(), 201

    return write(work)


@bp.delete(USER)
@door({200: (UserView, "The user, inactive.")}, [404, 409, 422], write=True, role="admin")
def deactivate_user(user_id: int) -> Response:
    """Deactivate a user: no more sign-ins, and every open one ends. Their history stays."""

    def work(session: Session) -> tuple[Any, int]:
        return user_view(users.deactivate_user(session, user_id, principal().user)).answer(), 200

    return write(work)
