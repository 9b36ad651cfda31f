"""Table sessions and Print links on the screens (issue 5): open, close, confirm, print."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.models import Down
from tests.helpers import PEOPLE, Api
from tests.screens.conftest import Web, six_seated, words


def downs(app: Flask) -> list[Down]:
    with app.app_context():
        return list(db.session.scalars(select(Down).order_by(Down.id)))


def form_key(page: str, action: str) -> str:
    """The idempotency key of the form posting to ``action`` on ``page``."""
    form = page[page.index(f'action="{action}"') :]
    return re.search(r'name="key"[^>]*value="([^"]+)"', form).group(1)  # type: ignore[union-attr]


def test_a_dealer_opens_a_down_and_the_table_offers_its_print(
    people: Flask, dealer: Web, floor_api: Api
) -> None:
    """Does "Open my session" open one in the dealer's name, and is it printable from there?"""
    table = six_seated(floor_api)
    page = dealer.get(f"/tables/{table}")
    assert "No session is open at this table." in words(page)
    key = form_key(page, f"/tables/{table}/sessions")
    dealer.post(f"/tables/{table}/sessions", {"key": key})
    dealer.post(f"/tables/{table}/sessions", {"key": key})  # a double tap: still one session
    (opened,) = downs(people)
    assert opened.closed_at is None
    with people.app_context():
        assert db.session.get(Down, opened.id).dealer.name == PEOPLE["dealer"][0]  # type: ignore[union-attr]
    page = dealer.get(f"/tables/{table}")
    assert f"Session {opened.id}: {PEOPLE['dealer'][0]}" in words(page)
    assert print_form(f"/print/sessions/{opened.id}.pdf") in page
    # With the screens' script, Print builds it in the background, its progress beside it.
    assert f'data-build="/print/builds/sessions/{opened.id}"' in page
    pdf = dealer.client.post(f"/print/sessions/{opened.id}.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"


def test_a_close_without_a_supervisor_waits_then_a_pin_confirms_it(
    people: Flask, dealer: Web, floor_api: Api
) -> None:
    """Does a dealer's close end the down and wait, and a supervisor's PIN confirm it?"""
    table = six_seated(floor_api)
    dealer.post(f"/tables/{table}/sessions", {})
    (opened,) = downs(people)
    close = f"/tables/{table}/sessions/{opened.id}/close"
    dealer.post(close, {})
    assert "waiting for a supervisor to confirm" in words(dealer.get(f"/tables/{table}"))
    name, _pin = PEOPLE["supervisor"]
    refused = dealer.post(close, {"supervisor_name": name, "supervisor_pin": "0000"}, status=403)
    assert "The supervisor's name or PIN is wrong." in words(refused.get_data(as_text=True))
    dealer.post(close, {"supervisor_name": name, "supervisor_pin": PEOPLE["supervisor"][1]})
    (closed,) = downs(people)
    assert closed.close_confirmed_by is not None
    assert "No session is open at this table." in words(dealer.get(f"/tables/{table}"))


def test_a_down_with_a_hand_in_play_cannot_close(
    people: Flask, dealer: Web, floor_api: Api, dealer_api: Api
) -> None:
    table = six_seated(floor_api)
    dealer_api.hand(table)
    (opened,) = downs(people)  # dealing opened one in the dealer's name
    page = dealer.post(f"/tables/{table}/sessions/{opened.id}/close", {}, status=409)
    assert "still in play" in words(page.get_data(as_text=True))


def print_form(address: str) -> str:
    """The start of a Print button's form: a POST that opens the document in a new tab."""
    return f'<form method="post" action="{address}" target="_blank"'


def test_hand_and_floor_screens_link_their_documents(
    supervisor: Web, floor_api: Api, hand_id: int
) -> None:
    """Is the hand slip one tap from the hand, and the shift ledger and exports from the floor?"""
    assert print_form(f"/print/hands/{hand_id}.pdf") in supervisor.get(f"/hands/{hand_id}")
    floor = supervisor.get("/floor")
    for link in ("/print/shift.pdf?from=", "/exports/ledger.csv?from=", "/exports/players.csv?"):
        assert link in floor
    shift = re.search(r'action="(/print/shift.pdf\?[^"]+)"', floor).group(1)  # type: ignore[union-attr]
    answer = supervisor.client.post(shift.replace("&amp;", "&"))
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"


def test_only_the_print_button_counts_a_print(
    supervisor: Web, floor_api: Api, hand_id: int
) -> None:
    """Viewing the hand screen again prints nothing; each Print is counted, the second a REPRINT."""
    for _ in range(3):
        supervisor.get(f"/hands/{hand_id}")
    first = supervisor.client.post(f"/print/hands/{hand_id}.pdf")
    again = supervisor.client.post(f"/print/hands/{hand_id}.pdf")
    assert first.headers["Content-Disposition"] == f'inline; filename="hand-slip-{hand_id}.pdf"'
    assert again.headers["Content-Disposition"].endswith(f'hand-slip-{hand_id}-reprint-1.pdf"')
