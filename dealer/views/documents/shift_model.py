"""What the shift ledger is made from: frozen plain data, no database (see `model`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dealer.views.documents.counts import TableCount
from dealer.views.documents.model import (
    Amount,
    ChainCheck,
    DisputeLine,
    FiledCheckpoint,
)
from dealer.views.shift_hands import HandLine
from dealer.words.catalogue import say, say_n

__all__ = [
    "ChainCheck",
    "DealerLine",
    "HourDrop",
    "PlayerTotal",
    "ShiftReport",
    "ShiftTable",
    "ShortStack",
    "TrialLine",
]


# ---------------------------------------------------------------- shift ledger


@dataclass(frozen=True, slots=True)
class ShiftTable:
    """One table over the shift's window."""

    name: str
    chip_value_cents: int
    hands: int
    drop: int  # chips to the house
    void_hands: int  # hands voided whole (a misdeal)
    voided_events: int = 0  # events voided in hands that stand
    collected: int = 0  # chips the house collected (per hand, time), before anything returned
    rake: int = 0  # chips the house raked
    returned: int = 0  # chips the house gave back (voids): drop = collected + rake - returned
    buy_ins: int = 0  # chips bought at the table (cash in)
    cash_outs: int = 0  # chips cashed out at the table (cash out)
    overrides: int = 0  # a supervisor's overrides and approvals on the trail


@dataclass(frozen=True, slots=True)
class DealerLine:
    """One dealer over the window: the hands dealt in their sessions and the house's drop."""

    dealer: str
    tables: tuple[str, ...]
    hands: int
    drop: Amount


@dataclass(frozen=True, slots=True)
class ShortStack:
    """A seat whose stack is below zero at the window's end: it owes the table."""

    table: str
    seat: int
    player: str
    chips: int  # its stack (negative)
    chip_value_cents: int


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    """One player over the window, all tables together."""

    player: str
    tables: tuple[str, ...]
    hands: int
    buy_ins: Amount
    cash_outs: Amount
    net: Amount


@dataclass(frozen=True, slots=True)
class HourDrop:
    """The house's drop in the hour that starts at ``start`` (UTC), all tables together."""

    start: datetime
    drop: Amount


@dataclass(frozen=True, slots=True)
class TrialLine:
    """One account of the trial balance, in chips."""

    account: str  # "T1 seat 3", "T1 house", "T1 pot", "cage"
    debits: int
    credits: int

    @property
    def balance(self) -> int:
        return self.debits - self.credits


@dataclass(frozen=True, slots=True)
class ShiftReport:
    """Every table over a window (``GET /reports/shift.pdf?from=&to=``)."""

    window_from: datetime
    window_to: datetime
    tables: tuple[ShiftTable, ...]
    players: tuple[PlayerTotal, ...]
    drop_by_hour: tuple[HourDrop, ...]
    trial_balance: tuple[TrialLine, ...]
    chain: ChainCheck
    hands: tuple[HandLine, ...]
    #: What the checks found (chain, balances, ...); printed in a red banner, never hidden.
    problems: tuple[str, ...] = ()
    reprint: int = 0
    checkpoint: FiledCheckpoint | None = None
    #: Hands that no longer replay under the engine installed: a note, not a failed check.
    engine_changed: tuple[str, ...] = ()
    #: Disputes on the window's hands or opened in it.
    disputes: tuple[DisputeLine, ...] = ()
    dealers: tuple[DealerLine, ...] = ()
    short_stacks: tuple[ShortStack, ...] = ()
    counts: tuple[TableCount, ...] = ()
    #: The list of every hand is printed as an appendix (False: left out; the CSV has them).
    with_hands: bool = True

    @property
    def drop(self) -> Amount:
        """The house's drop over the window: the tables' drops added up."""
        total = Amount()
        for t in self.tables:
            total += Amount.of(t.drop, t.chip_value_cents)
        return total

    @property
    def trial_total(self) -> int:
        """The trial balance's balances added up: zero when the books balance."""
        return sum(line.balance for line in self.trial_balance)

    def all_problems(self) -> tuple[str, ...]:
        """The problems given, plus any this report's own figures show."""
        found = list(self.problems)
        if self.trial_total:
            found.append(
                say_n(
                    "The trial balance totals {n} chip, not zero: the books do not balance.",
                    "The trial balance totals {n} chips, not zero: the books do not balance.",
                    self.trial_total,
                )
            )
        if not self.chain.ok and not self.problems:  # failed, and no check named what
            found.append(say("The ledger's hash chain does not verify."))
        return tuple(found)
