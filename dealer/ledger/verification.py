"""Run the ledger checks against the database: what `ledger verify`, the API and reports say.

What is checked costs what is new, not all of history:

1. The checkpoints in the file (outside the database) are held against the ledger: each
   checkpoint read is signed with this ledger's key and still gives the hash it recorded. The
   file is read from its end back to the last *checked* checkpoint that still holds, whose
   counts of rows per kind are counted again (a deletion behind it changes one). The file
   must be there once anything is linked, and hold the newest checkpoint the database
   recorded.
2. From that checkpoint forward (``full``: from the start), every link of the keyed chain is
   recomputed under the key with the row it names; every entry's own chain, accounts and
   reversals are checked; every row written since is linked.
3. Every user, table (its settings too), seating, player, dealer's session and dealer's
   assignment is held to its newest linked version (`identity`): an edit in place is named by
   the field it changed.
4. Every hand touched since (and, for a report, every hand dealt in its window) is replayed
   and held against its entries, summed by the database. A hand that no longer replays as
   recorded, under another engine than the one it was played under, is an engine change, not
   tampering: it is reported apart and its chips stand as its entries say.

A ``window`` (a shift report's) adds the hands dealt in it to those held to their entries
(4); its links are checked as any others: from the last checked checkpoint that holds forward.
The links up to that checkpoint are vouched for by it: its signature, the hash its last link
still has, and its counts of rows (1). What a report checked is said on it (`Report.checkpoint`,
`Report.links`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.ledger.balances import hands_nets
from dealer.ledger.chain import GENESIS
from dealer.ledger.checkpoint_checks import entry_hashes, hold_checkpoints, link_hashes
from dealer.ledger.checkpoints import (
    Checkpoint,
    chain_head,
    counted,
    current_file,
    record_checkpoint,
)
from dealer.ledger.checks import (
    Figure,
    Problem,
    check_accounts,
    check_chain,
    check_figures,
    check_hand_nets,
    check_reversals,
    check_sequence,
)
from dealer.ledger.engine import engine_version
from dealer.ledger.identity import check_identity
from dealer.ledger.keys import current_key
from dealer.ledger.link_checks import check_links, check_unkeyed
from dealer.ledger.links import unkeyed
from dealer.ledger.reading import StoredEntry, Stretch, chunks, load_entries
from dealer.ledger.replay import ReplayError, account_of, replay_all
from dealer.ledger.verdict import CHAIN_CHECKS, EngineChange, Report
from dealer.models import Event, Hand, LedgerEntry, utcnow
from dealer.transactions import SNAPSHOT_BEGAN


def verify(
    session: Session, *, full: bool = False, window: tuple[datetime, datetime] | None = None
) -> Report:
    """Check what is new since the last good checkpoint (``full``: everything), and hold the
    hands dealt in ``window`` to their entries."""
    key, store = current_key(session), current_file(session)
    began = session.info.get(SNAPSHOT_BEGAN) or utcnow()  # before the head is read
    head = chain_head(session)
    report = Report(head.entries, head.entry_hash, chain=head, full=full, engine=engine_version())
    start = hold_checkpoints(session, report, store, key, began)
    if start is not None and not full:
        report.checkpoint, report.checked_from = start, start.seq
    marks = report.checkpoint.marks if report.checkpoint is not None else {}
    entries: list[StoredEntry] = []
    touched: set[int] = set()
    low = report.checked_from + 1
    if head.seq >= low:  # the links after the checkpoint started from
        stretch = Stretch(session, low, head.seq)
        prev = link_hashes(session, [low - 1]).get(low - 1, GENESIS) if low > 1 else GENESIS
        report.problems += check_links(stretch.links(), key.mac, prev, first=low)
        report.links += stretch.count
        entries += stretch.entries
        touched |= stretch.hands
    keyed = {e.seq for e in entries}
    # Who the chips belong to, and under what rules: every such row against its newest
    # version, in the quick check too (an edit in place leaves no other trace).
    report.problems += check_identity(session, key.mac)
    outside = unkeyed(session, marks)
    report.problems += check_unkeyed(outside)
    for chunk in chunks(outside["entry"]):
        entries += load_entries(session, LedgerEntry.seq.in_(chunk))
    for chunk in chunks(outside["event"]):
        touched |= set(session.scalars(select(Event.hand_id).where(Event.id.in_(chunk))))
    _check_entries(session, report, entries, keyed)
    touched |= {e.hand_id for e in entries if e.hand_id is not None}
    if full:
        touched |= set(session.scalars(select(Hand.id)))
    elif window is not None:
        dealt = select(Hand.id).where(Hand.started_at >= window[0], Hand.started_at < window[1])
        touched |= set(session.scalars(dealt))
    _check_hands(session, report, touched)
    return report


def checkpoint_report(session: Session, report: Report, reason: str) -> Checkpoint | None:
    """File the head ``report``'s checks reached: checked when they found no problem.

    (They always cover everything since the last checked checkpoint.) None while nothing is
    linked.
    """
    if not report.chain.seq:
        return None
    return record_checkpoint(session, counted(session, report.chain), report.ok, reason)


def _check_entries(
    session: Session, report: Report, entries: Sequence[StoredEntry], keyed: set[int]
) -> None:
    """The entries' own checks, each run of consecutive seqs after the entry before it.

    Checking from the start reads every entry, so its one run starts at 1: a gap anywhere shows.
    """
    whole = report.full or report.checked_from == 0
    ordered = sorted({e.seq: e for e in entries}.values(), key=lambda e: e.seq)
    runs: list[list[StoredEntry]] = []
    for entry in ordered:
        if runs and (whole or entry.seq == runs[-1][-1].seq + 1):
            runs[-1].append(entry)
        else:
            runs.append([entry])
    before = entry_hashes(session, [run[0].seq - 1 for run in runs])
    for run in runs:
        first = 1 if whole else run[0].seq
        report.problems += check_sequence(run, first)
        report.problems += check_chain(run, before.get(first - 1, GENESIS), keyed)
        report.problems += check_accounts(run)
        report.problems += check_reversals(run, _corrected_before(session, run))


def _corrected_before(session: Session, entries: Sequence[StoredEntry]) -> dict[int, StoredEntry]:
    """The entries corrected by ``entries`` that come before them."""
    have = {e.seq for e in entries}
    wanted = {e.reverses for e in entries if e.reverses is not None} - have
    out: dict[int, StoredEntry] = {}
    for chunk in chunks(wanted):
        out.update({e.seq: e for e in load_entries(session, LedgerEntry.seq.in_(chunk))})
    return out


def _hands(session: Session, ids: Iterable[int]) -> list[Hand]:
    out: list[Hand] = []
    for chunk in chunks(ids):
        out += session.scalars(select(Hand).where(Hand.id.in_(chunk)))
    return sorted(out, key=lambda h: h.id)


@dataclass(frozen=True, slots=True)
class _Kept:
    """What a hand's row keeps that the checks hold to its events: read without the rest."""

    id: int
    status: str
    winner: int | None
    engine_version: str | None


def _check_hands(session: Session, report: Report, ids: set[int]) -> None:
    """Hold each hand to its entries (summed by the database) and its row to its events.

    The keyed chain vouches that a hand's events and entries are what the engine decided when
    they were written: replaying them again under that same engine can only agree. So a hand is
    replayed when the engine installed is not the one it was played under (an engine change
    shows there), when its events do not record the hand's state (before 0009), in a full
    check, and when the chain was found broken (the replay then says what no longer adds up);
    otherwise its row is held to the status and winner its last event recorded.
    """
    kept: list[_Kept] = []
    for chunk in chunks(ids):
        rows = session.execute(
            select(Hand.id, Hand.status, Hand.winner, Hand.engine_version).where(Hand.id.in_(chunk))
        )
        kept += (_Kept(*row) for row in rows)
    unknown = ids - {h.id for h in kept}
    report.problems += check_hand_nets(hands_nets(session, unknown), {})
    nets = report.nets = hands_nets(session, (h.id for h in kept))
    report.problems += check_hand_nets(nets, {h.id: h.status for h in kept})
    report.hands_checked = len(kept)
    states = _last_states(session, [h.id for h in kept])
    broken = any(p.check in CHAIN_CHECKS for p in report.problems)
    again = []
    for hand in sorted(kept, key=lambda h: h.id):
        state = states.get(hand.id)
        if report.full or broken or state is None or hand.engine_version != report.engine:
            again.append(hand.id)
        elif state != (hand.status, hand.winner):
            found = {"id": hand.id, "status": hand.status, "winner": hand.winner}
            found |= {"value": state[0], "value2": state[1]}
            report.problems.append(Problem("replay", "not_last_event", found, hand=hand.id))
    _replay(session, report, _hands(session, again))


def _last_states(session: Session, ids: Sequence[int]) -> dict[int, tuple[str, int | None]]:
    """Each hand's status and winner as its last event recorded them (none before 0009)."""
    out: dict[int, tuple[str, int | None]] = {}
    for chunk in chunks(ids):
        rows = session.execute(
            select(Event.hand_id, Event.hand_status, Event.hand_winner)
            .where(Event.hand_id.in_(chunk))
            .order_by(Event.hand_id, Event.seq)
        )
        for hand_id, status, winner in rows:
            if status is None:
                out.pop(hand_id, None)
            else:
                out[hand_id] = (status, winner)
    return out


def _replay(session: Session, report: Report, hands: Sequence[Hand]) -> None:
    """Replay ``hands`` and hold each against its row and its entries' sums (`report.nets`)."""
    nets = report.nets
    report.hands = len(hands)
    installed = report.engine
    for hand, engine in replay_all(session, hands):
        found: list[Problem] = []
        if isinstance(engine, ReplayError):
            found.append(Problem("replay", engine.code, engine.fields, hand=hand.id))
        else:
            if (engine.status, engine.winner) != (hand.status, hand.winner):
                stored = {"id": hand.id, "status": hand.status, "winner": hand.winner}
                replayed = {"status2": engine.status, "winner2": engine.winner}
                found.append(
                    Problem("replay", "replays_otherwise", stored | replayed, hand=hand.id)
                )
            source = f"Hand {hand.id} replayed"
            figures = [
                Figure(account_of(hand, party), chips, source, hand.id)
                for party, chips in engine.net.items()
            ]
            found += check_figures({hand.id: nets.get(hand.id, {})}, figures)
        if found and hand.engine_version != installed:
            change = EngineChange(hand.id, hand.engine_version, installed, found[0])
            report.engine_changed.append(change)
        else:
            report.problems += found
