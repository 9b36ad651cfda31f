"""A user's PIN changed by an admin (forgotten, or seen by someone): the same PIN rules as
adding a user, every sign-in of theirs ended, and the change on the audit trail."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from dealer.bounds import MAX_ID
from dealer.errors import Conflict, NotFound
from dealer.models import AuthToken, User, utcnow
from dealer.people.audit import record_audit
from dealer.people.pins import check_pin_format, hash_pin
from dealer.people.users import require_role
from dealer.words.catalogue import say

__all__ = ["change_pin"]


def change_pin(session: Session, user_id: int, pin: object, by: User) -> User:
    """Give user ``user_id`` a new PIN (``by``: the admin); their open sign-ins end."""
    require_role(by, "admin")
    user = session.get(User, user_id) if 1 <= user_id <= MAX_ID else None
    if user is None:
        raise NotFound(say("There is no user {user_id}.", user_id=user_id), "unknown_user")
    if not user.active:
        raise Conflict(
            say("{name} is deactivated: add them again instead.", name=user.name), "inactive_user"
        )
    user.pin_hash = hash_pin(check_pin_format(pin))
    session.execute(
        update(AuthToken)
        .where(AuthToken.user_id == user.id, AuthToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    session.flush()
    record_audit(
        session,
        "user_changed",
        words=f"{user.name}'s PIN changed by {by.name}.",
        user_id=by.id,
        details={"user": user.id, "pin": "changed"},
    )
    return user
