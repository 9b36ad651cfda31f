"""The hand screen: melds as faces, what the rules allow, every action, fits, the banner."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from sqlalchemy import func, select, text

from dealer.extensions import db
from dealer.models import Event, IdempotencyRecord
from tests.helpers import Api
from tests.screens.conftest import Web, settlement_of, six_seated, words

SEED = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


def act(web: Web, hand: int, status: int | None = 303, **fields: Any) -> Any:
    """Send the hand screen's action form."""
    data = {k: str(v) for k, v in fields.items()}
    return web.post(f"/hands/{hand}/events", data, status=status)


def events(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Event)) or 0)


def body_class(page: str) -> str:
    found = re.search(r'<body class="([^"]*)"', page)
    return found.group(1) if found else ""


def buttons(page: str) -> dict[str, bool]:
    """Each action button of the page, and whether it can be tapped."""
    found = re.findall(
        r'<button type="submit" name="action" value="(\w+)"[^>]*?( disabled)?>', page
    )
    return {name: not disabled for name, disabled in found}


def test_melds_are_card_faces_with_condition_value_and_paid_level(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """Are melds drawn as rank and suit symbol, with the condition, its value and paid level?"""
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    page = dealer.get(f"/hands/{hand_id}")
    assert (
        page.count('<span class="card suit-S" role="img" aria-label="5 of spades"><b>5</b>♠</span>')
        == 3
    )
    text = words(page)
    assert "valle set in spades · worth 4 · paid 4" in text
    assert "3/11" in text
    assert "✕ dropped" in text
    assert "in stack 96" in text


def test_four_colour_suits_are_on_by_default_and_a_setting(dealer: Web, hand_id: int) -> None:
    """Are four-colour suits on until this tablet switches them off, and back on?"""
    assert "four-colour" in body_class(dealer.get(f"/hands/{hand_id}"))
    dealer.post("/prefs", {"four_colour": "off", "page": f"/hands/{hand_id}"})
    assert "four-colour" not in body_class(dealer.get(f"/hands/{hand_id}"))
    dealer.post("/prefs", {"four_colour": "on", "page": f"/hands/{hand_id}"})
    assert "four-colour" in body_class(dealer.get(f"/hands/{hand_id}"))


def test_after_a_drop_the_acting_seat_stays_or_moves_on_as_the_table_is_set(
    dealer: Web, supervisor: Web, table_id: int, hand_id: int
) -> None:
    """Does a drop keep its seat acting, and move on to the next seat in play (skipping the
    dropped seat 5) once a supervisor sets the table so, on the table's settings screen?"""
    assert "stays with the seat that acted" in words(dealer.get(f"/hands/{hand_id}"))
    stays = act(dealer, hand_id, action="drop", seat=4, key="web-d4")
    assert stays.headers["Location"].endswith("&seat=4")
    assert "data-moves-on" not in dealer.follow(stays)
    supervisor.post(f"/tables/{table_id}/settings", {"acting_seat": "moves_on"})
    moves = act(dealer, hand_id, action="drop", seat=3, key="web-d3")
    assert moves.headers["Location"].endswith("&seat=6")  # 4 and 5 dropped
    page = dealer.follow(moves)
    assert 'data-next-seat="6"' in page  # seat 3's panel: "Next seat" after it
    assert "data-moves-on" in page  # the page's queue moves it on too, offline
    assert "moves on to the next seat in play" in words(page)


def test_an_acting_seat_set_outside_the_app_moves_nothing(
    dealer: Web, people: Flask, table_id: int, hand_id: int
) -> None:
    """Set to move on in SQL, not on the settings screen: the table is as the app last set it
    (the keyed chain's version of it), so a drop keeps its seat and the screen says so."""
    with people.app_context(), db.engine.begin() as connection:
        connection.execute(
            text(f"UPDATE card_tables SET acting_seat = 'moves_on' WHERE id = {table_id}")
        )
    stays = act(dealer, hand_id, action="drop", seat=4, key="web-d4")
    assert stays.headers["Location"].endswith("&seat=4")
    page = dealer.follow(stays)
    assert "data-moves-on" not in page
    assert "stays with the seat that acted" in words(page)


def test_a_tablet_cannot_choose_where_the_acting_seat_goes(dealer: Web, hand_id: int) -> None:
    """The tablet's old way (a cookie sent by the hand screen) is gone: the table decides."""
    dealer.post("/prefs", {"after_drop": "next", "page": f"/hands/{hand_id}"})
    stays = act(dealer, hand_id, action="drop", seat=4, key="web-d4")
    assert stays.headers["Location"].endswith("&seat=4")
    assert 'name="after_drop"' not in dealer.follow(stays)


def test_the_acting_seats_melds_are_beside_the_pad(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """Are seat 1's melds offered beside the pad while it acts (an addition picks one there)?"""
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    page = dealer.get(f"/hands/{hand_id}?seat=1")
    beside = re.search(r'<ul class="acting-melds" data-melds-of="1"([^>]*)>(.*?)</ul>', page, re.S)
    assert beside and 'aria-label="Meld 5♠ 5♠ 5♠"' in beside.group(2)
    assert "hidden" not in beside.group(1)
    assert re.search(r'data-melds-of="1"[^>]*hidden', dealer.get(f"/hands/{hand_id}?seat=2"))


def test_buttons_follow_what_the_rules_allow_the_seat(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """No seat chosen: nothing. Seat 1 before any meld: meld, drop, foul. After: add, no drop."""
    assert not any(buttons(dealer.get(f"/hands/{hand_id}")).values())
    before = buttons(dealer.get(f"/hands/{hand_id}?seat=1"))
    assert {k for k, on in before.items() if on} == {"meld", "drop", "foul"}
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    after = buttons(dealer.get(f"/hands/{hand_id}?seat=1"))
    assert {k for k, on in after.items() if on} == {"meld", "foul"}  # add and split need the meld
    with_meld = buttons(dealer.get(f"/hands/{hand_id}?seat=1&meld=1"))
    assert {k for k, on in with_meld.items() if on} == {"meld", "add", "split", "foul"}
    dropped = buttons(dealer.get(f"/hands/{hand_id}?seat=5"))
    assert not any(dropped.values())
    page = dealer.get(f"/hands/{hand_id}")
    assert 'data-seat-panel="1" data-allowed="add foul meld split"' in page


def test_a_meld_pays_and_the_banner_says_who_pays_whom_and_why(
    people: Flask, dealer: Web, hand_id: int
) -> None:
    """Is the meld recorded, and the banner's words the ones to read aloud?"""
    answer = act(dealer, hand_id, action="meld", seat=1, cards="5s 5s 5s", key="web-m1")
    # The acting seat stays with the seat that acted: its next meld needs no seat tapped.
    assert re.fullmatch(rf"/hands/{hand_id}\?done=\d+&seat=1", answer.headers["Location"])
    text = words(dealer.follow(answer))
    assert "✔ Seat 1 melds 5♠ 5♠ 5♠." in text
    assert (
        "Seats 2, 3, 4 and 6 each pay seat 1 (P1) 4 chips: valle set in spades (5♠ 5♠ 5♠)." in text
    )
    assert "In all: seat 1 (P1) +16, seat 2 (P2) -4" in text
    assert events(people) == 3


def test_a_refused_meld_keeps_the_cards_and_shows_the_rules_message(
    people: Flask, dealer: Web, hand_id: int
) -> None:
    """Is a two-suit set refused in the engine's words, cards and key kept, nothing recorded?"""
    answer = act(
        dealer, hand_id, status=422, action="meld", seat=2, cards="6H 6H 6C", key="web-bad-1"
    )
    page = answer.get_data(as_text=True)
    assert "Not recorded." in words(page)
    assert "6C 6H 6H is not a meld: a set must be all one suit or show at least three" in words(
        page
    )
    assert 'value="6H 6H 6C"' in page
    assert 'value="web-bad-1"' in page
    assert 'name="seat" value="2"' in page
    assert events(people) == 2
    fixed = act(dealer, hand_id, action="meld", seat=2, cards="6H 6H 6H", key="web-bad-1")
    assert fixed.status_code == 303  # the refused key was never stored: it records now


def test_a_bad_card_is_named(dealer: Web, hand_id: int) -> None:
    answer = act(dealer, hand_id, status=422, action="meld", seat=1, cards="10H JH QH")
    assert "'10H' is not a Pan card: there are no 8s, 9s or 10s in the shoe." in words(
        answer.get_data(as_text=True)
    )


def test_actions_need_a_seat_and_a_meld(dealer: Web, hand_id: int) -> None:
    no_seat = act(dealer, hand_id, status=422, action="meld", cards="5S 5S 5S")
    assert "Tap the seat that acts first." in words(no_seat.get_data(as_text=True))
    no_meld = act(dealer, hand_id, status=422, action="add", seat=1, cards="5S")
    assert "Tap the meld it acts on first." in words(no_meld.get_data(as_text=True))
    no_action = act(dealer, hand_id, status=422, seat=1, cards="5S")
    assert "Choose an action." in words(no_action.get_data(as_text=True))


def test_double_submit_records_once(people: Flask, dealer: Web, hand_id: int) -> None:
    """A double tap (the same form twice): one event, and the second gets the first's answer?"""
    first = act(dealer, hand_id, action="meld", seat=1, cards="5S 5S 5S", key="web-twice")
    second = act(dealer, hand_id, action="meld", seat=1, cards="5S 5S 5S", key="web-twice")
    assert second.headers["Location"] == first.headers["Location"]
    assert second.headers["Idempotent-Replayed"] == "true"
    assert events(people) == 3
    with people.app_context():
        record = db.session.scalars(select(IdempotencyRecord)).one()
        assert (record.key, record.status_code) == ("web-twice", 303)


def test_a_key_sent_again_with_other_cards_is_refused_with_a_new_key(
    people: Flask, dealer: Web, hand_id: int
) -> None:
    act(dealer, hand_id, action="meld", seat=1, cards="5S 5S 5S", key="web-stale")
    answer = act(
        dealer, hand_id, status=409, action="meld", seat=2, cards="KD KD KD", key="web-stale"
    )
    page = answer.get_data(as_text=True)
    assert "This form was already sent with other content" in words(page)
    assert 'value="web-stale"' not in page
    assert 'value="KD KD KD"' in page
    assert events(people) == 3


def test_every_form_carries_a_fresh_key(dealer: Web, hand_id: int) -> None:
    first = re.search(
        r'name="key" type="hidden" value="(web-[^"]+)"', dealer.get(f"/hands/{hand_id}")
    )
    second = re.search(
        r'name="key" type="hidden" value="(web-[^"]+)"', dealer.get(f"/hands/{hand_id}")
    )
    assert first and second and first.group(1) != second.group(1)


def test_add_to_a_meld_grows_it_and_pays_the_rise(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    answer = act(dealer, hand_id, action="add", seat=1, meld=1, cards="5S")
    text = words(dealer.follow(answer))
    assert "Seat 1 adds 5♠ to 5♠ 5♠ 5♠." in text
    assert "each pay seat 1 (P1) 4 chips: valle set in spades (5♠ 5♠ 5♠ 5♠)." in text
    assert "worth 8 · paid 8" in text


def test_borrow_lays_a_new_meld_from_the_old(dealer: Web, floor_api: Api) -> None:
    """Seat 2 has 4D 5D 6D 7D, borrows the 7D for 7C 7D 7H: 1 from each, 4D 5D 6D stays."""
    table = floor_api.table(name="Borrow")["id"]
    for seat in range(1, 5):
        floor_api.seat(table, seat, f"B{seat}", 50)
    hand = floor_api.hand(table)["id"]
    floor_api.event(hand, {"type": "meld", "seat": 2, "cards": ["4D", "5D", "6D", "7D"]})
    answer = act(dealer, hand, action="borrow", seat=2, meld=1, take="7D", cards="7H 7C")
    text = words(dealer.follow(answer))
    assert "Seat 2 borrows 7♦ from 4♦ 5♦ 6♦ 7♦ for 7♣ 7♦ 7♥." in text
    assert "each pay seat 2 (B2) 1 chip: mixed valle set (7♣ 7♦ 7♥)." in text
    refused = act(
        dealer, hand, status=422, action="borrow", seat=2, meld=1, take="5D", cards="5H 5C"
    )
    assert "which is not a meld" in words(refused.get_data(as_text=True))
    assert 'value="5D"' in refused.get_data(as_text=True)


def test_split_takes_the_rest_when_the_second_meld_is_blank(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """5C 6C 7C JC + 4C, split into 4C 5C 6C and (the rest) 7C JC QC after adding QC too."""
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["5C", "6C", "7C", "JC"]})
    answer = act(
        dealer, hand_id, action="split", seat=1, meld=1, cards="4C QC", into_first="4C 5C 6C"
    )
    text = words(dealer.follow(answer))
    assert "Seat 1 adds 4♣ Q♣ to 5♣ 6♣ 7♣ J♣ and splits it into 4♣ 5♣ 6♣ and 7♣ J♣ Q♣." in text
    wrong = act(
        dealer, hand_id, status=422, action="split", seat=1, meld=1, cards="", into_first="KS KS KS"
    )
    assert "The first meld holds cards that are not in meld 1" in words(
        wrong.get_data(as_text=True)
    )


def test_drop_and_foul(dealer: Web, floor_api: Api) -> None:
    table = six_seated(floor_api)
    hand = floor_api.hand(table)["id"]
    text = words(dealer.follow(act(dealer, hand, action="drop", seat=3)))
    assert "Seat 3 drops." in text
    assert "Seat 3 (P3) pays the pot 2 chips: drop forfeit." in text
    floor_api.event(hand, {"type": "meld", "seat": 1, "cards": SEED[0]})
    text = words(dealer.follow(act(dealer, hand, action="foul", seat=1)))
    assert "Seat 1 fouls." in text
    assert "pays seat 2 (P2) 4 chips: foul refund." in text
    assert "⚠ fouled" in text


def test_fits_shows_where_a_discard_goes_and_flags_going_out(
    dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """Does "fits" list where a card fits, and flag in words one that would take a seat out?"""
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[0]})
    text = words(dealer.get(f"/hands/{hand_id}?fits=5s"))
    assert "✓ seat 1 (P1), 5♠ 5♠ 5♠" in text
    assert "GOES OUT" not in text
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": SEED[1]})
    floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C", "5C"]})
    page = dealer.get(f"/hands/{hand_id}?fits=6C")
    assert "⚠ GOES OUT: seat 1 (P1), 2♣ 3♣ 4♣ 5♣ — seat 1 has 10 down and would go out" in words(
        page
    )
    assert 'class="meld fits fits-out"' in page
    assert "fits no meld" in words(dealer.get(f"/hands/{hand_id}?fits=KD"))
    assert "'9D' is not a Pan card" in words(dealer.get(f"/hands/{hand_id}?fits=9D"))


def test_going_out_shows_the_settlement_before_recording_it(
    people: Flask, dealer: Web, floor_api: Api, hand_id: int
) -> None:
    """Does Go out show every seat's going-out chips, conditions again, pot and net, unrecorded?"""
    for cards in SEED:
        floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": cards})
    answer = act(dealer, hand_id, action="go_out", seat=1)
    assert answer.headers["Location"] == f"/hands/{hand_id}/settle?seat=1"
    recorded = events(people)
    page = dealer.follow(answer)
    text = words(page)
    assert "Seat 1 (P1) goes out: collects 26" in text
    assert "1 P1 ★ out" in text and "5 P5 dropped" in text
    figures = settlement_of(page)
    assert figures[1] == ["+4", "+20", "+2", "0", "+26", "+46", "146"]
    assert figures[2] == ["-1", "-5", "0", "0", "-6", "-11", "89"]
    assert figures[5] == ["0", "0", "0", "0", "0", "-2", "98"]
    assert (
        "valle set in spades (5♠ 5♠ 5♠) worth 4; run with the king in hearts (J♥ Q♥ K♥) worth 1"
        in text
    )
    assert events(people) == recorded  # only shown
    confirm = dealer.post(f"/hands/{hand_id}/settle", {"seat": "1", "key": "web-out"})
    settled = words(dealer.follow(confirm))
    assert "✔ Seat 1 goes out." in settled
    assert "★ went out" in settled
    assert "Settlement" in settled
    again = dealer.post(f"/hands/{hand_id}/settle", {"seat": "1", "key": "web-out"})
    assert again.headers["Location"] == confirm.headers["Location"]
    assert events(people) == recorded + 1


def test_going_out_too_soon_says_why(dealer: Web, hand_id: int) -> None:
    page = dealer.get(f"/hands/{hand_id}/settle?seat=1", status=422)
    assert "Seat 1 has 0 cards down: going out needs exactly 11." in words(page)
    assert "Confirm" not in words(page)
    assert "Choose the seat that goes out." in words(
        dealer.get(f"/hands/{hand_id}/settle", status=422)
    )


def test_discard_penalty_after_going_out(dealer: Web, floor_api: Api, hand_id: int) -> None:
    for cards in SEED:
        floor_api.event(hand_id, {"type": "meld", "seat": 1, "cards": cards})
    floor_api.event(hand_id, {"type": "go_out", "seat": 1})
    assert {k for k, on in buttons(dealer.get(f"/hands/{hand_id}?seat=2")).items() if on} == {
        "penalty"
    }
    text = words(dealer.follow(act(dealer, hand_id, action="penalty", seat=2)))
    assert "Seat 2 pays the discard penalty." in text
    assert "Seat 2 (P2) pays seat 3 (P3) 11 chips: discard penalty." in text


def test_a_meld_not_claimed_is_recorded_with_nothing_paid(dealer: Web, floor_api: Api) -> None:
    """Issue 9: the pad's "Not claimed" switch sends claimed: false; the next form has it off."""
    table = six_seated(floor_api)
    hand = floor_api.hand(table)["id"]
    form = {"action": "meld", "seat": "1", "cards": "5S 5S 5S", "not_claimed": "y"}
    page = dealer.follow(dealer.post(f"/hands/{hand}/events", form))
    assert "not claimed: nothing paid" in words(page)
    assert 'name="not_claimed" value="y" checked' not in page
    event = floor_api.get(f"/hands/{hand}")["events"][-1]
    assert (event["claimed"], event["payments"]) == (False, [])


def test_the_acting_seat_buys_in_from_the_hand_screen_and_the_hand_stays(
    dealer: Web, floor_api: Api, table_id: int, hand_id: int
) -> None:
    """Is the acting seat's buy-in on the hand screen (none while no seat acts), recorded once,
    and back on the hand with that seat acting; an address off the site goes to the table?"""
    assert re.search(
        r'<section class="panel buy-in-here"[^>]*data-buy-in hidden',
        dealer.get(f"/hands/{hand_id}"),
    )
    page = dealer.get(f"/hands/{hand_id}?seat=4")
    form = re.search(r'<section class="panel buy-in-here"[^>]*>(.*?)</section>', page, re.S)
    assert form and f'action="/tables/{table_id}/seats/4/chips"' in form.group(1)
    assert f'name="back" type="hidden" value="/hands/{hand_id}?seat=4"' in form.group(1)
    assert "Buy-in for seat 4" in words(form.group(1))
    sent = {
        "kind": "buy_in",
        "amount": "25",
        "key": "web-buy-4",
        "back": f"/hands/{hand_id}?seat=4",
    }
    answer = dealer.post(f"/tables/{table_id}/seats/4/chips", sent)
    assert answer.headers["Location"] == f"/hands/{hand_id}?seat=4"
    dealer.post(f"/tables/{table_id}/seats/4/chips", sent)  # the same key: recorded once
    assert floor_api.get(f"/tables/{table_id}")["seats"]["4"]["stack"] == 125
    away = {**sent, "key": "web-buy-4b", "back": "https://example.com/"}
    elsewhere = dealer.post(f"/tables/{table_id}/seats/4/chips", away)
    assert elsewhere.headers["Location"] == f"/tables/{table_id}"
