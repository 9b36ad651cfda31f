"""Issue 10, findings 3 and 4: the PIN is checked off the writers' path, and the lockout is
no denial of service and no list of names."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dealer import create_app
from dealer.extensions import db
from dealer.people import pins
from dealer.people import users as service
from dealer.people.lockout import (
    FREE_WRONG_PINS,
    NAME_CAP,
    NAME_FREE,
    PAIR_CAP,
    SOURCE_FREE,
    wait_after,
)
from dealer.transactions import writing
from tests.helpers import PEOPLE, Api

SESSION = "/api/v1/session"


def attempt(app: Flask, name: str, pin: str, source: str = "10.0.0.1") -> Any:
    client = app.test_client()
    return client.post(
        SESSION, json={"name": name, "pin": pin}, environ_base={"REMOTE_ADDR": source}
    )


def test_the_waits_grow_and_are_capped() -> None:
    """Do the waits double after the free wrong PINs, and stop at the cap?"""
    waits = [wait_after(n, FREE_WRONG_PINS, PAIR_CAP) for n in range(1, 20)]
    assert waits[:FREE_WRONG_PINS] == [timedelta(0)] * FREE_WRONG_PINS
    assert waits[FREE_WRONG_PINS : FREE_WRONG_PINS + 3] == [
        timedelta(seconds=2),
        timedelta(seconds=4),
        timedelta(seconds=8),
    ]
    assert max(waits) == PAIR_CAP


def test_an_unknown_name_answers_exactly_like_a_known_one(people: Flask) -> None:
    """Wrong PIN for Dee and any PIN for a name nobody has: same status, same body, same
    lockout (429 after the same count, same words), so names cannot be listed."""
    answers: dict[str, list[tuple[int, Any]]] = {}
    for name in ("Dee", "Nobody"):
        answers[name] = []
        for _ in range(FREE_WRONG_PINS + 2):
            answer = attempt(people, name, "0000")
            answers[name].append((answer.status_code, answer.get_json()))
    assert answers["Dee"] == answers["Nobody"]
    assert answers["Dee"][-1][0] == 429
    assert answers["Dee"][-1][1]["error"]["code"] == "pin_locked"


def test_an_unknown_name_is_hashed_against_a_decoy(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Is a slow hash checked for an unknown name too (so it takes as long)?"""
    checked: list[str] = []
    real = pins.check_password_hash

    def counting(stored: str, pin: str) -> bool:
        checked.append(stored)
        return real(stored, pin)

    monkeypatch.setattr("dealer.people.pins.check_password_hash", counting)
    attempt(people, "Nobody", "1234")
    attempt(people, "Dee", "1234")
    assert len(checked) == 2
    assert all(h.startswith("scrypt:") for h in checked)


def test_a_flood_from_one_source_does_not_lock_the_name_out_of_another(people: Flask) -> None:
    """Wrong PINs for Sam from one tablet: that tablet waits, Sam at another signs in."""
    for _ in range(FREE_WRONG_PINS + 6):
        attempt(people, "Sam", "0000", source="10.0.0.66")
    locked = attempt(people, "Sam", "2222", source="10.0.0.66")
    assert locked.status_code == 429
    assert int(locked.headers["Retry-After"]) >= 1
    assert attempt(people, "Sam", "2222", source="10.0.0.7").status_code == 200


def test_a_source_gets_only_so_many_tries_a_minute(people: Flask) -> None:
    """Past SIGN_IN_ATTEMPTS_PER_MINUTE tries, is a source refused (any name, right PIN or
    not) while another source is not?"""
    people.config["SIGN_IN_ATTEMPTS_PER_MINUTE"] = 4
    for name in ("Ana", "Bo", "Cy", "Dee"):
        attempt(people, name, "1111", source="10.0.0.9")
    refused = attempt(people, "Dee", "1111", source="10.0.0.9")
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too_many_attempts"
    assert "Retry-After" in refused.headers
    assert attempt(people, "Dee", "1111", source="10.0.0.10").status_code == 200


def test_the_counts_hold_across_workers_and_restarts(people: Flask) -> None:
    """A second app on the same database (another worker, or the same after a restart)
    still refuses the locked name at that source."""
    for _ in range(FREE_WRONG_PINS + 2):
        attempt(people, "Dee", "0000")
    other = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": people.config["SQLALCHEMY_DATABASE_URI"]}
    )
    try:
        assert attempt(other, "Dee", "1111").status_code == 429
    finally:
        with other.app_context():
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()


def test_a_dealer_cannot_lock_a_supervisor_out_through_the_supervisor_field(
    api: Api, floor: Api, people: Flask
) -> None:
    """Wrong supervisor PINs typed into events delay that dealer's approvals only: the
    supervisor still signs in, at the same tablet too."""
    table = floor.table()
    api.seat(table["id"], 1, "Ana")
    api.seat(table["id"], 2, "Ben")
    hand = api.hand(table["id"])
    body = {"type": "void", "event": hand["events"][0]["id"], "reason": "r"}
    codes = []
    for _ in range(FREE_WRONG_PINS + 3):
        wrong = {**body, "supervisor": {"name": "Sam", "pin": "0000"}}
        codes.append(api.call("POST", f"/hands/{hand['id']}/events", wrong).status_code)
    assert codes[:FREE_WRONG_PINS] == [403] * FREE_WRONG_PINS
    assert codes[-1] == 429
    # Same source as the dealer's calls (the test client's 127.0.0.1).
    assert Api.sign_in_as(people, "Sam", "2222").token


def test_the_pin_is_never_hashed_under_the_writers_lock(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the PIN's hash is checked, can another writer write? (On SQLite the writers'
    lock is BEGIN IMMEDIATE and the process's own lock; on PostgreSQL the advisory lock.)"""
    real = pins.check_password_hash
    wrote: list[bool] = []

    def check_while_someone_writes(stored: str, pin: str) -> bool:
        def write() -> None:
            with people.app_context(), writing(db.session()):
                pass
            wrote.append(True)

        writer = threading.Thread(target=write)
        writer.start()
        writer.join(timeout=10)
        assert not writer.is_alive(), "a write waited for the PIN's check"
        return real(stored, pin)

    monkeypatch.setattr("dealer.people.pins.check_password_hash", check_while_someone_writes)
    assert attempt(people, "Dee", "1111").status_code == 200
    assert attempt(people, "Dee", "0000").status_code == 401
    floor = Api.sign_in_as(people, "Sam", "2222")  # the sign-in used by the approval below
    table = floor.table()
    floor.seat(table["id"], 1, "Ana")
    floor.seat(table["id"], 2, "Ben")
    hand = floor.hand(table["id"])
    body = {"type": "void", "event": hand["events"][0]["id"], "reason": "r"}
    body["supervisor"] = {"name": "Sam", "pin": "0000"}
    assert floor.call("POST", f"/hands/{hand['id']}/events", body).status_code == 403
    assert len(wrote) == 4


def test_checking_a_pin_inside_a_write_is_a_programming_error(people: Flask) -> None:
    """A front door that asked for a supervisor's PIN inside its write would hold every
    writer while scrypt runs: refused outright, so no such code can land unnoticed."""
    with (
        people.test_request_context(),
        writing(db.session()) as session,
        pytest.raises(RuntimeError, match="before the write"),
    ):
        service.vouch(session, "supervisor", "Sam", "2222")


def test_refusals_lockouts_and_ended_sign_ins_are_on_the_audit_trail(people: Flask) -> None:
    from dealer.models import AuditRecord, AuthToken, User

    for _ in range(FREE_WRONG_PINS + 1):
        attempt(people, "Nobody", "0000", source="10.0.0.5")
    floor = Api.sign_in_as(people, "Sam", "2222")
    dealer = Api.sign_in_as(people, "Dee", "1111")
    with people.app_context():
        session = db.session()
        token = session.query(AuthToken).join(AuthToken.user).filter(User.name == "Dee").one()
        sam = session.query(User).filter_by(name="Sam").one()
        service.end_sign_in(session, token.id, sam)
        kinds = [r.kind for r in session.query(AuditRecord).order_by(AuditRecord.id)]
        words = " ".join(r.words for r in session.query(AuditRecord))
    assert kinds.count("sign_in_refused") == FREE_WRONG_PINS + 1
    assert kinds.count("locked_out") == 1
    assert kinds.count("sign_in") == 2
    assert "sign_in_ended" in kinds
    assert "Sam ended Dee's sign-in" in words
    assert "'Nobody'" in words and "10.0.0.5" in words
    assert dealer.call("GET", "/ledger/verify").status_code == 401
    assert floor.token


def test_wrong_supervisor_pins_never_slow_the_tablets_sign_ins(api: Api, people: Flask) -> None:
    """Many wrong supervisor PINs from one tablet (more than a source's free ones): the
    supervisor, and anyone else, still signs in there at once."""
    for name in [f"Boss {n}" for n in range(12)]:
        body = {
            "type": "void",
            "event": 1,
            "reason": "r",
            "supervisor": {"name": name, "pin": "0000"},
        }
        assert api.call("POST", "/hands/1/events", body).status_code in (403, 429)
    assert Api.sign_in_as(people, "Sam", "2222").token
    assert Api.sign_in_as(people, "Ada", "3333").token


def test_pin_hashes_run_one_at_a_time_on_the_machine(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many tries arrive at once, is only one PIN hash worked at a time (the machine's
    lock file, shared by every worker), so a flood cannot take the floor's memory and cores?"""
    running, most = 0, 0
    guard = threading.Lock()

    def slow_check(stored: str, pin: str) -> bool:
        nonlocal running, most
        with guard:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with guard:
            running -= 1
        return pin == "1234"

    monkeypatch.setattr(pins, "check_password_hash", slow_check)

    def one(pin: str) -> bool:
        with people.app_context():
            return pins._matches(people.instance_path, "stored", pin)

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(one, ["1234", "0000", "1234", "0000"]))
    assert answers == [True, False, True, False]
    assert most == 1
    assert (Path(people.instance_path) / pins.HASH_LOCK).exists()


class Clock:
    """The app's clock (`dealer.clock.now`), moved by the test instead of sleeping."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from dealer import clock

        self.now = clock.now()
        monkeypatch.setattr(clock, "now", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def test_typos_on_a_busy_tablet_never_lock_it_out(people: Flask, clock: Clock) -> None:
    """Dealers take turns at one tablet (one address, as behind a proxy), each now and then
    mistyping: 15 wrong-then-right sign-ins in a row, every right PIN taken."""
    rota = [PEOPLE["dealer"], PEOPLE["supervisor"], PEOPLE["admin"]]
    for turn in range(15):
        name, pin = rota[turn % len(rota)]
        assert attempt(people, name, "0000", source="10.0.0.50").status_code == 401, turn
        clock.advance(5)
        right = attempt(people, name, pin, source="10.0.0.50")
        assert right.status_code == 200, (turn, right.get_json())
        clock.advance(20)


def test_guessing_from_many_addresses_cannot_keep_a_supervisor_out(
    people: Flask, clock: Clock
) -> None:
    """The supervisor mistypes once at their own tablet; someone guessing their name from 12
    other addresses (one wrong PIN every 10 s, each from a fresh address, the name already
    hot) keeps their right PIN out at most 30 s."""
    for n in range(NAME_FREE + 1):  # the name hot before the typo
        attempt(people, "Sam", "0000", source=f"10.9.0.{n}")
    clock.advance(1)
    assert attempt(people, "Sam", "2929", source="10.0.0.1").status_code == 401  # the typo
    typo = clock.now
    signed_in = None
    for n in range(12):
        clock.advance(5)
        attempt(people, "Sam", "0000", source=f"10.9.1.{n}")
        clock.advance(5)
        answer = attempt(people, "Sam", "2222", source="10.0.0.1")
        if answer.status_code == 429:
            assert int(answer.headers["Retry-After"]) <= NAME_CAP.total_seconds()
            continue
        assert answer.status_code == 200, answer.get_json()
        signed_in = clock.now
        break
    assert signed_in is not None, "kept out for two minutes"
    assert signed_in - typo <= NAME_CAP


def test_guessing_is_still_slowed(people: Flask, clock: Clock) -> None:
    """Nobody who knows no PIN gets far: one name guessed from one address waits after the
    free tries, many names from one address wait after SOURCE_FREE, and an address that keeps
    guessing a name others guess too waits for the name; the counts decay only slowly."""
    for _ in range(FREE_WRONG_PINS):
        assert attempt(people, "Dee", "0000", source="10.1.0.1").status_code == 401
    assert attempt(people, "Dee", "0001", source="10.1.0.1").status_code == 401
    locked = attempt(people, "Dee", "0002", source="10.1.0.1")
    assert locked.status_code == 429 and locked.get_json()["error"]["code"] == "pin_locked"
    # Many names from one address: refused once its wrong PINs pass SOURCE_FREE.
    codes = [
        attempt(people, f"Name {n}", "0000", source="10.2.0.1").status_code
        for n in range(SOURCE_FREE + 2)
    ]
    assert codes[: SOURCE_FREE + 1] == [401] * (SOURCE_FREE + 1)
    assert codes[-1] == 429
    assert attempt(people, "Ada", "3333", source="10.2.0.1").status_code == 429
    # Decay is slow: a minute later the address still waits (its wait doubles up to 5 min).
    clock.advance(3)
    assert attempt(people, "Zed", "0000", source="10.2.0.1").status_code == 401
    assert attempt(people, "Zed", "0000", source="10.2.0.1").status_code == 429
    # One name from many addresses: an address that has failed it twice waits for the name.
    for n in range(NAME_FREE + 1):
        attempt(people, "Ada", "0000", source=f"10.3.0.{n}")
    again = attempt(people, "Ada", "0000", source="10.3.0.0")
    assert again.status_code == 429
    assert attempt(people, "Ada", "3333", source="10.3.9.9").status_code == 200  # a clean one


def test_counts_decay_when_left_alone(people: Flask, clock: Clock) -> None:
    """Wrong PINs are forgotten one by one as time passes (a pair's every quarter of an
    hour), not kept until an hour of silence."""
    for _ in range(FREE_WRONG_PINS + 1):
        attempt(people, "Dee", "0000", source="10.4.0.1")
    clock.advance(2)
    # The wait after it grows again at once: the count still stands.
    assert attempt(people, "Dee", "0000", source="10.4.0.1").status_code == 401
    assert attempt(people, "Dee", "0000", source="10.4.0.1").status_code == 429
    clock.advance(45 * 60)  # three forgotten: one wrong PIN now costs nothing
    assert attempt(people, "Dee", "0000", source="10.4.0.1").status_code == 401
    assert attempt(people, "Dee", "1111", source="10.4.0.1").status_code == 200
