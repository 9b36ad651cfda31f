"""The rulings on splits, borrows, unclaimed melds and the last foul (PAN_RULES.md sections 4
and 7, and the knob rearrange_needs_card), each under both profiles."""

import pytest

from dealer.rules import (
    NOT_CLAIMED,
    Foul,
    IllegalActionError,
    NotAllowedNowError,
    Split,
    action_to_dict,
    parse_cards,
)
from tests.rules.helpers import act, each, new_hand, paid

PROFILES = ("classic", "cardroom")


def table(hand):
    """Every meld as (id, seat, cards, paid): what a later event could tell apart."""
    return sorted((m.id, m.seat, str(m), m.paid) for m in hand.melds.values())


def split_both_ways(profile, laid, added, first, second, seats=(1, 2, 3), before=()):
    """The same split entered with its parts in either order, on two identical hands."""
    hands = []
    for into in ([first, second], [second, first]):
        hand = new_hand(profile, seats=seats)
        act(hand, "meld", seat=1, cards=laid)
        for body in before:
            act(hand, **body)
        event = act(hand, "split", seat=1, meld=1, cards=added, into=into)
        hands.append((hand, event))
    return hands


# ------------------------------------------------ 1. which part of a split keeps the meld


@pytest.mark.parametrize(
    ("profile", "rise"),
    [("classic", 4), ("cardroom", 4)],
)
def test_a_five_spade_split_pays_the_smaller_part_in_either_order(profile, rise):
    # 5S x6 + 5S: x4 (classic 8, card room 6) keeps P; x3 (4) is new and collects 4.
    (a, split_a), (b, split_b) = split_both_ways(
        profile, ["5S"] * 6, ["5S"], ["5S"] * 3, ["5S"] * 4
    )
    assert paid(split_a) == paid(split_b) == each((2, 3), 1, rise)
    assert split_a.payments == split_b.payments
    assert table(a) == table(b)
    assert str(a.melds[1]) == "5S 5S 5S 5S" and str(a.melds[2]) == "5S 5S 5S"
    assert a.melds[1].paid == (16 if profile == "classic" else 10)


@pytest.mark.parametrize(("profile", "rise"), [("classic", 1), ("cardroom", 1)])
def test_a_ten_card_heart_run_split_pays_the_same_in_either_order(profile, rise):
    # AH..QH + KH: the king part (classic 5, card room 1, seven cards) keeps P.
    run = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH"]
    (a, split_a), (b, split_b) = split_both_ways(
        profile, run, ["KH"], ["AH", "2H", "3H"], ["4H", "5H", "6H", "7H", "JH", "QH", "KH"]
    )
    assert paid(split_a) == paid(split_b) == each((2, 3), 1, rise)
    assert table(a) == table(b)
    assert str(a.melds[1]) == "4H 5H 6H 7H JH QH KH"


@pytest.mark.parametrize("profile", PROFILES)
def test_neither_part_of_the_originals_kind_the_part_worth_more_keeps_the_meld(profile):
    # 4C..KC lends its KC (P stays); with a new KC, 7C JC QC KC is worth more than 4C 5C 6C.
    lend = {"type_": "borrow", "seat": 1, "meld": 1, "take": ["KC"], "cards": ["KD", "KH"]}
    (a, split_a), (b, split_b) = split_both_ways(
        profile,
        ["4C", "5C", "6C", "7C", "JC", "QC", "KC"],
        ["KC"],
        ["4C", "5C", "6C"],
        ["7C", "JC", "QC", "KC"],
        before=[lend],
    )
    assert paid(split_a) == paid(split_b) == []
    assert table(a) == table(b)
    # The king run keeps the lender's level: 4C..KC was worth 5 (classic) or 1 (card room).
    assert str(a.melds[1]) == "7C JC QC KC"
    assert a.melds[1].paid == (5 if profile == "classic" else 1)


@pytest.mark.parametrize("profile", PROFILES)
def test_equal_parts_the_lower_cards_keep_the_meld_so_later_growth_agrees(profile):
    # AH..QH + KH into AH..5H and 6H..KH: equal value, equal size.
    run = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH"]
    low, high = ["AH", "2H", "3H", "4H", "5H"], ["6H", "7H", "JH", "QH", "KH"]
    (a, split_a), (b, split_b) = split_both_ways(profile, run, ["KH"], high, low)
    assert a.melds[1].value == a.melds[2].value
    assert paid(split_a) == paid(split_b)
    assert table(a) == table(b)
    assert str(a.melds[1]) == "AH 2H 3H 4H 5H"
    grown = [paid(act(h, "add", seat=1, meld=2, cards=["5H"])) for h in (a, b)]
    assert grown[0] == grown[1]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_kept_part_is_collected_for_first_whatever_the_order(profile):
    (_, split_a), (_, split_b) = split_both_ways(
        profile, ["6H"] * 5, ["6H"], ["6H"] * 3, ["6H"] * 3
    )
    assert split_a.melds == split_b.melds == (1, 2)


# ------------------------------------------------ 2. playing no card from hand


def no_card_split(hand):
    return act(hand, "split", seat=1, meld=1, cards=[], into=[["5S"] * 3, ["5S"] * 3])


def no_card_borrow(hand):
    return act(hand, "borrow", seat=2, meld=2, take=["7D", "JD", "QD"], cards=[])


def long_melds(profile, **knobs):
    """Seat 1 has 5S x6 (meld 1), seat 2 has 4D..QD (meld 2): both long enough to rearrange."""
    hand = new_hand(profile, seats=(1, 2, 3), **knobs)
    act(hand, "meld", seat=1, cards=["5S"] * 6)
    act(hand, "meld", seat=2, cards=["4D", "5D", "6D", "7D", "JD", "QD"])
    return hand


def test_the_card_room_refuses_a_split_or_borrow_with_no_card_from_hand():
    hand = long_melds("cardroom")
    before = (dict(hand.net), table(hand), len(hand.events))
    for rearrange in (no_card_split, no_card_borrow):
        with pytest.raises(IllegalActionError) as refused:
            rearrange(hand)
        assert refused.value.code == "needs_card_from_hand"
        assert "at least one card from the hand" in refused.value.message
    assert before == (dict(hand.net), table(hand), len(hand.events))
    # With a card from hand, both are fine.
    act(hand, "split", seat=1, meld=1, cards=["5S"], into=[["5S"] * 3, ["5S"] * 4])
    act(hand, "borrow", seat=2, meld=2, take=["JD", "QD"], cards=["KD"])


def test_the_classic_game_splits_up_and_lends_with_no_card_from_hand():
    hand = long_melds("classic")
    # Seed 000's "split up": 5S x6 (16) split 3 + 3, the new part collects its 4.
    assert paid(no_card_split(hand)) == each((2, 3), 1, 4)
    assert paid(no_card_borrow(hand)) == []
    assert hand.cards_down == {1: 6, 2: 6, 3: 0}


@pytest.mark.parametrize(("profile", "needs"), [("classic", True), ("cardroom", False)])
def test_the_knob_can_be_overridden_either_way(profile, needs):
    hand = long_melds(profile, rearrange_needs_card=needs)
    assert hand.rules.rearrange_needs_card is needs
    split = Split(1, 1, (), (parse_cards("5S 5S 5S"), parse_cards("5S 5S 5S")))
    assert hand.can(split) is not needs


@pytest.mark.parametrize("profile", PROFILES)
def test_at_the_card_limit_only_the_classic_game_offers_a_split(profile):
    hand = new_hand(profile, seats=(1, 2))
    act(hand, "meld", seat=1, cards=["AC", "2C", "3C", "4C", "5C", "6C", "7C", "JC"])
    act(hand, "meld", seat=1, cards=["6H", "6H", "6H"])
    offered = hand.allowed(1)
    if profile == "classic":
        assert offered == {"split", "borrow", "go_out", "foul"}
    else:
        assert offered == {"go_out", "foul"}


# ------------------------------------------------ 3. unclaimed


@pytest.mark.parametrize("profile", PROFILES)
def test_an_unclaimed_meld_pays_nothing_and_its_chips_are_never_owed(profile):
    hand = new_hand(profile, seats=(1, 2, 3))
    net = dict(hand.net)
    event = act(hand, "meld", seat=1, cards=["5S"] * 3, claimed=False)
    assert paid(event) == [] and hand.net == net
    assert hand.melds[1].paid == hand.melds[1].value == 4
    assert event.text == f"seat 1 melds 5S 5S 5S ({NOT_CLAIMED})"
    assert NOT_CLAIMED == "not claimed: nothing paid"
    assert event.claimed is False
    assert action_to_dict(event.action)["claimed"] is False
    # Growing it pays only above the unclaimed level: classic 8 - 4, card room 6 - 4.
    rise = 4 if profile == "classic" else 2
    assert paid(act(hand, "add", seat=1, meld=1, cards=["5S"])) == each((2, 3), 1, rise)
    act(hand, "meld", seat=1, cards=["2C", "3C", "4C", "5C", "6C", "7C", "JC"])
    out = act(hand, "go_out", seat=1)
    again = [p for p in out.payments if p.rule == "conditions_again"]
    assert {(p.payer, p.chips) for p in again} == {(2, rise), (3, rise)}


@pytest.mark.parametrize("profile", PROFILES)
def test_an_unclaimed_add_borrow_and_split_pay_nothing(profile):
    hand = new_hand(profile, seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5S"] * 3)
    paid_level = hand.melds[1].paid
    add = act(hand, "add", seat=1, meld=1, cards=["5S"] * 2, claimed=False)
    assert paid(add) == [] and "not claimed: nothing paid" in add.text
    assert hand.melds[1].paid == hand.melds[1].value > paid_level
    borrow = act(hand, "borrow", seat=1, meld=1, take=["5S"], cards=["5H", "5C"], claimed=False)
    assert paid(borrow) == [] and borrow.text.endswith("(not claimed: nothing paid)")
    # The lender's level never falls: its V fell, P stays.
    assert hand.melds[1].paid > hand.melds[1].value
    assert hand.melds[2].paid == hand.melds[2].value == 1
    split = act(
        hand,
        "split",
        seat=1,
        meld=2,
        cards=["5D", "5H", "5C"],
        into=[["5C", "5H", "5S"], ["5C", "5D", "5H"]],
    )
    assert paid(split) == each((2,), 1, 1)
    unclaimed = act(hand, "meld", seat=2, cards=["KD"] * 6, claimed=False)
    assert paid(unclaimed) == []
    split = act(
        hand, "split", seat=2, meld=4, cards=["KD"], into=[["KD"] * 3, ["KD"] * 4], claimed=False
    )
    assert paid(split) == [] and split.claimed is False
    assert [hand.melds[m].paid for m in split.melds] == [4, 1]


@pytest.mark.parametrize("profile", PROFILES)
def test_a_fouled_seat_pays_back_only_what_was_paid(profile):
    hand = new_hand(profile, seats=(1, 2, 3))
    act(hand, "meld", seat=1, cards=["KS"] * 3, claimed=False)
    act(hand, "meld", seat=1, cards=["5H"] * 3)
    foul = act(hand, "foul", seat=1)
    # Seat 1 pays back the 2 of the claimed 5H set, not the unclaimed kings.
    assert paid(foul) == [("1", "2", 2, "foul_refund"), ("1", "3", 2, "foul_refund")]


@pytest.mark.parametrize("profile", PROFILES)
def test_voiding_an_unclaimed_event_returns_nothing_and_undoes_its_cards(profile):
    hand = new_hand(profile, seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5S"] * 3)
    add = act(hand, "add", seat=1, meld=1, cards=["5S"], claimed=False)
    void = act(hand, "void", event=add.seq, reason="the seat did ask")
    assert paid(void) == []
    assert str(hand.melds[1]) == "5S 5S 5S" and hand.melds[1].paid == 4
    regrown = act(hand, "add", seat=1, meld=1, cards=["5S"])
    assert paid(regrown) == each((2,), 1, 4 if profile == "classic" else 2)


def test_claimed_true_is_the_canonical_form_left_out():
    hand = new_hand(seats=(1, 2))
    event = act(hand, "meld", seat=1, cards=["5S"] * 3, claimed=True)
    assert event.claimed is True and "claimed" not in action_to_dict(event.action)
    assert NOT_CLAIMED not in event.text
    assert hand.events[0].claimed is True  # the deal


# ------------------------------------------------ 4. the last foul


@pytest.mark.parametrize("profile", PROFILES)
def test_two_seats_of_two_cannot_both_foul(profile):
    hand = new_hand(profile, seats=(1, 2))
    act(hand, "meld", seat=1, cards=["5S"] * 3)
    first = act(hand, "foul", seat=2)
    assert "foul" not in hand.allowed(1)
    before = (dict(hand.net), dict(hand.seat_status), len(hand.events))
    with pytest.raises(NotAllowedNowError) as refused:
        act(hand, "foul", seat=1)
    assert refused.value.code == "no_seat_can_go_out"
    assert "supervisor" in refused.value.message and "void the hand" in refused.value.message
    assert before == (dict(hand.net), dict(hand.seat_status), len(hand.events))
    # The hand can still end: seat 1 goes out, or a supervisor voids the hand.
    assert hand.can(Foul(1)) is False and hand.status == "playing"
    act(hand, "void", event=first.seq, reason="the count was right")
    assert hand.can(Foul(1)) and "foul" in hand.allowed(1)


@pytest.mark.parametrize("profile", PROFILES)
def test_the_last_seat_in_play_cannot_foul_when_the_rest_dropped_or_fouled(profile):
    hand = new_hand(profile, seats=(1, 2, 3, 4))
    act(hand, "drop", seat=4)
    act(hand, "foul", seat=2)
    act(hand, "foul", seat=3)
    with pytest.raises(NotAllowedNowError) as refused:
        act(hand, "foul", seat=1)
    assert refused.value.code == "no_seat_can_go_out"
    act(hand, "void_hand", reason="misdeal")
    assert hand.status == "void" and set(hand.net.values()) == {0}


# ------------------------------------------------ 5. a voided event never happened


@pytest.mark.parametrize("profile", PROFILES)
def test_with_the_only_meld_voided_seats_may_drop_again(profile):
    hand = new_hand(profile, seats=(1, 2, 3))
    meld = act(hand, "meld", seat=1, cards=["5S"] * 3)
    assert "drop" not in hand.allowed(3)
    act(hand, "void", event=meld.seq, reason="mis-entry")
    assert hand.melds == {} and "drop" in hand.allowed(3)
    drop = act(hand, "drop", seat=3)
    forfeit = hand.rules.drop_forfeit
    assert paid(drop) == ([("3", "pot", forfeit, "drop_forfeit")] if forfeit else [])
    assert hand.seat_status[3] == "dropped"
    # The last seat left takes the pot.
    act(hand, "drop", seat=2)
    assert hand.status == "settled" and hand.winner == 1


@pytest.mark.parametrize("profile", PROFILES)
def test_with_another_meld_standing_nobody_drops(profile):
    hand = new_hand(profile, seats=(1, 2, 3))
    act(hand, "meld", seat=2, cards=["4C", "5C", "6C"])
    meld = act(hand, "meld", seat=1, cards=["5S"] * 3)
    act(hand, "void", event=meld.seq, reason="mis-entry")
    with pytest.raises(NotAllowedNowError) as refused:
        act(hand, "drop", seat=3)
    assert refused.value.code == "too_late_to_drop"
