"""bench/live.py's idle window begins once every screen has drawn itself, not at a fixed moment:
opening 200 screens at once is a burst of whole renders, and a fixed wait once measured its
tail as idling. A floor screen's redraw when the minute turns is told from one no change
explains, and only a redraw after the change counts as seeing it."""

from __future__ import annotations

import threading
import time

import pytest

import bench.live
from bench.live import Screen, first_after, idle_redraws, minutes_turned, wait_drawn


def screens(n: int) -> list[Screen]:
    return [Screen(f"/hands/{i}", [f"hand:{i}"], ["live_board"]) for i in range(1, n + 1)]


def test_the_wait_ends_when_the_last_screen_has_drawn_and_says_when() -> None:
    opened = time.monotonic()
    shown = screens(3)
    shown[0].drawn_at = opened + 0.01
    shown[1].drawn_at = opened + 0.02

    def last_draws() -> None:
        time.sleep(0.2)
        shown[2].drawn_at = time.monotonic()

    drawing = threading.Thread(target=last_draws)
    drawing.start()
    took = wait_drawn(shown, opened)
    drawing.join()
    assert shown[2].drawn_at is not None
    assert took == pytest.approx(shown[2].drawn_at - opened)
    assert took >= 0.2


def test_a_screen_that_never_draws_ends_the_wait_with_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench.live, "DRAW_WITHIN_S", 0.2)
    shown = screens(2)
    shown[0].drawn_at = time.monotonic()
    began = time.monotonic()
    assert wait_drawn(shown, began) is None
    assert time.monotonic() - began >= 0.2


def test_a_floor_screen_redraws_once_for_each_minute_turned_and_no_more() -> None:
    floor = Screen("/floor", ["floor"], ["live_tables"], redraws=[10.0, 20.0, 70.0])
    hand = Screen("/hands/1", ["hand:1", "table:1"], ["live_board"], redraws=[30.0])
    quiet = Screen("/hands/2", ["hand:2", "table:2"], ["live_board"], redraws=[5.0, 95.0])
    assert idle_redraws([floor, hand, quiet], 8.0, 90.0, turned=1) == (3, 1)
    assert idle_redraws([floor, hand, quiet], 8.0, 90.0, turned=3) == (1, 3)
    assert idle_redraws([floor], 8.0, 90.0, turned=0) == (3, 0)


def test_the_minutes_turned_and_the_first_redraw_after_a_change() -> None:
    assert minutes_turned(119.0, 121.0) == 1
    assert minutes_turned(121.0, 179.0) == 0
    assert minutes_turned(59.0, 181.0) == 3
    assert first_after([1.0, 4.0, 9.0], 4.0) == 4.0
    assert first_after([1.0, 4.0], 4.5) is None
