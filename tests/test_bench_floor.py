"""bench/floor.py's arithmetic: what an event costs the machine and what the target would ask."""

from __future__ import annotations

import os

import pytest

from bench.floor import TARGET_TABLES, cores_at_target, per_event


def test_an_events_cpu_is_its_share_of_every_core_over_the_events_answered() -> None:
    cores = os.cpu_count() or 1
    level = {
        "tables": 400,
        "events_per_s": 80.0,
        "machine_cpu_pct": 50.0,
        "server_cpu_pct": 40.0,
        "client_cpu_pct": 5.0,
    }
    costs = per_event(level)
    # half of every core for 80 events a second: cores * 500 ms / 80 an event
    assert costs["machine_ms_per_event"] == pytest.approx(cores * 500.0 / 80.0)
    assert costs["server_ms_per_event"] == pytest.approx(cores * 400.0 / 80.0)
    assert costs["client_ms_per_event"] == pytest.approx(cores * 50.0 / 80.0)


def test_the_target_asks_its_tables_events_at_the_levels_cost_less_the_client() -> None:
    cores = os.cpu_count() or 1
    level = {
        "tables": 400,
        "events_per_s": 80.0,
        "machine_cpu_pct": 50.0,
        "server_cpu_pct": 40.0,
        "client_cpu_pct": 5.0,
    }
    served_ms = cores * (500.0 - 50.0) / 80.0  # the machine's less the client's, an event
    offered = 80.0 / 400 * TARGET_TABLES  # the same pace per table, at the target's tables
    assert cores_at_target(level) == pytest.approx(served_ms * offered / 1000.0)


def test_a_level_with_no_events_or_no_meter_costs_nothing_said() -> None:
    assert (
        per_event(
            {
                "tables": 10,
                "events_per_s": 0.0,
                "machine_cpu_pct": 3.0,
                "server_cpu_pct": 1.0,
                "client_cpu_pct": 1.0,
            }
        )
        == {}
    )
    assert per_event({"tables": 10, "events_per_s": 2.0}) == {}
    assert cores_at_target({"tables": 10, "events_per_s": 2.0}) == 0.0
