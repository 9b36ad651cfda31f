"""The floor's clock: one setting (``DEALER_TIMEZONE``) for every screen, document, search,
shift and checkpoint, and how a time is read and written on it.

Stored times are UTC (`dealer.models.as_utc`); the API writes them as UTC with a ``Z``. A
person reads them on the floor's clock, and a time a person types without a zone ("21:40",
"2024-05-03 21:40") is read on that clock too.

A time is written in the reader's language, by Babel (`dealer.words.times.moment_words`).
English, the source language, keeps the house's forms exactly (ISO dates, 24-hour times, the
zone's abbreviation: ``2024-05-03 14:00:00 PDT``), written as Babel patterns, so nothing an
English reader saw changes; Spanish and Filipino write CLDR's own numeric date and 24-hour
time for the locale, found by skeleton (``yMd``, ``Hms``, ``Hm``: ``3/5/2024, 14:00:00 -0700``),
the zone as Babel names it for the locale. What a program reads is never in words: the API's
times are ISO 8601 in UTC with a ``Z``, and so are the CSVs' columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from dealer.models import as_utc
from dealer.words.times import moment_words


def now() -> datetime:
    """The time now, as UTC: what the sign-in counts and sign-ins' ends are measured by (a
    test moves this clock forward instead of sleeping)."""
    return datetime.now(UTC)


@lru_cache(maxsize=32)
def zone(name: str) -> ZoneInfo:
    """The zone called ``name``; raises ``ZoneInfoNotFoundError`` for an unknown name."""
    return ZoneInfo(name)


@dataclass(frozen=True, slots=True)
class Clock:
    """The floor's clock: its zone, and how a time is read and written on it."""

    zone: ZoneInfo

    @property
    def name(self) -> str:
        return self.zone.key

    def local(self, at: datetime) -> datetime:
        return as_utc(at).astimezone(self.zone)

    def words(self, at: datetime | None, style: str = "datetime") -> str:
        """``at`` on this clock, in the reader's language; empty for None. In English
        ``datetime`` 2024-05-03 14:00:00 PDT, ``minute`` 2024-05-03 14:00 PDT, ``short``
        05-03 14:00, ``date`` 2024-05-03, ``time`` 14:00:00, ``hour`` 14:00."""
        if at is None:
            return ""
        return moment_words(self.local(at), style)

    def read(self, moment: datetime) -> datetime:
        """A time given without a zone is on this clock; any time, as UTC."""
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=self.zone)
        return moment.astimezone(UTC)

    def at(self, day: date, hour: time) -> datetime:
        """``hour`` of ``day`` on this clock, as UTC."""
        return datetime.combine(day, hour, tzinfo=self.zone).astimezone(UTC)


def floor_clock(config: Mapping[str, Any]) -> Clock:
    """The floor's clock, from the app's one setting in ``config`` (UTC when unset)."""
    return Clock(zone(config.get("TIMEZONE", "UTC")))


def shift_start(now: datetime, clock: Clock, starts: str) -> datetime:
    """When the shift running at ``now`` began: the latest of ``starts`` ("06:00,14:00") passed,
    as UTC."""
    return shift_window(now, clock, starts)[0]


def shift_window(now: datetime, clock: Clock, starts: str) -> tuple[datetime, datetime]:
    """When the shift running at ``now`` began, and when the next one begins, as UTC."""
    here = clock.local(now)
    marks = sorted(time.fromisoformat(part.strip()) for part in starts.split(",") if part.strip())
    days = [here.date() + timedelta(days=n) for n in (-1, 0, 1)]
    begins = [datetime.combine(day, mark, tzinfo=clock.zone) for day in days for mark in marks]
    begins = begins or [datetime.combine(day, time(0, 0), tzinfo=clock.zone) for day in days]
    start = max(begin for begin in begins if begin <= here)
    end = min(begin for begin in begins if begin > here)
    return start.astimezone(UTC), end.astimezone(UTC)


def this_shift_start(config: Mapping[str, Any], now: datetime | None = None) -> datetime:
    """When the shift running now (or at ``now``) began, on the floor's clock and shift starts
    (``DEALER_SHIFT_STARTS``) in the app's ``config``, as UTC."""
    starts = config.get("SHIFT_STARTS", "")
    return shift_start(now or datetime.now(UTC), floor_clock(config), starts)
