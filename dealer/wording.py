"""How times and money are written, on the screens and the printed documents alike."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from dealer.models import as_utc

__all__ = ["balance_text", "local_time", "money_text", "zone"]


@lru_cache(maxsize=32)
def zone(name: str) -> ZoneInfo:
    """The zone called ``name``; raises ``ZoneInfoNotFoundError`` for an unknown name."""
    return ZoneInfo(name)


def local_time(at: datetime | None, tz: ZoneInfo, style: str = "datetime") -> str:
    """``at`` on the floor's clock, in one of the styles below; empty for None.

    ``datetime`` 2024-05-03 14:00:00 PDT, ``minute`` 2024-05-03 14:00 PDT, ``short`` 05-03 14:00,
    ``date`` 2024-05-03, ``time`` 14:00:00, ``hour`` 14:00.
    """
    if at is None:
        return ""
    here = as_utc(at).astimezone(tz)
    if style == "time":
        return here.strftime("%H:%M:%S")
    if style == "hour":
        return here.strftime("%H:%M")
    if style == "short":
        return here.strftime("%m-%d %H:%M")
    if style == "minute":
        return here.strftime("%Y-%m-%d %H:%M %Z")
    if style == "date":
        return here.strftime("%Y-%m-%d")
    return here.strftime("%Y-%m-%d %H:%M:%S %Z")


def balance_text(number: int) -> str:
    """``+5``, ``-5``, and ``0`` with no sign: a balance."""
    return f"{number:+,}" if number else "0"


def money_text(cents: int, currency: str = "$", signed: bool = False) -> str:
    """``$1,234.50``; ``-$5.50`` below zero; ``+$23.00`` above it when ``signed``."""
    sign = "-" if cents < 0 else ("+" if signed and cents > 0 else "")
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{currency}{whole:,}.{part:02d}"
