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
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from dealer.ledger.accounts import parse_account, pot_account
from dealer.ledger.chain import GENESIS, EntryFields, entry_hash
from dealer.models import as_utc
from dealer.words.catalogue import say

__all__ = [
    "CHECKS",
    "Checked",
    "Figure",
    "Nets",
    "Problem",
    "check_accounts",
    "check_balances",
    "check_chain",
    "check_figures",
    "check_hand_nets",
    "check_hands_net_zero",
    "check_reversals",
    "check_sequence",
    "nets_of",
]

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


def check_sequence(entries: Sequence[Checked], first: int = 1) -> list[Problem]:
    """Seqs run ``first``, ``first`` + 1 ... (1, 2, 3 for the whole ledger), no gap, no repeat."""
    problems: list[Problem] = []
    expected = first
    for entry in entries:
        if entry.seq != expected:
            what = "repeats" if entry.seq < expected else f"skips {expected}..{entry.seq - 1}"
            problems.append(
                Problem(
                    "sequence",
                    say(
                        "Entry {seq} {what}: seq {expected} was due.",
                        seq=entry.seq,
                        what=what,
                        expected=expected,
                    ),
                    entry.seq,
                )
            )
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
            problems.append(
                Problem(
                    "chain",
                    say(
                        "Entry {seq} does not follow the entry before it: its prev_hash is "
                        "not that entry's hash.",
                        seq=entry.seq,
                    ),
                    entry.seq,
                )
            )
        if entry.seq not in keyed and entry_hash(entry) != entry.hash:
            problems.append(
                Problem(
                    "chain",
                    say(
                        "Entry {seq} was changed after it was written: its hash does not "
                        "match its fields.",
                        seq=entry.seq,
                    ),
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
                    Problem(
                        "accounts",
                        say("Entry {seq} names no account: {name!r}.", seq=entry.seq, name=name),
                        entry.seq,
                    )
                )
        if entry.from_account == entry.to_account:
            problems.append(
                Problem(
                    "accounts",
                    say("Entry {seq} moves chips to where they are.", seq=entry.seq),
                    entry.seq,
                )
            )
        if entry.chips <= 0:
            problems.append(
                Problem(
                    "accounts",
                    say("Entry {seq} moves {chips} chips.", seq=entry.seq, chips=entry.chips),
                    entry.seq,
                )
            )
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
            problems.append(
                Problem(
                    "reversals",
                    say(
                        "Entry {seq} corrects entry {reverses}, which does not come before it.",
                        seq=entry.seq,
                        reverses=entry.reverses,
                    ),
                    entry.seq,
                )
            )
            continue
        if entry.reverses in seen:
            problems.append(
                Problem(
                    "reversals",
                    say("Entry {reverses} is corrected more than once.", reverses=entry.reverses),
                    entry.seq,
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
                    say(
                        "Entry {seq} does not move entry {seq2}'s chips back.",
                        seq=entry.seq,
                        seq2=target.seq,
                    ),
                    entry.seq,
                )
            )
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
        if total:
            problems.append(
                Problem(
                    "hands_net_zero",
                    say("Hand {hand}'s entries sum to {total}, not 0.", hand=hand, total=total),
                    hand=hand,
                )
            )
        pot = net.get(pot_account(hand), 0)
        if pot < 0:
            problems.append(
                Problem(
                    "hands_net_zero",
                    say("Hand {hand}'s pot paid out {value} it never held.", hand=hand, value=-pot),
                    hand=hand,
                )
            )
        if status != "playing" and pot:
            problems.append(
                Problem(
                    "hands_net_zero",
                    say(
                        "Hand {hand} is {status} but {pot} chips are left in its pot.",
                        hand=hand,
                        status=status,
                        pot=pot,
                    ),
                    hand=hand,
                )
            )
        if status == "void":
            for account, chips in sorted(net.items()):
                if chips:
                    problems.append(
                        Problem(
                            "hands_net_zero",
                            say(
                                "Hand {hand} is void but {account} is {chips:+} over it.",
                                hand=hand,
                                account=account,
                                chips=chips,
                            ),
                            hand=hand,
                        )
                    )
    for hand in sorted(h for h in nets if h not in statuses):
        problems.append(
            Problem("hands_net_zero", say("Entries name hand {hand}, which is unknown.", hand=hand))
        )
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
            scope = f"over hand {figure.hand}" if figure.hand is not None else "in all"
            problems.append(
                Problem(
                    "balances",
                    say(
                        "{source} says {account} changed by {chips} {scope}, but its entries "
                        "sum to {summed}.",
                        source=figure.source,
                        account=figure.account,
                        chips=figure.chips,
                        scope=scope,
                        summed=summed,
                    ),
                    hand=figure.hand,
                )
            )
    return problems


def when(moment: datetime) -> str:
    """A time in problems' sentences: UTC, to the second."""
    return as_utc(moment).strftime("%Y-%m-%d %H:%M:%S UTC")
