"""dealer/views through its own functions, where the API's tests leave it unsaid: a hand gone
out read back with its settlement (each side's sign, the winner's conditions) and its events
found by their number in the hand and their payments by theirs, a seat's statement line of a
voided meld naming the void, a table between hands, a reprinted slip, and a seat short at the
window's end that leaves right then; a table's ledger naming who recorded each entry; a payment
in dispute naming its seats; a dealer's session report naming each hand's winner and the hands
each seat won; a hand slip of a hand that replays as recorded with no note, and of one that no
longer replays with its voided events marked; a time collection counted to the session open at
its table then.

The table, seats and hand are played through the API, as a tablet plays them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.hands import reading
from dealer.hands.reading import load_hand
from dealer.ledger.replay import ReplayError
from dealer.models import Event, Hand, Seating, Table
from dealer.models.base import utcnow
from dealer.views.documents.down import down_report
from dealer.views.documents.hand import hand_slip
from dealer.views.documents.shift_summary import house_figures, short_stacks
from dealer.views.floor import balances_view
from dealer.views.hand import hand_view
from dealer.views.ledger import ledger_view
from dealer.views.payment import payment_dispute
from dealer.views.settlement import settled
from dealer.views.statement import seat_statement
from tests.disputes.test_disputes_pinned import played
from tests.helpers import Api


def test_a_hand_gone_out_is_read_with_its_settlement_and_its_events_in_order(
    people: Flask,
) -> None:
    _table, hand = played(people)
    with people.app_context():
        replayed = load_hand(db.session(), hand)
        view = hand_view(db.session(), replayed, board=True)
        assert [e.seq for e in view.events] == list(range(1, len(view.events) + 1))
        settlement = settled(replayed, view)
        assert settlement is not None
        assert [line.seat for line in settlement.lines] == [1, 2, 3]


def test_a_going_outs_settlement_signs_each_side_and_names_the_winners_conditions(
    people: Flask,
) -> None:
    _table, hand = played(people)
    with people.app_context():
        replayed = load_hand(db.session(), hand)
        view = hand_view(db.session(), replayed, board=True)
        settlement = settled(replayed, view)
        assert settlement is not None
        columns = [(x.seat, x.going_out, x.conditions_again, x.pot) for x in settlement.lines]
        assert columns == [(1, 1, 5, 2), (2, -1, -5, 0), (3, 0, 0, 0)]
        assert [(c.name, c.value) for c in settlement.conditions] == [
            ("valle set in spades", 4),
            ("run with the king in hearts", 1),
        ]
        going_out = view.events[-1]
        assert [p.number for p in going_out.payments] == [1, 2, 3]


def a_meld_voided(people: Flask) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """A hand of Ana, Ben and Cy whose seat 1 laid a set and had it voided: the hand, the meld
    event and the void's answer."""
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    for seat, name in ((1, "Ana"), (2, "Ben"), (3, "Cy")):
        sam.seat(table, seat, name, 100)
    hand = int(sam.hand(table)["id"])
    meld = sam.event(hand, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})["event"]
    void = sam.event(hand, {"type": "void", "event": meld["seq"], "reason": "wrong seat"})
    return hand, meld, void


def test_a_statement_line_of_a_voided_meld_names_the_void(people: Flask) -> None:
    hand, meld, void = a_meld_voided(people)
    with people.app_context():
        statement = seat_statement(db.session(), hand, 1)
    voided = [line.voided_by for line in statement.lines if line.event_seq == meld["seq"]]
    assert voided == [void["event"]["seq"]] * 2


def test_a_table_between_hands_has_no_pot_and_a_reprinted_slip_says_which_print(
    people: Flask,
) -> None:
    table, hand = played(people)
    with people.app_context():
        balances = balances_view(db.session(), db.session.get_one(Table, table))
        assert balances.pot == 0
        assert {key: seat.stack for key, seat in balances.seats.items()} == {
            "1": 113,
            "2": 89,
            "3": 98,
        }
        assert hand_slip(db.session(), hand, reprint=2).reprint == 2


def test_a_seat_short_at_the_windows_end_is_listed_when_it_leaves_right_then(
    people: Flask,
) -> None:
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    for seat, name, chips in ((1, "Ana", 100), (2, "Ben", 1), (3, "Cy", 100)):
        sam.seat(table, seat, name, chips)
    hand = int(sam.hand(table)["id"])
    sam.event(hand, {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]})
    with people.app_context():
        session = db.session()
        end = utcnow() + timedelta(seconds=1)
        ben = session.scalars(select(Seating).where(Seating.player == "Ben")).one()
        session.expunge(ben)
        ben.left_at = end  # left at the window's end: still seated then
        tables = {table: session.get_one(Table, table)}
        (short,) = short_stacks(session, {ben.id: ben}, end, tables, {table: "Table 1"})
        assert (short.table, short.seat, short.player, short.chips) == ("Table 1", 2, "Ben", -3)


def test_a_tables_ledger_names_who_recorded_each_entry(people: Flask) -> None:
    table, _hand = played(people)
    with people.app_context():
        entries = ledger_view(db.session(), db.session.get_one(Table, table)).entries
    assert entries and {entry.user for entry in entries} == {"Sam"}


def test_a_payment_in_dispute_names_its_seats(people: Flask) -> None:
    _table, hand = played(people)
    with people.app_context():
        session = db.session()
        meld = session.scalars(select(Event).where(Event.hand_id == hand, Event.seq == 3)).one()
        assert meld.type == "meld"
        disputed = payment_dispute(session, hand, meld.id, 1)
    (entry,) = disputed.entries
    assert (entry.source, entry.target) == ("seat 2 (Ben)", "seat 1 (Ana)")


def test_a_sessions_report_names_each_hands_winner_and_the_hands_each_seat_won(
    people: Flask,
) -> None:
    _table, hand = played(people)
    with people.app_context():
        down = db.session.get_one(Hand, hand).down_id
        assert down is not None
        report = down_report(db.session(), down)
    assert [(line.winner, line.winner_player) for line in report.hands] == [(1, "Ana")]
    assert [(seat.player, seat.hands_won) for seat in report.seats] == [
        ("Ana", 1),
        ("Ben", 0),
        ("Cy", 0),
    ]


def test_a_hand_slip_notes_only_a_hand_that_no_longer_replays_and_marks_its_voids(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand, _, _ = a_meld_voided(people)
    with people.app_context():
        assert hand_slip(db.session(), hand).note is None

        def refuses(*_args: object) -> None:
            raise ReplayError("no_deal", id=hand)

        monkeypatch.setattr(reading, "replay_engine", refuses)
        slip = hand_slip(db.session(), hand)
    assert slip.note is not None and "it no longer replays" in slip.note
    assert [(e.seq, e.voided) for e in slip.events] == [(1, False), (2, True), (3, False)]


def test_a_time_collection_is_counted_to_the_session_open_at_its_table(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    collection = {"kind": "time", "chips": 2, "minutes": 30}
    table = int(sam.table("classic", collection=collection)["id"])
    for seat in (1, 2):
        sam.seat(table, seat, f"P{seat}", 100)
    hand = int(sam.hand(table)["id"])  # opens a session at the table
    sam.post(f"/tables/{table}/collections", status=201)
    with people.app_context():
        down = db.session.get_one(Hand, hand).down_id
        now = utcnow()
        figures = house_figures(db.session(), now - timedelta(hours=1), now + timedelta(minutes=1))
    assert figures.collected[table] >= 4
    assert figures.by_down == {down: {table: figures.collected[table]}}
