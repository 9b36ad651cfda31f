"""Holding the ledger to its checkpoints: each line of the file signed and chained, each
checkpoint still giving the hashes and the counts it recorded, and the file itself there and
no older than the database's own record of it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute, Session

from dealer.ledger.chain import GENESIS
from dealer.ledger.checkpoints import Checkpoint, CheckpointFile, count_rows, line_digest
from dealer.ledger.checks import Problem
from dealer.ledger.keys import LedgerKey
from dealer.ledger.reading import chunks
from dealer.ledger.verdict import Report
from dealer.models import ChainLink, CheckpointRecord, LedgerEntry, as_utc


@dataclass(frozen=True, slots=True)
class Filed:
    """A line of the checkpoint file as read: its text, and its checkpoint (None: unreadable)."""

    line: str
    checkpoint: Checkpoint | None


def read_filed(lines: Iterator[str]) -> Iterator[Filed]:
    for line in lines:
        try:
            yield Filed(line, Checkpoint.parse(line))
        except ValueError:
            yield Filed(line, None)


def holds(checkpoint: Checkpoint, links: Mapping[int, str], public: str) -> bool:
    """Whether ``checkpoint`` is signed with ``public`` and its link still has its hash.

    ``links`` maps link seqs to their hashes as stored now.
    """
    stored = links.get(checkpoint.seq, GENESIS if checkpoint.seq == 0 else None)
    return stored == checkpoint.hash and checkpoint.signed_by(public)


def check_checkpoints(
    filed: Sequence[Filed],
    links: Mapping[int, str],
    entries: Mapping[int, str],
    head: int,
    public: str,
    whole_file: bool,
) -> list[Problem]:
    """Each checkpoint read (newest first) is signed with ``public``, follows the line before it
    in the file, and still holds: its link (``links``: seq -> hash as stored now) and its last
    entry (``entries``: seq -> hash) have the hashes it recorded. ``head`` is the chain's last
    link now; ``whole_file``: the oldest line read is the file's first.
    """
    problems: list[Problem] = []
    for n, item in enumerate(filed):
        cp = item.checkpoint
        if cp is None:
            problems.append(Problem("checkpoint", "not_a_checkpoint", {"value": n + 1}))
            continue
        named = {"at": cp.at, "link": cp.seq}
        if not cp.signed_by(public):
            problems.append(Problem("checkpoint", "not_signed", named))
            continue
        older = filed[n + 1].line if n + 1 < len(filed) else None
        if (older is not None and cp.prev != line_digest(older)) or (
            older is None and whole_file and cp.prev
        ):
            problems.append(Problem("checkpoint", "file_changed", named))
        problems += _rewritten(cp, links, entries, head, public)
    return problems


def _rewritten(
    cp: Checkpoint, links: Mapping[int, str], entries: Mapping[int, str], head: int, public: str
) -> list[Problem]:
    """What a signed checkpoint recorded that the database no longer holds: its link, past the
    chain's ``head`` or with another hash, and its last entry."""
    problems: list[Problem] = []
    named = {"at": cp.at, "link": cp.seq}
    if cp.seq > head:
        problems.append(Problem("checkpoint", "link_deleted", {**named, "head": head}))
    elif not holds(cp, links, public):
        hashes = {"value": cp.hash[:16], "value2": links.get(cp.seq, "none")[:16]}
        problems.append(Problem("checkpoint", "link_rewritten", named | hashes))
    if cp.entries and entries.get(cp.entries) != cp.entry_hash:
        found = {**named, "entries": cp.entries, "value": cp.entry_hash[:16]}
        problems.append(Problem("checkpoint", "entry_rewritten", found, cp.entries))
    return problems


def check_counts(checkpoint: Checkpoint, now: Mapping[str, int]) -> list[Problem]:
    """Every count ``checkpoint`` recorded is the same now (``now``: `count_rows` again, up to
    the same marks): a row deleted behind it, or slipped in, changes its kind's count."""
    named = {"at": checkpoint.at, "link": checkpoint.seq}
    return [
        Problem(
            "checkpoint", "count_changed", {**named, "kind": kind, "then": then, "found": found}
        )
        for kind, then in sorted((checkpoint.counts or {}).items())
        if (found := now.get(kind)) is not None and found != then
    ]


def hold_checkpoints(
    session: Session,
    report: Report,
    store: CheckpointFile,
    key: LedgerKey,
    began: datetime | None = None,
) -> Checkpoint | None:
    """Check the checkpoints back to the last checked one that holds (all: ``full``); that one.

    The file is read from its end: what a check reads of it is what was filed since.
    ``began``: when the snapshot the checks read began. A checkpoint filed since then, of links
    the snapshot does not hold (another report's, filed while this one checked), is newer
    than what this check read, not a sign of history deleted: it is left to the next check.
    """
    filed: list[Filed] = []
    links: dict[int, str] = {}
    start: Checkpoint | None = None
    lines = _filed_before(read_filed(store.newest_first()), report.chain.seq, began)
    whole = True
    for item in lines:
        filed.append(item)
        cp = item.checkpoint
        if report.full or cp is None:
            continue
        links.update(link_hashes(session, [cp.seq]))
        if cp.checked and holds(cp, links, key.public):
            start = cp
            older = next(lines, None)  # the good one's ``prev`` is checked against it
            if older is not None:
                filed.append(older)
                whole = False
            break
    if report.full:
        links = link_hashes(session, [f.checkpoint.seq for f in filed if f.checkpoint])
    else:
        links.update(link_hashes(session, [f.checkpoint.seq for f in filed[-1:] if f.checkpoint]))
    entries = entry_hashes(session, [f.checkpoint.entries for f in filed if f.checkpoint])
    report.problems += check_checkpoints(
        filed, links, entries, report.chain.seq, key.public, whole_file=whole
    )
    report.checkpoints = len(filed)
    report.problems += _hold_the_file(session, report, store, filed)
    if start is not None and start.counts is not None:
        report.problems += check_counts(start, count_rows(session, start.marks, start.seq))
    return start


def _filed_before(lines: Iterator[Filed], head: int, began: datetime | None) -> Iterator[Filed]:
    """``lines`` (newest first) without the newest ones filed since ``began`` beyond ``head``."""
    for item in lines:
        cp = item.checkpoint
        if began is None or cp is None or cp.seq <= head or as_utc(cp.at) < as_utc(began):
            yield item
            yield from lines
            return


def _hold_the_file(
    session: Session, report: Report, store: CheckpointFile, filed: Sequence[Filed]
) -> list[Problem]:
    """The checkpoint file is there and no older than the database's own record of it.

    A ledger files the empty chain with its first link: links with no checkpoint read means
    the file was deleted, emptied or moved. The file must still hold the line of the newest
    checkpoint the database recorded (every one, checking in full): else it was replaced by
    an older copy or cut short.
    """
    path = store.path
    if report.chain.seq and not any(f.checkpoint for f in filed):
        return [Problem("checkpoint", "no_checkpoint", {"path": path, "seq": report.chain.seq})]
    records = select(CheckpointRecord.seq, CheckpointRecord.at, CheckpointRecord.digest)
    wanted = list(
        session.execute(
            records if report.full else records.order_by(CheckpointRecord.id.desc()).limit(1)
        )
    )
    if not wanted:
        return []
    have = {line_digest(f.line) for f in filed}
    oldest = min(as_utc(r.at) for r in wanted)
    if any(r.digest not in have for r in wanted) and not report.full:
        for item in read_filed(store.newest_first()):
            have.add(line_digest(item.line))
            if item.checkpoint is not None and item.checkpoint.at < oldest:
                break
    missing = [r for r in wanted if r.digest not in have]
    if not missing:
        return []
    last = max(missing, key=lambda r: as_utc(r.at))
    found = {"path": path, "at": last.at, "link": last.seq, "missing": len(missing)}
    return [Problem("checkpoint", "file_older", found)]


def link_hashes(session: Session, seqs: Iterable[int]) -> dict[int, str]:
    return _hashes(session, ChainLink.seq, ChainLink.hash, seqs)


def entry_hashes(session: Session, seqs: Iterable[int]) -> dict[int, str]:
    return _hashes(session, LedgerEntry.seq, LedgerEntry.hash, seqs)


def _hashes(
    session: Session,
    key: InstrumentedAttribute[int],
    own: InstrumentedAttribute[str],
    seqs: Iterable[int],
) -> dict[int, str]:
    """The stored hash of each of ``seqs`` (links' or entries'), those that are there."""
    out: dict[int, str] = {}
    for chunk in chunks(seqs):
        out.update(
            {seq: value for seq, value in session.execute(select(key, own).where(key.in_(chunk)))}
        )
    return out
