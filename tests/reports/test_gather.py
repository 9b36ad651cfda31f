"""The gatherers' small rules, without a database: buckets, conditions collected, settlement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from dealer.ledger.reading import StoredEntry
from dealer.views.documents.down import conditions_collected
from dealer.views.documents.hand import settling_event
from dealer.views.documents.shift import table_labels
from dealer.views.documents.shift_tally import MAX_BUCKETS, drop_buckets

AT = datetime(2024, 5, 3, 18, 20, tzinfo=UTC)


def test_the_drop_is_charted_by_hour_and_a_long_window_by_day() -> None:
    hours = drop_buckets(AT, AT + timedelta(hours=8))
    assert hours[0] == datetime(2024, 5, 3, 18, 0, tzinfo=UTC)  # the hour the window starts in
    assert len(hours) == 9 and hours[-1] == datetime(2024, 5, 4, 2, 0, tzinfo=UTC)
    days = drop_buckets(AT, AT + timedelta(days=10))
    assert len(days) == 11 and days[0] == datetime(2024, 5, 3, tzinfo=UTC)
    assert len(drop_buckets(AT, AT + timedelta(hours=MAX_BUCKETS - 1))) <= MAX_BUCKETS


def movement(seq: int, source: str, target: str, chips: int, code: str, **kw: int) -> StoredEntry:
    reverses = kw.get("reverses")
    return StoredEntry(seq, AT, source, target, chips, code, "", 1, 1, 1, 2, "d", reverses, "", "")


def test_conditions_collected_net_of_voids_and_a_fouls_refunds() -> None:
    me, other = "seating:1", "seating:2"
    entries = [
        movement(1, other, me, 4, "condition"),
        movement(2, other, me, 2, "condition"),
        movement(3, me, other, 2, "void", reverses=2),  # the second meld was voided
        movement(4, me, other, 4, "foul_refund"),  # then the seat fouled
        movement(5, other, me, 4, "void", reverses=4),  # and the foul was voided
        movement(6, me, other, 1, "condition"),  # what the seat paid is not what it collected
        movement(7, other, me, 1, "going_out"),
    ]
    assert conditions_collected(entries, me) == 4
    assert conditions_collected(entries, other) == 1


def test_the_settling_event_is_the_going_out_that_stands_else_the_last_drop() -> None:
    settled = SimpleNamespace(status="settled")
    types = {1: "deal", 2: "drop", 3: "meld", 4: "go_out", 5: "void", 6: "go_out", 7: "penalty"}
    assert settling_event(settled, types, {4}) == 6  # type: ignore[arg-type]
    by_drops = {1: "deal", 2: "drop", 3: "drop"}
    assert settling_event(settled, by_drops, set()) == 3  # type: ignore[arg-type]
    assert settling_event(SimpleNamespace(status="void"), types, set()) is None  # type: ignore[arg-type]


def test_two_tables_of_one_name_are_told_apart() -> None:
    tables = {
        1: SimpleNamespace(id=1, name="Table 1"),
        2: SimpleNamespace(id=2, name="Table 1"),
        3: SimpleNamespace(id=3, name="High"),
    }
    assert table_labels(tables) == {1: "Table 1 (#1)", 2: "Table 1 (#2)", 3: "High"}  # type: ignore[arg-type]
