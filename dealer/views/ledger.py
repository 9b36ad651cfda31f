"""The ledger as a client reads it: a table's entries, and the verification's report.

The API dumps these (API.md's ledger and verification) and its document is made from them; the
ledger export writes the same entries, with their table and who wrote them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from pydantic import ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.ledger import Report
from dealer.ledger.checks import CHECKS
from dealer.models import LedgerEntry, Seating, Table
from dealer.people.devices import device_claim
from dealer.people.users import names_of
from dealer.views.base import Time, View, entry_columns, one_of, party, screen
from dealer.words.ledger import engine_change_words, problem_words
from dealer.words.numbers import capital
from dealer.words.rules import LEDGER_RULES, rule


class EntryView(View):
    """A ledger entry: who paid whom, how much and why, and its place in the chain."""

    seq: int
    at: Time
    from_: str = Field(alias="from", description='A seat ("3"), "pot", "house" or "cage".')
    to: str = Field(description='A seat ("3"), "pot", "house" or "cage".')
    chips: Annotated[int, Field(ge=1)]
    reason: str
    rule: str = one_of(LEDGER_RULES, description="The engine's code for the rule.")
    hand: int | None
    event: int | None
    reverses: int | None
    from_account: str
    to_account: str
    device: str
    device_claim: str = Field(description="The device in words that say what is only claimed.")
    hash: str
    table: int = screen(0)
    table_name: str = screen("")
    user: str = screen("", description="Who wrote it.")
    #: Its parties in words, for a person (the dispute view).
    source: str = screen("")
    target: str = screen("")

    @property
    def reason_words(self) -> str:
        """Its rule's name, as a line of the dispute view says it."""
        return capital(rule(self.rule).name)


def entry_view(
    entry: LedgerEntry, seat_of: Mapping[int, int], table_name: str, user: str
) -> EntryView:
    """``entry`` as it is read: its parties as seats (``seat_of``: seating id to seat)."""
    return EntryView.model_validate(
        {
            **entry_columns(entry),
            "from": party(entry.from_account, seat_of),
            "to": party(entry.to_account, seat_of),
            "reason": entry.reason,
            "rule": entry.reason_code,
            "hand": entry.hand_id,
            "event": entry.event_id,
            "device_claim": device_claim(entry.device),
            "table": entry.table_id,
            "table_name": table_name,
            "user": user,
        }
    )


class EntriesView(View):
    entries: list[EntryView]


class Reported(View):
    """A part of the verification's report, read from `verification_answer`: a key the view
    does not declare is refused, so nothing the report says is left out of the answer."""

    model_config = ConfigDict(**View.model_config, extra="forbid")


class ProblemView(Reported):
    check: str = one_of(CHECKS, description="The check that found it.")
    message: str
    seq: int | None
    hand: int | None


class ChainHeadView(Reported):
    seq: int
    hash: str


class CheckpointView(Reported):
    seq: int
    hash: str
    at: Time


class EngineChangeView(Reported):
    """A hand that no longer replays as recorded under the engine installed: not a problem."""

    hand: int
    played_under: str | None
    message: str


class VerificationView(Reported):
    ok: bool
    entries: int
    head: str
    problems: list[ProblemView]
    full: bool = Field(
        description="true: every link and every hand checked, as asked (flask ledger verify "
        "--full). false: the quick check: the links after the last good checkpoint (checkpoint, "
        "checked_from), or every link from the start when there is none (checkpoint null, "
        "checked_from 0), and the hands those links touch."
    )
    chain: ChainHeadView = Field(description="The keyed chain's head.")
    checked_from: int = Field(description="Links after this seq were checked.")
    checkpoint: CheckpointView | None = Field(description="The checkpoint it started from.")
    checkpoints: int = Field(description="How many checkpoints were held against the ledger.")
    links_checked: int
    hands_checked: int
    hands_replayed: int
    engine: str = Field(description="The rules engine's version installed.")
    engine_changed: list[EngineChangeView]


def verification_answer(report: Report) -> dict[str, object]:
    """The verification's report as a client reads it (and ``ledger verify --json`` prints it),
    what it found said."""
    start = report.checkpoint
    return {
        "ok": report.ok,
        "entries": report.entries,
        "head": report.head,
        "problems": [
            {"check": p.check, "message": problem_words(p), "seq": p.seq, "hand": p.hand}
            for p in report.problems
        ],
        "full": report.full,
        "chain": {"seq": report.chain.seq, "hash": report.chain.hash},
        "checked_from": report.checked_from,
        "checkpoint": None
        if start is None
        else {"seq": start.seq, "hash": start.hash, "at": start.at.isoformat()},
        "checkpoints": report.checkpoints,
        "links_checked": report.links,
        "hands_checked": report.hands_checked,
        "hands_replayed": report.hands,
        "engine": report.engine,
        "engine_changed": [
            {"hand": c.hand, "played_under": c.played_under, "message": engine_change_words(c)}
            for c in report.engine_changed
        ],
    }


def verification_view(report: Report) -> VerificationView:
    return VerificationView.model_validate(verification_answer(report))


def ledger_view(
    session: Session, table: Table, after: int = 0, limit: int | None = None
) -> EntriesView:
    """Table ``table``'s entries in seq order: all, or ``limit`` of them after seq ``after``."""
    query = (
        select(LedgerEntry)
        .where(LedgerEntry.table_id == table.id, LedgerEntry.seq > after)
        .order_by(LedgerEntry.seq)
        .limit(limit)
    )
    entries = list(session.scalars(query))
    seatings = session.scalars(select(Seating).where(Seating.table_id == table.id))
    seat_of = {s.id: s.seat for s in seatings}
    users = names_of(session, [e.user_id for e in entries])
    return EntriesView(
        entries=[entry_view(e, seat_of, table.name, users.get(e.user_id, "")) for e in entries]
    )
