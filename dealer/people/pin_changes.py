"""A user's PIN changed by an admin (forgotten, or seen by someone): the same PIN rules as
adding a user, every sign-in of theirs ended, and the change on the audit trail."""

from __future__ import annotations

from sqlalchemy.orm import Session

from dealer.errors import Conflict
from dealer.models import User
from dealer.people.pins import check_pin_format, hash_pin
from dealer.people.users import get_user, require_role, user_changed
from dealer.words.catalogue import say


def change_pin(session: Session, user_id: int, pin: object, by: User) -> User:
    """Give user ``user_id`` a new PIN (``by``: the admin); their open sign-ins end."""
    require_role(by, "admin")
    user = get_user(session, user_id)
    if not user.active:
        raise Conflict(
            say("{name} is deactivated: add them again instead.", name=user.name), "inactive_user"
        )
    user.pin_hash = hash_pin(session, check_pin_format(pin))
    words = say("{name}'s PIN changed by {by}.", name=user.name, by=by.name)
    return user_changed(session, user, by, words, {"pin": "changed"})
