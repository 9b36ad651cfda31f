"""Checks over the ledger, as pure functions that return problems (beancount style).

Each ``check_*`` takes entries in ``seq`` order (or links, or checkpoints, or sums; and,
where it compares, the figures to compare against) and returns a list of `Problem`; an empty
list means the check passed. Nothing here touches the database: the caller reads a stretch of
history and says where it starts (``first``, ``prev``), so the same checks serve a full check
and one from the last checkpoint.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, Protocol

from dealer.ledger.accounts import parse_account, pot_account
from dealer.ledger.chain import GENESIS, EntryFields, entry_hash, link_message
from dealer.models import as_utc
from dealer.words.catalogue import say

__all__ = [
    "Checked",
    "Figure",
    "LinkRow",
    "Nets",
    "Problem",
    "check_accounts",
    "check_balances",
    "check_chain",
    "check_figures",
    "check_hand_nets",
    "check_hands_net_zero",
    "check_links",
    "check_reversals",
    "check_sequence",
    "check_unkeyed",
    "nets_of",
]

#: Each hand's (and None: the whole ledger's) net change per account.
Nets = Mapping[int | None, Mapping[str, int]]


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


# ------------------------------------------------------------------------- the keyed chain


class LinkRow(NamedTuple):
    """A link of the keyed chain as stored, with its row's fields (None: the row is gone)."""

    seq: int
    kind: str
    ref: int
    prev_hash: str
    hash: str
    row: Sequence[object] | None
    #: The hand of an event, to say where the problem is.
    hand: int | None = None


#: Each kind of row: the check its problems are filed under, and what a dealer calls it.
_KINDS = {
    "entry": ("chain", "Entry"),
    "event": ("events", "Event"),
    "print": ("prints", "Print"),
    "dispute": ("disputes", "Dispute"),
    "ruling": ("disputes", "Ruling"),
    "audit": ("audit", "Audit record"),
    "checkpoint": ("checkpoint", "The record of checkpoint"),
    "version": ("identity", "Version"),
}


def check_links(
    links: Iterable[LinkRow], mac: Callable[[bytes], str], prev: str = GENESIS, first: int = 1
) -> list[Problem]:
    """Links run ``first``, ``first`` + 1 ... each after the one before (``prev`` for the first),
    each names a row still there, and each HMAC (``mac``: under the ledger's key) covers its
    row's fields as they are now.
    """
    problems: list[Problem] = []
    expected = first
    for link in links:
        if link.seq != expected:
            problems.append(_missing(expected, link.seq - 1))
        if link.prev_hash != prev:
            problems.append(
                Problem(
                    "chain",
                    say(
                        "Link {seq} of the keyed chain does not follow the one before.",
                        seq=link.seq,
                    ),
                )
            )
        if link.row is None:
            problems.append(_row_problem(link, f"is gone: link {link.seq} names it."))
        elif mac(link_message(link, link.row)) != link.hash:
            problems.append(
                _row_problem(
                    link,
                    "was changed after it was written: it no longer matches its keyed hash "
                    f"(link {link.seq}).",
                )
            )
        prev = link.hash
        expected = max(expected, link.seq) + 1
    return problems


def _missing(low: int, high: int) -> Problem:
    return Problem(
        "chain",
        say(
            "Links {low}..{high} of the keyed chain are missing: rows and their links were "
            "deleted.",
            low=low,
            high=high,
        ),
    )


def _row_problem(link: LinkRow, what: str) -> Problem:
    """A problem with the row ``link`` names, filed under its kind's check."""
    check, noun = _KINDS.get(link.kind, ("chain", link.kind))
    hand = f" (hand {link.hand})" if link.hand is not None else ""
    seq = link.ref if link.kind == "entry" else None
    return Problem(
        check,
        say("{noun} {ref}{hand} {what}", noun=noun, ref=link.ref, hand=hand, what=what),
        seq,
        link.hand,
    )


def check_unkeyed(unkeyed: Mapping[str, Sequence[int]]) -> list[Problem]:
    """Every row is linked: ``unkeyed`` holds the keys of those no link covers, by kind."""
    problems: list[Problem] = []
    for kind, keys in unkeyed.items():
        if not keys:
            continue
        noun = _KINDS.get(kind, ("", kind))[1].lower()
        shown = ", ".join(str(k) for k in keys[:5]) + (", ..." if len(keys) > 5 else "")
        problems.append(
            Problem(
                "unkeyed",
                say(
                    "{keys} {noun} row(s) ({shown}) are outside the keyed chain: written "
                    "before it existed (link them once: flask --app dealer ledger "
                    "link-unkeyed) or added behind the app's back.",
                    keys=len(keys),
                    noun=noun,
                    shown=shown,
                ),
                keys[0] if kind == "entry" else None,
            )
        )
    return problems


def when(moment: datetime) -> str:
    """A time in problems' sentences: UTC, to the second."""
    return as_utc(moment).strftime("%Y-%m-%d %H:%M:%S UTC")
