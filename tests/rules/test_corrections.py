"""PAN_RULES.md section 7: foul, void an event, the discard penalty, void the hand."""

import pytest

from dealer.rules import HOUSE, POT, GoOut, NotAllowedNowError, Void, VoidHand
from tests.rules.helpers import act, each, new_hand, paid


def test_a_foul_pays_back_its_conditions_and_keeps_paying():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "meld", seat=2, cards=["5S", "5S", "5S"])  # 1 and 3 pay 4 each
    act(hand, "meld", seat=1, cards=["KS", "KS", "KS"])  # 2 and 3 pay 2 each
    event = act(hand, "foul", seat=2)
    assert paid(event) == [("2", "1", 4, "foul_refund"), ("2", "3", 4, "foul_refund")]
    assert hand.seat_status[2] == "fouled"
    with pytest.raises(NotAllowedNowError):
        act(hand, "add", seat=2, meld=1, cards=["5S"])
    # It keeps paying: a new condition by seat 3 is paid by the fouled seat too.
    assert paid(act(hand, "meld", seat=3, cards=["JD", "JD", "JD"])) == each((1, 2), 3, 1)


def test_a_fouled_seat_pays_at_going_out():
    hand = new_hand(seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    act(hand, "foul", seat=3)
    act(hand, "meld", seat=1, cards=["2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC"])
    event = act(hand, "go_out", seat=1)
    assert paid(event) == sorted(
        [*each((2, 3), 1, 1, "going_out"), *each((2, 3), 1, 4, "conditions_again")]
    )


def test_void_reverses_payments_and_undoes_the_meld():
    hand = new_hand(seats=(1, 2, 3))
    event = act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    void = act(hand, "void", event=event.seq, reason="mis-entry")
    assert paid(void) == [("1", "2", 4, "void"), ("1", "3", 4, "void")]
    assert all(p.reverses is not None for p in void.payments)
    assert (
        hand.melds == {}
        and hand.cards_down[1] == 0
        and hand.shoe_count(event.payments[0].cards[0]) == 0
    )
    assert hand.net == {1: 0, 2: 0, 3: 0, POT: 0, HOUSE: 0}
    assert hand.condition_paid(2, 1) == 0
    # Meld ids are never reused.
    assert act(hand, "meld", seat=1, cards=["4C", "5C", "6C"]).melds == (2,)


def test_only_an_event_nothing_later_depends_on_can_be_voided():
    hand = new_hand(seats=(1, 2))
    first = act(hand, "meld", seat=1, cards=["5C", "6C", "7C"])
    later = act(hand, "add", seat=1, meld=1, cards=["JC"])
    act(hand, "meld", seat=2, cards=["KD", "KD", "KD"])  # independent
    with pytest.raises(NotAllowedNowError) as caught:
        act(hand, "void", event=first.seq, reason="wrong cards")
    assert caught.value.code == "event_depended_on" and f"event {later.seq}" in caught.value.message
    act(hand, "void", event=later.seq, reason="wrong card")
    act(hand, "void", event=first.seq, reason="wrong cards")
    assert [m.seat for m in hand.melds.values()] == [2]


def test_every_later_event_depends_on_a_drop_or_foul():
    hand = new_hand(seats=(1, 2, 3))
    drop = act(hand, "drop", seat=3)
    act(hand, "meld", seat=1, cards=["4C", "5C", "6C"])
    assert not hand.voidable(drop.seq)


def test_a_void_and_the_deal_cannot_be_voided():
    hand = new_hand(seats=(1, 2))
    event = act(hand, "meld", seat=1, cards=["4C", "5C", "6C"])
    void = act(hand, "void", event=event.seq, reason="x")
    assert not hand.voidable(void.seq) and not hand.voidable(1) and not hand.voidable(event.seq)
    with pytest.raises(NotAllowedNowError, match="already void"):
        act(hand, "void", event=event.seq, reason="again")


def win(hand, seat):
    act(hand, "meld", seat=seat, cards=["5S", "5S", "5S"])
    act(hand, "meld", seat=seat, cards=["2C", "3C", "4C", "5C", "6C", "7C", "JC", "QC"])
    return act(hand, "go_out", seat=seat)


def test_voiding_the_going_out_reopens_the_hand_and_needs_a_supervisor():
    hand = new_hand(seats=(1, 2, 3))
    out = win(hand, 1)
    assert hand.needs_supervisor(Void(out.seq, "wrong seat"))
    act(hand, "void", event=out.seq, reason="went out early")
    assert hand.status == "playing" and hand.winner is None
    assert not hand.needs_supervisor(Void(out.seq, "x"))
    assert hand.needs_supervisor(VoidHand("misdeal"))
    act(hand, "go_out", seat=1)
    assert hand.net[1] == 2 * 4 + 2 * (1 + 4)


def test_discard_penalty_reimburses_every_loser_but_the_winner():
    hand = new_hand(seats=(1, 2, 3, 4, 5), collection={"kind": "per_hand", "chips": 1})
    act(hand, "drop", seat=5)
    act(hand, "meld", seat=3, cards=["KS", "KS", "KS"])  # 1, 2, 4 pay 2 each
    win(hand, 1)
    before = {s: hand.game_net(s) for s in (2, 3, 4, 5)}
    event = act(hand, "penalty", seat=4)
    # Seat 4 (the offender) pays each other seat's loss except the winner's; house fees are
    # no loss at play. Seat 3 collected 2 x 3 and paid 1 + 4 + 2 + 2: net -3.
    assert before == {2: -11, 3: -3, 4: -11, 5: -2}
    assert paid(event) == [
        ("4", "2", 11, "penalty"),
        ("4", "3", 3, "penalty"),
        ("4", "5", 2, "penalty"),
    ]
    with pytest.raises(NotAllowedNowError) as caught:
        act(hand, "penalty", seat=2)
    assert caught.value.code == "penalty_taken"


def test_penalty_only_after_going_out():
    hand = new_hand(seats=(1, 2))
    with pytest.raises(NotAllowedNowError):
        act(hand, "penalty", seat=2)
    dropped = new_hand(seats=(1, 2))
    act(dropped, "drop", seat=2)
    with pytest.raises(NotAllowedNowError):
        act(dropped, "penalty", seat=2)


def test_void_the_hand_reverses_everything():
    hand = new_hand("cardroom", seats=(1, 2, 3), collection={"kind": "per_hand", "chips": 1})
    act(hand, "drop", seat=3)
    meld = act(hand, "meld", seat=1, cards=["5S", "5S", "5S"])
    act(hand, "void", event=meld.seq, reason="mis-entry")
    act(hand, "meld", seat=2, cards=["JD", "JD", "JD"])
    event = act(hand, "void_hand", reason="misdeal")
    assert hand.status == "void"
    assert set(hand.net.values()) == {0}
    assert {p.rule for p in event.payments} == {"void_hand"}
    # Voided events are not reversed twice: 3 collections + 3 antes + 1 condition.
    assert len(event.payments) == 7
    with pytest.raises(NotAllowedNowError):
        act(hand, "meld", seat=1, cards=["4C", "5C", "6C"])
    assert not hand.can(GoOut(1))
