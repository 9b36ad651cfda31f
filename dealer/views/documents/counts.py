"""The counts made at the sessions' close in a window, each with its table and dealer, as the
shift ledger prints them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.models import AuditRecord, Down, Table
from dealer.people.users import names_of
from dealer.views.downs import CountView, count_views


def window_counts(
    session: Session, window_from: datetime, window_to: datetime
) -> tuple[CountView, ...]:
    """The counts made in the window, in time order, each with its table and dealer."""
    found = list(
        session.scalars(
            select(AuditRecord)
            .where(
                AuditRecord.kind == "count",
                AuditRecord.at >= window_from,
                AuditRecord.at < window_to,
            )
            .order_by(AuditRecord.at, AuditRecord.id)
        )
    )
    if not found:
        return ()
    downs = {
        d.id: d
        for d in session.scalars(
            select(Down).where(Down.id.in_([r.details["session"] for r in found]))
        )
    }
    tables = {
        t.id: t
        for t in session.scalars(
            select(Table).where(Table.id.in_({d.table_id for d in downs.values()}))
        )
    }
    dealers = names_of(session, [d.dealer_id for d in downs.values()])
    out = []
    for record, count in zip(found, count_views(session, found), strict=True):
        down = downs[record.details["session"]]
        table = tables[down.table_id]
        where = {"table": table.name, "dealer": dealers.get(down.dealer_id, "?")}
        out.append(count.model_copy(update={**where, "chip_value_cents": table.chip_value_cents}))
    return tuple(out)
