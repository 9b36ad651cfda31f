"""Lengths of time in words (the clock itself is `dealer.clock`)."""

from __future__ import annotations

from dealer.words.catalogue import say_n

__all__ = ["minutes_words", "seconds_words"]


def minutes_words(minutes: int) -> str:
    """``1 minute``, ``27 minutes``."""
    return say_n("{n} minute", "{n} minutes", minutes)


def seconds_words(seconds: int) -> str:
    """``1 second``, ``45 seconds``."""
    return say_n("{n} second", "{n} seconds", seconds)
