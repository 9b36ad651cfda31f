"""Properties of whole hands (PAN_RULES.md sections 4, 5 and 7), on random legal play.

A driver deals a hand under random rules and plays it from its current state: drops, melds,
adds, borrows, splits, fouls, voids, going out, the discard penalty and now and then a void
of the whole hand. After every event the ledger and the table must make sense; every action
the hand refuses must raise a ``RulesError`` and change nothing.
"""

import dataclasses
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DataObject

from dealer.rules import (
    ALL_CARDS,
    NOT_CLAIMED,
    POT,
    Action,
    Add,
    Borrow,
    Card,
    Collection,
    Drop,
    EventRecord,
    Foul,
    GoOut,
    Hand,
    Meld,
    Payment,
    Penalty,
    Rules,
    RulesError,
    Split,
    Void,
    VoidHand,
    classify,
    condition_of,
    is_valid_meld,
    total_by_party,
)
from tests.examples import examples
from tests.rules.strategies import (
    any_meld,
    chunks,
    collections,
    condition_melds,
    growth_chain,
    growth_orders,
    melds_st,
    rules_st,
    seat_lists,
    split_parts,
)

SETTINGS = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

COLLECTING = ("meld", "add", "borrow", "split")
#: Payments a fouled seat may still receive: reversals, refunds, the discard penalty.
NOT_A_COLLECTION = ("void", "void_hand", "penalty", "foul_refund")


# ------------------------------------------------------------ the hand's state


def table_state(hand: Hand) -> tuple[object, ...]:
    """Everything a void of the last event must put back, and a refused action must not touch."""
    return (
        dict(hand.net),
        dict(hand.melds),
        dict(hand.cards_down),
        dict(hand.seat_status),
        hand.status,
        hand.winner,
        hand.penalty_taken,
        tuple(hand.shoe_count(c) for c in ALL_CARDS),
        tuple(hand.condition_paid(a, b) for a in hand.seats for b in hand.seats),
    )


def full_state(hand: Hand) -> tuple[object, ...]:
    return (*table_state(hand), len(hand.events), dict(hand.voided))


def in_seats(hand: Hand) -> list[int]:
    return [s for s in hand.seats if hand.seat_status[s] == "in"]


def room(hand: Hand):
    return lambda card: hand.rules.copies(card.suit) - hand.shoe_count(card)


# ------------------------------------------------------------- the invariants


def check_payment(hand: Hand, p: Payment) -> None:
    assert type(p.chips) is int, p
    assert p.chips > 0, p
    assert p.payer != p.payee, p
    assert isinstance(p.reason, str) and p.reason.strip(), p
    parties = {*hand.seats, "pot", "house"}
    assert p.payer in parties and p.payee in parties, p


def check_invariants(hand: Hand) -> None:
    """What must hold after every event of every hand."""
    net = hand.net
    assert sum(net.values()) == 0, net
    totals = total_by_party(hand.payments)
    assert set(totals) <= set(net), (totals, net)
    assert {party: totals.get(party, 0) for party in net} == net
    rules = hand.rules
    for seat in hand.seats:
        down = sum(len(m.cards) for m in hand.melds_of(seat))
        assert hand.cards_down[seat] == down <= hand.limit, (seat, hand.cards_down, down)
    on_table: Counter[Card] = Counter()
    for meld in hand.melds.values():
        shape = classify(meld.cards)
        assert shape == meld.shape, meld
        assert condition_of(shape, rules) == meld.condition, meld
        # Every change of a meld raises P to V at once; a borrow lowers V and leaves P.
        assert meld.paid >= max(0, meld.value), meld
        on_table.update(meld.cards)
    for card in ALL_CARDS:
        assert hand.shoe_count(card) == on_table[card] <= rules.copies(card.suit), card
    if hand.status == "void":
        assert all(v == 0 for v in net.values()), net
    if hand.status == "playing":
        # Some seat can still go out (section 7: the last foul is refused).
        assert in_seats(hand), hand.seat_status
    paid = ledger_conditions(hand)
    for a in hand.seats:
        for b in hand.seats:
            assert hand.condition_paid(a, b) == paid[(a, b)] >= 0, (a, b)
    game_net = ledger_game_net(hand)
    for seat in hand.seats:
        assert hand.game_net(seat) == game_net.get(seat, 0), seat


def original(hand: Hand, p: Payment) -> Payment:
    """The payment ``p`` reverses, or ``p`` itself."""
    if p.reverses is None:
        return p
    seq, index = p.reverses
    return hand.events[seq - 1].payments[index]


def ledger_conditions(hand: Hand) -> Counter[tuple[object, object]]:
    """From the payments alone: what each payer has paid each payee for conditions, net of
    foul refunds and of reversals (section 5.4's C)."""
    paid: Counter[tuple[object, object]] = Counter()
    for p in hand.payments:
        first = original(hand, p)
        sign = 1 if first is p else -1
        if first.rule == "condition":
            paid[(first.payer, first.payee)] += sign * first.chips
        elif first.rule == "foul_refund":
            paid[(first.payee, first.payer)] -= sign * first.chips
    return paid


def ledger_game_net(hand: Hand) -> dict[object, int]:
    """From the payments alone: each party's net for the hand, house fees left out."""
    kept = [p for p in hand.payments if original(hand, p).rule != "collection"]
    return total_by_party(kept)


def expected_rake(collection: Collection, collected: int) -> int:
    """Section 6: percent of the winner's collection, rounded down, at most cap."""
    if collection.kind != "rake_percent":
        return 0
    return min(collection.cap, collected * collection.percent // 100)


def event_net(event: EventRecord) -> dict[object, int]:
    return total_by_party(event.payments)


def minus(a: dict, b: dict) -> dict:
    return {k: a.get(k, 0) - b.get(k, 0) for k in {*a, *b}}


def nonzero(d: dict) -> dict:
    return {k: v for k, v in d.items() if v}


def created(event: EventRecord) -> list[int]:
    """The melds ``event`` brought onto the table."""
    action = event.action
    if isinstance(action, Meld):
        return list(event.melds)
    if isinstance(action, Borrow | Split):
        return [m for m in event.melds if m != action.meld]
    return []


def replay(hand: Hand) -> Hand:
    """A new hand with only the events that still stand, meld ids renumbered as they fall."""
    fresh = Hand(hand.rules, hand.seats, hand.collection)
    ids: dict[int, int] = {}
    for event in hand.events[1:]:
        if not hand.is_active(event.seq):
            continue
        action = event.action
        if isinstance(action, Add | Borrow | Split):
            action = dataclasses.replace(action, meld=ids[action.meld])
        assert action is not None
        again = fresh.apply(action)
        ids.update(zip(created(event), created(again), strict=True))
    return fresh


def table_without_ids(hand: Hand) -> tuple[object, ...]:
    melds = sorted((m.seat, m.cards, m.paid) for m in hand.melds.values())
    return (
        nonzero(hand.net),
        melds,
        dict(hand.cards_down),
        dict(hand.seat_status),
        hand.status,
        hand.winner,
        hand.penalty_taken,
        tuple(hand.condition_paid(a, b) for a in hand.seats for b in hand.seats),
    )


class Referee:
    """Checks each event against what PAN_RULES.md says it must pay and change."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        check_invariants(hand)
        for p in hand.payments:
            check_payment(hand, p)
        # Section 5.1: before the deal each seat pays the per-hand collection and the ante.
        fee = hand.collection.chips if hand.collection.kind == "per_hand" else 0
        expected: Counter[tuple[object, ...]] = Counter()
        for seat in hand.seats:
            if fee:
                expected[(seat, "house", fee, "collection")] += 1
            if hand.rules.tops_ante:
                expected[(seat, "pot", hand.rules.tops_ante, "ante")] += 1
        got = Counter((p.payer, p.payee, p.chips, p.rule) for p in hand.payments)
        assert got == expected
        #: Table state after each event, by seq (so before event k is after[k - 1]).
        self.after: dict[int, tuple[object, ...]] = {1: table_state(hand)}

    def play(self, action: Action | None) -> EventRecord | None:
        hand = self.hand
        if action is None:
            return None
        if not hand.can(action):
            frozen = full_state(hand)
            with pytest.raises(RulesError) as refused:
                hand.apply(action)
            assert full_state(hand) == frozen, action
            if isinstance(action, Foul) and hand.status == "playing":
                # Section 7: the last seat in play is never fouled; the hand is a misdeal.
                last = hand.seat_status.get(action.seat) == "in" and in_seats(hand) == [action.seat]
                assert (refused.value.code == "no_seat_can_go_out") == last, refused.value
            return None
        seat = getattr(action, "seat", None)
        if seat is not None and not isinstance(action, Penalty):
            # The buttons (allowed) offer every action the hand accepts.
            assert action.type in hand.allowed(seat), (action, hand.allowed(seat))
        before_melds = dict(hand.melds)
        before_net = dict(hand.net)
        before_paid = ledger_conditions(hand)
        before_game_net = ledger_game_net(hand)
        payers = hand.payers(seat) if seat is not None else []
        record = hand.apply(action)
        assert record.seq == len(hand.events)
        for p in record.payments:
            check_payment(hand, p)
        check_invariants(hand)
        kind = record.type
        for mid, meld in hand.melds.items():
            old = before_melds.get(mid)
            if old is None or kind in ("void", "void_hand"):
                continue
            assert meld.paid >= old.paid, (old, meld)  # P never falls but by a void
            if meld.value < old.value:
                assert kind in ("borrow", "split"), (kind, old, meld)
        if kind in COLLECTING:
            self._check_collection(record, before_melds, payers)
        elif isinstance(action, GoOut):
            self._check_going_out(record, before_net, before_paid, payers)
        elif isinstance(action, Foul):
            self._check_foul(record, before_paid)
        elif isinstance(action, Penalty):
            self._check_penalty(record, before_game_net)
        elif isinstance(action, Void):
            self._check_void(record, action, before_net)
        elif isinstance(action, Drop):
            self._check_drop(record, before_net)
        self.after[record.seq] = table_state(hand)
        return record

    def _check_collection(self, record: EventRecord, before: dict, payers: list[int]) -> None:
        """Section 4: each changed meld collects V - P from every paying seat, then P = V;
        unclaimed, P = V all the same and nobody pays."""
        hand = self.hand
        assert all(p.rule == "condition" for p in record.payments), record
        assert record.claimed == (NOT_CLAIMED not in record.text), record
        expected: Counter[tuple[object, ...]] = Counter()
        for mid in record.melds:
            meld = hand.melds[mid]
            old_paid = before[mid].paid if mid in before else 0
            assert meld.paid == max(old_paid, meld.value), (meld, old_paid)
            rise = meld.value - old_paid
            if rise > 0 and record.claimed:
                expected.update((payer, record.seat, rise, mid) for payer in payers)
        got = Counter((p.payer, p.payee, p.chips, p.meld) for p in record.payments)
        assert got == expected, (record, got, expected)

    def _check_going_out(
        self, record: EventRecord, before_net: dict, before_paid: dict, payers: list[int]
    ) -> None:
        """Section 5.4: each paying seat pays going_out_chips + C; the winner takes the pot."""
        hand = self.hand
        winner = record.seat
        assert hand.status == "settled" and hand.winner == winner
        for payer in payers:
            owed = hand.rules.going_out_chips + before_paid[(payer, winner)]
            paid = sum(
                p.chips
                for p in record.payments
                if p.payer == payer and p.rule in ("going_out", "conditions_again")
            )
            assert paid == owed, (payer, paid, owed)
        pot = sum(p.chips for p in record.payments if p.rule == "pot")
        assert pot == before_net[POT]
        assert hand.net[POT] == 0
        collected = sum(p.chips for p in record.payments if p.payee == winner)
        rake = sum(p.chips for p in record.payments if p.rule == "rake")
        assert rake == expected_rake(hand.collection, collected)
        assert {p.payer for p in record.payments if p.rule == "going_out"} <= set(payers)

    def _check_drop(self, record: EventRecord, before_net: dict) -> None:
        """Section 5.2: the drop forfeit into the pot; one seat left takes the pot."""
        hand, seat = self.hand, record.seat
        assert hand.seat_status[seat] == "dropped"
        forfeit = hand.rules.drop_forfeit
        forfeits = [(p.payer, p.payee, p.chips) for p in record.payments if p.rule != "pot"]
        assert forfeits == ([(seat, "pot", forfeit)] if forfeit else [])
        left = [s for s in hand.seats if hand.seat_status[s] != "dropped"]
        if len(left) == 1:
            assert hand.status == "settled" and hand.winner == left[0]
            assert hand.seat_status[left[0]] == "in"  # never a fouled seat (section 7)
            assert hand.net[POT] == 0
            assert hand.net[left[0]] == before_net[left[0]] + before_net[POT] + forfeit
        else:
            assert hand.status == "playing"
            assert len(record.payments) == (1 if forfeit else 0)

    def _check_foul(self, record: EventRecord, before_paid: dict) -> None:
        """Section 7: a fouled seat pays back every condition chip it collected."""
        hand, seat = self.hand, record.seat
        for p in record.payments:
            assert p.rule == "foul_refund" and p.payer == seat
            assert p.chips == before_paid[(p.payee, seat)]
        for other in hand.seats:
            assert hand.condition_paid(other, seat) == 0

    def _check_penalty(self, record: EventRecord, before_game_net: dict[int, int]) -> None:
        """Section 7: the offender makes good each other loser's loss for the hand."""
        hand, seat = self.hand, record.seat
        assert [e.type for e in hand.events if hand.is_active(e.seq)].count("penalty") == 1
        for other in hand.seats:
            if other in (seat, hand.winner):
                continue
            assert hand.game_net(other) == max(0, before_game_net.get(other, 0)), other

    def _undone_since(self, seq: int, event: EventRecord) -> bool:
        """Whether ``event`` (after ``seq``) is voided, or a void of an event after ``seq``."""
        if event.seq in self.hand.voided:
            return True
        return isinstance(event.action, Void) and event.action.event > seq

    def _check_void(self, record: EventRecord, action: Void, before_net: dict) -> None:
        """Section 7: a void reverses its event's payments and undoes its effect on melds."""
        hand = self.hand
        target = hand.event(action.event)
        assert hand.voided[target.seq] == record.seq
        assert [(p.payer, p.payee, p.chips) for p in record.payments] == [
            (p.payee, p.payer, p.chips) for p in target.payments
        ]
        assert nonzero(minus(hand.net, before_net)) == nonzero(
            {k: -v for k, v in event_net(target).items()}
        )
        before_target = self.after[target.seq - 1]
        melds_then = before_target[1]
        assert isinstance(melds_then, dict)
        for mid in target.melds:
            assert hand.melds.get(mid) == melds_then.get(mid), mid
        if all(self._undone_since(target.seq, e) for e in hand.events[target.seq : -1]):
            # Voiding the last event that stands, when all after it were voided again,
            # puts the whole table back as it was before it.
            assert table_state(hand) == before_target
        assert table_without_ids(replay(hand)) == table_without_ids(hand)


# ------------------------------------------------------------ choosing actions


def claim(data: DataObject) -> bool:
    """Mostly claimed; now and then the seat forgot to ask for its chips (section 4)."""
    return data.draw(st.integers(0, 7)) != 0


def pick_seat(hand: Hand, data: DataObject, seats: list[int]) -> int:
    """Mostly the seat closest to going out, so that hands do reach it."""
    if data.draw(st.integers(0, 2)) and seats:
        return max(seats, key=lambda s: hand.cards_down[s])
    return data.draw(st.sampled_from(seats or list(hand.seats)))


def propose_meld(hand: Hand, data: DataObject) -> Action | None:
    seat = pick_seat(hand, data, in_seats(hand))
    left = hand.limit - hand.cards_down[seat]
    cards = data.draw(melds_st(room(hand), max(3, left)))
    return Meld(seat, tuple(cards), claim(data)) if cards else None


def propose_add(hand: Hand, data: DataObject) -> Action | None:
    card = data.draw(st.sampled_from(ALL_CARDS))
    fits = hand.fits(card)
    if hand.shoe_count(card) < hand.rules.copies(card.suit):
        # Hand.fits lists exactly the melds the card may legally be added to.
        can_take = {
            (m.seat, m.id) for m in hand.melds.values() if hand.can(Add(m.seat, m.id, (card,)))
        }
        assert {(f.seat, f.meld) for f in fits} == can_take, (card, fits, can_take)
    for f in fits:
        assert f.goes_out == (hand.cards_down[f.seat] + 1 == hand.limit)
    if fits and data.draw(st.booleans()):
        f = data.draw(st.sampled_from(fits))
        return Add(f.seat, f.meld, (card,), claim(data))
    owners = [s for s in in_seats(hand) if hand.melds_of(s)]
    if not owners:
        return None
    seat = pick_seat(hand, data, owners)
    meld = data.draw(st.sampled_from(hand.melds_of(seat)))
    left = max(1, hand.limit - hand.cards_down[seat])
    cards = data.draw(growth_chain(meld.cards, room(hand), data.draw(st.integers(1, min(3, left)))))
    return Add(seat, meld.id, tuple(cards), claim(data)) if cards else None


def _partner(take: tuple[Card, ...], hand: Hand, data: DataObject) -> tuple[Card, ...]:
    """Cards from hand that make a meld with the borrowed ``take``."""
    ranks = {c.rank for c in take}
    suits = {c.suit for c in take}
    if is_valid_meld(take) and data.draw(st.booleans()):
        return tuple(data.draw(growth_chain(take, room(hand), data.draw(st.integers(0, 2)))))
    if len(ranks) == 1:
        (rank,) = ranks
        if len(suits) == 1 and data.draw(st.booleans()):
            return (take[0],) * max(0, 3 - len(take))
        others = [s for s in "CDHS" if s not in suits]
        picked = data.draw(st.permutations(others))[: max(0, 3 - len(suits))]
        return tuple(Card(rank, s) for s in picked)
    (suit,) = suits if len(suits) == 1 else (take[0].suit,)
    low, high = min(ranks), max(ranks)
    need = max(0, 3 - (high - low + 1))
    below = data.draw(st.integers(0, need))
    extra = [r for r in range(low - below, low)] + [
        r for r in range(high + 1, high + 1 + need - below)
    ]
    return tuple(Card(r, suit) for r in extra if 0 <= r <= 9)


def propose_borrow(hand: Hand, data: DataObject) -> Action | None:
    sources = [m for m in hand.melds.values() if m.shape.size >= 4]
    sources = [m for m in sources if hand.seat_status[m.seat] == "in"] or sources
    if not sources:
        return None
    meld = data.draw(st.sampled_from(sources))
    k = data.draw(st.integers(1, max(1, meld.shape.size - 3)))
    if meld.kind == "run":
        cards = sorted(meld.cards)
        take = tuple(cards[:k] if data.draw(st.booleans()) else cards[-k:])
    else:
        take = tuple(data.draw(st.permutations(meld.cards))[:k])
    return Borrow(meld.seat, meld.id, take, _partner(take, hand, data), claim(data))


def propose_split(hand: Hand, data: DataObject) -> Action | None:
    owned = [m for m in hand.melds.values() if hand.seat_status[m.seat] == "in"]
    if not owned:
        return None
    meld = data.draw(st.sampled_from(owned))
    added = data.draw(growth_chain(meld.cards, room(hand), data.draw(st.integers(0, 3))))
    cards = [*meld.cards, *added]
    if len(cards) < 6:
        return None
    first, second = data.draw(split_parts(cards))
    return Split(meld.seat, meld.id, tuple(added), (tuple(first), tuple(second)), claim(data))


def propose_void(hand: Hand, data: DataObject) -> Action | None:
    voidable = [e.seq for e in hand.events if hand.voidable(e.seq)]
    if voidable and data.draw(st.integers(0, 4)):
        return Void(data.draw(st.sampled_from(voidable)), "mis-entry")
    return Void(data.draw(st.integers(-1, len(hand.events) + 1)), "mis-entry")


def propose_junk(hand: Hand, data: DataObject) -> Action | None:
    """Anything at all, mostly refused: a seat not dealt in, a meld that is not there, ..."""
    seat = data.draw(st.integers(0, 9))
    cards = tuple(data.draw(st.lists(st.sampled_from(ALL_CARDS), max_size=5)))
    meld = data.draw(st.integers(0, 12))
    return data.draw(
        st.sampled_from(
            [
                Meld(seat, cards),
                Add(seat, meld, cards),
                Borrow(seat, meld, cards[:1], cards[1:]),
                Split(seat, meld, cards[:1], (cards[1:3], cards[3:])),
                Drop(seat),
                GoOut(seat),
                Foul(seat),
                Penalty(seat),
            ]
        )
    )


def propose(hand: Hand, data: DataObject) -> Action | None:
    """One action chosen from the hand's current state (legal most of the time).

    Hypothesis favours the ends of a choice list, so the rare kinds (a foul, a void of the
    whole hand) sit in the middle of it.
    """
    seats = list(hand.seats)
    if hand.status == "void":
        kinds = ["junk", "void"]
    elif hand.status == "settled":
        kinds = ["penalty", "penalty", "void", "void", "void_hand", "void", "junk"]
    else:
        kinds = ["meld"] * 5
        if not hand.melds:
            kinds += ["drop"] * 2
        else:
            kinds += ["add"] * 5 + ["borrow", "split"] * 2
        kinds += ["foul"] + ["junk"] * 2 + ["void_hand"] + ["meld"] * 5
        if any(hand.cards_down[s] == hand.limit for s in in_seats(hand)):
            kinds += ["go_out"] * 10
        if len(hand.events) > 1:
            kinds += ["void"] * 3
        kinds += ["meld"]
    kind = data.draw(st.sampled_from(kinds))
    if kind == "void_hand":
        # Rarer still: most hands should be played to the end.
        return VoidHand("misdeal") if data.draw(st.integers(0, 6)) == 3 else None
    if kind == "meld":
        return propose_meld(hand, data)
    if kind == "add":
        return propose_add(hand, data)
    if kind == "borrow":
        return propose_borrow(hand, data)
    if kind == "split":
        return propose_split(hand, data)
    if kind == "void":
        return propose_void(hand, data)
    if kind == "drop":
        return Drop(data.draw(st.sampled_from(in_seats(hand) or seats)))
    if kind == "go_out":
        ready = [s for s in in_seats(hand) if hand.cards_down[s] == hand.limit]
        return GoOut(data.draw(st.sampled_from(ready or seats)))
    if kind == "foul":
        return Foul(data.draw(st.sampled_from(seats)))
    if kind == "penalty":
        return Penalty(data.draw(st.sampled_from(seats)))
    return propose_junk(hand, data)


def deal(rules: Rules, collection: Collection, seats: list[int]) -> tuple[Hand, Referee]:
    hand = Hand(rules, seats, collection)
    return hand, Referee(hand)


def play_out(hand: Hand, referee: Referee, data: DataObject, steps: int) -> None:
    for _ in range(steps):
        referee.play(propose(hand, data))


# --------------------------------------------------------------------- tests


@settings(SETTINGS, max_examples=examples(250))
@given(rules=rules_st(), collection=collections(), seats=seat_lists(), data=st.data())
def test_every_event_of_a_random_hand_keeps_the_books_and_the_table_sound(
    rules: Rules, collection: Collection, seats: list[int], data: DataObject
) -> None:
    """Net sums to zero and matches the payments; melds valid; P never falls; voids undo."""
    hand, referee = deal(rules, collection, seats)
    play_out(hand, referee, data, data.draw(st.integers(5, 80)))
    if hand.status != "void":
        # The events that still stand, played again on a new hand, give the same table.
        assert table_without_ids(replay(hand)) == table_without_ids(hand)


@settings(SETTINGS, max_examples=examples(150))
@given(rules=rules_st(), collection=collections(), seats=seat_lists(), data=st.data())
def test_voiding_the_last_event_again_and_again_walks_the_hand_back_to_the_deal(
    rules: Rules, collection: Collection, seats: list[int], data: DataObject
) -> None:
    """Each void of the last standing event puts the net (and table) back as before it."""
    hand, referee = deal(rules, collection, seats)
    play_out(hand, referee, data, data.draw(st.integers(1, 40)))
    if hand.status == "void":
        return
    while standing := [e.seq for e in hand.events[1:] if hand.is_active(e.seq)]:
        last = standing[-1]
        assert hand.voidable(last), hand.events[last - 1]
        net_before = dict(hand.net)
        referee.play(Void(last, "walk back"))
        # The net returns to what it was before that event, less what voids since undid.
        undone = event_net(hand.events[last - 1])
        assert nonzero(minus(hand.net, net_before)) == nonzero({k: -v for k, v in undone.items()})
    assert table_state(hand) == referee.after[1]


def grow(hand: Hand, seat: int, order: list[Card], steps: list[list[Card]]) -> Hand:
    """Lay the first three cards of ``order``, then add ``steps`` one after the other."""
    hand.apply(Meld(seat, tuple(order[:3])))
    value = hand.melds[1].value
    for chunk in steps:
        add = Add(seat, 1, tuple(chunk))
        hand.check(add)  # a legal increase (section 2) must be accepted
        event = hand.apply(add)
        assert all(type(p.chips) is int and p.chips > 0 for p in event.payments), event
        assert hand.melds[1].value >= value, "growth lowered the value"
        value = hand.melds[1].value
        assert hand.melds[1].paid == value
    return hand


@settings(SETTINGS, max_examples=examples(400))
@given(rules=rules_st(), seats=seat_lists(), data=st.data())
def test_laying_a_meld_at_once_pays_exactly_what_growing_it_pays(
    rules: Rules, seats: list[int], data: DataObject
) -> None:
    """Section 4: at once, card by card, or in chunks, each payer pays the same."""
    cards = data.draw(st.one_of(condition_melds(rules), any_meld(rules)), label="meld")
    order = data.draw(growth_orders(cards), label="growth order")
    seat = data.draw(st.sampled_from(seats), label="seat")
    others = [s for s in seats if s != seat]
    dropped = data.draw(
        st.lists(st.sampled_from(others), unique=True, max_size=len(others) - 1), label="drops"
    )
    rest = order[3:]
    cuts = data.draw(st.lists(st.booleans(), min_size=len(rest), max_size=len(rest)))

    def fresh() -> Hand:
        hand = Hand(rules, seats)
        for s in dropped:
            hand.apply(Drop(s))
        return hand

    at_once = fresh()
    at_once.apply(Meld(seat, tuple(cards)))
    one_by_one = grow(fresh(), seat, order, [[c] for c in rest])
    in_chunks = grow(fresh(), seat, order, chunks(rest, cuts))
    expected = total_by_party(at_once.payments)
    assert total_by_party(one_by_one.payments) == expected
    assert total_by_party(in_chunks.payments) == expected
    value = at_once.melds[1].value
    assert at_once.melds[1].paid == one_by_one.melds[1].paid == in_chunks.melds[1].paid == value
    for payer in at_once.payers(seat):
        assert at_once.condition_paid(payer, seat) == value


@st.composite
def blind_actions(draw: st.DrawFn, rules: Rules) -> Action:
    """An action chosen without looking at the hand: valid melds, random everything else."""
    seat = draw(st.integers(1, 8))
    meld = draw(st.integers(1, 10))
    cards = tuple(draw(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=3)))
    laid = tuple(draw(any_meld(rules)))
    return draw(
        st.sampled_from(
            [
                Meld(seat, laid),
                Meld(seat, laid),
                Add(seat, meld, cards[:1]),
                Add(seat, meld, cards),
                Borrow(seat, meld, cards[:1], cards[1:]),
                Split(seat, meld, cards[:1], (laid[:3], laid[3:])),
                Drop(seat),
                GoOut(seat),
                Foul(seat),
                Penalty(seat),
                Void(draw(st.integers(1, 30)), "blind"),
            ]
        )
    )


@settings(SETTINGS, max_examples=examples(250))
@given(rules=rules_st(), collection=collections(), seats=seat_lists(), data=st.data())
def test_no_payment_is_ever_zero_or_negative_under_any_sequence(
    rules: Rules, collection: Collection, seats: list[int], data: DataObject
) -> None:
    hand = Hand(rules, seats, collection)
    for action in data.draw(st.lists(blind_actions(rules), max_size=50)):
        try:
            event = hand.apply(action)
        except RulesError:
            continue
        for p in event.payments:
            assert type(p.chips) is int and p.chips > 0, p
    if data.draw(st.booleans()) and hand.status != "void":
        hand.apply(VoidHand("misdeal"))
        assert all(v == 0 for v in hand.net.values())
    assert all(type(p.chips) is int and p.chips > 0 for p in hand.payments)
    assert sum(hand.net.values()) == 0


@settings(SETTINGS, max_examples=examples(100))
@given(rules=rules_st(), collection=collections(), seats=seat_lists(), data=st.data())
def test_a_fouled_seat_collects_nothing_more(
    rules: Rules, collection: Collection, seats: list[int], data: DataObject
) -> None:
    """Section 7: after its foul a seat receives no chips but reversals and penalty refunds."""
    hand, referee = deal(rules, collection, seats)
    # Fouls and drops before the first meld, then play as usual.
    opening = data.draw(st.lists(st.sampled_from([*map(Foul, seats), *map(Drop, seats)])))
    played: list[Action | None] = [*opening]
    for _ in range(data.draw(st.integers(0, 30))):
        played.append(None)
    for planned in played:
        fouled = {s for s in hand.seats if hand.seat_status[s] == "fouled"}
        action = planned if planned is not None else propose(hand, data)
        event = referee.play(action)
        for p in event.payments if event else ():
            assert p.payee not in fouled or p.rule in NOT_A_COLLECTION, (p, event)


@settings(SETTINGS, max_examples=examples(20))
@given(rules=rules_st(), seats=seat_lists(), data=st.data())
def test_allowed_offers_every_action_the_hand_accepts(
    rules: Rules, seats: list[int], data: DataObject
) -> None:
    """Hand.allowed (the buttons) lists the type of every action Hand.can accepts."""
    seat = data.draw(st.sampled_from(seats))
    hand = Hand(rules, seats)
    low, high = data.draw(st.sampled_from([(0, 6), (4, 10)]))
    run = tuple(Card(r, "C") for r in range(low, high))
    hand.apply(Meld(seat, run))
    for suit in "DHS":
        left = hand.limit - hand.cards_down[seat]
        if left:
            hand.apply(Meld(seat, tuple(Card(r, suit) for r in range(1, 1 + min(left, 5)))))
    assert hand.cards_down[seat] == hand.limit
    split = Split(seat, 1, (), (run[:3], run[3:]))
    # With no room for a card from hand, only a table that needs none may split (section 4).
    assert hand.can(split) is not rules.rearrange_needs_card
    assert ("split" in hand.allowed(seat)) is not rules.rearrange_needs_card
