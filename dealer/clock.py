"""Shifts on the floor's clock: when the one running now began."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from dealer.models import as_utc

__all__ = ["shift_start"]


def shift_start(now: datetime, zone: ZoneInfo, starts: str) -> datetime:
    """When the shift running at ``now`` began: the latest of ``starts`` ("06:00,14:00") passed."""
    here = as_utc(now).astimezone(zone)
    marks = sorted(time.fromisoformat(part.strip()) for part in starts.split(",") if part.strip())
    if not marks:
        marks = [time(0, 0)]
    for day in (here.date(), here.date() - timedelta(days=1)):
        for mark in reversed(marks):
            start = datetime.combine(day, mark, tzinfo=zone)
            if start <= here:
                return start.astimezone(as_utc(now).tzinfo)
    return here  # unreachable: yesterday's last mark is always before now
