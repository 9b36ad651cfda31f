"""Who is inside the chain: users, tables, seatings, players, dealers' sessions and dealers'
assignments, versioned.

These rows say whose the chips are, under what rules and who may act where: a seating's player
is whose stack ``seating:<id>`` is, a session's dealer is who dealt its hands, a table's limits
are what a buy-in was held to and its settings what a count needs, a user's role is what they
could approve, an assignment lets a dealer act at a table. Each is linked into the keyed chain
as it is added and again as it is changed (a rename, a role, a table's limits or settings, a
session closed): every flush that adds or changes one writes a new `IdentityVersion` of its
fields (`chain.IDENTITY`) and links it (kind ``version``), in the same transaction. Every place
the app changes such a row goes through the ORM, so none can forget to.

`check_identity` holds every such row to its newest version (the quick `verify` too, since an
edit in place leaves no other trace): the version's link is recomputed under the key over the
row as it is now, and a row that no longer matches is named with the field that differs.

`held` reads rows as their newest versions keep them, each version's link checked under the
key: what the app decides with where a tampered value would let someone act (a dealer's
assignments, a table's count settings), so that an edit made outside the app is never used.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from datetime import datetime
from functools import cache
from itertools import chain
from typing import Any, cast

from sqlalchemy import ColumnElement, Select, event, func, insert, inspect, select
from sqlalchemy import Table as CoreTable
from sqlalchemy.orm import Session, UOWTransaction

from dealer.ledger.chain import (
    IDENTITY,
    VERSION_COLUMNS,
    identity_fields,
    link_message,
    version_link_fields,
)
from dealer.ledger.checks import Problem
from dealer.ledger.keys import current_key
from dealer.ledger.link_checks import LinkRow
from dealer.models import (
    ChainLink,
    Down,
    IdentityVersion,
    Player,
    Seating,
    Table,
    TableAssignment,
    User,
    utcnow,
)
from dealer.transactions import in_write

#: Each kind's model.
MODELS: dict[str, type[Any]] = {
    "user": User,
    "table": Table,
    "seating": Seating,
    "player": Player,
    "session": Down,
    "assignment": TableAssignment,
}
_KIND_OF = {model: kind for kind, model in MODELS.items()}
_INSERT = insert(cast(CoreTable, IdentityVersion.__table__))


def install(session_class: type[Session]) -> None:
    """Version every identity row a flush adds or changes (see the module's words)."""
    if not event.contains(session_class, "after_flush", _after_flush):  # once, however many apps
        event.listen(session_class, "after_flush", _after_flush)


def _after_flush(session: Session, context: UOWTransaction) -> None:
    changed = []
    for row in chain(session.new, session.dirty):
        kind = _KIND_OF.get(type(row))
        if kind is not None and (row in session.new or _changed(row, kind)):
            changed.append((kind, row))
    # Outside a write: never the app's way (every change it makes is a write); such a row, if
    # it were ever committed, is named by `verify` as outside the keyed chain.
    if changed and in_write(session):
        versions_of(session, changed)


def _changed(row: object, kind: str) -> bool:
    state = inspect(row)
    return any(state.attrs[name].history.has_changes() for name in IDENTITY[kind])


def versions_of(session: Session, rows: Iterable[tuple[str, Any]]) -> None:
    """Write and link a new version of each ``(kind, row)``, inside the caller's write."""
    from dealer.ledger.links import link  # links imports what checks the chain; not the reverse

    now = utcnow()
    values = [
        {"kind": kind, "ref": row.id, "at": now, "fields": identity_fields(kind, row)}
        for kind, row in rows
    ]
    made = session.connection().execute(
        _INSERT.returning(IdentityVersion.id, sort_by_parameter_order=True), values
    )
    ids = [found for (found,) in made]
    linked = []
    for ident, value in zip(ids, values, strict=True):
        version = {**value, "id": ident}
        linked.append((ident, version_link_fields([version[c] for c in VERSION_COLUMNS])))
    link(session, "version", linked, now)


def check_identity(session: Session, mac: Any) -> list[Problem]:
    """Each identity row against its newest version, under the key (``mac``)."""
    problems: list[Problem] = []
    # Every kind's newest versions, with their links, in one statement.
    newest_of: dict[str, dict[int, Any]] = {kind: {} for kind in MODELS}
    for version in session.execute(_newest()):
        if version.kind in newest_of:
            newest_of[version.kind][version.ref] = version
    for kind, model in MODELS.items():
        names = list(IDENTITY[kind])
        rows = {
            found.id: identity_fields(kind, found._mapping)
            for found in session.execute(select(model.id, *(getattr(model, n) for n in names)))
        }
        held = newest_of[kind]
        for ref, now in sorted(rows.items()):
            problems += _held(kind, ref, now, held.get(ref), mac)
        problems += [
            Problem("identity", "identity_deleted", {"kind": kind, "ref": ref})
            for ref in sorted(set(held) - set(rows))
        ]
    return problems


def held(
    session: Session,
    kind: str,
    refs: Iterable[int] | Select[Any],
    params: Mapping[str, object] | None = None,
    newest_by: Callable[[Mapping[str, Any]], Hashable] | None = None,
) -> dict[int, dict[str, Any]]:
    """The fields of each ``kind`` row among ``refs`` as its newest version keeps them, of each
    whose version's link holds under the ledger's key; a row with none that holds (added outside
    the app, or its version edited) is left out.

    What the app decides with where a value edited outside the app would let someone act or
    pass a count: `check_identity` names the edit, and the app meanwhile goes on by what it
    wrote itself. One statement.

    ``refs``: ids, or a query of them with its bind parameters in ``params`` (a query the
    caller keeps is built into the statement once). ``newest_by``: rows that are a history,
    each change a row of its own (an assignment, then its end), grouped by what it returns of
    a row's fields: only the newest row of each group whose version holds is kept, and the
    links of the older ones are not recomputed.
    """
    mac = current_key(session).mac
    statement = _held_in(kind, refs) if isinstance(refs, Select) else _held_query(kind, refs)
    versions = sorted(session.execute(statement, params), key=lambda v: v.ref, reverse=True)
    out: dict[int, dict[str, Any]] = {}
    seen: set[Hashable] = set()
    for version in versions:
        fields = version.fields
        if not isinstance(fields, dict):
            continue  # not the app's: its link cannot hold
        group = version.ref if newest_by is None else newest_by(fields)
        if group not in seen and _holds(version, fields, mac):
            seen.add(group)
            out[version.ref] = fields
    return out


def _held_query(kind: str, refs: Iterable[int] | Select[Any]) -> Select[Any]:
    return _newest(IdentityVersion.kind == kind, IdentityVersion.ref.in_(refs))


@cache
def _held_in(kind: str, refs: Select[Any]) -> Select[Any]:
    """`_held_query` of a query the caller keeps, built once (compiled once, too: SQLAlchemy
    caches a statement's compiled form by its structure, but building it costs each time)."""
    return _held_query(kind, refs)


def _newest(*where: ColumnElement[bool]) -> Select[Any]:
    """The newest version of each row (among those ``where`` picks), with its link's place and
    hash (None where it has no link)."""
    newest = (
        select(func.max(IdentityVersion.id))
        .where(*where)
        .group_by(IdentityVersion.kind, IdentityVersion.ref)
    )
    return (
        select(
            IdentityVersion.id,
            IdentityVersion.kind,
            IdentityVersion.ref,
            IdentityVersion.at,
            IdentityVersion.fields,
            ChainLink.seq,
            ChainLink.prev_hash,
            ChainLink.hash,
        )
        .outerjoin(ChainLink, (ChainLink.kind == "version") & (ChainLink.ref == IdentityVersion.id))
        .where(IdentityVersion.id.in_(newest))
    )


def _holds(version: Any, fields: Mapping[str, object], mac: Any) -> bool:
    """Whether ``version``'s link covers ``fields`` as its row's, under the key (``mac``)."""
    if version.seq is None:
        return False
    link = LinkRow(version.seq, "version", version.id, version.prev_hash, version.hash, None)
    at: datetime = version.at
    covered = version_link_fields([version.id, version.kind, version.ref, at, dict(fields)])
    return bool(mac(link_message(link, covered)) == version.hash)


def _held(kind: str, ref: int, now: Mapping[str, object], version: Any, mac: Any) -> list[Problem]:
    row = {"kind": kind, "ref": ref}
    if version is None:
        return [Problem("identity", "unversioned", row)]
    if _holds(version, now, mac):
        return []
    kept = version.fields or {}
    differ = [name for name in IDENTITY[kind] if kept.get(name) != now.get(name)]
    if not differ and version.seq is None:
        return []  # the version itself has no link: `check_unkeyed` names it
    if differ:
        return [Problem("identity", "field_changed", {**row, "field": name}) for name in differ]
    return [Problem("identity", "version_changed", row)]
