"""Find a payment: by hand, seat, player, amount, rule and time, in a table session or a shift.

One search, under the API (``GET /api/v1/payments``) and the floor's screen alike. A payment
is a ledger entry of a hand; the search is the database's (indexed: ``at``, ``hand_id``, the
two accounts, the rule and the chips with the time, migration ``0012_devices``), and only the
page of payments found is read further: their seats and players, and each one's number within its
event, which is the address of its dispute view.

A seat or a player is found through the seatings that match (a seating is one player's stay in
one seat, and its stack is the ledger account ``seating:<id>``). **Players**: when seatings
belong to player records, a player id is one more condition on those seatings, in
`_seatings`, and nothing else here changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, Select, func, or_, select
from sqlalchemy.orm import Session

from dealer.disputes.payment import payment_numbers
from dealer.errors import Invalid
from dealer.floor.table_sessions import get_session
from dealer.ledger.accounts import parse_account, seating_account
from dealer.models import Hand, LedgerEntry, Seating, Table, TableSession
from dealer.words.catalogue import say
from dealer.words.rules import Rule, rule

__all__ = [
    "SEARCH_ROLE",
    "Found",
    "FoundPayment",
    "PaymentQuery",
    "find_payments",
    "query_from",
]

#: Who may search every payment: the floor (a dealer reads their own hands' statements).
SEARCH_ROLE = "supervisor"

#: The longest window searched at once: a shift ledger's.
LONGEST_WINDOW = timedelta(days=31)
DEFAULT_LIMIT = 100
#: Up to this many seatings, a seat or player filter reads the accounts' own indexes.
FEW_SEATINGS = 2


@dataclass(frozen=True, slots=True)
class PaymentQuery:
    """What to look for; ``None`` is "any"."""

    hand: int | None = None
    session: int | None = None
    start: datetime | None = None
    end: datetime | None = None
    seat: int | None = None
    player: str | None = None
    #: A player record: every seating that belongs to it, whatever name it was seated under.
    player_id: int | None = None
    amount: int | None = None
    rule: str | None = None
    limit: int = DEFAULT_LIMIT


def query_from(asked: Mapping[str, Any], zone: ZoneInfo) -> PaymentQuery:
    """The search as `dealer.inputs.PaymentSearch` read it; a time without a zone is the
    floor's (``zone``). Refuses a search with no hand, session or whole window to look in."""
    start, end = (_utc(asked.get(name), zone) for name in ("from", "to"))
    scoped = asked.get("hand") is not None or asked.get("session") is not None
    if not scoped and (start is None or end is None):
        raise Invalid(
            say("Say where to look: a hand, a table session, or a window of time (from and to)."),
            "no_scope",
        )
    if start is not None and end is not None:
        if start >= end:
            raise Invalid(
                say("The window must end after it starts (from before to)."), "empty_window"
            )
        if end - start > LONGEST_WINDOW:
            raise Invalid(
                say("Search at most {days} days at a time.", days=LONGEST_WINDOW.days),
                "window_too_long",
            )
    return PaymentQuery(
        hand=asked.get("hand"),
        session=asked.get("session"),
        start=start,
        end=end,
        seat=asked.get("seat"),
        player=asked.get("player"),
        player_id=asked.get("player_id"),
        amount=asked.get("amount"),
        rule=asked.get("rule"),
        limit=asked.get("limit") or DEFAULT_LIMIT,
    )


def _utc(text: str | None, zone: ZoneInfo) -> datetime | None:
    if not text:
        return None
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(ZoneInfo("UTC"))


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a payment: ``seat 3 (Cy)``, the pot or the house."""

    #: A seat number, "pot", "house" or "cage".
    party: int | str
    words: str


@dataclass(frozen=True, slots=True)
class FoundPayment:
    #: Its ledger entry's seq.
    entry: int
    at: datetime
    table: int
    table_name: str
    hand: int
    hand_number: int
    event: int
    #: The payment's number in its event (from 1): its dispute view is
    #: /hands/<hand>/events/<event>/payments/<number>.
    number: int
    payer: Side
    payee: Side
    chips: int
    rule: Rule
    reason: str
    reverses: int | None


@dataclass(frozen=True, slots=True)
class Found:
    payments: list[FoundPayment]
    #: More payments match than the page holds: narrow the search.
    more: bool


def find_payments(session: Session, query: PaymentQuery) -> Found:
    """The payments that match ``query``, the newest first."""
    if query.session is not None:
        get_session(session, query.session)  # 404 for a session that never was
    every = select(LedgerEntry, Hand.number, Hand.table_id).join(
        Hand, Hand.id == LedgerEntry.hand_id
    )
    wanted = _filtered(session, every, query)
    if wanted is None:
        return Found([], False)
    rows = list(
        session.execute(
            wanted.order_by(LedgerEntry.at.desc(), LedgerEntry.seq.desc()).limit(query.limit + 1)
        ).all()
    )
    more = len(rows) > query.limit
    rows = rows[: query.limit]
    return Found(_described(session, rows), more)


#: A search of payments: each entry found, with its hand's number and table.
Wanted = Select[LedgerEntry, int, int]


def _filtered(session: Session, wanted: Wanted, query: PaymentQuery) -> Wanted | None:
    """``wanted`` narrowed by every filter given; None when nothing can match."""
    if query.hand is not None:
        wanted = wanted.where(LedgerEntry.hand_id == query.hand)
    if query.session is not None:
        wanted = wanted.where(Hand.session_id == query.session)
    if query.start is not None:
        wanted = wanted.where(LedgerEntry.at >= query.start)
    if query.end is not None:
        wanted = wanted.where(LedgerEntry.at < query.end)
    if query.amount is not None:
        wanted = wanted.where(LedgerEntry.chips == query.amount)
    if query.rule is not None:
        wanted = wanted.where(LedgerEntry.reason_code == query.rule)
    if query.seat is not None or query.player is not None or query.player_id is not None:
        accounts = [seating_account(i) for i in _seatings(session, query)]
        if not accounts:
            return None
        source: ColumnElement[str] = LedgerEntry.from_account.expression
        target: ColumnElement[str] = LedgerEntry.to_account.expression
        if len(accounts) > FEW_SEATINGS and query.hand is None:
            # A seat across a shift is many seatings, in a good share of the entries: walking
            # the window newest first finds a page at once, where the accounts' indexes would
            # read and sort every entry of every one of them (bench/disputes.py: 250 ms, 15).
            # `|| ''` keeps the planner off those indexes, on SQLite and PostgreSQL alike.
            source, target = source.concat(""), target.concat("")
        wanted = wanted.where(or_(source.in_(accounts), target.in_(accounts)))
    return wanted


def _seatings(session: Session, query: PaymentQuery) -> list[int]:
    """The seatings a seat or player filter stands for, within the search's scope: a player's
    name (part of it, any case), or a player record (every seating that belongs to it)."""
    found = select(Seating.id)
    if query.player_id is not None:
        found = found.where(Seating.player_id == query.player_id)
    if query.seat is not None:
        found = found.where(Seating.seat == query.seat)
    if query.player is not None:
        pattern = "%" + query.player.lower().replace("\\", "\\\\").replace("%", "\\%")
        pattern = pattern.replace("_", "\\_") + "%"
        found = found.where(func.lower(Seating.player).like(pattern, escape="\\"))
    if query.hand is not None:
        seats = session.scalar(select(Hand.seats).where(Hand.id == query.hand)) or {}
        found = found.where(Seating.id.in_([int(i) for i in seats.values()]))
    elif query.session is not None:
        table = session.scalar(
            select(TableSession.table_id).where(TableSession.id == query.session)
        )
        found = found.where(Seating.table_id == table)
    if query.end is not None:
        found = found.where(Seating.seated_at < query.end)
    if query.start is not None:
        found = found.where(or_(Seating.left_at.is_(None), Seating.left_at >= query.start))
    return list(session.scalars(found))


def _described(session: Session, rows: list[Any]) -> list[FoundPayment]:
    """The page found, with its seats, players, tables and each payment's number."""
    entries = [row[0] for row in rows]
    seating_ids = {
        account.id
        for e in entries
        for account in (parse_account(e.from_account), parse_account(e.to_account))
        if account is not None and account.kind == "seating" and account.id is not None
    }
    seatings = {
        s.id: (s.seat, s.player)
        for s in session.execute(
            select(Seating.id, Seating.seat, Seating.player).where(Seating.id.in_(seating_ids))
        )
    }
    tables = dict(
        session.execute(
            select(Table.id, Table.name).where(Table.id.in_({row[2] for row in rows}))
        ).all()
    )
    numbers = payment_numbers(session, (e.event_id for e in entries if e.event_id is not None))
    return [
        FoundPayment(
            entry=e.seq,
            at=e.at,
            table=table_id,
            table_name=tables.get(table_id, ""),
            hand=e.hand_id or 0,
            hand_number=number,
            event=e.event_id or 0,
            number=numbers.get(e.seq, 1),
            payer=_side(e.from_account, seatings),
            payee=_side(e.to_account, seatings),
            chips=e.chips,
            rule=rule(e.reason_code),
            reason=e.reason,
            reverses=e.reverses,
        )
        for e, number, table_id in rows
    ]


def _side(account: str, seatings: Mapping[int, tuple[int, str]]) -> Side:
    parsed = parse_account(account)
    if parsed is None:
        return Side(account, account)
    if parsed.kind == "seating" and parsed.id is not None and parsed.id in seatings:
        seat, player = seatings[parsed.id]
        return Side(seat, f"seat {seat} ({player})")
    if parsed.kind == "pot":
        return Side("pot", "the pot")
    if parsed.kind == "house":
        return Side("house", "the house")
    return Side(parsed.kind, parsed.kind)
