"""The counts made at the sessions' close in a window, each with its table and dealer, as the
shift ledger prints them (the session report prints its own count's view)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.models import AuditRecord, Table, TableSession
from dealer.people.users import names_of
from dealer.views.sessions import CountView, count_views

__all__ = ["TableCount", "window_counts"]


@dataclass(frozen=True, slots=True)
class TableCount:
    """A count, with the table and the dealer whose session it closed."""

    table: str
    dealer: str
    chip_value_cents: int
    count: CountView

    @property
    def varies(self) -> bool:
        """The count is over or short of the ledger, in chips or in cash."""
        return bool(self.count.variance or self.count.cash_variance_cents)


def window_counts(
    session: Session, window_from: datetime, window_to: datetime
) -> tuple[TableCount, ...]:
    """The counts made in the window, in time order."""
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
            select(TableSession).where(TableSession.id.in_([r.details["session"] for r in found]))
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
        out.append(
            TableCount(table.name, dealers.get(down.dealer_id, "?"), table.chip_value_cents, count)
        )
    return tuple(out)
