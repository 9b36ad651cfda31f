"""A hand's engine kept between its events (`dealer.hands.kept`): an event is judged on the
engine its hand's last event left when that event is the hand's last stored one, and the hand
is replayed from its events whenever it is not (a write this process did not see, a write
rolled back, a refusal), so the answers are the same as a whole replay's.

Events go through the API as a tablet posts them; ``replays`` counts the writes that replayed
their hand afresh.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from dealer.extensions import db
from dealer.hands import kept
from dealer.hands.reading import load_hand
from dealer.hands.record import record_event
from dealer.ledger.post import Recorder
from dealer.models import Event, Hand, User
from dealer.transactions import writing
from tests.helpers import Api

MELDS = [["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]]


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The event counts of the hands a write of their play replayed afresh, in order."""
    seen: list[int] = []
    replay = kept.replay

    def counted(hand: Hand, events: Any) -> Any:
        seen.append(len(events))
        return replay(hand, events)

    monkeypatch.setattr(kept, "replay", counted)
    return seen


def dealt(people: Flask) -> tuple[Api, int, int]:
    """Sam, a table of three seats, and a hand dealt there."""
    sam = Api.sign_in(people, "supervisor")
    table = int(sam.table("classic")["id"])
    for seat in (1, 2, 3):
        sam.seat(table, seat, f"P{seat}", 1000)
    return sam, table, int(sam.hand(table)["id"])


def meld(sam: Api, hand: int, cards: list[str], seat: int = 1) -> dict[str, Any]:
    answer: dict[str, Any] = sam.event(hand, {"type": "meld", "seat": seat, "cards": cards})
    return answer


def test_each_event_is_judged_on_the_engine_kept_with_the_same_answers(
    people: Flask, replays: list[int]
) -> None:
    sam, _table, hand = dealt(people)
    for cards in MELDS:
        answer = meld(sam, hand, cards)
        assert answer["hand"] == sam.get(f"/hands/{hand}")  # as a whole replay reads it
    settled = sam.event(hand, {"type": "go_out", "seat": 1})
    assert settled["hand"]["status"] == "settled" == sam.get(f"/hands/{hand}")["status"]
    assert replays == []  # the deal's engine, then each event's, kept for the next
    # A settled hand is not kept: its void (the floor's) replays it.
    void = {"type": "void", "event": settled["event"]["id"], "reason": "Not out."}
    assert sam.event(hand, void)["hand"] == sam.get(f"/hands/{hand}")
    assert replays == [5]


def test_a_refused_event_leaves_nothing_kept(people: Flask, replays: list[int]) -> None:
    sam, _table, hand = dealt(people)
    meld(sam, hand, MELDS[0])
    sam.event(hand, {"type": "meld", "seat": 1, "cards": ["KS", "QH"]}, status=422)
    assert replays == []  # judged on the kept engine, then dropped with the refusal
    answer = meld(sam, hand, MELDS[1])
    assert replays == [2]
    assert [e["seq"] for e in answer["hand"]["events"]] == [1, 2, 3]
    assert answer["hand"] == sam.get(f"/hands/{hand}")


def writer(people: Flask, name: str = "Sam") -> tuple[Recorder, User]:
    with people.app_context():
        user = db.session.scalars(select(User).where(User.name == name)).one()
        return Recorder(user.id, "another server"), user


def test_a_write_rolled_back_leaves_nothing_kept(people: Flask, replays: list[int]) -> None:
    sam, _table, hand = dealt(people)
    meld(sam, hand, MELDS[0])
    recorder, user = writer(people)
    with pytest.raises(RuntimeError), people.app_context(), writing(db.session()) as session:
        body = {"type": "meld", "seat": 2, "cards": MELDS[1]}
        recorded = record_event(session, session.get_one(Hand, hand), body, recorder, user, None)
        assert recorded[1].seq == 3  # judged on the kept engine, stored, then rolled back
        raise RuntimeError("the write fails before its commit")
    answer = meld(sam, hand, MELDS[2])
    assert replays == [2]  # the engine that judged the rolled-back meld was not kept
    assert [(e["seq"], e["seat"]) for e in answer["hand"]["events"]] == [(1, None), (2, 1), (3, 1)]
    assert answer["hand"] == sam.get(f"/hands/{hand}")


def test_an_event_this_process_did_not_keep_is_seen_by_its_seq(
    people: Flask, replays: list[int]
) -> None:
    """Another server's write (here one that replays the hand itself, as the screens do)."""
    sam, _table, hand = dealt(people)
    meld(sam, hand, MELDS[0])
    recorder, user = writer(people)
    with people.app_context(), writing(db.session()) as session:
        body = {"type": "meld", "seat": 2, "cards": MELDS[1]}
        record_event(session, load_hand(session, hand), body, recorder, user, None)
    answer = meld(sam, hand, MELDS[2])
    assert replays == [3]  # kept as of seq 2, stored up to seq 3: replayed
    assert [(e["seq"], e["seat"]) for e in answer["hand"]["events"]][1:] == [(2, 1), (3, 2), (4, 1)]
    assert answer["hand"] == sam.get(f"/hands/{hand}")
    meld(sam, hand, [["KS", "KS", "KS"]][0], seat=3)
    assert replays == [3]  # kept again from then on
    with people.app_context():
        assert db.session.scalar(select(Event.seq).order_by(Event.seq.desc()).limit(1)) == 5


def test_only_the_hands_last_written_are_kept(
    people: Flask, replays: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kept, "KEPT_HANDS", 1)
    sam, _table, first = dealt(people)
    _sam, _other, second = dealt(people)  # the last dealt: the first is let go
    meld(sam, second, MELDS[0])
    assert replays == []
    meld(sam, first, MELDS[0])
    assert replays == [1]


def test_a_savepoint_rolled_back_leaves_nothing_kept(people: Flask, replays: list[int]) -> None:
    sam, _table, hand = dealt(people)
    meld(sam, hand, MELDS[0])
    with people.app_context(), writing(db.session()) as session:
        kept.load(session, session.get_one(Hand, hand))  # taken, to be kept at the commit
        session.begin_nested().rollback()  # what it undid might have been in it
    meld(sam, hand, MELDS[1])
    assert replays == [2]


def test_the_hand_screens_entries_are_judged_on_the_engine_kept(
    people: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dealer's tablet records through the screen, not the API: its entries too are judged
    on the engine the hand's last event left (no replay of the hand, the kept one's or any
    other), and read the same as a whole replay."""
    from dealer.hands import reading
    from tests.screens.conftest import Web

    sam, _table, hand = dealt(people)
    replayed: list[int] = []
    replay = reading.replay

    def counted(row: Hand, events: Any) -> Any:
        replayed.append(len(events))
        return replay(row, events)

    monkeypatch.setattr(reading, "replay", counted)
    monkeypatch.setattr(kept, "replay", counted)
    web = Web.sign_in(people, "supervisor")
    for key, cards in enumerate(("5s 5s 5s", "jh qh kh")):
        data = {"action": "meld", "seat": "1", "cards": cards, "key": f"kept-{key}"}
        web.post(f"/hands/{hand}/events", data)
    assert replayed == []  # the deal's engine, then each entry's, kept for the next
    assert [m["cards"] for m in sam.get(f"/hands/{hand}")["seats"]["1"]["melds"]] == [
        ["5S", "5S", "5S"],
        ["JH", "QH", "KH"],
    ]
