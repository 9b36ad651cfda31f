"""The floor's clock: when the shift running now began and when the next one begins."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from dealer.clock import Clock, shift_start, shift_window

LA = ZoneInfo("America/Los_Angeles")
STARTS = "06:00, 14:00,22:00"


def _here(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=LA)


@pytest.mark.parametrize(
    ("now", "start", "end"),
    [
        ("2024-05-03T15:00:00", "2024-05-03T14:00:00", "2024-05-03T22:00:00"),
        ("2024-05-03T14:00:00", "2024-05-03T14:00:00", "2024-05-03T22:00:00"),
        ("2024-05-03T13:59:59", "2024-05-03T06:00:00", "2024-05-03T14:00:00"),
        ("2024-05-03T05:59:00", "2024-05-02T22:00:00", "2024-05-03T06:00:00"),
        ("2024-05-03T23:30:00", "2024-05-03T22:00:00", "2024-05-04T06:00:00"),
        # The night the clocks go forward: the shift that began at 22:00 ends at 06:00 PDT.
        ("2024-03-10T03:30:00", "2024-03-09T22:00:00", "2024-03-10T06:00:00"),
    ],
)
def test_a_shift_runs_from_the_last_start_passed_to_the_next(now: str, start: str, end: str):
    found = shift_window(_here(now).astimezone(UTC), Clock(LA), STARTS)
    assert found == (_here(start), _here(end))
    assert all(at.tzinfo is UTC for at in found)
    assert shift_start(_here(now).astimezone(UTC), Clock(LA), STARTS) == found[0]


def test_with_no_starts_set_a_shift_is_a_day_on_the_floors_clock():
    found = shift_window(_here("2024-05-03T15:00:00"), Clock(LA), " ")
    assert found == (_here("2024-05-03T00:00:00"), _here("2024-05-04T00:00:00"))
