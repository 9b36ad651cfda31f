"""dealer/people/lockout.py and devices.py through their own functions: how long a wrong PIN
makes the next try wait, per pair, name and source; how counts decay; what a record stores as
its device and how it is read back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer import clock
from dealer.errors import TooManyAttempts
from dealer.extensions import db
from dealer.models import Device, SignInFailure
from dealer.people import lockout
from dealer.people.devices import CLAIM_MARK, DeviceWords, read_device, recorded_as
from dealer.people.lockout import Attempt, failures, record, refusal, wait_after
from dealer.transactions import writing

START = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)


def test_the_wait_doubles_after_the_free_tries_up_to_its_cap() -> None:
    cap = timedelta(minutes=15)
    assert [wait_after(n, 3, cap).total_seconds() for n in range(0, 8)] == [
        0,
        0,
        0,
        0,
        2,
        4,
        8,
        16,
    ]
    assert wait_after(13, 3, cap) == cap  # 1,024 s, more than the cap
    assert wait_after(12, 3, cap) == timedelta(seconds=512)
    assert wait_after(10**6, 3, cap) == cap


def test_an_attempts_keys_are_the_name_as_typed_its_source_and_who_asked() -> None:
    assert Attempt(" Sam ", "10.0.0.1").keys() == {
        "pair": "sam\x1f10.0.0.1",
        "name": "sam",
        "source": "10.0.0.1",
    }
    assert Attempt("SAM", "10.0.0.1", approval_for=7, approval=True).keys() == {
        "approval": "sam\x1f10.0.0.1\x1f7",
        "name": "sam",
        "source": "10.0.0.1",
    }
    long = Attempt("x" * 400, "s" * 400).keys()
    assert {len(k) for k in long.values()} == {lockout.KEY_LENGTH}


def row(scope: str, count: int, quiet: timedelta) -> SignInFailure:
    return SignInFailure(scope=scope, key="k", failures=count, updated_at=START - quiet)


def test_one_wrong_pin_is_forgotten_every_decay_of_its_scope() -> None:
    assert failures(None, START) == 0
    assert failures(row("pair", 0, timedelta(0)), START) == 0
    assert failures(row("pair", 5, timedelta(minutes=14)), START) == 5
    assert failures(row("pair", 5, timedelta(minutes=15)), START) == 4
    assert failures(row("pair", 5, timedelta(minutes=59)), START) == 2
    assert failures(row("name", 5, timedelta(minutes=2)), START) == 3
    assert failures(row("name", 5, timedelta(minutes=30)), START) == 0
    assert failures(row("source", 12, timedelta(minutes=10)), START) == 10
    assert failures(row("pair", 9, timedelta(hours=1)), START) == 0  # quiet for FORGET


class Clock:
    """The app's clock, moved by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = START
        monkeypatch.setattr(clock, "now", lambda: self.now)

    def wait(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@pytest.fixture
def moved(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


@contextmanager
def written(app: Flask) -> Iterator[Session]:
    with app.app_context(), writing(db.session()) as session:
        yield session


def tried(app: Flask, attempt: Attempt, right: bool = False) -> timedelta:
    with written(app) as session:
        return record(session, attempt, right)


def refused(app: Flask, attempt: Attempt, limit: int = 0) -> TooManyAttempts | None:
    with app.app_context():
        return refusal(db.session(), attempt, limit)


def test_a_name_at_a_source_waits_after_three_wrong_pins(app: Flask, moved: Clock) -> None:
    here = Attempt("Sam", "tablet")
    waits = [tried(app, here).total_seconds() for _ in range(5)]
    assert waits == [0, 0, 0, 2, 4]
    held = refused(app, here)
    assert held is not None and (held.code, held.retry_after) == ("pin_locked", 4)
    assert held.message == "Too many wrong PINs from this device: wait before trying again."
    # Another tablet is another pair: not held back.
    assert refused(app, Attempt("Sam", "other tablet")) is None
    moved.wait(seconds=3.5)
    held = refused(app, here)
    assert held is not None and held.retry_after == 1
    moved.wait(seconds=0.5)
    assert refused(app, here) is None
    # A right PIN sets the counts back: the next wrong one costs nothing again.
    assert tried(app, here, right=True) == timedelta(0)
    assert tried(app, here) == timedelta(0)


def test_a_sources_tries_a_minute_are_limited(app: Flask, moved: Clock) -> None:
    for n in range(3):
        tried(app, Attempt(f"name {n}", "tablet"), right=True)
    assert refused(app, Attempt("Dee", "tablet"), limit=4) is None
    held = refused(app, Attempt("Dee", "tablet"), limit=3)
    assert held is not None and (held.code, held.retry_after) == ("too_many_attempts", 60)
    assert refused(app, Attempt("Dee", "tablet"), limit=0) is None  # no limit
    moved.wait(seconds=59)
    held = refused(app, Attempt("Dee", "tablet"), limit=3)
    assert held is not None and held.retry_after == 1
    moved.wait(seconds=1)
    assert refused(app, Attempt("Dee", "tablet"), limit=3) is None
    tried(app, Attempt("Dee", "tablet"), right=True)  # a new minute: counted from one
    with app.app_context():
        query = select(SignInFailure).where(
            SignInFailure.scope == "source", SignInFailure.key == "tablet"
        )
        assert db.session.scalars(query).one().attempts == 1


def test_a_dealers_wrong_supervisor_pins_never_slow_the_tablets_sign_ins(
    app: Flask, moved: Clock
) -> None:
    asking = Attempt("Sam", "tablet", approval_for=3, approval=True)
    for _ in range(5):
        tried(app, asking)
    assert refused(app, asking) is not None
    assert refused(app, Attempt("Sam", "tablet")) is None
    assert refused(app, Attempt("Sam", "tablet", approval_for=4, approval=True)) is None


def test_a_name_guessed_from_many_places_holds_back_only_those_that_failed_it(
    app: Flask, moved: Clock
) -> None:
    for n in range(11):
        tried(app, Attempt("Sam", f"guesser {n}"))
    # The name's count is over its ten: a guesser's next try waits on it, for at most 30 s.
    held = refused(app, Attempt("Sam", "guesser 0"))
    assert held is not None and held.retry_after == 2
    assert refused(app, Attempt("Sam", "clean tablet")) is None
    tried(app, Attempt("Sam", "guesser 0"))
    tried(app, Attempt("Sam", "guesser 1"))
    held = refused(app, Attempt("Sam", "guesser 0"))
    assert held is not None and held.retry_after == 8


@pytest.mark.parametrize(
    ("device", "claim", "stored"),
    [
        (None, "Mozilla/5.0", "Mozilla/5.0"),
        (None, "", "unknown"),
        (None, "\x00\x07", "unknown"),
        (None, "Tab (registered #3) · x", CLAIM_MARK + "Tab (registered #3) · x"),
        (None, "my (REGISTERED #9", CLAIM_MARK + "my (REGISTERED #9"),
        (None, CLAIM_MARK + "Tab (registered #3)", CLAIM_MARK + "Tab (registered #3)"),
        (Device(id=4, name="Table 4 tablet"), "Safari", "Table 4 tablet (registered #4) · Safari"),
    ],
)
def test_what_a_record_stores_as_its_device(device: Device | None, claim: str, stored: str) -> None:
    assert recorded_as(device, claim) == stored


def test_a_records_device_is_read_back_as_it_was_stored() -> None:
    assert read_device("Tab 4 (registered #12) · Safari") == DeviceWords("Tab 4", 12, "Safari")
    assert read_device("Tab 4 (registered #12)") == DeviceWords("Tab 4", 12, "")
    marked = CLAIM_MARK + "Tab 4 (registered #12)"
    assert read_device(marked) == DeviceWords(None, None, marked)
    assert read_device("Safari").shown == "an unregistered device"
    assert read_device("Tab 4 (registered #12)").shown == "Tab 4"
    long = recorded_as(Device(id=1, name="T"), "x" * 500)
    assert len(long) == 200
    assert len(recorded_as(None, "y" * 500)) == 200
