"""A table: the seats around the oval, seating and chips, the time collection, dealing."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.floor.time_collection import TimeDue
from dealer.models import Hand, LedgerEntry, Seating, utcnow
from tests.helpers import Api
from tests.screens.conftest import Web, six_seated, words


def seatings(app: Flask) -> list[Seating]:
    with app.app_context():
        return list(db.session.scalars(select(Seating).order_by(Seating.id)))


def test_table_shows_every_seat_with_player_stack_and_money(dealer: Web, floor_api: Api) -> None:
    """Does each of the eight seats show its player, chips and money, or that it is empty?"""
    table = floor_api.table(name="Oval", chip_value_cents=25)["id"]
    floor_api.seat(table, 3, "Cy", 40)
    text = words(dealer.get(f"/tables/{table}"))
    assert "Seat 3 Cy 40 chips $10.00" in text
    assert text.count("empty Seat a player") == 7
    assert "Seat at least two players to deal a hand." in text


def test_short_stacks_are_flagged_in_words(dealer: Web, floor_api: Api) -> None:
    """Is a stack below what a hand costs (classic: the 2-chip drop) marked short in words?"""
    table = floor_api.table()["id"]
    floor_api.seat(table, 1, "Ann", 1)
    floor_api.seat(table, 2, "Bob", 50)
    page = dealer.get(f"/tables/{table}")
    assert words(page).count("short stack") == 1
    assert "Seat 1 Ann 1 chip $1.00 ⚠ short stack" in words(page)
    assert "A seat is short below 2 chips" in words(page)


def test_seat_a_player_from_the_seat_screen(people: Flask, dealer: Web, floor_api: Api) -> None:
    """Does the empty seat's screen seat a player with a buy-in, and then show their stack?"""
    table = floor_api.table()["id"]
    page = dealer.get(f"/tables/{table}/seats/4")
    assert "Seat a player" in words(page)
    answer = dealer.post(f"/tables/{table}/seats", {"seat": "4", "player": " Dot ", "buy_in": "80"})
    assert answer.headers["Location"] == f"/tables/{table}"
    (seating,) = seatings(people)
    assert (seating.seat, seating.player) == (4, "Dot")
    assert "Stack 80 chips" in words(dealer.get(f"/tables/{table}/seats/4"))


def test_a_taken_seat_says_who_sits_there(dealer: Web, floor_api: Api) -> None:
    table = floor_api.table()["id"]
    floor_api.seat(table, 2, "Bob", 10)
    answer = dealer.post(
        f"/tables/{table}/seats", {"seat": "2", "player": "Eve", "buy_in": "5"}, status=409
    )
    assert "Seat 2 is taken by Bob." in words(answer.get_data(as_text=True))


def test_seat_form_errors_keep_the_entry(dealer: Web, floor_api: Api) -> None:
    table = floor_api.table()["id"]
    answer = dealer.post(
        f"/tables/{table}/seats", {"seat": "2", "player": "Eve", "buy_in": "-5"}, status=422
    )
    page = answer.get_data(as_text=True)
    assert "The buy-in must be from 0 to 1000000." in words(page)
    assert 'value="Eve"' in page


def test_buy_in_and_cash_out(dealer: Web, dealer_api: Api, floor_api: Api) -> None:
    """Do a rebuy and a cash-out move the stack; is cashing out more than the stack refused?"""
    table = floor_api.table()["id"]
    floor_api.seat(table, 1, "Ann", 20)
    dealer.post(f"/tables/{table}/seats/1/chips", {"kind": "buy_in", "amount": "30"})
    dealer.post(f"/tables/{table}/seats/1/chips", {"kind": "cash_out", "amount": "5"})
    assert dealer_api.stacks(table) == {1: 45}
    answer = dealer.post(
        f"/tables/{table}/seats/1/chips", {"kind": "cash_out", "amount": "46"}, status=422
    )
    assert "Seat 1 has 45 chips: it cannot cash out 46." in words(answer.get_data(as_text=True))
    answer = dealer.post(
        f"/tables/{table}/seats/1/chips", {"kind": "sideways", "amount": "1"}, status=422
    )
    assert "Say whether chips are bought in or cashed out." in words(answer.get_data(as_text=True))


def test_leave_cashes_out_but_not_during_the_hand(
    people: Flask, dealer: Web, floor_api: Api
) -> None:
    """Is leaving refused while the seat is in the hand in play, and then done with a cash-out?"""
    table = six_seated(floor_api)
    hand = floor_api.hand(table)
    page = dealer.get(f"/tables/{table}/seats/2")
    assert "Not while the seat is in the hand in play." in words(page)
    answer = dealer.post(f"/tables/{table}/seats/2/leave", {}, status=409)
    assert "it can leave once the hand is settled" in words(answer.get_data(as_text=True))
    floor_api.event(hand["id"], {"type": "void_hand", "reason": "misdeal"})
    dealer.post(f"/tables/{table}/seats/2/leave", {})
    assert [s.left_at is not None for s in seatings(people)] == [
        False,
        True,
        False,
        False,
        False,
        False,
    ]


def test_time_collection_shows_when_due_and_is_taken_once(
    people: Flask, dealer: Web, floor_api: Api, dealer_api: Api
) -> None:
    """Due at once, taken from every seat (a double tap once), then next due in 30 minutes."""
    table = floor_api.table(collection={"kind": "time", "chips": 2, "minutes": 30})["id"]
    floor_api.seat(table, 1, "Ann", 10)
    floor_api.seat(table, 2, "Bob", 10)
    text = words(dealer.get(f"/tables/{table}"))
    assert "Not taken yet." in text
    assert "Due now" in text
    for _ in range(2):
        dealer.post(f"/tables/{table}/collections", {"key": "web-time-1"})
    assert dealer_api.stacks(table) == {1: 8, 2: 8}
    text = words(dealer.get(f"/tables/{table}"))
    assert "Last taken" in text
    assert "Next due at" in text
    assert "in 30 min" in text
    api_says = floor_api.get(f"/tables/{table}")["time_collection"]
    assert api_says["due"] is not None


def test_no_time_collection_at_other_tables(dealer: Web, floor_api: Api) -> None:
    table = floor_api.table()["id"]
    floor_api.seat(table, 1, "Ann", 10)
    assert "Time collection" not in words(dealer.get(f"/tables/{table}"))
    answer = dealer.post(f"/tables/{table}/collections", {}, status=409)
    assert "This table has no time collection." in words(answer.get_data(as_text=True))


def test_deal_with_the_drops_of_the_stay_or_drop_round(
    people: Flask, dealer: Web, floor_api: Api
) -> None:
    """Does the deal screen list who is seated, and the deal record the seats that drop?"""
    table = six_seated(floor_api)
    text = words(dealer.get(f"/tables/{table}/deal"))
    assert "Seat 1 P1 stays" in text
    assert "each pays 2 into the pot" in text
    answer = dealer.post(f"/tables/{table}/hands", {"dropped": ["5", "6"], "key": "web-deal"})
    with people.app_context():
        (hand,) = db.session.scalars(select(Hand)).all()
        assert answer.headers["Location"] == f"/hands/{hand.id}?done=1,2,3"
    page = words(dealer.follow(answer))
    assert "✔ Dealt to seats 1, 2, 3, 4, 5 and 6. No chips move." in page
    assert "✔ Seat 5 drops. Seat 5 (P5) pays the pot 2 chips: drop forfeit." in page
    assert "✔ Seat 6 drops." in page
    again = dealer.post(f"/tables/{table}/hands", {"dropped": ["5", "6"], "key": "web-deal"})
    assert again.headers["Location"] == answer.headers["Location"]  # a double tap: one hand


def test_deal_refused_while_a_hand_is_in_play(dealer: Web, floor_api: Api) -> None:
    table = six_seated(floor_api)
    floor_api.hand(table)
    assert "Hand 1 is still in play." in words(dealer.get(f"/tables/{table}/deal"))
    answer = dealer.post(f"/tables/{table}/hands", {}, status=409)
    assert "A hand is still in play at this table" in words(answer.get_data(as_text=True))


def test_table_lists_its_hands(dealer: Web, floor_api: Api) -> None:
    table = six_seated(floor_api)
    hand = floor_api.hand(table, dropped=[1, 2, 3, 4, 5])
    text = words(dealer.get(f"/tables/{table}"))
    assert "hand 1" in text and "settled · seat 6 (P6) went out · 10 chips moved" in text
    assert f'href="/hands/{hand["id"]}"' in dealer.get(f"/tables/{table}")


def test_ledger_entries_of_the_screens_name_the_device(
    people: Flask, dealer: Web, floor_api: Api
) -> None:
    """Does an entry made from a screen record the tablet it came from?"""
    table = floor_api.table()["id"]
    dealer.client.post(
        f"/tables/{table}/seats",
        data={"seat": "1", "player": "Ann", "buy_in": "5"},
        headers={"User-Agent": "Tablet 7"},
    )
    with people.app_context():
        (entry,) = db.session.scalars(select(LedgerEntry)).all()
        assert entry.device == "Tablet 7"


def test_time_due_figures() -> None:
    """Never taken: due now. Taken 31 minutes ago, every 30: due. 10 minutes ago: 20 left."""
    now = utcnow()
    assert TimeDue(1, 30, None, None).due
    late = now - timedelta(minutes=31)
    assert TimeDue(1, 30, late, late + timedelta(minutes=30)).due
    soon = now - timedelta(minutes=10)
    figures = TimeDue(1, 30, soon, soon + timedelta(minutes=30))
    assert not figures.due
    assert figures.minutes_left in (20, 21)
