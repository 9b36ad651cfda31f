"""Benchmark: the shift ledger PDF of a busy shift, read from a database, against a bare table.

A shift of 40 tables x 8 hours x 30 hands an hour (9,600 hands) is played through the rules
engine into an SQLite database (seed 000's hand, the seats turned; now and then a mis-entry
voided, or a misdeal voided by the floor), its events and ledger entries bulk-inserted with
the hash chain intact. Then the shift ledger is timed as the app makes it: the ledger checks
over the whole ledger, every figure gathered from the entries (``dealer.views.documents``),
and the PDF built. In the same run a bare ReportLab ``Table`` of the same hand rows is timed
as the baseline. Issue 5's target: under 15 s and 400 MB peak, within 2x of the baseline.
Building the database is timed apart and is not part of ``shift_pdf_s``.

Each timed build runs in a forked child so that its peak resident memory is its own.
``--synthetic`` times the PDF of a ``ShiftReport`` made without a database, as before the
ledger existed; ``measure_shift_pdf`` takes any ``ShiftReport``.

Besides the bare table (as the issue defines it: ReportLab measures every cell and re-splits
the rest of the table at each page) it times a tuned one (column widths and row heights given),
and prints ``vs_tuned`` too: the shift PDF also holds the players, the accounts and two charts.

The floor checks itself as it goes: each dealer's down that ends sets off the quick ledger
checks in the background (`dealer.floor.down_checks`), from the last checked checkpoint, and
files the head they reached as a checked checkpoint; each table session's report, when printed,
does the same (`dealer.views.documents.down`). In this shift every table's dealer goes down
on the hour (each table a second later than the one before), so by default a checked
checkpoint is filed at each hour of the shift, 1 to ``hours - 1``, as those downs would file
them: the shift ledger then checks from the last one and recomputes the last hour's links
only. It is the conservative end of what a floor does: on a floor whose downs are spread
through the hour, one is filed every few minutes.
The checks filing them are run once over the whole shift and are not timed (on a floor they
are spread over the downs: see the session report's figures in bench/README.md).
``--checkpoint-hour H`` files only one, H hours into the shift; ``--checkpoint-hour 0`` none:
the shift ledger then recomputes every link of the shift, as on a floor where no session
down ended (or with ``DEALER_CHECK_AT_DOWNS=0``) and nobody ran ``flask --app dealer ledger
checkpoint``.

    python -m bench.reports [--tables 40] [--hours 8] [--per-hour 30] [--db bench/out/shift.sqlite3]
                            [--pdf bench/out/shift.pdf] [--synthetic] [--checkpoint-hour H]
"""

from __future__ import annotations

import argparse
import io
import logging
import multiprocessing
import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade
from reportlab.lib.pagesizes import letter
from reportlab.platypus import SimpleDocTemplate, Table

from dealer import create_app
from dealer.extensions import db
from dealer.ledger import (
    CAGE,
    GENESIS,
    Report,
    entry_hash,
    house_account,
    pot_account,
    seating_account,
)
from dealer.ledger.chain import (
    DEALT_COLUMNS,
    ENTRY_COLUMNS,
    EVENT_COLUMNS,
    entry_link_fields,
    event_link_fields,
    link_message,
)
from dealer.ledger.checkpoints import chain_head, counted, file_genesis, record_checkpoint
from dealer.ledger.engine import engine_version
from dealer.ledger.identity import MODELS, versions_of
from dealer.ledger.keys import LedgerKey, current_key
from dealer.ledger.verification import verify
from dealer.models import (
    ChainLink,
    Down,
    Event,
    IdentityVersion,
    LedgerEntry,
    Seating,
    User,
)
from dealer.models import Hand as HandRow
from dealer.models import Table as CardTable
from dealer.reports import shift_pdf
from dealer.reports.pages import PrintOptions
from dealer.reports.shift import hand_rows
from dealer.rules import (
    HOUSE,
    POT,
    Hand,
    Party,
    action_from_dict,
    action_to_dict,
    make_collection,
    make_rules,
)
from dealer.transactions import snapshot, writing
from dealer.views import documents as gather
from dealer.views.documents.shift import ShiftReport, ShiftTable
from dealer.views.documents.shift_summary import PlayerTotal
from dealer.views.documents.shift_tally import Amount, HourDrop, TrialLine
from dealer.views.ledger import verification_view
from dealer.views.shift_hands import HandLine

NAMES = ("Ana", "Bea", "Cruz", "Dev", "Eli", "Fay")
CHIP_VALUES = (25, 50, 100, 500)
START = datetime(2024, 5, 3, 18, 0, tzinfo=UTC)


@cache
def played(winner: int, dropper: int) -> dict[object, int]:
    """The nets of seed 000's hand with ``winner`` going out and ``dropper`` dropping."""
    hand = Hand(
        make_rules("classic"), range(1, 7), make_collection({"kind": "per_hand", "chips": 1})
    )
    hand.apply(action_from_dict({"type": "drop", "seat": dropper}))
    for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
        hand.apply(action_from_dict({"type": "meld", "seat": winner, "cards": cards}))
    hand.apply(action_from_dict({"type": "go_out", "seat": winner}))
    return {**hand.net, "payments": len(hand.payments)}


def hand_line(
    table: str, number: int, at: datetime | None, winner: int | None, player: str, net: dict
) -> HandLine:
    """A hand as the shift ledger lists it: six seats dealt; settled at ``at``, or void."""
    return HandLine(
        id=number,
        number=number,
        table=0,
        table_name=table,
        status="settled" if at else "void",
        status_words="settled" if at else "void",
        winner=winner,
        winner_player=player,
        moved=0,
        started_at=at or START,
        open_disputes=0,
        settled_at=at,
        seats=6,
        won=net[winner] if winner else 0,
        drop=net[HOUSE] if at else 0,
    )


def synthetic_shift(tables: int = 40, hours: int = 8, per_hour: int = 30) -> ShiftReport:
    """A shift of ``tables`` x ``hours`` x ``per_hour`` hands, six players a table."""
    table_lines, hand_lines, players, trial = [], [], [], []
    by_hour = [Amount() for _ in range(hours)]
    entries = 0
    gap = timedelta(minutes=60 / per_hour)
    for t in range(1, tables + 1):
        name, value = f"Table {t:02d}", CHIP_VALUES[t % len(CHIP_VALUES)]
        net = dict.fromkeys(range(1, 7), 0)
        drop = voids = number = 0
        for hour in range(hours):
            for k in range(per_hour):
                number += 1
                at = START + timedelta(hours=hour) + gap * (k + 1)
                if number % 50 == 0:  # a misdeal now and then: voided, nothing moves
                    voids += 1
                    hand_lines.append(hand_line(name, number, None, None, "", {}))
                    continue
                winner, dropper = (number + t) % 6 + 1, (number + t + 3) % 6 + 1
                result = played(winner, dropper)
                for seat in net:
                    net[seat] += result[seat]
                drop += result[HOUSE]
                entries += result["payments"]
                by_hour[hour] += Amount.of(result[HOUSE], value)
                who = f"{NAMES[winner - 1]} T{t}"
                hand_lines.append(hand_line(name, number, at, winner, who, result))
        table_lines.append(ShiftTable(name, value, number, drop, voids))
        for seat, chips in net.items():
            buy_in = 1000
            players.append(
                PlayerTotal(
                    f"{NAMES[seat - 1]} T{t}",
                    (name,),
                    number - voids,
                    Amount.of(buy_in, value),
                    Amount.of(buy_in + chips, value),
                    Amount.of(chips, value),
                )
            )
            won, lost = max(chips, 0), max(-chips, 0)
            trial.append(TrialLine(f"{name} seat {seat}", won, lost))
        trial.append(TrialLine(f"{name} house", drop, 0))
    return ShiftReport(
        window_from=START,
        window_to=START + timedelta(hours=hours),
        tables=tuple(table_lines),
        players=tuple(players),
        drop_by_hour=tuple(
            HourDrop(START + timedelta(hours=h), amount) for h, amount in enumerate(by_hour)
        ),
        trial_balance=tuple(trial),
        chain=verification_view(Report(entries, "5e" * 32)),
        hands=tuple(hand_lines),
    )


def bare_table_pdf(report: ShiftReport, options: PrintOptions, tuned: bool = False) -> bytes:
    """The baseline: the shift's hand rows as one bare ReportLab table, header repeated.

    ``tuned`` gives ReportLab the column widths and row heights, which spares it measuring
    every cell: the fastest one plain table can be.
    """
    header, rows = hand_rows(report, options)
    data = [header, *rows]
    sizes = {"colWidths": [72, 30, 60, 40, 80, 28, 90, 70], "rowHeights": 12} if tuned else {}
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=letter).build([Table(data, repeatRows=1, **sizes)])
    return out.getvalue()


@dataclass(frozen=True)
class Figures:
    seconds: float
    peak_mb: float
    size_kb: float
    #: CPU time: what the build costs whatever else the machine is doing meanwhile.
    cpu_seconds: float = 0.0
    #: What the build sent back besides its PDF (the gathered report and its timings).
    extra: dict[str, Any] = field(default_factory=dict)


def _child(build: Callable[[], Any], pipe: object, keep: str | None) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    built = build()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    data, extra = built if isinstance(built, tuple) else (built, {})
    if keep:
        Path(keep).parent.mkdir(parents=True, exist_ok=True)
        Path(keep).write_bytes(data)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    figures = Figures(seconds, peak_kb / 1024, len(data) / 1024, cpu_seconds=cpu, extra=extra)
    pipe.send(figures)  # type: ignore[attr-defined]


def measure(build: Callable[[], Any], keep: str | None = None) -> Figures:
    """Time ``build`` in a forked child; its peak resident memory is the build's own high-water.

    ``build`` returns the PDF, or the PDF and a dict of anything else to send back.
    """
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(build, send, keep))
    child.start()
    send.close()  # the child holds the only sending end: its death ends the pipe
    try:
        figures: Figures = receive.recv()
    except EOFError:
        child.join()
        raise RuntimeError(f"the measured build failed (exit code {child.exitcode})") from None
    child.join()
    return figures


def measure_shift_pdf(
    report: ShiftReport, options: PrintOptions | None = None, keep: str | None = None
) -> tuple[Figures, Figures, Figures]:
    """Figures for the shift PDF, the bare table and the tuned bare table, for any shift."""
    options = options or PrintOptions()
    ours = measure(lambda: shift_pdf(report, options), keep)
    baseline = measure(lambda: bare_table_pdf(report, options))
    tuned = measure(lambda: bare_table_pdf(report, options, tuned=True))
    return ours, baseline, tuned


# ------------------------------------------------------------------- the shift as a database

SUPERVISOR = 1  # the floor's user id; the dealers are 2, 3, ...
BUY_IN = 1000
DEVICE = "bench"
EVENT_GAP = timedelta(seconds=10)


@dataclass
class Posting:
    """A chip movement waiting for its place in the ledger (seqs follow time, all tables)."""

    at: datetime
    order: int  # keeps the postings of one moment in the order they were made
    source: str
    target: str
    chips: int
    code: str
    reason: str
    table: int
    user: int
    hand: int | None = None
    event: int | None = None
    key: tuple[int, int, int] | None = None  # (hand, event seq, index) of a hand's payment
    reverses: tuple[int, int, int] | None = None


@dataclass
class Ids:
    """Where the next shift's ids, seqs and hashes go on from: a room's history, shift by shift."""

    seatings: int = 0
    downs: int = 0
    hands: int = 0
    events: int = 0
    entries: int = 0
    links: int = 0
    entry_hash: str = GENESIS
    link_hash: str = GENESIS
    #: The last hand number at each table.
    numbers: dict[int, int] = field(default_factory=dict)


@dataclass
class Shift:
    """The rows of the shift, ids handed out as they are made."""

    users: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    seatings: list[dict[str, Any]] = field(default_factory=list)
    downs: list[dict[str, Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    postings: list[Posting] = field(default_factory=list)
    #: Writes in the order they were made: an event before its payments, as the app links them.
    made: int = 0

    def post(self, **fields: Any) -> None:
        self.made += 1
        self.postings.append(Posting(order=self.made, **fields))

    def event(self, **fields: Any) -> None:
        self.made += 1
        self.events.append({**fields, "order": self.made})


def hand_actions(number: int, t: int) -> tuple[int, list[dict[str, Any]]]:
    """Hand ``number`` at table ``t``: its winner, and the actions after the deal.

    Seed 000's hand with the seats turned; every 25th hand a meld keyed for the wrong seat is
    voided at once; every 50th is a misdeal the floor voids.
    """
    winner, dropper = (number + t) % 6 + 1, (number + t + 3) % 6 + 1
    actions: list[dict[str, Any]] = [{"type": "drop", "seat": dropper}]
    if number % 50 == 0:
        return winner, [*actions, {"type": "void_hand", "reason": "Misdeal: cards exposed"}]
    if number % 25 == 0:
        wrong = winner % 6 + 1 if winner % 6 + 1 != dropper else (winner + 1) % 6 + 1
        actions += [
            {"type": "meld", "seat": wrong, "cards": ["7H", "7H", "7H"]},
            {"type": "void", "event": 3, "reason": "Keyed for the wrong seat"},
        ]
    for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
        actions.append({"type": "meld", "seat": winner, "cards": cards})
    return winner, [*actions, {"type": "go_out", "seat": winner}]


def account(party: Party, hand: int, table: int, seating: dict[int, int]) -> str:
    """The ledger account of a party to a hand's payment."""
    if party == POT:
        return pot_account(hand)
    if party == HOUSE:
        return house_account(table)
    return seating_account(seating[int(party)])


def play_shift(
    tables: int, hours: int, per_hour: int, start: datetime = START, ids: Ids | None = None
) -> Shift:
    """Every hand of the shift that begins at ``start`` through the engine: its rows, and its
    postings in time order. ``ids`` says where the room's history so far left off (and is moved
    on); the users and tables are made with the first shift."""
    ids = ids if ids is not None else Ids()
    first = not ids.numbers
    shift = Shift()
    dealers = min(tables + 1, 60)
    if first:
        shift.users.append(dict(id=SUPERVISOR, name="Flo", role="supervisor", pin_hash="-"))
        for d in range(2, dealers + 2):
            shift.users.append(dict(id=d, name=f"Dealer {d - 1:02d}", role="dealer", pin_hash="-"))
    rules = make_rules("classic")
    collection = make_collection({"kind": "per_hand", "chips": 1})
    knobs = {"profile": "classic", **rules.knobs()}
    gap = timedelta(minutes=60 / per_hour)
    end = start + timedelta(hours=hours)
    version = engine_version()
    for t in range(1, tables + 1):
        offset = timedelta(seconds=t)  # the tables do not all move at the same second
        if first:
            shift.tables.append(
                dict(
                    id=t,
                    name=f"Table {t:02d}",
                    profile="classic",
                    rules={},
                    collection=collection.as_dict(),
                    chip_value_cents=CHIP_VALUES[t % len(CHIP_VALUES)],
                    created_at=start - timedelta(hours=1),
                    created_by=SUPERVISOR,
                )
            )
        seating = {}
        for seat in range(1, 7):
            ids.seatings += 1
            seating[seat] = ids.seatings
            shift.seatings.append(
                dict(
                    id=seating[seat],
                    table_id=t,
                    seat=seat,
                    player=f"{NAMES[seat - 1]} T{t}",
                    seated_at=start - timedelta(minutes=10) + offset,
                    left_at=end + timedelta(minutes=5) + offset,
                    paused=False,
                )
            )
            shift.post(
                at=start - timedelta(minutes=10) + offset,
                source=CAGE,
                target=seating_account(seating[seat]),
                chips=BUY_IN,
                code="buy_in",
                reason=f"{NAMES[seat - 1]} T{t} sits in seat {seat} and buys in for {BUY_IN}",
                table=t,
                user=2,
            )
        stacks = dict.fromkeys(seating, BUY_IN)
        number = ids.numbers.get(t, 0)
        for hour in range(hours):
            dealer = 2 + (t + hour) % dealers
            ids.downs += 1
            down_id = ids.downs
            opened = start + timedelta(hours=hour) + offset
            closed = opened + timedelta(hours=1) - timedelta(seconds=2)
            shift.downs.append(
                dict(
                    id=down_id,
                    table_id=t,
                    dealer_id=dealer,
                    opened_at=opened,
                    implicit=False,
                    closed_at=closed,
                    close_requested_by=dealer,
                    close_confirmed_by=SUPERVISOR,
                    close_confirmed_at=closed,
                )
            )
            for k in range(per_hour):
                number += 1
                ids.hands += 1
                hand_id = ids.hands
                started = opened + gap * k + timedelta(seconds=1)
                engine = Hand(rules, seating, collection)
                _, actions = hand_actions(number, t)
                states = [(engine.status, engine.winner)]  # the hand once each event applied
                for body in actions:
                    engine.apply(action_from_dict(body))
                    states.append((engine.status, engine.winner))
                at = started
                for record, (status, winner) in zip(engine.events, states, strict=True):
                    ids.events += 1
                    event_id = ids.events
                    shift.event(
                        id=event_id,
                        hand_id=hand_id,
                        seq=record.seq,
                        type=record.type,
                        action=action_to_dict(record.action) if record.action else None,
                        seat=record.seat,
                        user_id=dealer,
                        supervisor_id=SUPERVISOR if record.type == "void_hand" else None,
                        device=DEVICE,
                        created_at=at,
                        hand_status=status,
                        hand_winner=winner,
                    )
                    for index, p in enumerate(record.payments):
                        shift.post(
                            at=at,
                            source=account(p.payer, hand_id, t, seating),
                            target=account(p.payee, hand_id, t, seating),
                            chips=p.chips,
                            code=p.rule,
                            reason=p.reason,
                            table=t,
                            user=dealer,
                            hand=hand_id,
                            event=event_id,
                            key=(hand_id, record.seq, index),
                            reverses=(hand_id, *p.reverses) if p.reverses else None,
                        )
                    at += EVENT_GAP
                for seat in seating:
                    stacks[seat] += engine.net[seat]
                shift.hands.append(
                    dict(
                        id=hand_id,
                        table_id=t,
                        down_id=down_id,
                        number=number,
                        status=engine.status,
                        rules=knobs,
                        collection=collection.as_dict(),
                        seats={str(seat): seating[seat] for seat in seating},
                        winner=engine.winner,
                        started_at=started,
                        ended_at=at - EVENT_GAP if engine.status != "playing" else None,
                        engine_version=version,
                    )
                )
        for seat, stack in stacks.items():
            if stack > 0:
                shift.post(
                    at=end + timedelta(minutes=5) + offset,
                    source=seating_account(seating[seat]),
                    target=CAGE,
                    chips=stack,
                    code="cash_out",
                    reason=f"{NAMES[seat - 1]} T{t} leaves seat {seat} and cashes out {stack}",
                    table=t,
                    user=2,
                )
        ids.numbers[t] = number
    return shift


def ledger_rows(postings: list[Posting], ids: Ids | None = None) -> list[dict[str, Any]]:
    """The postings as ledger entries: seqs in time order after ``ids.entries``, reversals
    resolved, hashes chained. Each row keeps its posting's ``order`` (for the keyed chain)."""
    ids = ids if ids is not None else Ids()
    seq_of: dict[tuple[int, int, int], int] = {}
    rows = []
    for p in sorted(postings, key=lambda p: (p.at, p.order)):
        ids.entries += 1
        seq = ids.entries
        if p.key is not None:
            seq_of[p.key] = seq
        row = dict(
            seq=seq,
            at=p.at,
            from_account=p.source,
            to_account=p.target,
            chips=p.chips,
            reason_code=p.code,
            reason=p.reason,
            table_id=p.table,
            hand_id=p.hand,
            event_id=p.event,
            user_id=p.user,
            device=DEVICE,
            reverses=seq_of[p.reverses] if p.reverses is not None else None,
            prev_hash=ids.entry_hash,
        )
        row["hash"] = ids.entry_hash = entry_hash(SimpleNamespace(**row))  # type: ignore[arg-type]
        row["order"] = p.order
        rows.append(row)
    return rows


def chain_links(
    shift: Shift, entries: list[dict[str, Any]], ids: Ids, key: LedgerKey
) -> list[dict[str, Any]]:
    """The keyed chain over the shift's events and entries, in the order they were written."""
    hands = {h["id"]: h for h in shift.hands}
    written: list[tuple[datetime, int, str, int, list[object]]] = []
    for e in shift.events:
        dealt = [hands[e["hand_id"]][n] for n in DEALT_COLUMNS] if e["seq"] == 1 else None
        fields = event_link_fields([e[n] for n in EVENT_COLUMNS], dealt)
        written.append((e["created_at"], e["order"], "event", e["id"], fields))
    for row in entries:
        fields = entry_link_fields([row[n] for n in ENTRY_COLUMNS])
        written.append((row["at"], row["order"], "entry", row["seq"], fields))
    written.sort(key=lambda w: (w[0], w[1]))
    links = []
    for at, _, kind, ref, fields in written:
        ids.links += 1
        link = dict(seq=ids.links, kind=kind, ref=ref, at=at, prev_hash=ids.link_hash)
        link["hash"] = ids.link_hash = key.mac(link_message(SimpleNamespace(**link), fields))  # type: ignore[arg-type]
        links.append(link)
    return links


def insert_shift(
    connection: sa.Connection, shift: Shift, entries: list[dict[str, Any]], links: list[Any]
) -> None:
    """Bulk-insert one shift's rows (the users and tables too, with the first)."""
    now = START - timedelta(days=400)
    users = [{**u, "active": True, "failed_pins": 0, "created_at": now} for u in shift.users]
    for model, rows in (
        (User, users),
        (CardTable, shift.tables),
        (Seating, shift.seatings),
        (Down, shift.downs),
        (
            HandRow,
            [
                {("session_id" if k == "down_id" else k): v for k, v in h.items()}
                for h in shift.hands
            ],
        ),
        (Event, [{k: v for k, v in e.items() if k != "order"} for e in shift.events]),
        (LedgerEntry, [{k: v for k, v in e.items() if k != "order"} for e in entries]),
        (ChainLink, links),
    ):
        if rows:
            connection.execute(sa.insert(model.__table__), rows)


def seal_identities() -> None:
    """What the app does for rows it writes, done once for the bulk-inserted ones: the empty
    chain filed as the first checkpoint, and a linked version of every user, table, seating
    and dealer's session. Without them the checks find the ledger broken and replay every
    hand, which a real floor's ledger never asks for. Rows already versioned (by an earlier
    call, for an earlier shift of `bench.history`) are left as they are."""
    with writing(db.session()) as session:
        file_genesis(session)
        versioned = set(session.execute(sa.select(IdentityVersion.kind, IdentityVersion.ref)))
        rows = [
            (kind, row)
            for kind, model in MODELS.items()
            for row in session.scalars(sa.select(model))
            if (kind, row.id) not in versioned
        ]
        if rows:
            versions_of(session, rows)


def build_database(path: Path, tables: int, hours: int, per_hour: int) -> dict[str, float]:
    """Play the shift into a fresh SQLite file at ``path``; how long each step took."""
    app = fresh_database(path)
    times: dict[str, float] = {}
    with app.app_context():
        started = time.perf_counter()
        logging.disable(logging.INFO)  # Alembic's "Running upgrade ..." lines
        upgrade()
        logging.disable(logging.NOTSET)
        times["migrate"] = time.perf_counter() - started
        started = time.perf_counter()
        ids = Ids()
        shift = play_shift(tables, hours, per_hour, START, ids)
        entries = ledger_rows(shift.postings, ids)
        links = chain_links(shift, entries, ids, current_key(db.session()))
        times["engine_and_hashes"] = time.perf_counter() - started
        started = time.perf_counter()
        with db.engine.begin() as connection:
            insert_shift(connection, shift, entries, links)
        seal_identities()
        times["insert"] = time.perf_counter() - started
        times["entries"] = len(entries)
        times["events"] = len(shift.events)
        db.engine.dispose()
    return times


def checkpoints_during_shift(path: Path, moments: list[datetime]) -> dict[str, float]:
    """What the session reports printed at ``moments`` (or ``flask --app dealer ledger
    checkpoint`` run then) would have filed: the checks run over what was linked before each
    and, as they found nothing, the head as it stood then filed checked. Here the checks run
    once, over the whole shift (it is all in the database already), and each moment's head is
    filed after them. The shift ledger then checks only what was linked after the last."""
    app = bench_app(path)
    heads = []
    with app.app_context():
        with snapshot(db.session()) as session:
            report = verify(session)
            heads = [counted(session, chain_head(session, before=at)) for at in moments]
        if not report.ok:
            raise RuntimeError(f"the bench's ledger does not verify: {report.problems[:3]}")
        for at, head in zip(moments, heads, strict=True):
            record_checkpoint(db.session(), head, True, f"session reports at {at.isoformat()}")
        db.engine.dispose()
    return {"links": heads[-1].seq if heads else 0}


def bench_app(path: Path) -> Flask:
    """The app on the SQLite file at ``path``, its checkpoints in a file beside it."""
    checkpoints = path.with_name(path.name + ".checkpoints.jsonl")
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
            "CHECKPOINT_FILE": str(checkpoints),
        }
    )


def fresh_database(path: Path) -> Flask:
    """`bench_app` on a new, empty file at ``path`` (anything left there before is removed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm", ".checkpoints.jsonl"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    return bench_app(path)


def shift_from_database(
    path: Path, window: tuple[datetime, datetime], options: PrintOptions
) -> Callable[[], tuple[bytes, dict[str, Any]]]:
    """The app's own way to the shift PDF: checks and figures from the database, then the PDF."""

    def build() -> tuple[bytes, dict[str, Any]]:
        app = bench_app(path)
        with app.app_context():
            started = time.perf_counter()
            with snapshot(db.session()) as session:
                report = gather.shift_report(session, *window)
            gathered = time.perf_counter() - started
        data = shift_pdf(report, options)
        return data, {"report": report, "gather_s": gathered}

    return build


def busy() -> None:
    """Say so when the machine is busier than its CPUs: wall times are then inflated."""
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1):
        print(f"note: load average {load:.1f} on {os.cpu_count()} CPUs: wall times are inflated")


def report_figures(name: str, f: Figures) -> None:
    print(
        f"{name + ':':12} {f.seconds:6.2f} s ({f.cpu_seconds:5.2f} s CPU)  "
        f"peak {f.peak_mb:5.0f} MB  {f.size_kb:6.0f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--hours", type=int, default=8)
    parser.add_argument("--per-hour", type=int, default=30)
    parser.add_argument("--db", default="bench/out/shift.sqlite3", help="the SQLite file to build")
    parser.add_argument("--pdf", help="keep the shift PDF here (bench/out/ is git-ignored)")
    parser.add_argument("--synthetic", action="store_true", help="no database: a made-up report")
    parser.add_argument(
        "--checkpoint-hour",
        type=float,
        default=None,
        help="one checked checkpoint filed this many hours into the shift, before the shift "
        "ledger is asked for; 0: none, the shift ledger checks every link of the shift "
        "(default: one at each hour of the shift, as the session reports printed at the "
        "dealers' downs file them)",
    )
    args = parser.parse_args()
    options = PrintOptions()

    if args.synthetic:
        started = time.perf_counter()
        report = synthetic_shift(args.tables, args.hours, args.per_hour)
        made = time.perf_counter() - started
        size = f"{len(report.hands)} hands, {len(report.players)} players"
        print(f"synthetic shift: {size}, {len(report.trial_balance)} accounts in {made:.1f} s")
        ours, baseline, tuned = measure_shift_pdf(report, options, keep=args.pdf)
        extra = ""
    else:
        path = Path(args.db).resolve()  # Flask-SQLAlchemy reads a relative one in instance/
        # The database is built in a child too: the parent stays small, so every timed child
        # (forked from it) starts small.
        built = measure(lambda: (b"", build_database(path, args.tables, args.hours, args.per_hour)))
        steps = built.extra
        print(
            f"database: {int(steps['entries'])} ledger entries, {int(steps['events'])} events "
            f"in {built.seconds:.1f} s (migrate {steps['migrate']:.1f} s, engine and hashes "
            f"{steps['engine_and_hashes']:.1f} s, insert {steps['insert']:.1f} s), "
            f"{path.stat().st_size / 2**20:.0f} MB at {path}"
        )
        if args.checkpoint_hour is None:  # the session reports of each hour's downs
            hours = [float(h) for h in range(1, args.hours)]
        else:
            hours = [args.checkpoint_hour] if args.checkpoint_hour else []
        if hours:
            moments = [START + timedelta(hours=h) for h in hours]
            filed = measure(lambda: (b"", checkpoints_during_shift(path, moments)))
            print(
                f"{len(moments)} checked checkpoint(s) filed, the last at link "
                f"{int(filed.extra['links'])} ({hours[-1]:g} h into the shift), "
                f"in {filed.seconds:.1f} s (not timed in the report)"
            )
        else:
            print("no checked checkpoint during the shift: every link is recomputed")
        window = (START - timedelta(minutes=30), START + timedelta(hours=args.hours, minutes=30))
        ours = measure(shift_from_database(path, window, options), args.pdf)
        report = ours.extra["report"]
        chain = report.chain
        print(
            f"shift read back: {len(report.hands)} hands, {len(report.players)} players, "
            f"{len(report.trial_balance)} accounts; chain {'OK' if chain.ok else 'FAILED'} "
            f"over {chain.entries} entries ({chain.links_checked} links recomputed after "
            f"link {chain.checked_from}), {len(report.problems)} problems; gathering "
            f"{ours.extra['gather_s']:.2f} s of {ours.seconds:.2f} s"
        )
        baseline = measure(lambda: bare_table_pdf(report, options))
        tuned = measure(lambda: bare_table_pdf(report, options, tuned=True))
        extra = (
            f" db_build_s={built.seconds:.1f} gather_s={ours.extra['gather_s']:.1f}"
            f" links_checked={chain.links}"
        )
    ratio = ours.seconds / baseline.seconds
    for name, f in (("shift_pdf", ours), ("bare table", baseline), ("tuned table", tuned)):
        report_figures(name, f)
    ok = ours.seconds < 15 and ours.peak_mb < 400 and ratio <= 2
    print(f"target (< 15 s, < 400 MB, <= 2x the bare table): {'met' if ok else 'MISSED'}")
    busy()
    print(
        f"hands={len(report.hands)} shift_pdf_s={ours.seconds:.1f} peak_mb={ours.peak_mb:.0f} "
        f"vs_baseline={ratio:.2f} baseline_s={baseline.seconds:.1f} "
        f"vs_tuned={ours.seconds / tuned.seconds:.2f} "
        f"cpu_vs_baseline={ours.cpu_seconds / baseline.cpu_seconds:.2f}{extra}"
    )


if __name__ == "__main__":
    main()
