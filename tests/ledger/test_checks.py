"""The ledger checks as pure functions: each returns the problems it finds, nothing else."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from dealer.ledger import (
    GENESIS,
    Figure,
    check_accounts,
    check_balances,
    check_chain,
    check_hands_net_zero,
    check_reversals,
    check_sequence,
    entry_hash,
)
from dealer.ledger.chain import link_message
from dealer.ledger.keys import LedgerKey
from dealer.ledger.link_checks import LinkRow, check_links
from dealer.words.ledger import problem_words


@dataclass(frozen=True)
class Entry:
    seq: int
    from_account: str
    to_account: str
    chips: int
    hand_id: int | None = None
    reverses: int | None = None
    at: datetime = datetime(2026, 1, 1, tzinfo=UTC)
    reason_code: str = "condition"
    reason: str = "test"
    table_id: int = 1
    event_id: int | None = None
    user_id: int = 1
    device: str = "test"
    prev_hash: str = GENESIS
    hash: str = ""


def chained(*entries: Entry) -> list[Entry]:
    out: list[Entry] = []
    prev = GENESIS
    for entry in entries:
        entry = replace(entry, prev_hash=prev)
        entry = replace(entry, hash=entry_hash(entry))
        prev = entry.hash
        out.append(entry)
    return out


GOOD = chained(
    Entry(1, "cage", "seating:1", 100),
    Entry(2, "cage", "seating:2", 100),
    Entry(3, "seating:2", "hand:1:pot", 2, hand_id=1),
    Entry(4, "seating:2", "seating:1", 4, hand_id=1),
    Entry(5, "hand:1:pot", "seating:1", 2, hand_id=1),
)


def test_a_good_ledger_has_no_problems() -> None:
    assert check_sequence(GOOD) == []
    assert check_chain(GOOD) == []
    assert check_accounts(GOOD) == []
    assert check_reversals(GOOD) == []
    assert check_hands_net_zero(GOOD, {1: "settled"}) == []
    figures = [
        Figure("seating:1", 6, "replay", 1),
        Figure("seating:2", -6, "replay", 1),
        Figure("seating:1", 106, "stack"),
    ]
    assert check_balances(GOOD, figures) == []


def test_a_gap_and_a_repeat_are_found() -> None:
    gap = [GOOD[0], GOOD[2]]
    assert [p.seq for p in check_sequence(gap)] == [3]
    repeat = [GOOD[0], GOOD[1], GOOD[1]]
    assert [p.check for p in check_sequence(repeat)] == ["sequence"]


def test_a_changed_entry_breaks_the_chain() -> None:
    tampered = [*GOOD[:3], replace(GOOD[3], chips=40), GOOD[4]]
    problems = check_chain(tampered)
    assert [(p.check, p.seq) for p in problems] == [("chain", 4)]


def test_a_removed_entry_breaks_the_chain_at_the_next() -> None:
    problems = check_chain([GOOD[0], GOOD[2]])
    assert [p.seq for p in problems] == [3]


def test_a_rewritten_chain_from_the_start_is_caught_by_the_first_prev_hash() -> None:
    forged = [replace(GOOD[0], prev_hash="f" * 64)]
    assert check_chain(forged)


def test_bad_accounts_and_amounts() -> None:
    bad = [
        Entry(1, "cage", "wallet", 5),
        Entry(2, "cage", "cage", 5),
        Entry(3, "cage", "seating:1", 0),
    ]
    assert [p.seq for p in check_accounts(bad)] == [1, 2, 3]


def test_reversals_must_move_the_same_chips_back_once() -> None:
    ok = [GOOD[0], Entry(2, "seating:1", "cage", 100, reverses=1)]
    assert check_reversals(ok) == []
    wrong_amount = [GOOD[0], Entry(2, "seating:1", "cage", 99, reverses=1)]
    assert check_reversals(wrong_amount)
    twice = [*ok, Entry(3, "seating:1", "cage", 100, reverses=1)]
    assert check_reversals(twice)
    forward = [Entry(1, "seating:1", "cage", 100, reverses=2), GOOD[0]]
    assert check_reversals(forward)


def test_a_finished_hand_has_an_empty_pot_and_a_void_hand_nets_zero() -> None:
    pot_left = GOOD[:4]
    assert [p.check for p in check_hands_net_zero(pot_left, {1: "settled"})] == ["hands_net_zero"]
    assert check_hands_net_zero(pot_left, {1: "playing"}) == []
    assert check_hands_net_zero(GOOD, {1: "void"})  # seat 1 is up over a void hand
    unknown = check_hands_net_zero(GOOD, {})
    assert "unknown" in problem_words(unknown[0])


def test_balances_compare_figures_with_sums() -> None:
    problems = check_balances(GOOD, [Figure("seating:1", 7, "Hand 1 replayed", 1)])
    assert len(problems) == 1
    assert problem_words(problems[0]) == (
        "Hand 1 replayed says seating:1 changed by 7 over hand 1, but its entries sum to 6."
    )


# ------------------------------------------------------------------------- the keyed chain

KEY = LedgerKey(b"a key kept apart")


def linked(*rows: tuple[str, int, list[object] | None]) -> list[LinkRow]:
    """Links over ``(kind, ref, fields)``, each HMAC'd under KEY after the one before."""
    out: list[LinkRow] = []
    prev = GENESIS
    for seq, (kind, ref, fields) in enumerate(rows, start=1):
        link = LinkRow(seq, kind, ref, prev, "", fields)
        link = link._replace(hash=KEY.mac(link_message(link, fields or [])))
        prev = link.hash
        out.append(link)
    return out


LINKS = linked(("entry", 1, [1, "cage", 100]), ("event", 7, [7, "meld"]), ("entry", 2, [2, "x"]))


def test_an_intact_keyed_chain_has_no_problems() -> None:
    assert check_links(LINKS, KEY.mac) == []


def test_a_changed_row_a_gone_row_and_a_missing_link_are_named() -> None:
    changed = [LINKS[0]._replace(row=[1, "cage", 1000]), *LINKS[1:]]
    assert [(p.check, p.seq) for p in check_links(changed, KEY.mac)] == [("chain", 1)]
    gone = [LINKS[0], LINKS[1]._replace(row=None, hand=3), LINKS[2]]
    [problem] = check_links(gone, KEY.mac)
    assert (problem.check, problem.hand) == ("events", 3) and "gone" in problem_words(problem)
    skipped = check_links([LINKS[0], LINKS[2]], KEY.mac)
    assert [p.check for p in skipped] == ["chain", "chain"]  # a gap, and link 3 out of place
    assert "Links 2..2" in problem_words(skipped[0])


def test_without_the_key_a_rewrite_cannot_be_made_to_match() -> None:
    forged = LedgerKey(b"a guess")
    rewritten = [LINKS[0]._replace(row=[1, "cage", 1000])]
    rewritten[0] = rewritten[0]._replace(
        hash=forged.mac(link_message(rewritten[0], [1, "cage", 1000]))
    )
    assert check_links(rewritten, KEY.mac)
