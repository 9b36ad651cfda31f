"""bench/floor.py's arithmetic: what an event costs the machine and what the target would ask."""

from __future__ import annotations

import os

import pytest

from bench.floor import JUDGED_EVENTS, TARGET_TABLES, cores_at_target, ends_curve, per_event, served

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
