"""The shift ledger's inputs: every table over a window, from the entries made in it.

- The hands listed are those dealt in the window (``started_at``); each line's won and drop
  are that hand's own entries, all of them.
- Every other figure (tables' drop, players, the drop by hour, the trial balance) sums the
  entries made in the window (``at``), whatever hand they belong to: what the books say
  happened between ``from`` and ``to``. A hand that straddles the edge of the window shows in
  the listing by its deal and in the totals by its entries.
- The figures are summed by the database, from the window's entries only.
- Before them the ledger checks run over whatever was written since the last checked
  checkpoint that still holds (`dealer.ledger.verify`): the links up to it are vouched for by
  its signature, its hash and its counts, the links after it are recomputed under the key, and
  the window's hands are held to their entries. The report says which checkpoint that was;
  what the checks find is printed in the red banner. The head they reached is then filed as a
  checkpoint (checked when they found nothing) and printed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from dealer.disputes.record import disputes_opened_between
from dealer.ledger import parse_account, verify
from dealer.ledger.balances import hands_nets
from dealer.ledger.verification import checkpoint_report
from dealer.models import Event, Hand, Seating, Table, as_utc
from dealer.views.disputes import DisputeLine, dispute_lines
from dealer.views.documents import shift_summary as summary
from dealer.views.documents.counts import window_counts
from dealer.views.documents.ledger import (
    FiledCheckpoint,
    change_lines,
    filed,
    problem_lines,
)
from dealer.views.documents.shift_summary import DealerLine, PlayerTotal, ShortStack
from dealer.views.documents.shift_tally import (
    Amount,
    HourDrop,
    Tally,
    TrialLine,
    drop_by_hour,
    trial_balance,
    window_tally,
)
from dealer.views.downs import CountView
from dealer.views.ledger import VerificationView, verification_view
from dealer.views.shift_hands import HandLine, hand_line
from dealer.words.catalogue import say, say_n


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
class ShiftReport:
    """Every table over a window (``GET /reports/shift.pdf?from=&to=``)."""

    window_from: datetime
    window_to: datetime
    tables: tuple[ShiftTable, ...]
    players: tuple[PlayerTotal, ...]
    drop_by_hour: tuple[HourDrop, ...]
    trial_balance: tuple[TrialLine, ...]
    chain: VerificationView
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
    counts: tuple[CountView, ...] = ()
    #: The list of every hand is printed as an appendix (False: left out; the CSV has them).
    with_hands: bool = True

    @property
    def drop(self) -> Amount:
        """The house's drop over the window: the tables' drops added up."""
        return sum((Amount.of(t.drop, t.chip_value_cents) for t in self.tables), Amount())

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


def table_labels(tables: dict[int, Table]) -> dict[int, str]:
    """Each table's name on the report; two tables of one name are told apart by their ids."""
    seen: dict[str, int] = defaultdict(int)
    for t in tables.values():
        seen[t.name] += 1
    return {t.id: t.name if seen[t.name] == 1 else f"{t.name} (#{t.id})" for t in tables.values()}


@dataclass(slots=True)
class _Dealt:
    """The window's hands, counted per table and per dealer's session, and listed."""

    hands: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    void_hands: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    by_down: dict[int | None, int] = field(default_factory=lambda: defaultdict(int))
    lines: list[HandLine] = field(default_factory=list)


def shift_report(
    session: Session,
    window_from: datetime,
    window_to: datetime,
    reprint: int = 0,
    with_hands: bool = True,
) -> ShiftReport:
    """Everything the shift ledger prints for the window ``[window_from, window_to)`` (UTC)."""
    window = window_from, window_to = as_utc(window_from), as_utc(window_to)
    checks = verify(session, window=window)
    hands = session.execute(
        select(*_HAND_COLUMNS).where(*_dealt_in(window)).order_by(*_HAND_ORDER)
    ).all()
    hand_net = {h.id: checks.nets[h.id] for h in hands if h.id in checks.nets}
    hand_net.update(hands_nets(session, [h.id for h in hands if h.id not in hand_net]))
    tally = window_tally(session, window_from, window_to)
    seating_ids = set(tally.seats) | {s for h in hands for s in h.seats.values()}
    seatings = {
        s.id: s for s in session.scalars(select(Seating).where(Seating.id.in_(seating_ids)))
    }
    pot_tables = _pot_tables(session, tally, {h.id: h.table_id for h in hands})
    table_ids = (
        {h.table_id for h in hands}
        | set(tally.house)
        | {s.table_id for s in seatings.values()}
        | set(pot_tables.values())
    )
    tables = {t.id: t for t in session.scalars(select(Table).where(Table.id.in_(table_ids)))}
    labels = table_labels(tables)
    disputes = dispute_lines(
        session, [h.id for h in hands], disputes_opened_between(session, window_from, window_to)
    )
    dealt = _dealt(hands, hand_net, tally, seatings, labels, disputes)
    order = sorted(tables, key=lambda t: (labels[t], t))
    rank = {t: n for n, t in enumerate(order)}
    by_label = {labels[t]: rank[t] for t in order}
    dealt.lines.sort(key=lambda line: (by_label[line.table_name], line.number))
    house = summary.house_figures(session, window_from, window_to)
    return ShiftReport(
        window_from=window_from,
        window_to=window_to,
        tables=_table_lines(session, window, tally, house, dealt, seatings, tables, labels, order),
        dealers=summary.dealer_lines(session, house, dealt.by_down, tables, labels),
        short_stacks=summary.short_stacks(session, seatings, window_to, tables, labels),
        with_hands=with_hands,
        counts=window_counts(session, window_from, window_to),
        players=summary.player_totals(session, tally, seatings, tables, labels),
        drop_by_hour=drop_by_hour(window, tally, tables),
        trial_balance=trial_balance(tally, seatings, pot_tables, labels, rank),
        chain=verification_view(checks),
        hands=tuple(dealt.lines),
        problems=problem_lines(checks),
        reprint=reprint,
        checkpoint=filed(
            checkpoint_report(session, checks, f"shift report {window_from}/{window_to}")
        ),
        engine_changed=change_lines(checks),
        disputes=disputes,
    )


#: What the shift ledger reads of each hand dealt in its window, and in what order.
_HAND_COLUMNS = (
    Hand.id,
    Hand.table_id,
    Hand.number,
    Hand.status,
    Hand.winner,
    Hand.seats,
    Hand.started_at,
    Hand.ended_at,
    Hand.down_id,
)
_HAND_ORDER = (Hand.table_id, Hand.number)


def _dealt(
    hands: Sequence[Any],
    hand_net: Mapping[int, Mapping[str, int]],
    tally: Tally,
    seatings: Mapping[int, Seating],
    labels: Mapping[int, str],
    disputes: Iterable[DisputeLine],
) -> _Dealt:
    """The window's hands counted, each seating's hands added to the tally, and each listed
    with its winner, its won and its drop (that hand's own entries)."""
    dealt = _Dealt()
    still_open = Counter(d.hand for d in disputes if d.is_open)
    for h in hands:
        dealt.hands[h.table_id] += 1
        dealt.by_down[h.down_id] += 1
        if h.status == "void":
            dealt.void_hands[h.table_id] += 1
        for seating in h.seats.values():
            tally.seats[seating].hands += 1
        winner = h.seats.get(str(h.winner)) if h.winner is not None else None
        name = seatings[winner].player if winner is not None else ""
        net = hand_net.get(h.id, {})
        dealt.lines.append(hand_line(h, net, labels[h.table_id], name, still_open[h.id]))
    return dealt


def _table_lines(
    session: Session,
    window: tuple[datetime, datetime],
    tally: Tally,
    house: summary.HouseFigures,
    dealt: _Dealt,
    seatings: Mapping[int, Seating],
    tables: Mapping[int, Table],
    labels: Mapping[int, str],
    order: Sequence[int],
) -> tuple[ShiftTable, ...]:
    stepped_in = summary.overrides(session, *window)
    voided_events = _voided_events(session, window)
    cash: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for seating_id, figures in tally.seats.items():
        cash[seatings[seating_id].table_id][0] += figures.buy_ins
        cash[seatings[seating_id].table_id][1] += figures.cash_outs
    return tuple(
        ShiftTable(
            name=labels[t],
            chip_value_cents=tables[t].chip_value_cents,
            hands=dealt.hands[t],
            drop=tally.house.get(t, 0),
            void_hands=dealt.void_hands[t],
            voided_events=voided_events[t],
            collected=house.collected.get(t, 0),
            rake=house.rake.get(t, 0),
            returned=house.returned.get(t, 0),
            buy_ins=cash[t][0],
            cash_outs=cash[t][1],
            overrides=stepped_in.get(t, 0),
        )
        for t in order
    )


def _dealt_in(window: tuple[datetime, datetime]) -> tuple[ColumnElement[bool], ...]:
    """The hands dealt in the window (by ``started_at``, indexed)."""
    return (Hand.started_at >= window[0], Hand.started_at < window[1])


def _voided_events(session: Session, window: tuple[datetime, datetime]) -> dict[int, int]:
    voided: dict[int, int] = defaultdict(int)
    for table_id, count in session.execute(
        select(Hand.table_id, func.count(Event.id))
        .join(Hand, Hand.id == Event.hand_id)
        # The window's hands first, then their events by index: never a scan of every event.
        .where(Event.type == "void", Event.hand_id.in_(select(Hand.id).where(*_dealt_in(window))))
        .group_by(Hand.table_id)
    ):
        voided[table_id] = count
    return voided


def _pot_tables(session: Session, tally: Tally, known: dict[int, int]) -> dict[int, int]:
    pots = {
        p.id
        for account in tally.accounts
        if (p := parse_account(account)) is not None and p.kind == "pot" and p.id is not None
    }
    out = {h: known[h] for h in pots if h in known}
    missing = pots - set(out)
    if missing:
        rows = session.execute(select(Hand.id, Hand.table_id).where(Hand.id.in_(missing)))
        out.update({hand_id: table_id for hand_id, table_id in rows})
    return out
