"""People: users, sign-in (the PIN checked by `dealer.people.pins`), tokens, roles.

Every decision about people lives here, once, for every front door: who holds a role,
signing in and out, a supervisor approving on the spot (with the same lockout), and an
admin adding or deactivating users (never the last active admin).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from dealer.bounds import (
    MAX_ID,
    PLAIN_TEXT_WORDS,
    USER_NAME,
    invisible_words,
    is_plain,
    is_visible_name,
    refuse_lookalike,
)
from dealer.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    NotSignedIn,
)
from dealer.models import ROLES, AuthToken, User, by_id, utcnow
from dealer.people.audit import record_audit, record_by
from dealer.people.pins import attempt_of, check_pin, check_pin_format, hash_pin
from dealer.people.sign_ins import issue_token, revoke
from dealer.transactions import writing
from dealer.words.catalogue import say
from dealer.words.people import role_name

NAME_LENGTH = USER_NAME


def no_match() -> str:
    """What a sign-in hears whatever was wrong with the name or the PIN."""
    return say("That name and PIN do not match an active user.")


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        raise Invalid(
            say("A name is 1 to {NAME_LENGTH} characters.", NAME_LENGTH=NAME_LENGTH), "invalid_name"
        )
    if not is_plain(name):
        raise Invalid(
            say("A name: {PLAIN_TEXT_WORDS}", PLAIN_TEXT_WORDS=say(PLAIN_TEXT_WORDS)),
            "invalid_name",
        )
    if not is_visible_name(name):
        raise Invalid(invisible_words(), "invalid_name")
    return name.strip()


def check_role(role: object) -> str:
    if not isinstance(role, str) or role not in ROLES:
        raise Invalid(say("A role is one of {join}.", join=", ".join(ROLES)), "invalid_role")
    return role


def add_user(
    session: Session, name: object, role: object, pin: object, by: User | None = None
) -> User:
    """A new user; the PIN is kept only as werkzeug's salted scrypt hash.

    ``by`` is the admin adding them (none from the command line or the first-run screen).
    """
    name = check_name(name)
    role = check_role(role)
    pin = check_pin_format(pin)
    # Among every user, the deactivated too: their names stay on the audit trail.
    refuse_lookalike(
        name, session.scalars(select(User.name).order_by(User.id)), "user", "user_exists"
    )
    user = User(name=name, role=role, pin_hash=hash_pin(session, pin))
    session.add(user)
    session.flush()
    if by is not None:
        words = say("{name} added as {role} by {by}.", name=name, role=role_name(role), by=by.name)
    else:
        words = say("{name} added as {role}.", name=name, role=role_name(role))
    record_by(session, "user_added", by, words, None, user=user.id, role=role)
    return user


def needs_first_admin(session: Session) -> bool:
    """Whether nobody has been added yet: then the first screen creates the first admin."""
    return session.scalar(select(User.id).limit(1)) is None


def create_first_admin(session: Session, name: object, pin: object) -> User:
    """The first admin, on a new install; refused once anyone exists (the next are added by
    an admin, never by whoever reaches the screen first)."""
    if not needs_first_admin(session):
        raise Conflict(say("The first admin exists already: sign in instead."), "users_exist")
    return add_user(session, name, "admin", pin)


def sign_in(
    session: Session,
    name: object,
    pin: object,
    *,
    source: str | None = None,
    device: str | None = None,
) -> tuple[str, AuthToken]:
    """A new sign-in (a bearer token and its row) for the active user with this name and PIN.

    Refused with ``wrong_pin`` (401), or 429 (``pin_locked``, ``too_many_attempts``) while
    this name or this source must wait (`dealer.people.lockout`).
    """
    user_id = check_pin(session, name, pin, attempt_of(name, source))
    if user_id is None:
        raise NotSignedIn(no_match(), "wrong_pin")
    with writing(session, apart=True) as work:  # no table's write reads a sign-in
        user = work.get(User, user_id)
        if user is None or not user.active:  # deactivated while the PIN was checked
            raise NotSignedIn(no_match(), "wrong_pin")
        token, row = issue_token(work, user, device)
        record_audit(
            work,
            "sign_in",
            words=say("{name} signed in ({role}).", name=user.name, role=role_name(user.role)),
            user_id=user.id,
            device=device,
            details={"sign_in": row.id},
        )
        return token, row


#: Who vouches on the spot for what the signed-in user does: a supervisor (or an admin)
#: approving it, or anyone signed up as the second person confirming it (a count).
Voucher = Literal["supervisor", "witness"]


def vouch(
    session: Session,
    voucher: Voucher,
    name: object,
    pin: object,
    *,
    source: str | None = None,
    asked_by: int | None = None,
) -> int:
    """The id of the user with this name and PIN, vouching on the spot as ``voucher``.

    Checked before any write begins (the caller's write comes after). Wrong PINs are
    counted for this name typed at this source by ``asked_by`` (the signed-in user): they
    delay only that user's asks, never the name's own sign-in.
    """
    if voucher == "supervisor":
        wrong = Forbidden(say("The supervisor's name or PIN is wrong."), "supervisor_not_approved")
    else:
        wrong = Forbidden(say("The second person's name or PIN is wrong."), "not_confirmed")
    user_id = check_pin(
        session, name, pin, attempt_of(name, source, approval=True, approval_for=asked_by)
    )
    if user_id is None:
        raise wrong
    if voucher == "supervisor":
        user = session.get(User, user_id)
        if user is None or not user.can("supervisor"):
            raise Forbidden(say("Only a supervisor can approve this."), "supervisor_not_approved")
    return user_id


def require_role(user: User, role: str) -> None:
    """Refuse unless ``user`` holds ``role`` or a more trusted one."""
    if not user.can(role):
        raise Forbidden(say("Only a {role} or above may do this.", role=role), "role_not_allowed")


def end_sign_in(session: Session, token_id: int, supervisor: User) -> AuthToken:
    """A supervisor ends someone's sign-in from the floor (a tablet left signed in, a lost
    one): its token and cookie stop working at once."""
    require_role(supervisor, "supervisor")
    row = session.get(AuthToken, token_id) if 1 <= token_id <= MAX_ID else None
    if row is None or row.revoked_at is not None:
        raise NotFound(say("That sign-in has already ended."), "unknown_sign_in")
    supervisor_id = supervisor.id
    revoke(session, token_id, ended_by=supervisor_id)
    ended = session.get(AuthToken, token_id)
    assert ended is not None
    return ended


def names_of(session: Session, ids: Iterable[int | None]) -> dict[int, str]:
    """Each user's name by id, for the ids given (None is skipped)."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    rows = session.execute(select(User.id, User.name).where(User.id.in_(wanted)))
    return {user_id: name for user_id, name in rows}


def list_users(session: Session) -> list[User]:
    return list(session.scalars(select(User).order_by(User.name)))


def deactivate_user(session: Session, user_id: int, by: User | None = None) -> User:
    """Stop a user signing in; every sign-in of theirs ends now. Their history stays.

    The last active admin cannot be deactivated: nobody could add users after.
    """
    user = get_user(session, user_id)
    if user.role == "admin" and user.active:
        admins = session.scalar(
            select(func.count()).where(User.role == "admin", User.active.is_(True))
        )
        if admins == 1:
            raise Conflict(say("This is the last active admin: add another first."), "last_admin")
    user.active = False
    if by is not None:
        words = say("{name} deactivated by {by}.", name=user.name, by=by.name)
    else:
        words = say("{name} deactivated.", name=user.name)
    return user_changed(session, user, by, words, {"active": False})


def get_user(session: Session, user_id: int) -> User:
    unknown = say("There is no user {user_id}.", user_id=user_id)
    return by_id(session, User, user_id, unknown, "unknown_user")


def user_changed(
    session: Session, user: User, by: User | None, words: str, details: dict[str, object]
) -> User:
    """A change to ``user`` that ends every sign-in of theirs now, on the audit trail in
    ``words`` (``by``: the admin who made it)."""
    session.execute(
        update(AuthToken)
        .where(AuthToken.user_id == user.id, AuthToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    session.flush()
    record_by(session, "user_changed", by, words, None, user=user.id, **details)
    return user
