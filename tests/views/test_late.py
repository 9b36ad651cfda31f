"""An event's answer is drawn before the writers' lock with its late numbers and time in it
(`dealer.views.recorded.Late`); under the lock only what they turned out to be is put in."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from dealer.hands.rows import LATE_AT, LATE_ID
from dealer.views.base import when
from dealer.views.recorded import Late

AT = datetime(2026, 12, 7, 21, 40, 5, 123000, tzinfo=UTC)
#: The event's id, and the seq each of its three entries turned out to have.
FOUND: dict[object, object] = {LATE_ID: 9001, LATE_AT: AT, LATE_ID - 1: 41, LATE_ID - 2: 42}
FOUND[LATE_ID - 3] = 43


def _answer(name: str) -> dict[str, Any]:
    """An answer's shape: the event, its payments with their late seqs, the hand after it."""
    return {
        "event": {"id": LATE_ID, "seq": 7, "at": when(LATE_AT), "player": name},
        "payments": [{"chips": 2, "entry": LATE_ID - n, "to": name} for n in (1, 2, 3)],
        "hand": {"ended_at": when(LATE_AT), "events": [{"id": 12, "at": when(AT)}], "net": -5},
    }


def _expected(name: str) -> dict[str, Any]:
    answer = _answer(name)
    answer["event"] |= {"id": 9001, "at": when(AT)}
    for n, payment in enumerate(answer["payments"], start=1):
        payment["entry"] = 40 + n
    answer["hand"]["ended_at"] = when(AT)
    return answer


def test_the_late_numbers_and_time_are_put_in_and_nothing_else():
    late = Late(_answer("Rosa"))
    assert late.cut  # the answer's JSON cut once, before the lock
    filled = late.filled(FOUND)
    assert json.loads(filled) == _expected("Rosa")
    assert filled == json.dumps(_expected("Rosa"), separators=(",", ":"))


def test_a_name_typed_as_a_late_number_is_left_as_typed():
    """A text that reads as a late number or the late time is not a late place."""
    for name in (str(LATE_ID - 1), f"Rosa {LATE_ID}", when(LATE_AT)):
        late = Late(_answer(name))
        assert not late.cut  # each place filled in, and the answer written out again
        assert json.loads(late.filled(FOUND)) == _expected(name)
    assert json.loads(Late(_answer(f'"{when(LATE_AT)}"')).filled(FOUND)) == _expected(
        f'"{when(LATE_AT)}"'
    )


@given(st.text(max_size=30), st.integers(min_value=-(2**63), max_value=2**63))
def test_any_name_and_number_of_the_answer_stay_as_they_were(name: str, number: int):
    answer = _answer(name)
    answer["hand"]["net"] = number
    expected = _expected(name)
    expected["hand"]["net"] = number if number > LATE_ID else FOUND.get(number, number)
    if number <= LATE_ID and number not in FOUND:
        return  # a late number that was never given: not an answer the event path draws
    assert json.loads(Late(copy.deepcopy(answer)).filled(FOUND)) == expected
