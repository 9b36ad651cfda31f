"""Benchmark of the pure rules engine on one core: melds, a whole hand, card parsing.

Run from the repository root: ``.venv/bin/python bench/rules.py``. Prints a short table, then
one line of ``key=value`` pairs. Exits non-zero if the replayed hand does not balance (a
sanity check, not a timing one).

- ``melds_per_s``: ``classify`` + ``condition_of`` + value over a fixed, seeded list of
  10,000 realistic melds (about 80 % valid), already parsed.
- ``hand_replay_us``: median microseconds to replay a realistic 30-event hand (6 seats: the
  deal, a drop, melds, adds, a borrow, a split, a void, going out) from a new ``Hand``.
- ``parse_per_s``: ``parse_card`` over a seeded list of tokens in every accepted spelling.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer.rules import (
    ALL_CARDS,
    RANKS,
    SUITS,
    Action,
    Card,
    Hand,
    IllegalMeldError,
    RulesError,
    action_from_dict,
    classify,
    condition_of,
    is_valid_meld,
    make_rules,
    parse_card,
    total_by_party,
)

SEED = 2026
MELDS = 10_000
TOKENS = 10_000
REPEATS = 7
TARGET_MELDS_PER_S = 100_000
TARGET_HAND_US = 1_000
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def one_core() -> None:
    """Pin the process to one CPU, where the platform allows it, for steadier numbers."""
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})


def timed(run: Callable[[], object], seconds: float = 0.25) -> tuple[int, list[int]]:
    """Calls of ``run`` per repeat (each about ``seconds``) and each repeat's nanoseconds."""
    run()  # warm up
    start = time.perf_counter_ns()
    run()
    once = max(1, time.perf_counter_ns() - start)
    loops = max(1, int(seconds * 1e9 / once))
    samples = []
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        for _ in range(REPEATS):
            start = time.perf_counter_ns()
            for _ in range(loops):
                run()
            samples.append(time.perf_counter_ns() - start)
    finally:
        if gc_was_on:
            gc.enable()
    return loops, samples


# ------------------------------------------------------------------------ melds


def realistic_melds(rng: random.Random) -> list[tuple[Card, ...]]:
    """A seeded mix of what dealers enter: mostly valid sets and runs, some mis-entries."""
    out: list[tuple[Card, ...]] = []
    while len(out) < MELDS:
        roll = rng.random()
        rank = rng.randrange(10)
        suit = rng.choice(SUITS)
        size = rng.choice((3, 3, 3, 4, 4, 5, 6))
        if roll < 0.25:  # one-suit set
            cards = [Card(rank, suit)] * size
        elif roll < 0.40:  # mixed set, three or four suits
            suits = rng.sample(SUITS, rng.choice((3, 4)))
            cards = [Card(rank, s) for s in suits]
            cards += [Card(rank, rng.choice(suits)) for _ in range(max(0, size - len(cards)))]
        elif roll < 0.45:  # aces or kings, any suits
            rank = rng.choice((0, 9))
            cards = [Card(rank, rng.choice(SUITS)) for _ in range(size)]
        elif roll < 0.80:  # run, sometimes with the A or the K
            size = min(size + rng.randrange(2), 10)
            low = rng.choice((0, 10 - size, rng.randrange(11 - size)))
            cards = [Card(r, suit) for r in range(low, low + size)]
        elif roll < 0.85:  # mis-entry: a set in two suits
            other = rng.choice([s for s in SUITS if s != suit])
            rank = rng.randrange(1, 9)  # not A or K, which may mix suits freely
            cards = [Card(rank, s) for s in (suit, suit, other)]
        elif roll < 0.90:  # mis-entry: a run with a gap or round the corner
            cards = rng.choice(
                [
                    [Card(r, suit) for r in (1, 2, 4)],
                    [Card(r, suit) for r in (8, 9, 0)],
                    [Card(r, suit) for r in (5, 6, 8, 9)],
                ]
            )
        elif roll < 0.95:  # mis-entry: a run in two suits
            other = rng.choice([s for s in SUITS if s != suit])
            low = rng.randrange(8)
            cards = [Card(low, suit), Card(low + 1, suit), Card(low + 2, other)]
        else:  # mis-entry: too few cards, or random cards
            cards = rng.sample(ALL_CARDS, rng.choice((2, 3, 4)))
        rng.shuffle(cards)
        out.append(tuple(cards))
    return out


def value_melds(melds: list[tuple[Card, ...]], rules: object) -> int:
    """What a dealer's screen does for each meld entered: judge it, find its condition, value."""
    total = 0
    for cards in melds:
        try:
            shape = classify(cards)
        except IllegalMeldError:
            continue
        condition = condition_of(shape, rules)  # type: ignore[arg-type]
        if condition is not None:
            total += condition.value(shape.size)
    return total


# ------------------------------------------------------------------------- hand

#: Six seats, classic rules; seat 6 drops; seat 1 goes out with 5S 5S 5S 5S, JH QH KH and
#: 2C 2C 2C 2C (11 cards). Meld ids are given in the order the melds are laid.
HAND: list[dict[str, object]] = [
    {"type": "drop", "seat": 6},
    {"type": "meld", "seat": 2, "cards": ["4D", "5D", "6D", "7D"]},  # meld 1
    {"type": "meld", "seat": 3, "cards": ["7D", "7H", "7C"]},  # 2: mixed valle
    {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},  # 3: valle in spades
    {"type": "meld", "seat": 4, "cards": ["AC", "2C", "3C"]},  # 4: run with the ace
    {"type": "meld", "seat": 5, "cards": ["KH", "KH", "KH"]},  # 5
    {"type": "borrow", "seat": 2, "meld": 1, "take": ["7D"], "cards": ["7S", "7C"]},  # 6
    {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]},  # 7
    {"type": "add", "seat": 3, "meld": 2, "cards": ["7S"]},
    {"type": "add", "seat": 4, "meld": 4, "cards": ["4C"]},
    {"type": "meld", "seat": 5, "cards": ["2H", "3H", "4H"]},  # 8
    {"type": "add", "seat": 1, "meld": 3, "cards": ["5S"]},
    {"type": "add", "seat": 2, "meld": 1, "cards": ["3D"]},
    {"type": "meld", "seat": 3, "cards": ["QS", "QS", "QS"]},  # 9
    {"type": "meld", "seat": 4, "cards": ["6H", "6C", "6S"]},  # 10
    {"type": "add", "seat": 5, "meld": 8, "cards": ["5H"]},
    {
        "type": "split",
        "seat": 2,
        "meld": 1,
        "cards": ["AD", "2D"],
        "into": [["AD", "2D", "3D"], ["4D", "5D", "6D"]],
    },  # AD 2D 3D stays meld 1; 4D 5D 6D is meld 11
    {"type": "meld", "seat": 1, "cards": ["2C", "2C", "2C"]},  # 12
    {"type": "add", "seat": 4, "meld": 4, "cards": ["5C"]},
    {"type": "meld", "seat": 5, "cards": ["JS", "QS", "KS"]},  # 13
    {"type": "meld", "seat": 3, "cards": ["4S", "4S", "4S"]},  # 14
    {"type": "add", "seat": 5, "meld": 8, "cards": ["6H"]},
    {"type": "add", "seat": 3, "meld": 9, "cards": ["QS"]},
    {"type": "meld", "seat": 4, "cards": ["3H", "3H", "3H"]},  # 15
    {"type": "add", "seat": 2, "meld": 1, "cards": ["4D"]},  # AD 2D 3D 4D
    {"type": "add", "seat": 2, "meld": 11, "cards": ["7D"]},  # a mis-entry (event 27) ...
    {"type": "void", "event": 27, "reason": "mis-entry: the 7D was seat 3's"},  # ... voided
    {"type": "add", "seat": 1, "meld": 12, "cards": ["2C"]},
    {"type": "go_out", "seat": 1},
]
SEATS = (1, 2, 3, 4, 5, 6)


def replay(rules: object, actions: list[Action]) -> Hand:
    hand = Hand(rules, SEATS)  # type: ignore[arg-type]
    for action in actions:
        hand.apply(action)
    return hand


def check_hand(hand: Hand) -> list[str]:
    """Why the replayed hand is not a sound, settled hand (empty when it is)."""
    problems = []
    if len(hand.events) != 30:
        problems.append(f"{len(hand.events)} events, not 30")
    if sum(hand.net.values()) != 0:
        problems.append(f"the net does not sum to zero: {hand.net}")
    totals = total_by_party(hand.payments)
    if any(hand.net[p] != totals.get(p, 0) for p in hand.net):
        problems.append("the net does not match the payments")
    if hand.status != "settled" or hand.winner != 1:
        problems.append(f"the hand is {hand.status}, winner {hand.winner}, not settled by seat 1")
    return problems


# ------------------------------------------------------------------------ cards


def spelled_tokens(rng: random.Random) -> list[str]:
    """Tokens as dealers type them: mostly canonical, some lower case, symbols, spaces."""
    out = []
    for _ in range(TOKENS):
        card = rng.choice(ALL_CARDS)
        rank, suit = RANKS[card.rank], card.suit
        roll = rng.random()
        if roll < 0.7:
            out.append(rank + suit)
        elif roll < 0.85:
            out.append((rank + suit).lower())
        elif roll < 0.95:
            out.append(rank + SYMBOLS[suit])
        else:
            out.append(f" {rank}{suit.lower()} ")
    return out


def parse_all(tokens: list[str]) -> None:
    for token in tokens:
        parse_card(token)


# ------------------------------------------------------------------------- main


def main() -> int:
    one_core()
    rng = random.Random(SEED)
    rules = make_rules("classic")

    melds = realistic_melds(rng)
    valid = sum(1 for m in melds if is_valid_meld(m))
    loops, samples = timed(lambda: value_melds(melds, rules))
    melds_per_s = round(len(melds) * loops / (statistics.median(samples) / 1e9))

    try:
        actions = [action_from_dict(body) for body in HAND]
        problems = check_hand(replay(rules, actions))
    except RulesError as exc:
        problems = [f"the hand was refused: {exc!r}"]
    if problems:
        for problem in problems:
            print(f"bench/rules.py: replayed hand is wrong: {problem}", file=sys.stderr)
        return 1
    loops, samples = timed(lambda: replay(rules, actions))
    hand_replay_us = round(statistics.median(samples) / loops / 1e3)

    tokens = spelled_tokens(rng)
    loops, samples = timed(lambda: parse_all(tokens))
    parse_per_s = round(len(tokens) * loops / (statistics.median(samples) / 1e9))

    rows = [
        ("melds_per_s", f"{melds_per_s:,}", f">= {TARGET_MELDS_PER_S:,}",
         f"{len(melds):,} melds, {valid / len(melds):.0%} valid"),
        ("hand_replay_us", f"{hand_replay_us:,}", f"< {TARGET_HAND_US:,}",
         f"{len(HAND) + 1} events, {len(SEATS)} seats, median of {REPEATS}"),
        ("parse_per_s", f"{parse_per_s:,}", "", f"{len(tokens):,} tokens, mixed spellings"),
    ]  # fmt: skip
    print(f"{'measure':<16}{'result':>12}  {'target':<12}{'workload'}")
    for name, result, target, workload in rows:
        print(f"{name:<16}{result:>12}  {target:<12}{workload}")
    print(
        f"name=rules melds_per_s={melds_per_s} hand_replay_us={hand_replay_us} "
        f"parse_per_s={parse_per_s}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
