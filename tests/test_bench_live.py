"""bench/live.py's idle window begins once every screen has drawn itself, not at a fixed moment:
opening 200 screens at once is a burst of whole renders, and a fixed wait once measured its
tail as idling."""

from __future__ import annotations

import threading
import time

import pytest

import bench.live
from bench.live import Screen, wait_drawn


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
