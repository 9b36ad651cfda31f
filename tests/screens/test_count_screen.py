"""The count at a session's close on the table screen: asked once the down has ended, refused
for a variance without a supervisor and a reason, recorded with them."""

from __future__ import annotations

from flask import Flask

from dealer.extensions import db
from dealer.floor.counts import counts_of
from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words
from tests.screens.test_downs_screen import downs


def test_the_table_screen_counts_the_tray_at_the_close(
    people: Flask, dealer: Web, floor_api: Api
) -> None:
    table = six_seated(floor_api)
    assert "Record the count" not in words(dealer.get(f"/tables/{table}"))
    dealer.post(f"/tables/{table}/sessions", {})
    (opened,) = downs(people)
    assert "Record the count" not in words(dealer.get(f"/tables/{table}"))  # the down is open
    dealer.post(f"/tables/{table}/sessions/{opened.id}/close", {})
    assert "Record the count" in words(dealer.get(f"/tables/{table}"))
    count = f"/tables/{table}/sessions/{opened.id}/count"
    short = {"tray_chips": "3", "witness_name": "Ada", "witness_pin": "3333"}
    refused = words(dealer.post(count, short, status=403).get_data(as_text=True))
    assert "a supervisor's name and PIN must approve it, with a reason" in refused
    approved = short | {"supervisor_name": "Sam", "supervisor_pin": "2222", "reason": "Miscount"}
    dealer.post(count, approved)
    with people.app_context():
        record = counts_of(db.session(), [opened.id])[opened.id]
        assert record.details["tray_chips"] == 3 and record.details["reason"] == "Miscount"
    assert "Record the count" not in words(dealer.get(f"/tables/{table}"))
