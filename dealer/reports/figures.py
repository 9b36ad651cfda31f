"""How chips, money and times are written on the documents and in the exports."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from dealer.clock import Clock
from dealer.models import as_utc
from dealer.views.documents.shift_tally import Amount
from dealer.words.catalogue import number, say_n
from dealer.words.numbers import money_words
from dealer.words.status import status_words


def local_time(at: datetime | None, tz: ZoneInfo, style: str = "datetime") -> str:
    """``at`` on the clock of ``tz`` (see `dealer.clock.Clock.words`)."""
    return Clock(tz).words(at, style)


def iso_utc(at: datetime | None) -> str:
    """ISO 8601 in UTC to the millisecond, ``2024-05-03T21:14:05.311Z``; empty for None."""
    if at is None:
        return ""
    return as_utc(at).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _chips_word(chips: int, signed: bool) -> str:
    count = number(chips, signed=signed)
    return say_n("{count} chip", "{count} chips", abs(chips), count=count)


def status_text(status: str) -> str:
    """A hand's or a seat's status as the documents print it, in the screens' words:
    ``settled``, ``dropped``, ``in play`` (a code the words do not know is printed as it is)."""
    try:
        return status_words(status)
    except KeyError:
        return status


def chips_text(chips: int, chip_value_cents: int, currency: str = "$", signed: bool = False) -> str:
    """``46 chips ($23.00)``: chips and what they are worth at the table's chip value."""
    return amount_text(Amount.of(chips, chip_value_cents), currency, signed)


def amount_text(amount: Amount, currency: str = "$", signed: bool = False) -> str:
    """``46 chips ($23.00)`` for an amount summed over tables."""
    money = money_words(amount.cents, currency, signed)
    return f"{_chips_word(amount.chips, signed)} ({money})"


@dataclass(frozen=True, slots=True)
class ChipsAt:
    """Chips written at one table's chip value: ``ChipsAt(50)(46)`` is ``46 chips ($23.00)``."""

    chip_value_cents: int
    currency: str = "$"

    def __call__(self, chips: int, signed: bool = False) -> str:
        return chips_text(chips, self.chip_value_cents, self.currency, signed)
