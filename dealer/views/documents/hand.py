"""The hand slip's inputs: the stored events (their words from a replay) and the hand's entries."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.hands.reading import Recorded, Replayed, get_hand, recorded
from dealer.ledger import house_account, pot_account, seating_account
from dealer.ledger.engine import change_note
from dealer.ledger.reading import StoredEntry, load_entries
from dealer.ledger.replay import account_of, hand_collection, hand_rules
from dealer.models import Hand, LedgerEntry, Seating, Table, TableSession
from dealer.people.users import names_of
from dealer.views.base import party
from dealer.views.documents.disputes import dispute_lines
from dealer.views.documents.ledger import nets
from dealer.views.documents.model import EventLine, HandSlip, PaymentLine, SeatLine
from dealer.views.hand import hand_view
from dealer.words.catalogue import say
from dealer.words.rules import rules_explained, rules_in_force

__all__ = ["hand_slip", "settling_event"]


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
    """Everything the hand slip prints, for one hand; raises NotFound for an unknown id."""
    hand = get_hand(session, hand_id)
    table = session.get_one(Table, hand.table_id)
    played = recorded(session, hand)
    rows, voided = played.events, played.voided()
    view = (
        hand_view(session, Replayed(hand, played.engine, rows))
        if played.engine is not None
        else None
    )
    texts = [e.text for e in view.events] if view is not None else played.texts()
    said = (
        [tuple((g.sentence, g.chips * len(g.members)) for g in e.groups) for e in view.events]
        if view is not None
        else [()] * len(rows)
    )
    entries = load_entries(session, LedgerEntry.hand_id == hand.id)
    seat_of = {seating: int(seat) for seat, seating in hand.seats.items()}
    seatings = {
        s.id: s
        for s in session.scalars(select(Seating).where(Seating.id.in_(list(hand.seats.values()))))
    }
    by_event: dict[int | None, list[StoredEntry]] = defaultdict(list)
    for e in entries:
        by_event[e.event_id].append(e)
    people = names_of(session, [i for r in rows for i in (r.user_id, r.supervisor_id)])
    events = tuple(
        EventLine(
            seq=row.seq,
            at=row.created_at,
            type=row.type,
            text=text,
            recorded_by=people.get(row.user_id, "?"),
            approved_by=people.get(row.supervisor_id) if row.supervisor_id else None,
            voided=row.seq in voided,
            payments=tuple(
                PaymentLine(
                    party(e.from_account, seat_of),
                    party(e.to_account, seat_of),
                    e.chips,
                    e.reason_code,
                    e.reason,
                )
                for e in by_event[row.id]
            ),
            said=told,
        )
        for row, text, told in zip(rows, texts, said, strict=True)
    )
    settled_by = settling_event(hand, {r.seq: r.type for r in rows}, voided)
    settling_id = rows[settled_by - 1].id if settled_by is not None else None
    settlement = nets(by_event[settling_id]) if settling_id is not None else {}
    net = nets(entries)
    status = played.seat_status()
    seats = tuple(
        SeatLine(
            seat=int(seat),
            player=seatings[seating].player,
            status=status.get(int(seat), "?"),
            settlement=settlement.get(seating_account(seating), 0),
            net=net.get(seating_account(seating), 0),
        )
        for seat, seating in sorted(hand.seats.items(), key=lambda item: int(item[0]))
    )
    last = entries[-1].seq if entries else None
    return HandSlip(
        table=table.name,
        hand_id=hand.id,
        number=hand.number,
        dealer=_dealer(session, hand, people, rows[0].user_id),
        status=hand.status,
        winner=hand.winner,
        opened_at=hand.started_at,
        settled_at=hand.ended_at if hand.status == "settled" else None,
        rules=hand_rules(hand),
        collection=hand_collection(hand),
        rules_words=tuple(rules_in_force(hand_rules(hand), hand_collection(hand))),
        chip_value_cents=table.chip_value_cents,
        events=events,
        seats=seats,
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


def _engine_note(played: Recorded, net: dict[str, int]) -> str | None:
    """A note when the engine installed no longer replays the hand as its entries recorded it."""
    hand, engine = played.row, played.engine
    if engine is None:
        return change_note(
            hand.engine_version, say("it no longer replays ({failure})", failure=played.failure)
        )
    replayed = {account_of(hand, party): chips for party, chips in engine.net.items()}
    if any(replayed[a] != net.get(a, 0) for a in replayed) or (engine.status, engine.winner) != (
        hand.status,
        hand.winner,
    ):
        return change_note(hand.engine_version, say("it replays to other figures than recorded"))
    return None


def _dealer(session: Session, hand: Hand, people: dict[int, str], dealt_by: int) -> str:
    """The dealer of the session the hand was dealt in, else whoever recorded the deal."""
    if hand.session_id is not None:
        down = session.get_one(TableSession, hand.session_id)
        return down.dealer.name
    return people.get(dealt_by, "?")
