"""The hand slip's inputs: the hand's events as every door tells them, and its ledger entries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.floor.in_play import get_hand
from dealer.hands.reading import Recorded, Replayed, recorded
from dealer.ledger import house_account, pot_account, seating_account
from dealer.ledger.engine import engine_version
from dealer.ledger.reading import StoredEntry, load_entries
from dealer.ledger.replay import account_of, hand_collection, hand_rules
from dealer.models import Down, Hand, LedgerEntry, Seating, Table
from dealer.people.users import names_of
from dealer.views.base import party
from dealer.views.disputes import DisputeLine, dispute_lines
from dealer.views.documents.ledger import nets
from dealer.views.events import EventView, PaymentView, row_fields
from dealer.views.hand import hand_view
from dealer.words.catalogue import say
from dealer.words.ledger import change_note
from dealer.words.parties import party_words
from dealer.words.reasons import reason_words
from dealer.words.rules import rules_explained, rules_in_force


@dataclass(frozen=True, slots=True)
class SeatLine:
    """A seat's part in one hand."""

    seat: int
    player: str
    status: str  # in, dropped, fouled
    settlement: int  # chips it received (+) or paid (-) when the hand was settled
    net: int  # its change over the whole hand, fees included


@dataclass(frozen=True, slots=True)
class HandSlip:
    """Everything the floor needs to rule on one hand (``GET /reports/hands/{id}.pdf``)."""

    table: str
    hand_id: int
    number: int  # the hand's number at its table
    dealer: str
    status: str  # playing, settled, void
    winner: int | None  # the seat that went out
    opened_at: datetime
    settled_at: datetime | None
    #: The profile, every knob and the collection in words, as (label, value).
    rules_words: tuple[tuple[str, str], ...]
    chip_value_cents: int
    #: Its events as every door tells them (`dealer.views.events`); for a hand the engine
    #: installed no longer replays, its stored events with the payments their entries made.
    events: tuple[EventView, ...]
    seats: tuple[SeatLine, ...]
    pot: int  # the pot's net over the hand: 0 once settled
    house: int  # the house's net over the hand (its drop)
    ledger_first_seq: int | None  # the ledger entries of this hand, first to last
    ledger_last_seq: int | None
    head_hash: str  # the chain's hash at ledger_last_seq
    reprint: int = 0  # 0 for the original; n for the n-th reprint
    #: Said when the engine installed no longer replays the hand as recorded (not tampering).
    note: str | None = None
    disputes: tuple[DisputeLine, ...] = ()
    #: Each rule the hand's payments were made under, in words: (name, what it says).
    rules_applied: tuple[tuple[str, str], ...] = ()

    @property
    def total_net(self) -> int:
        """Every account's net added up: zero when the books balance."""
        return sum(s.net for s in self.seats) + self.pot + self.house


def settling_event(hand: Hand, types: dict[int, str], voided: set[int]) -> int | None:
    """The seq of the event that settled the hand: its going out, or the drop that left one seat.

    ``types`` maps each event's seq to its type; ``voided`` holds the seqs a void reversed.
    """
    if hand.status != "settled":
        return None
    standing = [seq for seq in sorted(types) if seq not in voided]
    for kind in ("go_out", "drop"):
        found = [seq for seq in standing if types[seq] == kind]
        if found:
            return found[-1]
    return None


def hand_slip(session: Session, hand_id: int, reprint: int = 0) -> HandSlip:
    """Everything the hand slip prints, for one hand; raises NotFound for an unknown id.

    Its events are the hand's views (`dealer.views.hand`), each in its one sentence; every chip
    figure is a sum of the hand's ledger entries.
    """
    hand = get_hand(session, hand_id)
    table = session.get_one(Table, hand.table_id)
    played = recorded(session, hand)
    entries = load_entries(session, LedgerEntry.hand_id == hand.id)
    by_event: dict[int | None, list[StoredEntry]] = defaultdict(list)
    for e in entries:
        by_event[e.event_id].append(e)
    events = _events(session, played, by_event)
    net = nets(entries)
    last = entries[-1].seq if entries else None
    return HandSlip(
        table=table.name,
        hand_id=hand.id,
        number=hand.number,
        dealer=_dealer(session, hand, events[0].user),
        status=hand.status,
        winner=hand.winner,
        opened_at=hand.started_at,
        settled_at=hand.ended_at if hand.status == "settled" else None,
        rules_words=tuple(rules_in_force(hand_rules(hand), hand_collection(hand))),
        chip_value_cents=table.chip_value_cents,
        events=tuple(events),
        seats=_seats(session, played, by_event, net),
        pot=net.get(pot_account(hand.id), 0),
        house=net.get(house_account(hand.table_id), 0),
        ledger_first_seq=entries[0].seq if entries else None,
        ledger_last_seq=last,
        head_hash=entries[-1].hash if entries else "",
        reprint=reprint,
        note=_engine_note(played, net),
        disputes=dispute_lines(session, [hand.id]),
        rules_applied=tuple(rules_explained([e.reason_code for e in entries])),
    )


def _events(
    session: Session, played: Recorded, by_event: Mapping[int | None, list[StoredEntry]]
) -> list[EventView]:
    """The hand's events as every door tells them; for a hand the engine installed no longer
    replays, each in its stored words with the payments its ledger entries made."""
    hand, rows = played.row, played.events
    if played.engine is not None:
        return hand_view(session, Replayed(hand, played.engine, rows)).events
    seat_of = {seating: int(seat) for seat, seating in hand.seats.items()}
    people = names_of(session, [i for r in rows for i in (r.user_id, r.supervisor_id)])
    voided = played.voided()
    return [
        EventView(
            **row_fields(row, people),
            text=text,
            melds=[],
            voided=row.seq in voided,
            voided_by=None,
            payments=[_paid(e, seat_of) for e in by_event[row.id]],
        )
        for row, text in zip(rows, played.texts(), strict=True)
    ]


def _paid(entry: StoredEntry, seat_of: Mapping[int, int]) -> PaymentView:
    payer, payee = party(entry.from_account, seat_of), party(entry.to_account, seat_of)
    return PaymentView.model_validate(
        {
            "from": payer,
            "to": payee,
            "chips": entry.chips,
            "reason": reason_words(entry.reason_code, entry.reason),
            "rule": entry.reason_code,
            "payer": party_words(payer),
            "payee": party_words(payee),
        }
    )


def _seats(
    session: Session,
    played: Recorded,
    by_event: Mapping[int | None, list[StoredEntry]],
    net: Mapping[str, int],
) -> tuple[SeatLine, ...]:
    """Each seat's part: its net over the hand, and in the event that settled it."""
    hand, rows = played.row, played.events
    seatings = {
        s.id: s
        for s in session.scalars(select(Seating).where(Seating.id.in_(list(hand.seats.values()))))
    }
    settled_by = settling_event(hand, {r.seq: r.type for r in rows}, played.voided())
    settlement = nets(by_event[rows[settled_by - 1].id]) if settled_by is not None else {}
    status = played.seat_status()
    return tuple(
        SeatLine(
            seat=int(seat),
            player=seatings[seating].player,
            status=status.get(int(seat), "?"),
            settlement=settlement.get(seating_account(seating), 0),
            net=net.get(seating_account(seating), 0),
        )
        for seat, seating in sorted(hand.seats.items(), key=lambda item: int(item[0]))
    )


def _engine_note(played: Recorded, net: dict[str, int]) -> str | None:
    """A note when the engine installed no longer replays the hand as its entries recorded it."""
    hand, engine = played.row, played.engine
    if engine is None:
        what = say("it no longer replays ({failure})", failure=played.failure)
        return change_note(hand.engine_version, engine_version(), what)
    replayed = {account_of(hand, party): chips for party, chips in engine.net.items()}
    if any(replayed[a] != net.get(a, 0) for a in replayed) or (engine.status, engine.winner) != (
        hand.status,
        hand.winner,
    ):
        what = say("it replays to other figures than recorded")
        return change_note(hand.engine_version, engine_version(), what)
    return None


def _dealer(session: Session, hand: Hand, dealt_by: str) -> str:
    """The dealer of the session the hand was dealt in, else ``dealt_by``, who recorded the deal."""
    if hand.down_id is not None:
        down = session.get_one(Down, hand.down_id)
        return down.dealer.name
    return dealt_by
