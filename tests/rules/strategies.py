"""Hypothesis strategies for the rules engine: rules, collections, seats and valid melds.

Melds are built by their shape (PAN_RULES.md section 2), never by filtering random cards, so
that almost every drawn meld is valid and the shrinker keeps them readable.
"""

from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from dealer.rules import (
    ALL_CARDS,
    RANKS,
    SUITS,
    Card,
    Collection,
    IllegalMeldError,
    MeldShape,
    Rules,
    check_growth,
    classify,
    make_collection,
    make_rules,
)

ACE = 0
KING = len(RANKS) - 1
VALLE = (RANKS.index("3"), RANKS.index("5"), RANKS.index("7"))

#: How many more copies of a card may still go on the table.
Room = Callable[[Card], int]


def shoe_room(rules: Rules) -> Room:
    """Room left for each card on an empty table: the shoe's copies."""
    return lambda card: rules.copies(card.suit)


@st.composite
def rule_knobs(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    """A profile and some knob overrides, always a legal combination."""
    profile = draw(st.sampled_from(["classic", "cardroom"]))
    overrides: dict[str, object] = {}
    if draw(st.booleans()):
        overrides["packs"] = draw(st.sampled_from([1, 2, 3, 5, 6, 8, 11]))
    if draw(st.booleans()):
        overrides["spade_sets_removed"] = draw(st.integers(0, 1))
    packs = overrides.get("packs", 8)
    removed = overrides.get("spade_sets_removed", 1 if profile == "cardroom" else 0)
    if removed >= packs:
        overrides["spade_sets_removed"] = 0
    if draw(st.booleans()):
        overrides["hand_size"] = draw(st.sampled_from([10, 15]))
    if draw(st.booleans()):
        overrides["going_out_chips"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        overrides["tops_ante"] = draw(st.integers(0, 2))
    if draw(st.booleans()):
        overrides["drop_forfeit"] = draw(st.integers(0, 3))
    for knob in ("spades_double", "mixed_valle_condition", "rearrange_needs_card"):
        if draw(st.booleans()):
            overrides[knob] = draw(st.booleans())
    if draw(st.booleans()):
        overrides["addition_pay"] = draw(st.sampled_from(["value", "unit"]))
    return profile, overrides


def rules_st() -> st.SearchStrategy[Rules]:
    return rule_knobs().map(lambda pair: make_rules(*pair))


def collections() -> st.SearchStrategy[Collection]:
    """The collection models a hand feels: none, per hand, or a rake at going out."""
    specs = st.one_of(
        st.just({"kind": "none"}),
        st.builds(lambda c: {"kind": "per_hand", "chips": c}, st.integers(1, 5)),
        st.builds(
            lambda p, c: {"kind": "rake_percent", "percent": p, "cap": c},
            st.integers(1, 25),
            st.integers(1, 40),
        ),
    )
    return specs.map(make_collection)


def seat_lists(min_size: int = 2, max_size: int = 8) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(1, 8), min_size=min_size, max_size=max_size, unique=True)


# ------------------------------------------------------------------ melds


def _fits(cards: Sequence[Card], room: Room, extra: Sequence[Card] = ()) -> bool:
    """Whether ``cards`` (on top of ``extra``) fit in the room left in the shoe."""
    wanted: dict[Card, int] = {}
    for c in (*extra, *cards):
        wanted[c] = wanted.get(c, 0) + 1
    return all(room(c) >= n for c, n in wanted.items())


@st.composite
def one_suit_sets(draw: st.DrawFn, room: Room, max_size: int) -> list[Card]:
    rank = draw(st.integers(0, 9))
    suit = draw(st.sampled_from(SUITS))
    most = min(max_size, room(Card(rank, suit)))
    if most < 3:
        return []
    return [Card(rank, suit)] * draw(st.integers(3, most))


@st.composite
def mixed_sets(draw: st.DrawFn, room: Room, max_size: int, rank: int | None = None) -> list[Card]:
    """A set showing at least three suits (any rank), or any suits at all for A and K."""
    if max_size < 3:
        return []
    if rank is None:
        rank = draw(st.integers(0, 9))
    free = rank in (ACE, KING)
    suits = draw(
        st.lists(st.sampled_from(SUITS), min_size=2 if free else 3, max_size=4, unique=True)
    )
    cards = [Card(rank, s) for s in suits]
    if len(cards) > max_size:
        return []
    size = draw(st.integers(max(3, len(cards)), max_size))
    while len(cards) < size:
        cards.append(Card(rank, draw(st.sampled_from(suits))))
    return cards if _fits(cards, room) else []


@st.composite
def ace_king_sets(draw: st.DrawFn, room: Room, max_size: int) -> list[Card]:
    return draw(mixed_sets(room, max_size, rank=draw(st.sampled_from([ACE, KING]))))


@st.composite
def runs(draw: st.DrawFn, room: Room, max_size: int, ends: bool | None = None) -> list[Card]:
    """A run; ``ends`` True forces the A or the K in it, False keeps both out."""
    suit = draw(st.sampled_from(SUITS))
    top = min(max_size, 8 if ends is False else 10)
    if top < 3:
        return []
    size = draw(st.integers(3, top))
    if ends is True:
        low = draw(st.sampled_from(sorted({0, 10 - size})))
    elif ends is False:
        low = draw(st.integers(1, 9 - size))
    else:
        low = draw(st.integers(0, 10 - size))
    cards = [Card(r, suit) for r in range(low, low + size)]
    return cards if _fits(cards, room) else []


def melds_st(room: Room, max_size: int) -> st.SearchStrategy[list[Card]]:
    """A valid meld (in random card order) that fits in the shoe, or [] when none was found."""
    shapes = st.one_of(
        one_suit_sets(room, max_size),
        mixed_sets(room, max_size),
        ace_king_sets(room, max_size),
        runs(room, max_size, ends=True),
        runs(room, max_size, ends=False),
    )
    return shapes.flatmap(lambda cards: st.permutations(cards) if cards else st.just([]))


def any_meld(rules: Rules, max_size: int | None = None) -> st.SearchStrategy[list[Card]]:
    """A valid meld on an empty table under ``rules``."""
    size = rules.cards_to_go_out if max_size is None else max_size
    return melds_st(shoe_room(rules), size).filter(bool)


# ------------------------------------------------------------------ growth


def fitting_cards(cards: Sequence[Card], shape: MeldShape, room: Room) -> list[Card]:
    """The single cards that may grow ``cards`` (section 2) and are still in the shoe."""
    out = []
    for card in ALL_CARDS:
        if room(card) < 1:
            continue
        try:
            check_growth(cards, shape, (card,))
        except IllegalMeldError:
            continue
        out.append(card)
    return out


@st.composite
def growth_chain(draw: st.DrawFn, cards: Sequence[Card], room: Room, n: int) -> list[Card]:
    """Up to ``n`` cards that grow the meld one at a time, each step a legal increase."""
    meld = list(cards)
    added: list[Card] = []
    for _ in range(n):
        left = {c: room(c) - added.count(c) for c in set(ALL_CARDS)}
        options = fitting_cards(meld, classify(meld), lambda c, left=left: left[c])
        if not options:
            break
        card = draw(st.sampled_from(options))
        meld.append(card)
        added.append(card)
    return added


@st.composite
def growth_orders(draw: st.DrawFn, cards: Sequence[Card]) -> list[Card]:
    """``cards`` reordered so that the first three are a valid meld that the rest grow.

    A run starts from any three adjacent cards and grows outward, one end or the other; a
    set starts from three cards that already show its suit pattern (one suit, three suits,
    or for A and K two suits), so that every card after them is a legal increase.
    """
    shape = classify(cards)
    if shape.kind == "run":
        ordered = sorted(cards)
        start = draw(st.integers(0, len(ordered) - 3))
        low, high = start, start + 3
        order = ordered[low:high]
        while low > 0 or high < len(ordered):
            if high == len(ordered) or (low > 0 and draw(st.booleans())):
                low -= 1
                order.append(ordered[low])
            else:
                order.append(ordered[high])
                high += 1
        return order
    pool = list(draw(st.permutations(cards)))
    if shape.one_suit:
        return pool
    need = 3 if len(shape.suits) >= 3 else 2
    first: list[Card] = []
    for suit in draw(st.permutations(sorted(shape.suits)))[:need]:
        card = next(c for c in pool if c.suit == suit)
        pool.remove(card)
        first.append(card)
    while len(first) < 3:
        first.append(pool.pop())
    return first + pool


def chunks(items: Sequence[Card], cuts: Sequence[bool]) -> list[list[Card]]:
    """``items`` cut into consecutive runs: a True in ``cuts`` starts a new chunk."""
    out: list[list[Card]] = []
    for i, item in enumerate(items):
        if not out or (i < len(cuts) and cuts[i]):
            out.append([])
        out[-1].append(item)
    return out


@st.composite
def split_parts(draw: st.DrawFn, cards: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """Six or more cards of one meld cut in two parts of three or more, in either order.

    A run is cut between two ranks, so both parts are runs; a set is cut after its cards are
    grouped by suit (one-suit parts) or shuffled, so that most cuts give two valid sets.
    """
    ordered = list(cards)
    if len({c.suit for c in ordered}) == 1 or draw(st.booleans()):
        ordered.sort(key=lambda c: (c.suit, c.rank))
    else:
        ordered = list(draw(st.permutations(ordered)))
    cut = draw(st.integers(3, len(ordered) - 3))
    first, second = ordered[:cut], ordered[cut:]
    return (second, first) if draw(st.booleans()) else (first, second)


def condition_melds(rules: Rules, max_size: int | None = None) -> st.SearchStrategy[list[Card]]:
    """A meld that is a condition under ``rules`` (section 3), in random card order."""
    size = rules.cards_to_go_out if max_size is None else max_size
    room = shoe_room(rules)
    shapes = [one_suit_sets(room, size), runs(room, size, ends=True)]
    if rules.mixed_valle_condition:
        shapes.append(st.sampled_from(VALLE).flatmap(lambda r: mixed_sets(room, size, rank=r)))
    return st.one_of(shapes).filter(bool).flatmap(st.permutations)
