"""Checks over the ledger, as pure functions that return problems (beancount style).

Each ``check_*`` takes entries in ``seq`` order (or sums; and, where it compares, the
figures to compare against) and returns a list of `Problem`; an empty list means the check
passed. The keyed chain's checks are `link_checks`; the checkpoints', `checkpoint_checks`.
Nothing here touches the database: the caller reads a stretch of history and says where it
starts (``first``, ``prev``), so the same checks serve a full check and one from the last
checkpoint.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from dealer.ledger.accounts import parse_account, pot_account
from dealer.ledger.chain import GENESIS, EntryFields, entry_hash

#: Each hand's (and None: the whole ledger's) net change per account.
Nets = Mapping[int | None, Mapping[str, int]]


class Checked(EntryFields, Protocol):
    """An entry as the checks read it: its fields and its stored hash."""

    hash: str


#: The name of every check a problem is filed under (`Problem.check`), here and in the chain's,
#: the checkpoints', the links' and the hands' checks.
CHECKS = (
    "accounts",
    "audit",
    "balances",
    "chain",
    "checkpoint",
    "disputes",
    "events",
    "hands_net_zero",
    "identity",
    "prints",
    "replay",
    "reversals",
    "sequence",
    "unkeyed",
)


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in the ledger: which check found it, what (a ``code`` and the ``fields``
    it is said with, above the ledger: `dealer.words.ledger`), and where."""

    check: str
    code: str
    fields: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None
    hand: int | None = None


class Refused(Exception):
    """What the ledger will not do, or cannot: a ``code`` and the ``fields`` it is said with."""

    def __init__(self, code: str, **fields: Any) -> None:
        super().__init__(code)
        self.code, self.fields = code, fields


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


def check_sequence(entries: Sequence[Checked], first: int = 1) -> list[Problem]:
    """Seqs run ``first``, ``first`` + 1 ... (1, 2, 3 for the whole ledger), no gap, no repeat."""
    problems: list[Problem] = []
    expected = first
    for entry in entries:
        if entry.seq != expected:
            found = {"seq": entry.seq, "expected": expected}
            problems.append(Problem("sequence", "out_of_sequence", found, entry.seq))
        expected = max(expected, entry.seq) + 1
    return problems


def check_chain(
    entries: Sequence[Checked], prev: str = GENESIS, keyed: Container[int] = frozenset()
) -> list[Problem]:
    """Each entry's hash covers its fields, and its prev_hash is the entry before's hash.

    ``prev`` is the hash of the entry before the first. Entries whose seq is in ``keyed`` are
    covered by the keyed chain (`check_links`), which recomputes them under the key: their
    sha256 is not recomputed twice.
    """
    problems: list[Problem] = []
    for entry in entries:
        if entry.prev_hash != prev:
            problems.append(Problem("chain", "prev_hash", {"seq": entry.seq}, entry.seq))
        if entry.seq not in keyed and entry_hash(entry) != entry.hash:
            problems.append(Problem("chain", "entry_changed", {"seq": entry.seq}, entry.seq))
        prev = entry.hash
    return problems


def check_accounts(entries: Iterable[Checked]) -> list[Problem]:
    """Each entry moves a positive whole number of chips between two well-formed accounts."""
    problems: list[Problem] = []
    for entry in entries:
        for name in (entry.from_account, entry.to_account):
            if parse_account(name) is None:
                found = {"seq": entry.seq, "name": name}
                problems.append(Problem("accounts", "no_account", found, entry.seq))
        if entry.from_account == entry.to_account:
            problems.append(Problem("accounts", "to_itself", {"seq": entry.seq}, entry.seq))
        if entry.chips <= 0:
            found = {"seq": entry.seq, "chips": entry.chips}
            problems.append(Problem("accounts", "not_positive", found, entry.seq))
    return problems


def check_reversals(
    entries: Sequence[Checked], earlier: Mapping[int, Checked] | None = None
) -> list[Problem]:
    """A correcting entry moves the same chips back, after the one it corrects, once.

    ``earlier`` holds the corrected entries that come before the stretch checked.
    """
    problems: list[Problem] = []
    by_seq = {**(earlier or {}), **{e.seq: e for e in entries}}
    seen: set[int] = set()
    for entry in entries:
        if entry.reverses is None:
            continue
        target = by_seq.get(entry.reverses)
        if target is None or target.seq >= entry.seq:
            found = {"seq": entry.seq, "reverses": entry.reverses}
            problems.append(Problem("reversals", "corrects_later", found, entry.seq))
            continue
        if entry.reverses in seen:
            found = {"reverses": entry.reverses}
            problems.append(Problem("reversals", "corrected_twice", found, entry.seq))
        seen.add(entry.reverses)
        if (entry.from_account, entry.to_account, entry.chips) != (
            target.to_account,
            target.from_account,
            target.chips,
        ):
            found = {"seq": entry.seq, "seq2": target.seq}
            problems.append(Problem("reversals", "not_moved_back", found, entry.seq))
    return problems


def nets_of(entries: Iterable[Checked]) -> dict[int | None, dict[str, int]]:
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
    hands = {hand: net for hand, net in nets_of(entries).items() if hand is not None}
    return check_hand_nets(hands, statuses)


def check_hand_nets(
    nets: Mapping[int, Mapping[str, int]], statuses: Mapping[int, str]
) -> list[Problem]:
    """`check_hands_net_zero` over sums already made (by the database): each hand's nets."""
    problems: list[Problem] = []
    for hand, status in sorted(statuses.items()):
        net = nets.get(hand, {})
        total = sum(net.values())
        found: list[tuple[str, dict[str, Any]]] = []
        if total:
            found.append(("hand_sum", {"total": total}))
        pot = net.get(pot_account(hand), 0)
        if pot < 0:
            found.append(("pot_overpaid", {"value": -pot}))
        if status != "playing" and pot:
            found.append(("pot_left", {"status": status, "pot": pot}))
        if status == "void":
            found += [
                ("void_moved", {"account": account, "chips": chips})
                for account, chips in sorted(net.items())
                if chips
            ]
        problems += [
            Problem("hands_net_zero", code, {"hand": hand, **fields}, hand=hand)
            for code, fields in found
        ]
    for hand in sorted(h for h in nets if h not in statuses):
        problems.append(Problem("hands_net_zero", "unknown_hand", {"hand": hand}))
    return problems


def check_balances(entries: Sequence[Checked], figures: Iterable[Figure]) -> list[Problem]:
    """Every figure kept or worked out elsewhere equals the sum of the entries it covers."""
    return check_figures(nets_of(entries), figures)


def check_figures(nets: Nets, figures: Iterable[Figure]) -> list[Problem]:
    """`check_balances` over sums already made (by the database)."""
    problems: list[Problem] = []
    for figure in figures:
        summed = nets.get(figure.hand, {}).get(figure.account, 0)
        if summed != figure.chips:
            found = {"source": figure.source, "account": figure.account, "chips": figure.chips}
            found |= {"hand": figure.hand, "summed": summed}
            problems.append(Problem("balances", "figure", found, hand=figure.hand))
    return problems
