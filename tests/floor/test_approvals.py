"""dealer/floor/approvals.py: one answer to "who approves", for every write that needs the floor.

The name and PIN brought with a write come first, then a supervisor calling: a supervisor who
hands the tablet to another for an approval on the spot is recorded as that other, for chips,
a void, an early time collection and a session's close alike.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from dealer.errors import Forbidden
from dealer.floor.approvals import approval, approver, chips_need_floor
from dealer.models import Table, User
from tests.helpers import Api

#: A second supervisor (an admin approves as one), whose name and PIN Sam brings.
ADA = {"name": "Ada", "pin": "3333"}


def person(role: str, name: str = "X") -> User:
    return User(id=hash(name) % 1000, name=name, role=role)


REFUSED = Forbidden("A supervisor must approve this.", "needs_supervisor")


def test_the_name_and_pin_brought_come_before_the_caller() -> None:
    sam, ada, dee = person("supervisor", "Sam"), person("admin", "Ada"), person("dealer", "Dee")
    assert approver(sam, ada) is ada
    assert approver(sam, None) is sam
    assert approver(dee, ada) is ada
    assert approver(dee, None) is None


def test_a_write_that_needs_the_floor_is_refused_without_it() -> None:
    sam, dee = person("supervisor", "Sam"), person("dealer", "Dee")
    with pytest.raises(Forbidden) as refused:
        approval(True, dee, None, REFUSED)
    assert refused.value.code == "needs_supervisor"
    assert approval(True, sam, None, REFUSED) is sam
    # Not needed: the caller approves nothing; a name and PIN brought anyway stand.
    assert approval(False, sam, None, REFUSED) is None
    assert approval(False, dee, sam, REFUSED) is sam


def test_chips_need_the_floor_only_above_the_tables_threshold() -> None:
    table = Table(approval_above=500)
    assert not chips_need_floor(table, 500)
    assert chips_need_floor(table, 501)


def entries(api: Api, table: int) -> list[dict[str, Any]]:
    return list(api.get(f"/tables/{table}/ledger")["entries"])


def test_a_supervisor_bringing_anothers_pin_is_recorded_as_that_other(people: Flask) -> None:
    """Chips, an early time collection, a session's close and a void: the same approver."""
    sam = Api.sign_in(people, "supervisor")
    table = int(
        sam.table(approval_above=50, collection={"kind": "time", "chips": 1, "minutes": 30})["id"]
    )
    sam.post(
        f"/tables/{table}/seats",
        {"seat": 1, "player": "Ana", "buy_in": 60, "supervisor": ADA},
        status=201,
    )
    assert entries(sam, table)[-1]["reason"].endswith("(approved by Ada)")
    sam.post(f"/tables/{table}/seats", {"seat": 2, "player": "Ben", "buy_in": 60}, status=201)
    assert entries(sam, table)[-1]["reason"].endswith("(a supervisor's: Sam)")

    sam.post(f"/tables/{table}/collections", status=201)
    sam.post(f"/tables/{table}/collections", {"supervisor": ADA}, status=201)
    assert entries(sam, table)[-1]["reason"].endswith("Ada)")

    opened = sam.post(f"/tables/{table}/sessions", status=201)
    closed = sam.post(f"/sessions/{opened['id']}/close", {"supervisor": ADA}, status=200)
    assert closed["close_confirmed_by"] == "Ada"

    hand = sam.hand(table)["id"]
    voided = sam.event(hand, {"type": "void_hand", "reason": "Misdeal.", "supervisor": ADA})
    assert voided["event"]["supervisor"] == "Ada"
