"""A table session (a dealer's down) as a client reads it: who, when, its state, its hands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.floor.counts import counts_of, expected_count, last_closed
from dealer.models import AuditRecord, Down, Hand
from dealer.people.users import names_of
from dealer.views.base import Time, View, screen


class CountView(View):
    """The count at a session's close: what was there against what the ledger says."""

    at: Time
    tray_chips: int = Field(description="Chips counted in the tray.")
    expected_chips: int = Field(description="The session's drop, as the ledger says.")
    variance: int = Field(description="Chips over (+) or short (-).")
    drop_box_cents: int | None = Field(description="Cash counted in the drop box, in cents.")
    expected_cents: int | None = Field(description="The cash for the chips sold, in cents.")
    cash_variance_cents: int = Field(description="Cash over (+) or short (-), in cents.")
    counted_by: str
    confirmed_by: str = Field(description="The second person who confirmed the count.")
    approved_by: str | None = Field(description="The supervisor who approved a variance.")
    reason: str | None = Field(description="Why the count differs, in the supervisor's words.")
    #: The shift ledger's count: the table and the dealer whose session it closed.
    table: str = screen("")
    dealer: str = screen("")
    chip_value_cents: int = screen(0)

    @property
    def varies(self) -> bool:
        """The count is over or short of the ledger, in chips or in cash."""
        return bool(self.variance or self.cash_variance_cents)


class DownView(View, title="SessionView"):
    """A table session: a dealer's down."""

    id: int
    table: int
    dealer: str
    status: Literal["open", "awaiting_confirmation", "closed"] = Field(
        description="awaiting_confirmation: the down has ended; the floor has not yet "
        "confirmed the close."
    )
    implicit: bool = Field(description="Opened by dealing a hand while none was open.")
    opened_at: Time
    closed_at: Time | None = Field(description="When the down ended.")
    close_requested_by: str | None
    close_confirmed_by: str | None = Field(description="The supervisor who confirmed.")
    close_confirmed_at: Time | None
    hands: list[int] = Field(description="The hands dealt in it.")
    count: CountView | None = Field(
        None, description="The count at its close (POST /sessions/{id}/count), once made."
    )


class DownsView(View, title="SessionsView"):
    sessions: list[DownView]


def down_view(session: Session, down: Down) -> DownView:
    """A session: who, when, its state and its hands (ids, in order)."""
    requested, confirmed = down.close_requested_by, down.close_confirmed_by
    names = names_of(session, [down.dealer_id, requested, confirmed])
    hands = session.scalars(
        select(Hand.id).where(Hand.down_id == down.id).order_by(Hand.number)
    ).all()
    return DownView(
        id=down.id,
        table=down.table_id,
        dealer=names[down.dealer_id],
        status=down.status,  # type: ignore[arg-type]
        implicit=down.implicit,
        opened_at=down.opened_at,
        closed_at=down.closed_at,
        close_requested_by=names.get(requested) if requested is not None else None,
        close_confirmed_by=names.get(confirmed) if confirmed is not None else None,
        close_confirmed_at=down.close_confirmed_at,
        hands=list(hands),
        count=count_view(session, down.id),
    )


def count_view(session: Session, down_id: int) -> CountView | None:
    record = counts_of(session, [down_id]).get(down_id)
    return count_views(session, [record])[0] if record is not None else None


def count_views(session: Session, records: Sequence[AuditRecord]) -> list[CountView]:
    """Each count record (`dealer.floor.counts`) as its view, in the order given."""
    people = [p for r in records for p in (r.user_id, *map(r.details.get, _PEOPLE))]
    names = names_of(session, people)
    out = []
    for record in records:
        d = record.details
        cents = (d.get("drop_box_cents") or 0) - (d.get("expected_cents") or 0)
        out.append(
            CountView(
                at=record.at,
                tray_chips=d["tray_chips"],
                expected_chips=d["expected_chips"],
                variance=d["tray_chips"] - d["expected_chips"],
                drop_box_cents=d.get("drop_box_cents"),
                expected_cents=d.get("expected_cents"),
                cash_variance_cents=cents if d.get("drop_box_cents") is not None else 0,
                counted_by=names.get(record.user_id or 0, "?"),
                confirmed_by=names.get(d.get("witness") or 0, "?"),
                approved_by=names.get(d["supervisor"]) if d.get("supervisor") else None,
                reason=d.get("reason"),
            )
        )
    return out


#: Who a count record names besides its counter: who confirmed it, who approved a variance.
_PEOPLE = ("witness", "supervisor")


def downs_view(session: Session, found: Iterable[Down]) -> DownsView:
    return DownsView(sessions=[down_view(session, s) for s in found])


class CloseStepView(View):
    """The close of a table's last down, as the table screen guides it: the close and who
    confirmed it, what the ledger expects in the tray (and the drop box), and the count once
    made (what was counted, the variance, who confirmed and approved it)."""

    down: DownView
    expected_chips: int = Field(description="The session's drop: what the tray should hold.")
    expected_cents: int | None = Field(
        description="The cash for the chips sold, where the table sells chips for cash."
    )


def close_step(session: Session, table_id: int) -> CloseStepView | None:
    """The table's last session whose down has ended, with what its count should find."""
    down = last_closed(session, table_id)
    if down is None:
        return None
    expected = expected_count(session, down)
    return CloseStepView(
        down=down_view(session, down),
        expected_chips=expected.tray_chips,
        expected_cents=expected.drop_box_cents,
    )
