"""bench/floor.py's arithmetic: what an event costs the machine and what the target would ask,
and the floor's serial section as its app servers time it (bench/room/holds.py)."""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path

import pytest
from flask import Flask

from bench.floor import (
    JUDGED_EVENTS,
    TARGET_TABLES,
    collector,
    cores_at_target,
    ends_curve,
    per_event,
    serial,
    served,
)
from bench.room import holds
from tests.helpers import Api

#: A level as `bench.floor.level` reports one: 400 tables answered 80 events a second while the
#: machine was half busy, the server 40 % of it and the client 5 %.
LEVEL = {
    "tables": 400,
    "events_per_s": 80.0,
    "machine_cpu_pct": 50.0,
    "server_cpu_pct": 40.0,
    "client_cpu_pct": 5.0,
}
CORES = os.cpu_count() or 1


def test_an_events_cpu_is_its_share_of_every_core_over_the_events_answered() -> None:
    costs = per_event(LEVEL)
    # half of every core for 80 events a second: cores * 500 ms / 80 an event
    assert costs["machine_ms_per_event"] == pytest.approx(CORES * 500.0 / 80.0)
    assert costs["server_ms_per_event"] == pytest.approx(CORES * 400.0 / 80.0)
    assert costs["client_ms_per_event"] == pytest.approx(CORES * 50.0 / 80.0)


def test_the_target_asks_its_tables_events_at_the_levels_cost_less_the_client() -> None:
    served_ms = CORES * (500.0 - 50.0) / 80.0  # the machine's less the client's, an event
    offered = 80.0 / 400 * TARGET_TABLES  # the same pace per table, at the target's tables
    assert cores_at_target(LEVEL) == pytest.approx(served_ms * offered / 1000.0)


def test_a_level_with_no_events_or_no_meter_costs_nothing_said() -> None:
    assert per_event({**LEVEL, "events_per_s": 0.0}) == {}
    assert per_event({"tables": 10, "events_per_s": 2.0}) == {}
    assert cores_at_target({"tables": 10, "events_per_s": 2.0}) == 0.0


def test_a_slow_p99_of_a_few_events_is_not_served_but_does_not_end_the_curve() -> None:
    few = {**LEVEL, "events": JUDGED_EVENTS - 1, "p99_ms": 153.0, "errors": 0}
    assert not served(few) and not ends_curve(few)
    many = {**few, "events": JUDGED_EVENTS}
    assert not served(many) and ends_curve(many)
    fast = {**few, "p99_ms": 40.0}
    assert served(fast) and not ends_curve(fast)


def test_an_error_ends_the_curve_however_few_the_events() -> None:
    failed = {**LEVEL, "events": 10, "p99_ms": 40.0, "errors": 1}
    assert not served(failed) and ends_curve(failed)


def test_the_serial_section_is_its_holds_median_p99_and_share_of_the_window() -> None:
    held = [2.0] * 98 + [9.0, 40.0]  # 100 holds in a 10 s window: 245 ms held in all
    figures = serial(held, 10.0, 50)
    assert figures["serial_p50_ms"] == 2.0
    assert figures["serial_p99_ms"] == 9.0  # the 99th of 100, not the slowest
    assert figures["serial_busy_pct"] == pytest.approx(2.45)
    # 50 tables kept it held 2.45 % of the time: all of it at 50 / 0.0245 tables
    assert figures["serial_ceiling_tables"] == pytest.approx(50 / 0.0245)
    assert serial([], 10.0, 50) == {}


def test_each_write_of_a_served_floor_times_its_hold_of_the_writers_lock(
    people: Flask, tmp_path: Path
) -> None:
    supervisor = Api.sign_in(people, "supervisor")
    table = supervisor.table()
    stop = holds.install(str(tmp_path))
    began = time.monotonic()
    try:
        supervisor.seat(table["id"], 1, "Ana")
        supervisor.seat(table["id"], 2, "Ben")
        supervisor.get(f"/tables/{table['id']}/balances")  # a read holds nothing
    finally:
        stop()
    ended = time.monotonic()
    held = holds.read(tmp_path, began, ended)
    assert len(held) == 2 and all(0 < ms < 1000 * (ended - began) for ms in held)
    assert holds.read(tmp_path, ended, ended + 60) == []  # only the window's holds


def test_a_served_workers_full_collections_are_timed(tmp_path: Path) -> None:
    """Each full pass of a worker's collector (every thread of the worker stopped) is kept."""
    stop = holds.install(str(tmp_path))
    began = time.monotonic()
    try:
        gc.collect(1)  # not a full pass
        gc.collect(2)
    finally:
        stop()
    ended = time.monotonic()
    [paused] = holds.pauses(tmp_path, began, ended)
    assert 0 < paused < 1000 * (ended - began)
    assert collector([paused, 3.0]) == {"full_passes": 2, "full_pass_max_ms": max(paused, 3.0)}
