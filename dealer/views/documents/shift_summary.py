"""The shift ledger's summary figures a manager reads first: the house's collections and rake
by table and by dealer, overrides, short stacks, each player's totals. Every chip figure is a
sum of the window's entries, summed by the database."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from dealer.ledger import parse_account, seating_account
from dealer.models import (
    AuditRecord,
    Down,
    Hand,
    LedgerEntry,
    Player,
    Seating,
    Table,
    User,
    as_utc,
)
from dealer.views.documents.shift_tally import Amount, Tally
from dealer.words.catalogue import say

#: What the trail calls a supervisor stepping in: an override, an approval on the spot.
OVERRIDE_KINDS = ("override", "supervisor_approval")
_HOUSE = "table:%:house"


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


@dataclass(slots=True)
class HouseFigures:
    """The house's entries in the window: per table, and per dealer's session."""

    collected: dict[int, int]
    rake: dict[int, int]
    returned: dict[int, int]
    by_down: dict[int | None, dict[int, int]]  # session (None: no session) -> table -> net


def _table_of(account: str) -> int | None:
    found = parse_account(account)
    return found.id if found is not None and found.kind == "house" else None


def house_figures(session: Session, window_from: datetime, window_to: datetime) -> HouseFigures:
    """The house's collections, rake and returns per table, and its net per dealer's session."""
    figures = HouseFigures(defaultdict(int), defaultdict(int), defaultdict(int), {})
    by_down: dict[int | None, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    in_window = (LedgerEntry.at >= window_from, LedgerEntry.at < window_to)
    house = or_(LedgerEntry.to_account.like(_HOUSE), LedgerEntry.from_account.like(_HOUSE))
    rows = session.execute(
        select(
            LedgerEntry.to_account,
            LedgerEntry.from_account,
            LedgerEntry.reason_code,
            Hand.down_id,
            func.sum(LedgerEntry.chips),
        )
        .outerjoin(Hand, Hand.id == LedgerEntry.hand_id)
        .where(*in_window, house, LedgerEntry.hand_id.is_not(None))
        .group_by(
            LedgerEntry.to_account,
            LedgerEntry.from_account,
            LedgerEntry.reason_code,
            Hand.down_id,
        )
    )
    for to, source, reason, down, summed in rows:
        _add(figures, by_down, to, source, reason, down, int(summed))
    # Entries of no hand (the time collection) belong to the session open at the table then.
    loose = session.execute(
        select(
            LedgerEntry.to_account,
            LedgerEntry.from_account,
            LedgerEntry.reason_code,
            LedgerEntry.at,
            LedgerEntry.chips,
        ).where(*in_window, house, LedgerEntry.hand_id.is_(None))
    ).all()
    tables = {t for row in loose for t in (_table_of(row[0]), _table_of(row[1])) if t is not None}
    downs = _downs(session, tables, window_from, window_to)
    for to, source, reason, at, chips in loose:
        table = _table_of(to) or _table_of(source)
        down = next(
            (
                d.id
                for d in downs.get(table or 0, ())
                if as_utc(d.opened_at) <= as_utc(at)
                and (d.closed_at is None or as_utc(at) < as_utc(d.closed_at))
            ),
            None,
        )
        _add(figures, by_down, to, source, reason, down, chips)
    figures.by_down = {k: dict(v) for k, v in by_down.items()}
    return figures


def _add(
    figures: HouseFigures,
    by_down: dict[int | None, dict[int, int]],
    to: str,
    source: str,
    reason: str,
    down: int | None,
    chips: int,
) -> None:
    into, out_of = _table_of(to), _table_of(source)
    if into is not None:
        (figures.rake if reason == "rake" else figures.collected)[into] += chips
        by_down[down][into] += chips
    if out_of is not None:
        figures.returned[out_of] += chips
        by_down[down][out_of] -= chips


def _downs(
    session: Session, tables: Iterable[int], window_from: datetime, window_to: datetime
) -> dict[int, list[Down]]:
    out: dict[int, list[Down]] = defaultdict(list)
    found = session.scalars(
        select(Down).where(
            Down.table_id.in_(list(tables)),
            Down.opened_at < window_to,
            or_(Down.closed_at.is_(None), Down.closed_at >= window_from),
        )
    )
    for down in found:
        out[down.table_id].append(down)
    return out


def dealer_lines(
    session: Session,
    figures: HouseFigures,
    hands_by_down: dict[int | None, int],
    tables: dict[int, Table],
    labels: dict[int, str],
) -> tuple[DealerLine, ...]:
    """Each dealer's hands and the house's drop over their sessions in the window."""
    ids = {s for s in (*figures.by_down, *hands_by_down) if s is not None}
    dealer_of: dict[int | None, str] = {None: say("no session open")}
    table_of: dict[int, int] = {}
    for down_id, table_id, name in session.execute(
        select(Down.id, Down.table_id, User.name)
        .join(User, User.id == Down.dealer_id)
        .where(Down.id.in_(ids))
    ):
        dealer_of[down_id] = name
        table_of[down_id] = table_id
    hands: dict[str, int] = defaultdict(int)
    drop: dict[str, Amount] = defaultdict(Amount)
    at: dict[str, set[str]] = defaultdict(set)
    for down, count in hands_by_down.items():
        hands[dealer_of[down]] += count
        if down is not None and table_of[down] in labels:
            at[dealer_of[down]].add(labels[table_of[down]])
    for down, per_table in figures.by_down.items():
        name = dealer_of[down]
        for table_id, chips in per_table.items():
            drop[name] += Amount.of(chips, tables[table_id].chip_value_cents)
            at[name].add(labels[table_id])
    names = sorted(set(hands) | set(drop), key=str.casefold)
    return tuple(
        DealerLine(n, tuple(sorted(at[n])), hands[n], drop.get(n, Amount())) for n in names
    )


def overrides(session: Session, window_from: datetime, window_to: datetime) -> dict[int, int]:
    """A supervisor's overrides and approvals on the trail in the window, per table."""
    rows = session.execute(
        select(AuditRecord.table_id, func.count(AuditRecord.id))
        .where(
            AuditRecord.at >= window_from,
            AuditRecord.at < window_to,
            AuditRecord.kind.in_(OVERRIDE_KINDS),
            AuditRecord.table_id.is_not(None),
        )
        .group_by(AuditRecord.table_id)
    )
    return {table: int(count) for table, count in rows if table is not None}


def short_stacks(
    session: Session,
    seatings: dict[int, Seating],
    window_to: datetime,
    tables: dict[int, Table],
    labels: dict[int, str],
) -> tuple[ShortStack, ...]:
    """The seats still seated at the window's end whose stack is below zero then."""
    seated = {
        seating_account(s.id): s
        for s in seatings.values()
        if s.left_at is None or as_utc(s.left_at) >= window_to
    }
    if not seated:
        return ()
    stack: dict[str, int] = defaultdict(int)
    before = LedgerEntry.at < window_to
    names = list(seated)
    for column, sign in ((LedgerEntry.to_account, 1), (LedgerEntry.from_account, -1)):
        for account, chips in session.execute(
            select(column, func.sum(LedgerEntry.chips))
            .where(column.in_(names), before)
            .group_by(column)
        ):
            stack[account] += sign * int(chips)
    short = [(account, chips) for account, chips in stack.items() if chips < 0]
    out = []
    for account, chips in short:
        s = seated[account]
        value = tables[s.table_id].chip_value_cents
        out.append(ShortStack(labels[s.table_id], s.seat, s.player, chips, value))
    return tuple(sorted(out, key=lambda line: (line.table, line.seat)))


def player_totals(
    session: Session,
    tally: Tally,
    seatings: dict[int, Seating],
    tables: dict[int, Table],
    labels: dict[int, str],
) -> tuple[PlayerTotal, ...]:
    """Each player over the window, by who they are, never by their name: a registered
    player's seatings together (two Kims with their own cards are two lines); an unregistered
    name is its own seating (an Ana at two tables is two lines, as in players.csv)."""
    by_player: dict[tuple[str, int], list[int]] = defaultdict(list)
    for seating_id, figures in tally.seats.items():
        if figures.hands or figures.buy_ins or figures.cash_outs or figures.net:
            s = seatings[seating_id]
            key = ("player", s.player_id) if s.player_id is not None else ("seating", s.id)
            by_player[key].append(seating_id)
    registered = [n for kind, n in by_player if kind == "player"]
    known = {p.id: p for p in session.scalars(select(Player).where(Player.id.in_(registered)))}
    names = {key: _player_label(key, seatings[ids[0]], known) for key, ids in by_player.items()}
    seen = Counter(names.values())
    out = []
    for key in sorted(by_player, key=lambda k: (names[k].casefold(), k)):
        buy_ins = cash_outs = net = Amount()
        hands = 0
        at: set[int] = set()
        for seating_id in by_player[key]:
            figures = tally.seats[seating_id]
            table_id = seatings[seating_id].table_id
            value = tables[table_id].chip_value_cents
            at.add(table_id)
            hands += figures.hands
            buy_ins += Amount.of(figures.buy_ins, value)
            cash_outs += Amount.of(figures.cash_outs, value)
            net += Amount.of(figures.net, value)
        name = names[key]
        if seen[name] > 1:  # two people of one name: each told apart
            first = seatings[by_player[key][0]]
            name = (
                say("{name} (player {number})", name=name, number=key[1])
                if key[0] == "player"
                else say("{name} (seat {seat}, not registered)", name=name, seat=first.seat)
            )
        tables_at = tuple(sorted(labels[t] for t in at))
        out.append(PlayerTotal(name, tables_at, hands, buy_ins, cash_outs, net))
    return tuple(out)


def _player_label(key: tuple[str, int], seating: Seating, known: dict[int, Player]) -> str:
    if key[0] == "player":
        player = known[key[1]]
        if player.card_number:
            return say("{name} (card {card})", name=player.name, card=player.card_number)
        return player.name
    return seating.player
