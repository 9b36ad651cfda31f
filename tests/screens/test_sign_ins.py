"""Issue 10, finding 6: a supervisor sees every live sign-in and can end any of them."""

from __future__ import annotations

import re

from flask import Flask

from tests.helpers import Api
from tests.screens.conftest import Web, words


def test_a_supervisor_lists_and_ends_a_sign_in(people: Flask, supervisor: Web) -> None:
    """The list shows who, since when, last seen and the device (as claimed); End stops
    that sign-in's token and cookie at once."""
    dealer = Api.sign_in(people, "dealer")
    page = supervisor.get("/floor/sign-ins")
    text = words(page)
    assert "Dee" in text and "Sam" in text
    assert "an unregistered device" in text  # its device: only the browser's own claim
    rows = re.findall(r"<tr>(.*?)</tr>", page, flags=re.S)
    dees = [r for r in rows if "Dee" in r]
    assert len(dees) == 1 and "The browser's own claim" in words(dees[0])
    end = re.search(r'action="(/floor/sign-ins/\d+/end)"', dees[0])
    assert end is not None
    assert supervisor.post(end.group(1), {}).status_code == 303
    answer = dealer.call("GET", "/ledger/verify")
    assert answer.status_code == 401
    assert "ended" in answer.get_json()["error"]["message"]
    assert "Dee" not in words(supervisor.get("/floor/sign-ins")).split("Device")[-1]
    # Ending it again is refused in words, not a crash; the supervisor is still signed in.
    again = supervisor.client.post(end.group(1), data={})
    assert again.status_code == 404
    assert "already ended" in words(again.get_data(as_text=True))


def test_a_dealer_cannot_see_or_end_sign_ins(people: Flask, dealer: Web) -> None:
    assert dealer.client.get("/floor/sign-ins").status_code == 403
    assert dealer.client.post("/floor/sign-ins/1/end", data={}).status_code == 403


def test_a_screen_whose_sign_in_ended_says_so(people: Flask, dealer: Web) -> None:
    """The cookie's sign-in older than the shift: the next page is the sign-in, with why."""
    from datetime import timedelta

    from sqlalchemy import update

    from dealer.extensions import db
    from dealer.models import AuthToken, utcnow
    from dealer.transactions import writing

    with people.app_context(), writing(db.session()) as session:
        session.execute(update(AuthToken).values(created_at=utcnow() - timedelta(hours=13)))
    answer = dealer.client.get("/tables")
    assert answer.status_code == 302
    assert "/sign-in" in answer.headers["Location"]
    assert "ended after 12 hours" in words(dealer.get(answer.headers["Location"]))
