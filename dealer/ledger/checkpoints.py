"""Checkpoints: the keyed chain's head, signed, appended to a file outside the database.

A checkpoint says "at this time the chain's link ``seq`` had hash ``hash``" (and the ledger's
entry count and head hash, as the API and the reports show them). It is signed with the
ledger's Ed25519 key and chained to the line before it in the file (``prev``), so a line
cannot be forged, changed or taken out unseen. It is printed on session and shift reports.

`verify` holds the ledger against the checkpoints (`checkpoint_checks`): a history rewritten
behind one no longer gives its hash, even when whoever rewrote it had the database and the
key. A checkpoint is ``checked`` when the checks ran over everything since the last checked
one and found nothing: verifying starts from the last such checkpoint that still holds.

Checkpoints are made by ``flask --app dealer ledger checkpoint``, by every shift report and
every table session's report and at the end of every dealer's down (`dealer.floor.down_checks`;
checked when their checks pass: the floor checks itself as it goes), by every backup and,
unchecked, at each shift's end (the first write after a shift starts records the head as the
last shift left it).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import IO, Any, cast

from sqlalchemy import Table, func, insert, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from dealer import settings
from dealer.clock import floor_clock, shift_window
from dealer.ledger.chain import CHECKPOINT_COLUMNS, GENESIS, checkpoint_link_fields, moment
from dealer.ledger.keys import LedgerKey, current_key, signature_ok
from dealer.ledger.kinds import KINDS
from dealer.models import LINK_KINDS, ChainLink, CheckpointRecord, LedgerEntry, as_utc, utcnow

#: The format of a checkpoint line; a new format gets a new number. Version 2 adds ``counts``;
#: lines of version 1 are still read and checked as they were signed.
VERSION = 2
OLDER_VERSIONS = (1,)
#: How much of the file is read at a time, from its end.
BLOCK = 64 * 1024


@dataclass(frozen=True, slots=True)
class Head:
    """The chain as it stands at one link: what a checkpoint records."""

    seq: int  # the last link (0: nothing linked yet)
    hash: str
    at: datetime | None
    #: Each kind's highest row linked up to here (an entry's seq, an event's or a print's id).
    marks: Mapping[str, int] = field(default_factory=dict)
    entries: int = 0  # the ledger's last entry seq
    entry_hash: str = GENESIS  # and its sha256 hash: the API's ``head``
    #: How many rows of each kind have a key up to its mark, and (``link``) how many links
    #: there are up to ``seq``: a row deleted (or slipped in) behind the checkpoint changes one.
    counts: Mapping[str, int] = field(default_factory=dict)


def chain_head(session: Session, before: datetime | None = None) -> Head:
    """The chain's head now, or as it stood before ``before``; every read here is indexed."""
    query = select(ChainLink.seq, ChainLink.hash, ChainLink.at).order_by(ChainLink.seq.desc())
    if before is not None:
        # Links are written in time order: the last before ``before`` is the last of its moment.
        last = session.scalar(select(func.max(ChainLink.at)).where(ChainLink.at < before))
        query = query.where(ChainLink.at == last)
    top = session.execute(query.limit(1)).first()
    entry = session.execute(
        select(LedgerEntry.seq, LedgerEntry.hash).order_by(LedgerEntry.seq.desc()).limit(1)
    ).first()
    entries, entry_hash = (entry.seq, entry.hash) if entry else (0, GENESIS)
    if top is None:
        return Head(0, GENESIS, None, dict.fromkeys(LINK_KINDS, 0), entries, entry_hash)
    # Each kind's newest key in the chain, all in one statement (each its own indexed read).
    newest = [
        select(ChainLink.ref)
        .where(ChainLink.kind == kind, ChainLink.seq <= top.seq)
        .order_by(ChainLink.ref.desc())
        .limit(1)
        .scalar_subquery()
        for kind in LINK_KINDS
    ]
    refs = session.execute(select(*newest)).one()
    marks = {kind: ref or 0 for kind, ref in zip(LINK_KINDS, refs, strict=True)}
    if before is not None:
        entries = marks["entry"]
        entry_hash = session.scalar(select(LedgerEntry.hash).where(LedgerEntry.seq == entries)) or (
            GENESIS
        )
    return Head(top.seq, top.hash, as_utc(top.at), marks, entries, entry_hash)


#: Each kind of row the chain links, and its key.
ROW_KEYS: dict[str, InstrumentedAttribute[int]] = {k.name: k.key for k in KINDS.values()}


def count_rows(session: Session, marks: Mapping[str, int], seq: int) -> dict[str, int]:
    """How many rows of each kind have a key up to ``marks[kind]``, and links up to ``seq``.

    Counted by the database over each key's index: what a checkpoint records and what `verify`
    counts again, so that a deletion behind a checkpoint is found without reading every row.
    Every count in one statement.
    """
    keys = {"link": ChainLink.seq <= seq}
    keys |= {kind: key <= marks.get(kind, 0) for kind, key in ROW_KEYS.items()}
    counts = [select(func.count()).where(up_to).scalar_subquery() for up_to in keys.values()]
    found = session.execute(select(*counts)).one()
    return {kind: count or 0 for kind, count in zip(keys, found, strict=True)}


def counted(session: Session, head: Head) -> Head:
    """``head`` with its counts (`count_rows`), as a checkpoint files it."""
    return replace(head, counts=count_rows(session, head.marks, head.seq))


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One line of the checkpoint file."""

    seq: int
    hash: str
    at: datetime  # when it was recorded
    marks: Mapping[str, int]
    entries: int
    entry_hash: str
    checked: bool
    reason: str
    prev: str  # line_digest of the line before ("" for the first)
    key: str  # the signing key's public half, hex
    signature: str = ""
    #: `Head.counts` (None: a line of version 1, which did not record them).
    counts: Mapping[str, int] | None = None

    def body(self) -> bytes:
        """What the signature covers: every field but the signature, canonical JSON."""
        fields: dict[str, Any] = asdict(self)
        del fields["signature"]
        fields["at"] = moment(self.at)
        fields["marks"] = dict(self.marks)
        if self.counts is None:
            del fields["counts"]
            fields["v"] = 1
        else:
            fields["counts"] = dict(self.counts)
            fields["v"] = VERSION
        return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()

    def line(self) -> str:
        fields = json.loads(self.body())
        fields["signature"] = self.signature
        return json.dumps(fields, sort_keys=True, separators=(",", ":"))

    def signed_by(self, public: str) -> bool:
        """Whether the signature is good and made with ``public``."""
        return self.key == public and signature_ok(self.key, self.body(), self.signature)

    @classmethod
    def parse(cls, line: str) -> Checkpoint:
        """A line of the file; raises ValueError when it is not one."""
        try:
            fields = json.loads(line)
            version = fields.pop("v")
            if version != VERSION and version not in OLDER_VERSIONS:
                raise ValueError("an unknown format")
            if version == VERSION and not isinstance(fields.get("counts"), dict):
                raise ValueError("no counts")
            fields["at"] = as_utc(datetime.fromisoformat(fields["at"]))
            return cls(**fields)
        except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
            raise ValueError(str(exc)) from exc


def line_digest(line: str) -> str:
    """What the next line's ``prev`` holds: sha256 of this line's text."""
    return hashlib.sha256(line.encode()).hexdigest()


class CheckpointFile:
    """The append-only file of checkpoints: one JSON line each, newest last, made 0600."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def append(self, head: Head, key: LedgerKey, checked: bool, reason: str) -> Checkpoint:
        """Sign and append a checkpoint of ``head``, chained to the last line (under a lock)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a+b") as out:
            fcntl.flock(out, fcntl.LOCK_EX)  # one writer at a time, across processes
            last = next(_lines_backwards(out), None)
            checkpoint = Checkpoint(
                seq=head.seq,
                hash=head.hash,
                at=utcnow(),
                marks=dict(head.marks),
                entries=head.entries,
                entry_hash=head.entry_hash,
                checked=checked,
                reason=reason[:200],
                prev=line_digest(last) if last is not None else "",
                key=key.public,
                counts=dict(head.counts),
            )
            signed = replace(checkpoint, signature=key.sign(checkpoint.body()))
            out.write(signed.line().encode() + b"\n")
            out.flush()
            os.fsync(out.fileno())
        return signed

    def newest_first(self) -> Iterator[str]:
        """Every line, the newest first, read from the end of the file."""
        if not self.path.exists():
            return
        with self.path.open("rb") as source:
            yield from _lines_backwards(source)

    def latest(self) -> Checkpoint | None:
        """The last line, if it can be read."""
        line = next(self.newest_first(), None)
        try:
            return Checkpoint.parse(line) if line is not None else None
        except ValueError:
            return None


def _lines_backwards(source: IO[bytes]) -> Iterator[str]:
    """The lines of ``source``, last first, reading blocks from its end (blank lines skipped)."""
    source.seek(0, os.SEEK_END)
    position = source.tell()
    rest = b""
    while position > 0:
        size = min(BLOCK, position)
        position -= size
        source.seek(position)
        block = source.read(size) + rest
        lines = block.split(b"\n")
        rest = lines[0]
        for line in reversed(lines[1:]):
            if line.strip():
                yield line.decode("utf-8", "replace")
    if rest.strip():
        yield rest.decode("utf-8", "replace")


def current_file(session: Session) -> CheckpointFile:
    """The checkpoint file (``CHECKPOINT_FILE``) of the app whose database ``session`` works
    on."""
    return CheckpointFile(settings.of(session).config["CHECKPOINT_FILE"])


def record_checkpoint(session: Session, head: Head, checked: bool, reason: str) -> Checkpoint:
    """Sign ``head`` and append it to the app's checkpoint file."""
    return current_file(session).append(head, current_key(session), checked, reason)


def checkpoint_head(session: Session, reason: str) -> Checkpoint | None:
    """File the chain's head as it stands, unchecked (None while nothing is linked)."""
    head = chain_head(session)
    return record_checkpoint(session, counted(session, head), False, reason) if head.seq else None


#: Per checkpoint file: the shift whose beginning has been sealed already (when it began and
#: when the next begins), and the floor's clock and shift starts it was found on.
_sealed: dict[object, tuple[datetime, datetime, tuple[str, str]]] = {}


def seal_shift_end(session: Session) -> None:
    """At the first write of a shift, record the head as the last shift left it (unchecked).

    Called by every write to the chain before it links anything, under the writers' lock.
    Costs a clock reading, except once a shift.
    """
    config, now = settings.of(session).config, utcnow()
    path = config["CHECKPOINT_FILE"]
    shifts = (config.get("SHIFT_STARTS", ""), config.get("TIMEZONE", "UTC"))
    sealed = _sealed.get(path)
    if sealed is not None and sealed[0] <= now < sealed[1] and sealed[2] == shifts:
        return
    start, end = shift_window(now, floor_clock(config), shifts[0])
    store = current_file(session)
    latest = store.latest()
    if latest is None or latest.at < start:
        head = chain_head(session, before=start)
        if head.seq and (latest is None or latest.seq < head.seq):
            head = counted(session, head)
            store.append(head, current_key(session), False, f"shift end {start.isoformat()}")
    _sealed[path] = (start, end, shifts)


def file_genesis(session: Session) -> None:
    """Before the first link of a ledger is written, file the empty chain as its first
    checkpoint (when the file has none): from then on a ledger with links and no checkpoint
    file has lost its file (`verify` says so)."""
    store = current_file(session)
    if store.latest() is None:
        empty = Head(0, GENESIS, None, dict.fromkeys(LINK_KINDS, 0))
        store.append(counted(session, empty), current_key(session), False, "the keyed chain begins")


#: Per checkpoint file: its size, time and inode when its last line was last found recorded.
_noted: dict[Path, tuple[int, int, int]] = {}


def note_filed(session: Session) -> list[tuple[int, list[object], datetime]]:
    """Record the checkpoint file's last line in the database, if it is not yet (a checkpoint
    filed since the last write: by a report, the command line, a backup, a shift's end).

    Called by every write to the chain, under the writers' lock; the record is linked with
    that write's rows (returned as ``(id, fields, at)``). Costs a stat of the file, except
    once after each checkpoint filed.
    """
    store = current_file(session)
    try:
        found = os.stat(store.path)
    except OSError:
        return []
    mark = (found.st_size, found.st_mtime_ns, found.st_ino)
    if _noted.get(store.path) == mark:
        return []
    line = next(store.newest_first(), None)
    try:
        last = Checkpoint.parse(line) if line is not None else None
    except ValueError:
        last = None
    if line is None or last is None:
        return []
    digest = line_digest(line)
    if session.scalar(select(CheckpointRecord.id).where(CheckpointRecord.digest == digest)):
        _noted[store.path] = mark  # known to be recorded, committed: not asked again
        return []
    row = {"seq": last.seq, "at": last.at, "digest": digest}
    made = session.connection().execute(_INSERT_RECORD.returning(CheckpointRecord.id), row)
    ident = made.scalar_one()
    record = {**row, "id": ident}
    return [(ident, checkpoint_link_fields([record[c] for c in CHECKPOINT_COLUMNS]), last.at)]


_INSERT_RECORD = insert(cast(Table, CheckpointRecord.__table__))
