"""Lengths of time in words (the clock itself is `dealer.clock`)."""

from __future__ import annotations

from dealer.words.catalogue import say, say_n

__all__ = [
    "ago_words",
    "duration_words",
    "idle_words",
    "minutes_words",
    "seconds_words",
    "try_again_words",
]


def minutes_words(minutes: int) -> str:
    """``1 minute``, ``27 minutes``."""
    return say_n("{n} minute", "{n} minutes", minutes)


def seconds_words(seconds: int) -> str:
    """``1 second``, ``45 seconds``."""
    return say_n("{n} second", "{n} seconds", seconds)


def duration_words(seconds: int) -> str:
    """``45 seconds``, ``1 minute``, ``15 minutes``, ``1 minute and 30 seconds``."""
    minutes, rest = divmod(max(0, int(seconds)), 60)
    if not minutes:
        return seconds_words(rest)
    if not rest:
        return minutes_words(minutes)
    return say(
        "{minutes} and {seconds}", minutes=minutes_words(minutes), seconds=seconds_words(rest)
    )


def try_again_words(seconds: int) -> str:
    """When a refused sign-in may try again: ``Try again in 45 seconds.``, ``Try again in 2
    minutes.`` (a minute begun counts whole)."""
    wait = seconds_words(seconds) if seconds < 60 else minutes_words((seconds + 59) // 60)
    return say("Try again in {time}.", time=wait)


def idle_words(seconds: int) -> str:
    """Why a sign-in ended unused for ``seconds``: ``Signed out after 1 minute without a
    touch.``"""
    return say("Signed out after {time} without a touch.", time=duration_words(seconds))


def ago_words(seconds: int) -> str:
    """How long ago, ``seconds`` before now: ``just now``, ``12 min ago``, ``2 h 5 min ago``."""
    if seconds < 60:
        return say("just now")
    if seconds < 3600:
        return say("{minutes} min ago", minutes=seconds // 60)
    return say("{hours} h {minutes} min ago", hours=seconds // 3600, minutes=seconds % 3600 // 60)
