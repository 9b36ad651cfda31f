"""Times and lengths of time in words (the clock itself, which zone a time is read on, is
`dealer.clock`)."""

from __future__ import annotations

from datetime import date, datetime, time
from functools import lru_cache

from babel import Locale
from babel.dates import format_datetime

from dealer.words.catalogue import SOURCE, locale, say, say_n

#: Each style of time (see `moment_words`): CLDR's skeletons of its date and of its time
#: (24-hour: ``H``), each the locale's own pattern for it, and whether the zone follows.
_STYLES: dict[str, tuple[str, str, bool]] = {
    "datetime": ("yMd", "Hms", True),
    "minute": ("yMd", "Hm", True),
    "short": ("Md", "Hm", False),
    "date": ("yMd", "", False),
    "time": ("", "Hms", False),
    "hour": ("", "Hm", False),
}
#: English's, the source language's: the house's own forms for each skeleton (ISO dates,
#: 24-hour times), the same as before there were other languages; written by strftime, a
#: third of Babel's time for the same text on a page of many times.
_HOUSE = {"yMd": "%Y-%m-%d", "Md": "%m-%d", "Hms": "%H:%M:%S", "Hm": "%H:%M"}


def moment_words(local: datetime, style: str = "datetime") -> str:
    """``local`` (a time on its own clock) as the language writes it. In English the house's
    forms: ``datetime`` 2024-05-03 14:00:00 PDT, ``minute`` 2024-05-03 14:00 PDT, ``short``
    05-03 14:00, ``date`` 2024-05-03, ``time`` 14:00:00, ``hour`` 14:00; in another language
    its own numeric date and 24-hour time for each (Spanish ``3/5/2024, 14:00:00 -0700``)."""
    where = locale()
    if where.language != SOURCE:
        return format_datetime(local, _pattern(where, style), locale=where)
    written = local.strftime(_pattern(where, style))
    # The zone as the zone database abbreviates it (PDT, CEST).
    return f"{written} {local.tzname()}" if _STYLES.get(style, _STYLES["datetime"])[2] else written


@lru_cache(maxsize=64)
def _pattern(where: Locale, style: str) -> str:
    """The pattern of ``style`` in the language of ``where``, found once: Babel's, or English's
    strftime one."""
    day, hour, zoned = _STYLES.get(style, _STYLES["datetime"])
    if where.language == SOURCE:
        return " ".join(_HOUSE[part] for part in (day, hour) if part)
    day_part = str(where.datetime_skeletons[day]) if day else ""
    hour_part = str(where.datetime_skeletons[hour]) + (" z" if zoned else "") if hour else ""
    if day_part and hour_part:
        return str(where.datetime_formats["short"]).format(hour_part, day_part)
    return day_part or hour_part


def day_words(day: date) -> str:
    """A day as the language writes a date: ``2024-05-03`` in English, ``3/5/2024`` in
    Spanish."""
    return moment_words(datetime.combine(day, time()), "date")


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
