"""What the engine costs an event early in a hand and late in it, on the event path itself.

`bench.api` posts long hands through the API (`long_hands`): the deal, a seat's drop, a
second seat's meld, a third seat's meld that stands, then the second seat's meld voided and
made again in turn, to 31 events. The 3rd event and the 30th are then the same meld by the
same seat, judged on a hand of 2 events and of 29. Of each post, the CPU of this thread
(`time.thread_time`) spent in the engine is counted (`EngineClock`): in
`dealer.hands.kept.replayed` (the hand's engine found kept, or its events replayed) and in
applying the event (`rules.Hand.apply`, outside a replay). The median over the hands, at each
place, in ms.

Run once with the engines kept (as served) and once with none kept (`KEPT_HANDS` 0: every
event replays its hand, as every event did before they were kept).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from dealer import rules
from dealer.hands import kept

#: The events of a long hand, the deal included; and the two places compared.
LENGTH = 31
EARLY, LATE = 3, 30


class EngineClock:
    """Thread CPU spent in the engine by the event path, added up in ``spent`` (seconds)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.replaying = False

    def replayed(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            self.replaying = True
            try:
                return real(*args, **kwargs)
            finally:
                self.replaying = False
                self.spent += time.thread_time() - started

        return timed

    def apply(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def timed(engine: rules.Hand, action: rules.Action) -> Any:
            if self.replaying:
                return real(engine, action)  # counted with its replay
            started = time.thread_time()
            try:
                return real(engine, action)
            finally:
                self.spent += time.thread_time() - started

        return timed

    @contextmanager
    def counting(self, keep: bool) -> Iterator[None]:
        """The clock on the event path; with ``keep`` False, no engine kept."""
        saved = kept.replayed, rules.Hand.apply, kept.KEPT_HANDS
        kept.replayed = self.replayed(saved[0])  # type: ignore[assignment]
        rules.Hand.apply = self.apply(saved[1])  # type: ignore[method-assign]
        if not keep:
            kept.KEPT_HANDS = 0
        try:
            yield
        finally:
            kept.replayed, rules.Hand.apply, kept.KEPT_HANDS = saved  # type: ignore[method-assign]


def long_hands(
    post: Callable[[str, dict[str, Any]], dict[str, Any]], table: int, hands: int, keep: bool
) -> dict[int, float]:
    """Play ``hands`` long hands at ``table`` through ``post`` (path, body: the answer); the
    median engine CPU (ms) of the event at each place of a hand (2 to `LENGTH`)."""
    clock = EngineClock()
    spent: dict[int, list[float]] = {seq: [] for seq in range(2, LENGTH + 1)}

    def event(hand: int, seq: int, body: dict[str, Any]) -> dict[str, Any]:
        before = clock.spent
        answer = post(f"/hands/{hand}/events", body)
        spent[seq].append(1000 * (clock.spent - before))
        assert answer["event"]["seq"] == seq, answer["event"]
        return answer

    meld = {"type": "meld", "seat": 2, "cards": ["JH", "QH", "KH"]}
    with clock.counting(keep):
        for _ in range(hands):
            hand = post(f"/tables/{table}/hands", {})["id"]
            event(hand, 2, {"type": "drop", "seat": 4})
            last = event(hand, 3, meld)["event"]["id"]
            event(hand, 4, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
            for seq in range(5, LENGTH + 1):
                if seq % 2:
                    event(hand, seq, {"type": "void", "event": last, "reason": "Again."})
                else:
                    last = event(hand, seq, meld)["event"]["id"]
            post(f"/hands/{hand}/events", {"type": "void_hand", "reason": "Bench."})
    return {seq: statistics.median(times) for seq, times in spent.items()}


def engine_figures(
    post: Callable[[str, dict[str, Any]], dict[str, Any]], table: int, hands: int
) -> dict[str, float]:
    """The engine's CPU at the 3rd and the 30th event, kept and replayed (ms), and their
    ratio kept (the issue's target: at most 1.2)."""
    figures: dict[str, float] = {}
    for keep, name in ((False, "replayed"), (True, "engine")):
        at = long_hands(post, table, hands, keep)
        figures[f"{name}_3rd_ms"], figures[f"{name}_30th_ms"] = at[EARLY], at[LATE]
    figures["engine_30th_vs_3rd"] = figures["engine_30th_ms"] / figures["engine_3rd_ms"]
    return figures
