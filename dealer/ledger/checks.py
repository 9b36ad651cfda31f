"""Checks over ledger entries, as pure functions that return problems (beancount style).

Each ``check_*`` takes entries in ``seq`` order (and, where it compares, the
figures to compare against) and returns a list of `Problem`; an empty list
means the check passed. Nothing here touches the database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .accounts import parse_account, pot_account
from .chain import GENESIS, EntryFields, entry_hash

__all__ = [
    "Checked",
    "Figure",
    "Problem",
    "check_accounts",
    "check_balances",
    "check_chain",
    "check_hands_net_zero",
    "check_reversals",
    "check_sequence",
]


class Checked(EntryFields, Protocol):
    """An entry as the checks read it: its fields and its stored hash."""

    hash: str


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in the ledger: which check found it, where, and what."""

    check: str
    message: str
    seq: int | None = None
    hand: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {"check": self.check, "message": self.message, "seq": self.seq, "hand": self.hand}


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure the ledger must agree with: ``account``'s net change is ``chips``.

    Over the entries of ``hand`` when it is set, else over the whole ledger;
    ``source`` says where the figure comes from (e.g. the replayed hand).
    """

    account: str
    chips: int
    source: str
    hand: int | None = None


def check_sequence(entries: Sequence[Checked]) -> list[Problem]:
    """Seqs run 1, 2, 3 ... with no gap and no repeat."""
    problems: list[Problem] = []
    expected = 1
    for entry in entries:
        if entry.seq != expected:
            what = "repeats" if entry.seq < expected else f"skips {expected}..{entry.seq - 1}"
            problems.append(
                Problem("sequence", f"Entry {entry.seq} {what}: seq {expected} was due.", entry.seq)
            )
        expected = max(expected, entry.seq) + 1
    return problems


def check_chain(entries: Sequence[Checked]) -> list[Problem]:
    """Each entry's hash covers its fields, and its prev_hash is the entry before's hash."""
    problems: list[Problem] = []
    prev = GENESIS
    for entry in entries:
        if entry.prev_hash != prev:
            problems.append(
                Problem(
                    "chain",
                    f"Entry {entry.seq} does not follow the entry before it: its prev_hash "
                    "is not that entry's hash.",
                    entry.seq,
                )
            )
        if entry_hash(entry) != entry.hash:
            problems.append(
                Problem(
                    "chain",
                    f"Entry {entry.seq} was changed after it was written: its hash does not "
                    "match its fields.",
                    entry.seq,
                )
            )
        prev = entry.hash
    return problems


def check_accounts(entries: Iterable[Checked]) -> list[Problem]:
    """Each entry moves a positive whole number of chips between two well-formed accounts."""
    problems: list[Problem] = []
    for entry in entries:
        for name in (entry.from_account, entry.to_account):
            if parse_account(name) is None:
                problems.append(
                    Problem("accounts", f"Entry {entry.seq} names no account: {name!r}.", entry.seq)
                )
        if entry.from_account == entry.to_account:
            problems.append(
                Problem("accounts", f"Entry {entry.seq} moves chips to where they are.", entry.seq)
            )
        if entry.chips <= 0:
            problems.append(
                Problem("accounts", f"Entry {entry.seq} moves {entry.chips} chips.", entry.seq)
            )
    return problems


def check_reversals(entries: Sequence[Checked]) -> list[Problem]:
    """A correcting entry moves the same chips back, after the one it corrects, once."""
    problems: list[Problem] = []
    by_seq = {e.seq: e for e in entries}
    seen: set[int] = set()
    for entry in entries:
        if entry.reverses is None:
            continue
        target = by_seq.get(entry.reverses)
        if target is None or target.seq >= entry.seq:
            problems.append(
                Problem(
                    "reversals",
                    f"Entry {entry.seq} corrects entry {entry.reverses}, which does not come "
                    "before it.",
                    entry.seq,
                )
            )
            continue
        if entry.reverses in seen:
            problems.append(
                Problem(
                    "reversals", f"Entry {entry.reverses} is corrected more than once.", entry.seq
                )
            )
        seen.add(entry.reverses)
        if (entry.from_account, entry.to_account, entry.chips) != (
            target.to_account,
            target.from_account,
            target.chips,
        ):
            problems.append(
                Problem(
                    "reversals",
                    f"Entry {entry.seq} does not move entry {target.seq}'s chips back.",
                    entry.seq,
                )
            )
    return problems


def _nets(entries: Iterable[Checked]) -> dict[int | None, dict[str, int]]:
    """Each hand's (and None: the whole ledger's) net change per account."""
    nets: dict[int | None, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for entry in entries:
        for scope in {None, entry.hand_id}:
            nets[scope][entry.from_account] -= entry.chips
            nets[scope][entry.to_account] += entry.chips
    return nets


def check_hands_net_zero(entries: Sequence[Checked], statuses: Mapping[int, str]) -> list[Problem]:
    """Every hand's entries sum to zero; a finished hand's pot is empty; a void hand nets 0.

    ``statuses`` maps each hand id to its status (playing, settled or void).
    """
    problems: list[Problem] = []
    nets = _nets(entries)
    for hand, status in sorted(statuses.items()):
        net = nets.get(hand, {})
        total = sum(net.values())
        if total:
            problems.append(
                Problem(
                    "hands_net_zero", f"Hand {hand}'s entries sum to {total}, not 0.", hand=hand
                )
            )
        pot = net.get(pot_account(hand), 0)
        if pot < 0:
            problems.append(
                Problem(
                    "hands_net_zero", f"Hand {hand}'s pot paid out {-pot} it never held.", hand=hand
                )
            )
        if status != "playing" and pot:
            problems.append(
                Problem(
                    "hands_net_zero",
                    f"Hand {hand} is {status} but {pot} chips are left in its pot.",
                    hand=hand,
                )
            )
        if status == "void":
            for account, chips in sorted(net.items()):
                if chips:
                    problems.append(
                        Problem(
                            "hands_net_zero",
                            f"Hand {hand} is void but {account} is {chips:+} over it.",
                            hand=hand,
                        )
                    )
    for hand in sorted(h for h in nets if h is not None and h not in statuses):
        problems.append(Problem("hands_net_zero", f"Entries name hand {hand}, which is unknown."))
    return problems


def check_balances(entries: Sequence[Checked], figures: Iterable[Figure]) -> list[Problem]:
    """Every figure kept or worked out elsewhere equals the sum of the entries it covers."""
    problems: list[Problem] = []
    nets = _nets(entries)
    for figure in figures:
        summed = nets.get(figure.hand, {}).get(figure.account, 0)
        if summed != figure.chips:
            scope = f"over hand {figure.hand}" if figure.hand is not None else "in all"
            problems.append(
                Problem(
                    "balances",
                    f"{figure.source} says {figure.account} changed by {figure.chips} {scope}, "
                    f"but its entries sum to {summed}.",
                    hand=figure.hand,
                )
            )
    return problems
