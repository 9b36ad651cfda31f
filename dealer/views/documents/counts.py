"""The counts at the sessions' close, as the session report and the shift ledger print them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.floor.counts import counts_of
from dealer.models import AuditRecord, Table, TableSession
from dealer.people.users import names_of
from dealer.views.documents.model import CountLine

__all__ = ["count_lines", "session_count", "window_counts"]


def count_lines(session: Session, records: Iterable[AuditRecord]) -> tuple[CountLine, ...]:
    """Each count record as a document's line, in time order."""
    found = sorted(records, key=lambda r: r.at)
    if not found:
        return ()
    downs = {
        d.id: d
        for d in session.scalars(
            select(TableSession).where(TableSession.id.in_([r.details["session"] for r in found]))
        )
    }
    tables = {
        t.id: t
        for t in session.scalars(
            select(Table).where(Table.id.in_({d.table_id for d in downs.values()}))
        )
    }
    people: list[int | None] = [d.dealer_id for d in downs.values()]
    people += [
        p for r in found for p in (r.user_id, r.details.get("witness"), r.details.get("supervisor"))
    ]
    names = names_of(session, people)
    out = []
    for r in found:
        d = r.details
        down = downs[d["session"]]
        table = tables[down.table_id]
        out.append(
            CountLine(
                table=table.name,
                dealer=names.get(down.dealer_id, "?"),
                at=r.at,
                tray_chips=d["tray_chips"],
                expected_chips=d["expected_chips"],
                chip_value_cents=table.chip_value_cents,
                drop_box_cents=d.get("drop_box_cents"),
                expected_cents=d.get("expected_cents"),
                counted_by=names.get(r.user_id or 0, "?"),
                confirmed_by=names.get(d.get("witness") or 0),
                approved_by=names.get(d["supervisor"]) if d.get("supervisor") else None,
                reason=d.get("reason"),
            )
        )
    return tuple(out)


def session_count(session: Session, session_id: int) -> CountLine | None:
    """The count at this session's close, or None."""
    record = counts_of(session, [session_id]).get(session_id)
    return count_lines(session, [record])[0] if record is not None else None


def window_counts(
    session: Session, window_from: datetime, window_to: datetime
) -> tuple[CountLine, ...]:
    """The counts made in the window."""
    found = session.scalars(
        select(AuditRecord).where(
            AuditRecord.kind == "count", AuditRecord.at >= window_from, AuditRecord.at < window_to
        )
    )
    return count_lines(session, found)
