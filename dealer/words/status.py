"""A seat's or a hand's status in words, as the screens show it."""

from __future__ import annotations

from dealer.words.catalogue import say

__all__ = ["status_words"]


def status_words(status: str) -> str:
    """A seat's status (`rules.SeatStatus`: in, dropped, fouled) or a hand's
    (`rules.HandStatus`: playing, settled, void), in words."""
    return {
        "in": say("in"),
        "dropped": say("dropped"),
        "fouled": say("fouled"),
        "playing": say("in play"),
        "settled": say("settled"),
        "void": say("void"),
    }[status]
