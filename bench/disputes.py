"""Benchmark: the dispute desk on the bench's busy shift (40 tables x 8 hours x 30 hands:
9,600 hands, about 230,000 ledger entries, in SQLite).

- ``search``: find a payment (`dealer.disputes.search.find_payments`), as the API and the
  floor's screen ask it, with filters varied: the whole shift alone and with a seat, a
  player, an amount, a rule (common and rare), combinations; a table session with and without
  a seat; one hand. Each search is timed on its own; the p50, p95 and worst are printed. Issue
  13's target: p95 under 200 ms.
- ``statement``: a seat's statement for a hand (`dealer.views.statement`: the hand replayed,
  its entries read, the ledger's own sum), for hands and seats taken at random.
- ``words``: the search in a player's words (`dealer.disputes.asking` read, then
  `dealer.disputes.search.find_seats`), this shift: the 22 questions of ``QUESTIONS`` as players
  put them ("Ana T7 table 7 16 chips", "I'm Ana T7 at table 7, I got 16 chips around 9:40
  pm", "seat 3, table 07, ..."), each about a seat that took chips from several payers in one
  event, its amount that event's total; each asked of a seat drawn at random, timed, and
  checked: the seat asked about is among those found (``words_found_pct``). Issue 22's target:
  p95 under 200 ms; issue 44's: every question found.
- ``replay``: the hand as it stood after an event (`dealer.views.replay`), hands and events at
  random. Issue 22's target: p95 under 200 ms.

The shift is built once by ``bench/reports.py``'s code into ``--db`` and reused by later runs
(``--rebuild`` builds it again); building is not timed. It ends with a line such as
``search_p95_ms=.. statement_ms=.. words_p95_ms=.. words_found_pct=.. replay_p95_ms=..``.

    python -m bench.disputes [--db bench/out/disputes.sqlite3] [--rebuild] [--searches 300]
"""

from __future__ import annotations

import argparse
import logging
import random
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask_migrate import upgrade
from sqlalchemy import func, select

from bench.reports import START, bench_app, build_database
from dealer.clock import Clock, zone
from dealer.disputes.asking import query_from, read_asked
from dealer.disputes.search import find_payments, find_seats
from dealer.extensions import db
from dealer.models import Hand, LedgerEntry, Seating
from dealer.views.replay import replay_view
from dealer.views.statement import seat_statement
from dealer.words.search import search_words

TABLES, HOURS, PER_HOUR = 40, 8, 30
NAMES = ("Ana", "Bea", "Cruz", "Dev", "Eli", "Fay")


def iso(moment: Any) -> str:
    return str(moment.isoformat())


def searches(rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """One search of each kind the floor asks, with its values drawn at random."""
    end = START + timedelta(hours=HOURS, minutes=30)
    shift = {"from": iso(START - timedelta(minutes=30)), "to": iso(end)}
    hour = START + timedelta(hours=rng.randrange(HOURS))
    last_hour = {"from": iso(hour), "to": iso(hour + timedelta(hours=1))}
    table = rng.randrange(1, TABLES + 1)
    session = (table - 1) * HOURS + rng.randrange(1, HOURS + 1)
    seat = rng.randrange(1, 7)
    return [
        ("shift", dict(shift)),
        ("shift+seat", {**shift, "seat": seat}),
        ("shift+player", {**shift, "player": f"{NAMES[seat - 1]} T{table}".lower()}),
        ("shift+amount", {**shift, "amount": rng.choice([1, 2, 4, 5, 6])}),
        ("shift+rule", {**shift, "rule": rng.choice(["conditions_again", "condition", "pot"])}),
        ("shift+rare_rule", {**shift, "rule": rng.choice(["penalty", "foul_refund", "rake"])}),
        ("shift+seat+rule", {**shift, "seat": seat, "rule": "going_out"}),
        ("shift+amount+rule", {**shift, "amount": 4, "rule": "condition"}),
        ("hour+seat", {**last_hour, "seat": seat}),
        ("session", {"session": session}),
        ("session+seat", {"session": session, "seat": seat}),
        ("session+player+amount", {"session": session, "player": NAMES[seat - 1], "amount": 1}),
        ("hand", {"hand": rng.randrange(1, TABLES * HOURS * PER_HOUR + 1)}),
        ("hand+seat", {"hand": rng.randrange(1, TABLES * HOURS * PER_HOUR + 1), "seat": seat}),
    ]


#: Questions as players put them: a name without a keyword or with one, a seat, a table by its
#: number (in words too), a time said either way, and an amount that is the seat's total for
#: one event over several payers (16 = four payers of 4). ``{name}`` is the player's name
#: ("Ana T7"), ``{first}`` its first word, ``{tag}`` the rest; ``{t}`` the table's number,
#: ``{t2}`` with two digits; ``{hhmm}``, ``{ampm}`` the hand's time; ``{n}`` the amount,
#: ``{nw}`` in words when it has them. The templates marked ``recent`` name no time: a player
#: asks about the hand just played, so they are asked about one of the table's last ten hands.
QUESTIONS: tuple[tuple[str, bool], ...] = (
    ("{name} table {t} {n} chips", False),
    ("{name}, table {t}, {n} chips", False),
    ("{name} table {t} around {hhmm} {n} chips", True),
    ("{name}, table {t2}, around {hhmm}, {n} chips", True),
    ("player {name}, table {t}, around {hhmm}, {n} chips", True),
    ("I'm {name} at table {t}, I got {n} chips around {ampm}", True),
    ("{lower} table {t} {hhmm} {n}", True),
    ("{upper}, table {t}, {ampm}, {n} chips", True),
    ("{name} at {hhmm}, table {t}, {n} chips for my set", True),
    ("seat {seat} table {t} around {hhmm} {n} chips", True),
    ("seat {seat}, table {t}, {n} chips", False),
    ("{name}, {n} chips, table {t}", False),
    ("{name} table {t} got {nw} chips", False),
    ("{first} {tag}, table {t2}, at {ampm}, {n}", True),
    ("{name} {n} chips around {hhmm}", True),
    ("{name}, around {hhmm}, {nw} chips", True),
    ("table {t}, {name}, {hhmm}, {n} chips", True),
    ("{name} says she got {n} chips at table {t}", False),
    ("{lower}, {n} chips", False),
    ("{name} table {t} {ampm}", True),
    ("{name} at table {t} around {ampm}, she was paid {n} chips", True),
    ("seat {seat}, around {hhmm}, {n} chips, table {t2}", True),
)
#: An amount in words, as the search reads it (English: the bench asks in English).
_WORDS = {n: word for word, n in search_words().numbers.items()}


def _collected(session: Any, hand_id: int) -> list[tuple[int, int]]:
    """The seatings of a hand that took chips from several payers in one event, with that
    event's total."""
    rows = session.execute(
        select(LedgerEntry.to_account, func.sum(LedgerEntry.chips))
        .where(LedgerEntry.hand_id == hand_id, LedgerEntry.to_account.like("seating:%"))
        .group_by(LedgerEntry.to_account, LedgerEntry.event_id)
        .having(func.count() >= 2)
    )
    return [(int(account.split(":")[1]), int(chips)) for account, chips in rows]


def question(
    session: Any, rng: random.Random, template: str, timed_hand: bool
) -> tuple[str, int, int]:
    """A question of ``template`` about a seat that took chips from several payers in one
    event, and that seat's hand and number."""
    hands = TABLES * HOURS * PER_HOUR
    while True:
        if timed_hand:
            hand_id = rng.randrange(1, hands + 1)
        else:  # one of a table's last ten hands
            table = rng.randrange(1, TABLES + 1)
            hand_id = table * HOURS * PER_HOUR - rng.randrange(10)
        collected = _collected(session, hand_id)
        if collected:
            break
    seating_id, total = rng.choice(collected)
    hand = session.get(Hand, hand_id)
    seating = session.get(Seating, seating_id)
    seat = next(int(s) for s, ident in hand.seats.items() if ident == seating_id)
    first, tag = seating.player.split(" ", 1)
    at = hand.started_at
    said = template.format(
        name=seating.player,
        first=first,
        tag=tag.lower(),
        lower=seating.player.lower(),
        upper=seating.player.upper(),
        seat=seat,
        t=hand.table_id,
        t2=f"{hand.table_id:02d}",
        hhmm=f"{at:%H:%M}",
        ampm=f"{(at.hour % 12) or 12}:{at:%M} {'pm' if at.hour >= 12 else 'am'}",
        n=total,
        nw=_WORDS.get(total, total),
    )
    return said, hand_id, seat


def time_words(
    session: Any, rng: random.Random, count: int
) -> tuple[list[float], dict[str, list[float]], int]:
    """Questions as players put them (`QUESTIONS`, in turn), each timed from the words to the
    seats found, and how many found the seat they were about."""
    now = START + timedelta(hours=HOURS, minutes=30)
    start = START - timedelta(minutes=30)
    clock = Clock(zone("UTC"))

    def ask(words: str) -> Any:
        return find_seats(session, read_asked({"q": words}, clock, now, start))

    for template, timed_hand in QUESTIONS:  # warm
        ask(question(session, rng, template, timed_hand)[0])
    every: list[float] = []
    by_kind: dict[str, list[float]] = {}
    found = 0
    for i in range(count):
        template, timed_hand = QUESTIONS[i % len(QUESTIONS)]
        words, hand, seat = question(session, rng, template, timed_hand)
        session.rollback()
        ms, answer = timed(lambda w=words: ask(w))
        found += any((s.hand, s.seat) == (hand, seat) for s in answer.seats)
        by_kind.setdefault(template, []).append(ms)
        every.append(ms)
        session.rollback()
    return every, by_kind, found


def time_searches(session: Any, rng: random.Random, count: int) -> list[float]:
    """Payments found with the filters of `searches`, each kind in turn, each timed; the
    figures by kind printed."""
    utc = zone("UTC")
    by_kind: dict[str, list[float]] = {}
    found_rows: dict[str, int] = {}
    every: list[float] = []
    kinds = searches(rng)
    for _ in range(2):  # warm the page cache: the floor's database is a warm one
        for _kind, asked in kinds:
            find_payments(session, query_from(asked, utc))
    for i in range(count):
        if i % len(kinds) == 0:
            kinds = searches(rng)
        kind, asked = kinds[i % len(kinds)]
        ms, found = timed(lambda asked=asked: find_payments(session, query_from(asked, utc)))
        by_kind.setdefault(kind, []).append(ms)
        found_rows[kind] = max(found_rows.get(kind, 0), len(found.payments))
        every.append(ms)
        session.rollback()
    print(f"{'search':24} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'found':>6}")
    for kind, values in by_kind.items():
        print(
            f"{kind:24} {len(values):4d} {percentile(values, 0.5):8.1f} "
            f"{percentile(values, 0.95):8.1f} {max(values):8.1f} {found_rows[kind]:6d}"
        )
    return every


def time_statements(session: Any, rng: random.Random, count: int) -> list[float]:
    """Seats' statements for hands and seats at random, each one balanced."""
    out = []
    hands = TABLES * HOURS * PER_HOUR
    for _ in range(count):
        hand, seat = rng.randrange(1, hands + 1), rng.randrange(1, 7)
        ms, found = timed(lambda h=hand, s=seat: seat_statement(session, h, s))
        assert found.balanced, (hand, seat)
        out.append(ms)
        session.rollback()
    return out


def time_replays(session: Any, rng: random.Random, count: int) -> list[float]:
    """Replays of hands at random, each at an event at random."""
    out = []
    hands = TABLES * HOURS * PER_HOUR
    for _ in range(count):
        hand = rng.randrange(1, hands + 1)
        last = replay_view(session, hand).last
        session.rollback()
        at = rng.randrange(1, last + 1)
        ms, shown = timed(lambda h=hand, a=at: replay_view(session, h, a))
        assert sum(s.net for s in shown.seats.values()) + shown.pot <= 0
        out.append(ms)
        session.rollback()
    return out


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    answer = work()
    return (time.perf_counter() - started) * 1000, answer


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="bench/out/disputes.sqlite3")
    parser.add_argument("--rebuild", action="store_true", help="build the shift again")
    parser.add_argument("--searches", type=int, default=300, help="searches timed")
    parser.add_argument("--statements", type=int, default=200, help="statements timed")
    parser.add_argument("--words", type=int, default=240, help="searches in words timed")
    parser.add_argument("--replays", type=int, default=200, help="replays timed")
    args = parser.parse_args()
    path = Path(args.db).resolve()  # Flask-SQLAlchemy reads a relative path in instance/
    if args.rebuild or not path.exists():
        started = time.perf_counter()
        built = build_database(path, TABLES, HOURS, PER_HOUR)
        print(
            f"built {path}: {built['entries']:.0f} entries in {time.perf_counter() - started:.1f} s"
        )
    app = bench_app(path)
    rng = random.Random(13)
    with app.app_context():
        logging.disable(logging.INFO)
        upgrade()  # the search's indexes (0012) on a shift built before them
        logging.disable(logging.NOTSET)
        session = db.session()
        every = time_searches(session, rng, args.searches)
        statements = time_statements(session, rng, args.statements)
        words, words_by_kind, words_found = time_words(session, rng, args.words)
        print(f"{'search in words':60} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
        for kind, values in words_by_kind.items():
            print(
                f"{kind:60} {len(values):4d} {percentile(values, 0.5):8.1f} "
                f"{percentile(values, 0.95):8.1f} {max(values):8.1f}"
            )
        replays = time_replays(session, rng, args.replays)
    search_p50, search_p95 = percentile(every, 0.5), percentile(every, 0.95)
    statement_p50, statement_p95 = percentile(statements, 0.5), percentile(statements, 0.95)
    print(f"searches: {len(every)}, p50 {search_p50:.1f} ms, p95 {search_p95:.1f} ms")
    print(f"statements: {len(statements)}, p50 {statement_p50:.1f} ms, p95 {statement_p95:.1f} ms")
    words_p95, replay_p95 = percentile(words, 0.95), percentile(replays, 0.95)
    found_pct = 100 * words_found / len(words)
    print(
        f"searches in words: {len(words)}, p50 {percentile(words, 0.5):.1f} ms, "
        f"p95 {words_p95:.1f} ms; the seat asked about found by {words_found} "
        f"({found_pct:.1f} %)"
    )
    print(
        f"replays: {len(replays)}, p50 {percentile(replays, 0.5):.1f} ms, p95 {replay_p95:.1f} ms"
    )
    ok = search_p95 < 200 and words_p95 < 200 and replay_p95 < 200 and found_pct == 100
    print(
        f"search_p95_ms={search_p95:.1f} search_p50_ms={search_p50:.1f} "
        f"search_max_ms={max(every):.1f} statement_ms={statement_p50:.1f} "
        f"statement_p95_ms={statement_p95:.1f} words_p95_ms={words_p95:.1f} "
        f"words_found_pct={found_pct:.1f} "
        f"words_max_ms={max(words):.1f} replay_p95_ms={replay_p95:.1f} "
        f"target_p95_ms=200 ok={'yes' if ok else 'no'}"
    )


if __name__ == "__main__":
    main()
