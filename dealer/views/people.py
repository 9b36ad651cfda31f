"""The people who sign in, as a client reads them: a user, and who signed in."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypeAlias

from pydantic import Field

from dealer.models import User
from dealer.views.base import View

Role: TypeAlias = Literal["dealer", "supervisor", "admin"]


class Who(View):
    name: str
    role: Role


class SignedIn(View):
    user: Who
    token: str


class UserView(View):
    id: int
    name: str
    role: Role
    active: bool
    language: str | None = Field(
        None,
        description="The language this person reads the app in (es, fil); null: none chosen, "
        "the tablet's or the request's (Accept-Language).",
    )


class UsersView(View):
    users: list[UserView]


def user_view(user: User) -> UserView:
    return UserView(
        id=user.id,
        name=user.name,
        role=user.role,  # type: ignore[arg-type]
        active=user.active,
        language=user.language,
    )


def users_view(users: Iterable[User]) -> UsersView:
    return UsersView(users=[user_view(u) for u in users])


def signed_in_view(user: User, token: str) -> SignedIn:
    """Who signed in, and the token that is their sign-in from now on."""
    return SignedIn(user=Who(name=user.name, role=user.role), token=token)  # type: ignore[arg-type]
