"""A seat's or a hand's status in words, as the screens show it."""

from __future__ import annotations

from dealer.words.catalogue import say_later, say_of

#: Each status, named (the messages; said when asked for).
_STATUSES = {
    "in": say_later("in"),
    "dropped": say_later("dropped"),
    "fouled": say_later("fouled"),
    "playing": say_later("in play"),
    "settled": say_later("settled"),
    "void": say_later("void"),
}


def status_words(status: str) -> str:
    """A seat's status (`rules.SeatStatus`: in, dropped, fouled) or a hand's
    (`rules.HandStatus`: playing, settled, void), in words."""
    return say_of(_STATUSES, status)
