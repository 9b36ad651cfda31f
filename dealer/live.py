"""What changed since a screen was drawn: one counter per thing a screen shows.

Every write transaction that adds or changes a table, a seating, a dealer's session, a hand,
an event or a ledger entry bumps, in the same transaction, the marks of what it touched:
``table:<id>``, ``hand:<id>``, ``seating:<id>`` and ``floor`` (`LiveMark`). It is found from
the rows the transaction flushed, so no service has to remember to call it, and a new model
with a ``table_id`` (a dispute, say) bumps its table and the floor by itself. The rows written
on the connection instead, for speed, are counted by the same rule: the ledger's entries, which
the ledger keeps as posted (`dealer.ledger.post.POSTED`), and an event (`touch`).

An open screen asks for the marks of what it shows (`version`): primary-key reads, whatever
the size of the ledger, the sign-in checked in the same statement (`version_if_signed_in`);
its ask is held until they move (`Watcher`), which ``bench/live.py`` measured against asking
every second. The marks live in the database, not in a process, so several app servers on
one database answer alike; a process only keeps a copy of the marks its held asks watch.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Engine, TextClause, bindparam, event, literal, select, text, union_all
from sqlalchemy.orm import Session

from dealer import write_behind
from dealer.ledger.post import POSTED
from dealer.models import (
    Dispute,
    DisputeRuling,
    Event,
    Hand,
    LedgerEntry,
    LiveMark,
    Seating,
    Table,
    utcnow,
)
from dealer.people.sign_ins import LIVE_TOKEN, live_params

FLOOR = "floor"
#: The scopes a screen may ask about.
SCOPE = re.compile(r"^(floor|(table|hand|seating):[1-9][0-9]{0,9})$")
_TOUCHED = "live_touched"


def _touched(session: Session, row: Any) -> Iterable[str]:
    """The scopes a flushed row changes."""
    if isinstance(row, LiveMark):
        return ()
    if isinstance(row, Table):
        return (f"table:{row.id}", FLOOR)
    found = []
    if isinstance(row, Hand):
        found.append(f"hand:{row.id}")
    if isinstance(row, Seating):
        found.append(f"seating:{row.id}")
    if isinstance(row, Event):
        found.append(f"hand:{row.hand_id}")
        # The hand is in the session already (the event path loaded it to replay it).
        hand = session.get(Hand, row.hand_id)
        if hand is not None:
            found.append(f"table:{hand.table_id}")
    if isinstance(row, Dispute | DisputeRuling):
        # A dispute or its ruling changes the hand's disputes panel and the floor's flags.
        dispute = row if isinstance(row, Dispute) else session.get(Dispute, row.dispute_id)
        hand = session.get(Hand, dispute.hand_id) if dispute is not None else None
        if hand is not None:
            found += [f"hand:{hand.id}", f"table:{hand.table_id}"]
    if isinstance(row, LedgerEntry):
        if row.hand_id is not None:
            found.append(f"hand:{row.hand_id}")
        for account in (row.from_account, row.to_account):
            if account.startswith("seating:"):
                found.append(account)
    table_id = getattr(row, "table_id", None)
    if table_id is not None:
        found.append(f"table:{table_id}")
    if found:
        found.append(FLOOR)
    return found


def _after_flush(session: Session, flush_context: Any) -> None:
    rows = [*session.new, *session.dirty]
    if not rows:
        return
    touched: set[str] = session.info.setdefault(_TOUCHED, set())
    for row in rows:
        touched.update(_touched(session, row))


def touch(session: Session, row: Any) -> None:
    """Count ``row`` as written by this transaction though it was written on the connection,
    outside the unit of work (an event: `dealer.hands.record`): its marks move at commit."""
    touched: set[str] = session.info.setdefault(_TOUCHED, set())
    touched.update(_touched(session, row))


#: The most marks bumped by one statement (a write touches a hand, a table, its seats and the
#: floor: a dozen; a long list is cut, well under either database's limit on parameters).
BUMPS_AT_ONCE = 200
#: The marks of ``n`` scopes bumped in one statement (one row each), built once per ``n``.
_BUMPS: dict[int, TextClause] = {}


_BUMPS_SQL: dict[int, str] = {}


def _bump_sql(n: int) -> str:
    """`_bump` as psycopg takes it, its parameters in order (``%s``)."""
    found = _BUMPS_SQL.get(n)
    if found is None:
        rows = ", ".join(["(%s, 1)"] * n)
        found = _BUMPS_SQL[n] = (
            f"INSERT INTO live_marks (scope, version) VALUES {rows} "
            "ON CONFLICT (scope) DO UPDATE SET version = live_marks.version + 1"
        )
    return found


def _bump(n: int) -> TextClause:
    found = _BUMPS.get(n)
    if found is None:
        rows = ", ".join(f"(:s{i}, 1)" for i in range(n))
        found = _BUMPS[n] = text(
            f"INSERT INTO live_marks (scope, version) VALUES {rows} "
            "ON CONFLICT (scope) DO UPDATE SET version = live_marks.version + 1"
        )
    return found


def _before_commit(session: Session) -> None:
    session.flush()  # what is still pending is touched too
    touched: set[str] = session.info.pop(_TOUCHED, set())
    for entry in session.info.pop(POSTED, ()):
        touched.update(_touched(session, entry))
    if not touched:
        return
    # In the writer's transaction, and writers hold the writers' lock: two never bump the
    # same marks at once. The same statement on SQLite and PostgreSQL.
    # On the connection: the ORM's part of `Session.execute` cost more than the statement.
    # One statement for every scope, not one each (an executemany): on PostgreSQL, psycopg
    # sends an executemany as a pipeline, which cost more than the statement (bench/api.py).
    # On PostgreSQL queued, and sent with the write's other rows in one round trip
    # (`dealer.write_behind`, whose hook runs after this one).
    scopes = sorted(touched)
    for start in range(0, len(scopes), BUMPS_AT_ONCE):
        chunk = scopes[start : start + BUMPS_AT_ONCE]
        write_behind.add_statement(session, _bump(len(chunk)), _bump_sql(len(chunk)), chunk)


def _after_rollback(session: Session, previous: Any) -> None:
    session.info.pop(_TOUCHED, None)
    session.info.pop(POSTED, None)


def install(session_class: type[Session]) -> None:
    """Bump the marks on every commit of a session of ``session_class`` (once per process)."""
    if not event.contains(session_class, "after_flush", _after_flush):
        event.listen(session_class, "after_flush", _after_flush)
        event.listen(session_class, "before_commit", _before_commit)
        event.listen(session_class, "after_soft_rollback", _after_rollback)


def scopes_of(asked: Iterable[str]) -> list[str]:
    """The scopes asked about that exist as scopes, in a stable order (bad ones dropped)."""
    return sorted({s for s in asked if SCOPE.match(s)})


_MARKS = select(LiveMark.scope, LiveMark.version).where(
    LiveMark.scope.in_(bindparam("scopes", expanding=True))
)


def _token(marks: dict[str, int], scopes: list[str]) -> str:
    """The floor's also changes each minute: a time collection falls due by the clock alone."""
    parts = [str(marks.get(s, 0)) for s in scopes]
    if FLOOR in scopes:
        parts.append(utcnow().strftime("%H%M"))
    return ".".join(parts)


def version(session: Session, scopes: list[str]) -> str:
    """One token for what ``scopes`` show now: it changes when any of them does."""
    rows = session.execute(_MARKS, {"scopes": scopes})
    return _token({scope: number for scope, number in rows}, scopes)


#: The marks, and a row ("", 0) when the sign-in is live: one statement, built once.
_MARKS_IF_SIGNED_IN = union_all(_MARKS, LIVE_TOKEN.with_only_columns(literal(""), literal(0)))


def version_if_signed_in(
    engine: Engine, token: str, scopes: list[str], config: Mapping[str, Any]
) -> str | None:
    """`version`, or None when the sign-in ``token`` (the cookie's) is no longer live under
    the app's ``config``.

    One round trip on a pooled connection, no ORM session or objects: every open screen
    asks it every second, and this is most of what 200 idle screens cost (bench/live.py).
    """
    with engine.connect() as connection:
        rows = connection.execute(
            _MARKS_IF_SIGNED_IN, {"scopes": scopes, **live_params(token, config)}
        )
        marks = {scope: number for scope, number in rows}
    if marks.pop("", None) is None:
        return None
    return _token(marks, scopes)


class Watcher:
    """One per app process: holds open screens' asks until what they show changes.

    Measured (bench/live.py): any request through gunicorn and Flask costs about 1 ms of
    CPU, so 200 screens asking every second cost a fifth of a core even when every answer
    is a 304. A held ask costs a thread while it waits and nothing else: this process reads
    the marks every screen it holds is watching in ONE query every ``every`` seconds (the
    database stays the one source: several app servers each read it), and wakes the asks
    whose version moved. At most ``most`` asks are held at once; beyond that an ask is
    answered at once (the screen then asks again a second later), so held asks never take
    the threads that record events (gunicorn.conf.py gives each worker that many more).
    """

    def __init__(self, engine: Engine, every: float, most: int) -> None:
        self._engine = engine
        self._every = every
        self._most = most
        self._changed = threading.Condition()
        self._held = 0
        self._watched: Counter[str] = Counter()
        self._known: set[str] = set()
        self._marks: dict[str, int] = {}
        #: Bumped by each read that found the marks moved (or new scopes watched).
        self._reads = 0
        self._reading = False

    def wait(self, scopes: list[str], holding: str, seconds: float) -> None:
        """Return once the version of ``scopes`` is not ``holding`` (as last read), or after
        ``seconds``, or at once when too many asks are held. The caller then reads the
        version itself: this only says when."""
        deadline = time.monotonic() + seconds
        if FLOOR in scopes:  # the floor's version also moves with the minute
            deadline = min(deadline, time.monotonic() + 60.5 - time.time() % 60)
        with self._changed:
            if self._held >= self._most:
                return
            self._held += 1
            self._watched.update(scopes)
            seen = self._reads
            if not self._reading:
                self._reading = True
                threading.Thread(target=self._read, name="live-marks", daemon=True).start()
            try:
                while True:
                    if self._reads != seen:
                        seen = self._reads
                        if _token(self._marks, scopes) != holding:
                            return
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return
                    self._changed.wait(left)
            finally:
                self._held -= 1
                self._watched.subtract(scopes)
                self._watched = +self._watched  # drop the scopes nobody watches now

    def _read(self) -> None:
        """Read the watched marks every ``every`` seconds while anyone is held."""
        while True:
            with self._changed:
                scopes = sorted(self._watched)
                if not scopes:
                    self._reading = False
                    return
            try:
                with self._engine.connect() as connection:
                    rows = connection.execute(_MARKS, {"scopes": scopes})
                    marks: dict[str, int] | None = {scope: number for scope, number in rows}
            except Exception:  # the database away a moment: the held asks end as 304s
                marks = None
            with self._changed:
                if marks is not None and (marks != self._marks or not self._known >= set(scopes)):
                    self._marks, self._known = marks, set(scopes)
                    self._reads += 1
                    self._changed.notify_all()
            time.sleep(self._every)
