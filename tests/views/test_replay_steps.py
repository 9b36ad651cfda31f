"""dealer/views/replay.py through its own function: a table's third hand replayed step by step
carries the chips of the hands before it; a hand that moved no chips replays the stacks it was
dealt with, not those of the hands after it; each step says which seats and melds it touched
(what the screen highlights); the winner's seat says it went out.

The table: classic, no collection, four seats of 100. Hand 1: seat 4 drops, seat 1 melds
5♠ 5♠ 5♠ (4 chips from seats 2 and 3), J♥ Q♥ K♥ (1 each) and a run, and goes out. Hand 2 is
voided at the deal: no chips move. Hand 3: seat 4 drops (2 chips to the pot), seat 2 melds
K♠ K♠ K♠ (2 from seats 1 and 3), seat 3 melds K♥ K♣ K♦ (a set that pays nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.errors import Invalid
from dealer.extensions import db
from dealer.models import Event, LedgerEntry
from dealer.views.replay import ReplayView, replay_view
from tests.helpers import Api
from tests.reports.evening import WINNING_MELDS


@dataclass(frozen=True)
class Table:
    first: int
    voided: int
    third: int


def played(people: Flask) -> Table:
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    for seat in (1, 2, 3, 4):
        sam.seat(table, seat, f"P{seat}", 100)
    first = int(sam.hand(table, dropped=[4])["id"])
    for cards in WINNING_MELDS:
        sam.event(first, {"type": "meld", "seat": 1, "cards": cards})
    sam.event(first, {"type": "go_out", "seat": 1})
    voided = int(sam.hand(table)["id"])
    sam.event(voided, {"type": "void_hand", "reason": "Misdeal."})
    third = int(sam.hand(table, dropped=[4])["id"])
    sam.event(third, {"type": "meld", "seat": 2, "cards": ["KS", "KS", "KS"]})
    sam.event(third, {"type": "meld", "seat": 3, "cards": ["KH", "KC", "KD"]})
    return Table(first, voided, third)


def at(app: Flask, hand: int, step: int | None = None) -> ReplayView:
    with app.app_context():
        return replay_view(db.session(), hand, step)


def stacks(view: ReplayView) -> dict[int, int]:
    return {seat.seat: seat.stack for seat in view.seat_list}


def touched(view: ReplayView) -> set[int]:
    return {seat.seat for seat in view.seat_list if seat.touched}


#: The stacks after hand 1: seat 1 took 8 + 2 + its going out; seat 4 dropped for 2.
AFTER_FIRST = {1: 124, 2: 89, 3: 89, 4: 98}


def test_the_third_hand_replays_on_the_chips_the_earlier_hands_left(people: Flask) -> None:
    table = played(people)
    assert stacks(at(people, table.first)) == AFTER_FIRST
    dealt = at(people, table.third, 1)
    assert stacks(dealt) == AFTER_FIRST
    assert (dealt.pot, dealt.at, dealt.last) == (0, 1, 4)
    dropped = at(people, table.third, 2)
    assert stacks(dropped) == AFTER_FIRST | {4: 96}
    assert dropped.pot == 2
    melded = at(people, table.third, 3)
    assert stacks(melded) == {1: 122, 2: 93, 3: 87, 4: 96}
    assert {s.seat: s.net for s in melded.seat_list} == {1: -2, 2: 4, 3: -2, 4: -2}
    last = at(people, table.third)
    assert last.at == 4 and stacks(last) == stacks(melded)
    for outside in (0, 5):
        with pytest.raises(Invalid) as refused:
            at(people, table.third, outside)
        assert refused.value.code == "unknown_event"
        assert refused.value.message == f"Hand 3 has events 1 to 4; there is no event {outside}."


def test_a_hand_that_moved_no_chips_replays_the_stacks_it_was_dealt(people: Flask) -> None:
    """Hand 2 has no ledger entries: its stacks are those before it began, not the third
    hand's, played after it."""
    table = played(people)
    for step in (1, 2):
        view = at(people, table.voided, step)
        assert stacks(view) == AFTER_FIRST, step
        assert view.pot == 0 and touched(view) == set() and view.touched_melds == []
    assert at(people, table.voided).status == "void"


def test_each_step_says_the_seats_and_melds_it_touched(people: Flask) -> None:
    table = played(people)
    assert touched(at(people, table.third, 1)) == set()
    # The drop moves seat 4's chips and touches no meld.
    drop = at(people, table.third, 2)
    assert (touched(drop), drop.touched_melds) == ({4}, [])
    # A meld that pays touches its seat, the seats paying, and the meld.
    paid = at(people, table.third, 3)
    kings = [m.id for m in paid.seats["2"].melds]
    assert (touched(paid), paid.touched_melds) == ({1, 2, 3}, kings)
    # A meld that pays nothing touches its own seat and meld only.
    unpaid = at(people, table.third, 4)
    mine = [m.id for m in unpaid.seats["3"].melds]
    assert (touched(unpaid), unpaid.touched_melds) == ({3}, mine)
    assert mine != kings


def test_the_winners_seat_went_out_once_the_hand_is_settled(people: Flask) -> None:
    table = played(people)
    before = at(people, table.first, 5)
    assert before.status == "playing"
    assert [s.status_words for s in before.seat_list] == ["in", "in", "in", "dropped"]
    settled = at(people, table.first)
    assert (settled.status, settled.winner) == ("settled", 1)
    assert [s.status_words for s in settled.seat_list] == ["went out", "in", "in", "dropped"]
    assert touched(settled) >= {1}


def test_a_ledger_entry_opens_the_replay_at_the_event_that_made_it(people: Flask) -> None:
    table = played(people)
    with people.app_context():
        session = db.session()

        def entries(hand: int) -> list[tuple[int, int]]:
            query = select(LedgerEntry.seq, Event.seq).join(Event, LedgerEntry.event_id == Event.id)
            rows = session.execute(query.where(LedgerEntry.hand_id == hand))
            return [(int(entry), int(step)) for entry, step in rows]

        for entry, step in entries(table.third):
            assert replay_view(session, table.third, entry=entry).at == step
        paid_first = entries(table.first)[0][0]
        with pytest.raises(Invalid) as refused:
            replay_view(session, table.third, entry=paid_first)
        assert refused.value.code == "unknown_entry"
        assert refused.value.message == (f"Ledger entry {paid_first} is not a payment of hand 3.")
