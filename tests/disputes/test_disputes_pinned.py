"""dealer/disputes through its own functions, where the API's tests leave it unsaid: a new
player's record, a player's time collections in money, a seat chosen by a name alone, and the
payment search's sides and its name filter in any case, the seat search's count of a seat's
payments of an amount; several players of one name refused with its code; names that start
with what was typed found first; a player's hands in money; a table found by the number its
name ends with; the hands read a batch at a time, each once, and an amount alone read only so
far back; "at" before a table read as the place, a part said twice refused with its code; a
seating that left as the window starts still in it.

The tables, seats and hands are set up through the API; the functions are called as a door
calls them, each write in one write transaction. Sam is the floor; Dee deals.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.clock import Clock
from dealer.disputes import search
from dealer.disputes.asking import Question, query_from, read_asked, read_words
from dealer.disputes.players import add_player, chosen_player, find_players, player_statement
from dealer.disputes.record import hand_choices
from dealer.disputes.search import find_payments, find_seats, seatings
from dealer.errors import Conflict, Invalid
from dealer.extensions import db
from dealer.models import AuditRecord, Hand, Player, Seating, User, as_utc
from dealer.transactions import writing
from tests.helpers import Api
from tests.words.languages import speaking

UTC = ZoneInfo("UTC")
GOING_OUT = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def sam_of(app: Flask) -> User:
    return db.session.scalars(select(User).where(User.name == "Sam")).one()


def test_a_new_players_record_keeps_the_card_number(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        ana = add_player(session, "Ana", "C-17", None, sam_of(people))
        ana_id = ana.id
    with people.app_context():
        (made,) = db.session.scalars(
            select(AuditRecord).where(AuditRecord.kind == "player_added")
        ).all()
        assert made.details == {"player": ana_id, "card_number": "C-17"}


def test_a_name_alone_finds_the_player_who_reads_so_or_makes_one(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        sam = sam_of(people)
        ana = add_player(session, "Ana Lima", None, None, sam).id
        assert chosen_player(session, "", "ANA  LIMA", sam) == ana
        made = chosen_player(session, "", "Ben", sam)
        assert made is not None and made != ana
        assert session.get(Player, made).name == "Ben"  # type: ignore[union-attr]


def test_a_players_time_collections_are_counted_in_money(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    with people.app_context(), writing(db.session()) as session:
        ana = add_player(session, "Ana", None, None, sam_of(people)).id
    collection = {"kind": "time", "chips": 2, "minutes": 30}
    table = int(sam.table("classic", collection=collection, chip_value_cents=25)["id"])
    body = {"seat": 1, "player_id": ana, "buy_in": 100}
    sam.post(f"/tables/{table}/seats", body, status=201)
    sam.post(f"/tables/{table}/collections", status=201)
    with people.app_context():
        statement = player_statement(db.session(), ana, None, None, UTC)
        assert (statement.collections, statement.collections_cents) == (-2, -50)
        assert (statement.buy_ins, statement.buy_ins_cents) == (100, 2500)


def played(people: Flask) -> tuple[int, int]:
    """A classic table's hand gone out by seat 1 (Ana), seat 3 dropped: the table, the hand."""
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    for seat, name in ((1, "Ana"), (2, "Ben"), (3, "Cy")):
        sam.seat(table, seat, name, 100)
    hand = int(sam.hand(table, dropped=[3])["id"])
    for cards in GOING_OUT:
        sam.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    sam.event(hand, {"type": "go_out", "seat": 1})
    return table, hand


def test_the_payment_search_names_each_side_and_finds_a_name_in_any_case(people: Flask) -> None:
    _table, hand = played(people)
    with people.app_context():
        every = find_payments(db.session(), query_from({"hand": hand}, UTC)).payments
        sides = {(side.party, side.words) for p in every for side in (p.payer, p.payee)}
        assert sides == {
            (1, "seat 1 (Ana)"),
            (2, "seat 2 (Ben)"),
            (3, "seat 3 (Cy)"),
            ("pot", "the pot"),
        }
        with speaking("es"):
            found = find_payments(db.session(), query_from({"hand": hand}, UTC)).payments
        in_spanish = {side.words for p in found for side in (p.payer, p.payee)}
        assert in_spanish == {"asiento 1 (Ana)", "asiento 2 (Ben)", "asiento 3 (Cy)", "la bolsa"}
        named = find_payments(db.session(), query_from({"hand": hand, "player": "aNA"}, UTC))
        assert named.payments
        assert all(1 in (p.payer.party, p.payee.party) for p in named.payments)


def test_the_seat_search_counts_a_seats_payments_of_the_amount(people: Flask) -> None:
    """Ben (seat 2) paid Ana 5, 1, 1 and 4 chips as she went out."""
    played(people)
    now = datetime.now(UTC)

    def asked(words: str) -> Question:
        return read_asked(
            {"q": words}, Clock(UTC), now + timedelta(minutes=1), now - timedelta(hours=2)
        )

    with people.app_context():
        session = db.session()
        nobody = asked("player Zed")
        found = find_seats(session, nobody)
        assert (found.query, found.seats) == (nobody, [])
        for words, same, amount, events in (
            ("player Ben, 1 chip", 2, 1, 1),
            ("player Ben, 5 chips", 1, 5, 0),
        ):
            (seat,) = find_seats(session, asked(words)).seats
            assert (seat.seat, seat.paid, seat.received, seat.matched) == (2, 11, 0, "payment")
            assert (seat.same, seat.amount, seat.events, len(seat.payments)) == (
                same,
                amount,
                events,
                same,
            )
        alone = find_seats(session, asked("2 chips")).seats
        assert [(s.seat, s.paid, s.received, s.matched, s.same, s.events) for s in alone] == [
            (1, 0, 13, "payment", 1, 0),
            (3, 2, 0, "paid", 1, 1),
        ]


def test_a_hands_choices_hold_its_voids(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    for seat in (1, 2):
        sam.seat(table, seat, f"P{seat}", 100)
    hand = int(sam.hand(table)["id"])
    meld = sam.event(hand, {"type": "meld", "seat": 1, "cards": ["KS", "KS", "KS"]})
    sam.event(hand, {"type": "void", "event": meld["event"]["id"], "reason": "Wrong seat."})
    with people.app_context():
        choices = hand_choices(db.session(), hand)
        assert [(void.type, void.seq) for void in choices.voids] == [("void", 3)]


def test_several_players_of_one_name_are_refused_with_its_code(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        sam = sam_of(people)
        for card in ("C-1", "C-2"):
            add_player(session, "Ana", card, None, sam)
        with pytest.raises(Conflict) as refused:
            chosen_player(session, "", "ana", sam)
    assert refused.value.code == "player_ambiguous"


def test_names_that_start_with_what_was_typed_come_first(people: Flask) -> None:
    with people.app_context(), writing(db.session()) as session:
        sam = sam_of(people)
        for name in ("Adan", "Dana", "Bo"):
            add_player(session, name, None, None, sam)
        assert [card.name for card in find_players(session, "DAN", sam)] == ["Dana", "Adan"]


def test_a_players_hands_are_counted_in_money(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    with people.app_context(), writing(db.session()) as session:
        ana = add_player(session, "Ana", None, None, sam_of(people)).id
    table = int(sam.table("classic", chip_value_cents=25)["id"])
    sam.post(f"/tables/{table}/seats", {"seat": 1, "player_id": ana, "buy_in": 100}, status=201)
    sam.seat(table, 2, "Ben", 100)
    hand = int(sam.hand(table)["id"])
    for cards in GOING_OUT:
        sam.event(hand, {"type": "meld", "seat": 1, "cards": cards})
    sam.event(hand, {"type": "go_out", "seat": 1})
    with people.app_context():
        statement = player_statement(db.session(), ana, None, None, UTC)
    (line,) = statement.hands
    assert line.net > 0 and line.net_cents == 25 * line.net


def hands_at(people: Flask, name: str, count: int) -> tuple[int, list[int]]:
    """``count`` hands dealt at a new table called ``name``: the table, the hands."""
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic", name=name)["id"])
    for seat in (1, 2):
        sam.seat(table, seat, f"P{seat}", 100)
    hands = []
    for _ in range(count):
        hand = int(sam.hand(table)["id"])
        sam.event(hand, {"type": "void_hand", "reason": "Misdeal."})
        hands.append(hand)
    return table, hands


def test_the_hands_are_read_a_batch_at_a_time_each_once(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read one hand, then two, then four: each hand's seats found once, newest first; the
    table named by the number its name ends with."""
    hands_at(people, "Bar", 1)
    _table, hands = hands_at(people, "Table 07", 4)
    monkeypatch.setattr(search, "BATCH", 1)
    now = datetime.now(UTC)
    asked = Question(start=now - timedelta(hours=1), end=now + timedelta(minutes=1), table="7")
    with people.app_context():
        found = find_seats(db.session(), asked, limit=20)
    assert found.tables == ["Table 07"]
    assert [(s.hand, s.seat) for s in found.seats] == [
        (hand, seat) for hand in reversed(hands) for seat in (1, 2)
    ]


def test_an_amount_alone_reads_so_many_hands_back_and_says_so(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    _table, hands = hands_at(people, "Table 1", 4)
    monkeypatch.setattr(search, "BATCH", 1)
    monkeypatch.setattr(search, "READ_AT_MOST", 3)
    now = datetime.now(UTC)
    asked = Question(start=now - timedelta(hours=1), end=now + timedelta(minutes=1), amount=1)
    with people.app_context():
        found = find_seats(db.session(), asked)
        oldest_read = db.session.get(Hand, hands[1])
        assert oldest_read is not None
    assert found.stopped == as_utc(oldest_read.started_at)


def test_at_before_a_table_is_the_place_and_a_part_said_twice_is_refused() -> None:
    assert read_words("Rosa at table 7, 16 chips") == {
        "player": "Rosa",
        "table": "7",
        "amount": "16",
    }
    with pytest.raises(Invalid) as twice:
        read_words("table 1 table 2")
    assert twice.value.code == "invalid_query"
    assert twice.value.message.startswith("Say the table once. ")


def test_a_seating_that_left_as_the_window_starts_is_in_it(people: Flask) -> None:
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    sam.seat(table, 2, "Ben", 100)
    sam.delete(f"/tables/{table}/seats/2", status=200)
    with people.app_context():
        session = db.session()
        ben = session.scalars(select(Seating).where(Seating.table_id == table)).one()
        assert ben.left_at is not None
        left = as_utc(ben.left_at)
        asked = Question(start=left, end=left + timedelta(minutes=1), seat=2)
        assert list(seatings(session, asked, [table])) == [ben.id]
        later = Question(start=left + timedelta(microseconds=1), end=asked.end, seat=2)
        assert list(seatings(session, later, [table])) == []
