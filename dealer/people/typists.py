"""Who typed an entry: an entry kept on a tablet (its connection down) may be sent after its
typist's sign-in ended and someone else signed in there. It is never recorded silently as the
next person's: it is refused until its typist is signed in again, or the person signed in
confirms it as theirs, and then it is recorded with both names (the sender's on the entry, the
typist's beside it on the audit trail).

At a live table the second is what the dealer wants: the dealer who typed the entry has gone on
a break or to another table, the hand goes on, and the entries after it wait in order behind it.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from dealer.errors import Conflict
from dealer.models import Down, Hand, User
from dealer.people.audit import record_audit
from dealer.words import people as people_words


def typist_of(
    session: Session, user: User, typed_by: int | None, confirmed: int | None
) -> User | None:
    """Who typed the entry ``user`` sends, when not ``user``: ``typed_by`` (None: typed by
    whoever sends it, an entry sent as it was typed). Another person's entry is refused unless
    ``user`` confirmed it as theirs (``confirmed`` names that typist)."""
    if typed_by is None or typed_by == user.id:
        return None
    typist = session.get(User, typed_by)
    if typist is None or confirmed != typist.id:
        name = typist.name if typist is not None else None
        raise Conflict(people_words.typed_by_another(name, user.name), "typed_by_another")
    return typist


def record_typist(
    session: Session,
    typist: User,
    user: User,
    *,
    shown_at: str,
    table_id: int | None = None,
    hand_id: int | None = None,
    down_id: int | None = None,
) -> None:
    """Put on the trail that ``user`` confirmed as theirs an entry ``typist`` typed, recorded
    in the same write at the table, hand or table session it was made at (its page:
    ``shown_at``)."""
    if table_id is None and hand_id is not None:
        table_id = session.get_one(Hand, hand_id).table_id
    if table_id is None and down_id is not None:
        table_id = session.get_one(Down, down_id).table_id
    record_audit(
        session,
        "entry_confirmed",
        words=people_words.typed_and_confirmed(typist.name, user.name),
        user_id=user.id,
        table_id=table_id,
        hand_id=hand_id,
        details={"typed_by": typist.id, "page": shown_at},
    )
