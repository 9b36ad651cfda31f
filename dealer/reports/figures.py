"""How chips, money and times are written on the documents and in the exports."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from .model import Amount

__all__ = [
    "ChipsAt",
    "amount_text",
    "as_utc",
    "balance_text",
    "chips_text",
    "iso_utc",
    "local_time",
    "money_text",
    "zone",
]


def as_utc(at: datetime) -> datetime:
    """``at`` in UTC; a naive time is taken as UTC already (SQLite keeps no zone)."""
    if at.tzinfo is None:
        return at.replace(tzinfo=UTC)
    return at.astimezone(UTC)


def iso_utc(at: datetime | None) -> str:
    """ISO 8601 in UTC to the millisecond, ``2024-05-03T21:14:05.311Z``; empty for None."""
    if at is None:
        return ""
    return as_utc(at).isoformat(timespec="milliseconds").replace("+00:00", "Z")


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


def _chips_word(chips: int, signed: bool) -> str:
    number = f"{chips:+,}" if signed and chips else f"{chips:,}"
    return f"{number} chip" if abs(chips) == 1 else f"{number} chips"


def chips_text(chips: int, chip_value_cents: int, currency: str = "$", signed: bool = False) -> str:
    """``46 chips ($23.00)``: chips and what they are worth at the table's chip value."""
    return amount_text(Amount.of(chips, chip_value_cents), currency, signed)


def amount_text(amount: Amount, currency: str = "$", signed: bool = False) -> str:
    """``46 chips ($23.00)`` for an amount summed over tables."""
    money = money_text(amount.cents, currency, signed)
    return f"{_chips_word(amount.chips, signed)} ({money})"


@dataclass(frozen=True, slots=True)
class ChipsAt:
    """Chips written at one table's chip value: ``ChipsAt(50)(46)`` is ``46 chips ($23.00)``."""

    chip_value_cents: int
    currency: str = "$"

    def __call__(self, chips: int, signed: bool = False) -> str:
        return chips_text(chips, self.chip_value_cents, self.currency, signed)
