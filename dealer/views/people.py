"""The people who sign in, as a client reads them: a user, and who signed in."""

from __future__ import annotations

from typing import Literal, TypeAlias

from dealer.models import User
from dealer.views.base import View

__all__ = ["SignedIn", "UserView", "UsersView", "Who", "user_view"]

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


class UsersView(View):
    users: list[UserView]


def user_view(user: User) -> UserView:
    return UserView(id=user.id, name=user.name, role=user.role, active=user.active)  # type: ignore[arg-type]
