"""A table's money limits: the least and the most one buy-in may be, and above how many chips a
buy-in or a cash-out needs a supervisor's name and PIN.

The limits are table settings (`Table.min_buy_in`, `max_buy_in`, `approval_above`), their
defaults declared once in `dealer.bounds`; set when a table is opened and changed by a
supervisor. Every buy-in, from any front door, passes `check_buy_in` before it is posted, so
the API and the screens get the same decisions; who must approve one above the threshold is
`dealer.floor.approvals`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy.orm import Session

from dealer.bounds import APPROVAL_ABOVE, BUY_IN_CHIPS, MAX_BUY_IN, MIN_BUY_IN, check_whole
from dealer.errors import Invalid
from dealer.models import Table, User
from dealer.people.audit import record_audit
from dealer.people.users import require_role
from dealer.words.catalogue import say
from dealer.words.tables import LIMIT_NAMES, limits_changed

#: The settings' fields and what a dealer calls them (the vocabulary's names).
LIMIT_FIELDS = LIMIT_NAMES


@dataclass(frozen=True, slots=True)
class Limits:
    min_buy_in: int = MIN_BUY_IN
    max_buy_in: int = MAX_BUY_IN
    approval_above: int = APPROVAL_ABOVE

    def as_dict(self) -> dict[str, int]:
        return {
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
            "approval_above": self.approval_above,
        }


def limits_of(table: Table) -> Limits:
    return Limits(table.min_buy_in, table.max_buy_in, table.approval_above)


def check_limits(given: Mapping[str, object | None], base: Limits | None = None) -> Limits:
    """The limits ``given`` (fields left out or null keep ``base``'s), or why they cannot be."""
    base = base or Limits()
    values = base.as_dict()
    for field, what in LIMIT_FIELDS.items():
        value = given.get(field)
        if value is not None:
            values[field] = check_whole(value, BUY_IN_CHIPS, what, field)
    limits = Limits(**values)
    if limits.min_buy_in > limits.max_buy_in:
        raise Invalid(
            say(
                "The least buy-in ({min_buy_in:,}) is above the largest ({max_buy_in:,}): "
                "raise the largest or lower the least.",
                min_buy_in=limits.min_buy_in,
                max_buy_in=limits.max_buy_in,
            ),
            "invalid_limits",
        )
    return limits


def set_limits(table: Table, given: Mapping[str, object | None]) -> Limits:
    """Change a table's limits (a supervisor's setting); the fields left out stay."""
    limits = check_limits(given, limits_of(table))
    table.min_buy_in = limits.min_buy_in
    table.max_buy_in = limits.max_buy_in
    table.approval_above = limits.approval_above
    return limits


def change_limits(
    session: Session, table: Table, given: Mapping[str, object | None], user: User
) -> Limits:
    """A supervisor changes a table's limits: set, and written in the audit trail. Refused to
    anyone below a supervisor, whichever door asks."""
    require_role(user, "supervisor")
    before = limits_of(table)
    after = set_limits(table, given)
    session.flush()
    if after != before:
        old_new = zip(
            LIMIT_FIELDS, before.as_dict().values(), after.as_dict().values(), strict=True
        )
        changes = [(field, old, new) for field, old, new in old_new if old != new]
        record_audit(
            session,
            "table_settings",
            words=limits_changed(user.name, table.name, changes),
            user_id=user.id,
            table_id=table.id,
            details={"before": before.as_dict(), "after": after.as_dict()},
        )
    return after


def check_buy_in(table: Table, amount: int) -> None:
    """Refuse a buy-in below the table's least or above its largest (supervisors too: the
    floor raises the limit instead)."""
    if amount < table.min_buy_in:
        raise Invalid(
            say(
                "The least a seat may buy in for at this table is {min_buy_in:,} chips.",
                min_buy_in=table.min_buy_in,
            ),
            "below_min_buy_in",
        )
    if amount > table.max_buy_in:
        raise Invalid(
            say(
                "The most a seat may buy in for at this table is {max_buy_in:,} chips.",
                max_buy_in=table.max_buy_in,
            ),
            "above_max_buy_in",
        )
