"""Checks over the keyed chain, as pure functions that return problems: every link follows
the one before, names a row still there and still covers that row's fields under the ledger's
key; every row is linked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from dealer.ledger.chain import GENESIS, link_message
from dealer.ledger.checks import Problem


class LinkRow(NamedTuple):
    """A link of the keyed chain as stored, with its row's fields (None: the row is gone)."""

    seq: int
    kind: str
    ref: int
    prev_hash: str
    hash: str
    row: Sequence[object] | None
    #: The hand of an event, to tell where the problem is.
    hand: int | None = None


#: Each kind of row: the check its problems are filed under.
_CHECK_OF = {
    "entry": "chain",
    "event": "events",
    "print": "prints",
    "dispute": "disputes",
    "ruling": "disputes",
    "audit": "audit",
    "checkpoint": "checkpoint",
    "version": "identity",
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
            problems.append(
                Problem("chain", "links_missing", {"low": expected, "high": link.seq - 1})
            )
        if link.prev_hash != prev:
            problems.append(Problem("chain", "link_out_of_order", {"seq": link.seq}))
        if link.row is None:
            problems.append(_row_problem(link, "row_gone"))
        elif mac(link_message(link, link.row)) != link.hash:
            problems.append(_row_problem(link, "row_changed"))
        prev = link.hash
        expected = max(expected, link.seq) + 1
    return problems


def _row_problem(link: LinkRow, code: str) -> Problem:
    """A problem with the row ``link`` names, filed under its kind's check."""
    found = {"kind": link.kind, "ref": link.ref, "hand": link.hand, "link": link.seq}
    seq = link.ref if link.kind == "entry" else None
    return Problem(_CHECK_OF.get(link.kind, "chain"), code, found, seq, link.hand)


def check_unkeyed(unkeyed: Mapping[str, Sequence[int]]) -> list[Problem]:
    """Every row is linked: ``unkeyed`` holds the keys of those no link covers, by kind."""
    return [
        Problem(
            "unkeyed",
            "unkeyed",
            {"kind": kind, "count": len(keys), "first": tuple(keys[:5])},
            keys[0] if kind == "entry" else None,
        )
        for kind, keys in unkeyed.items()
        if keys
    ]
