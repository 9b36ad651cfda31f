"""Checks over the keyed chain, as pure functions that return problems: every link follows
the one before, names a row still there and still covers that row's fields under the ledger's
key; every row is linked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from dealer.ledger.chain import GENESIS, link_message
from dealer.ledger.checks import Problem
from dealer.words.catalogue import say

__all__ = ["LinkRow", "check_links", "check_unkeyed"]


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
