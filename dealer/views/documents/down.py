"""The table session report's inputs: a dealer's down, from its hands' entries and the table's.

The session's entries are those of its hands, and the table's entries that belong to no hand
(buy-ins, cash-outs, time collections) made while the session was open: from ``opened_at`` up
to ``closed_at`` (or now, while it is open).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from dealer.floor.downs import down_hands, get_down, off_hand_while_open
from dealer.hands.reading import recorded
from dealer.ledger import CAGE, house_account, parse_account, seating_account, verify
from dealer.ledger.reading import StoredEntry, load_entries
from dealer.ledger.verification import checkpoint_report
from dealer.models import Down, Event, Hand, LedgerEntry, Seating, Table
from dealer.people.users import names_of
from dealer.views.disputes import DisputeLine, dispute_lines
from dealer.views.documents.ledger import (
    FiledCheckpoint,
    change_lines,
    filed,
    nets,
    problem_lines,
)
from dealer.views.downs import CountView, count_view
from dealer.views.ledger import VerificationView, verification_view
from dealer.views.shift_hands import HandLine, hand_line
from dealer.words.catalogue import say
from dealer.words.events import event_sentences

#: The events a session report lists as voids and corrections.
CORRECTION_TYPES = ("void", "void_hand", "foul", "penalty")


@dataclass(frozen=True, slots=True)
class DownSeat:
    """One player's part in a dealer's session at a table."""

    seat: int
    player: str
    buy_ins: int
    cash_outs: int
    net: int  # won (+) or lost (-) at play over the session, fees included
    conditions: int  # chips collected for conditions
    hands_won: int


@dataclass(frozen=True, slots=True)
class Correction:
    """A void or a correction, with who approved it and why."""

    at: datetime
    hand_number: int | None
    kind: str  # void, void_hand, penalty, correction
    text: str  # what was voided or corrected
    chips: int  # chips the correction moved back
    recorded_by: str
    approved_by: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class DownReport:
    """A dealer's session at one table (``GET /reports/sessions/{id}.pdf``)."""

    table: str
    down_id: int
    dealer: str
    opened_at: datetime
    closed_at: datetime | None  # None while open
    close_confirmed_by: str | None  # the supervisor who confirmed the close
    chip_value_cents: int
    seats: tuple[DownSeat, ...]
    hands: tuple[HandLine, ...]
    house_drop: int  # the house's net over the session
    corrections: tuple[Correction, ...] = ()
    reprint: int = 0
    pot: int = 0  # chips in the pot of a hand still in play (0 once every hand is over)
    opened_by_dealing: bool = False  # no session was open: dealing a hand opened this one
    checkpoint: FiledCheckpoint | None = None
    disputes: tuple[DisputeLine, ...] = ()
    count: CountView | None = None  # the count at its close, once made
    #: The ledger checks run before it was made (None: none were run), and what they found.
    chain: VerificationView | None = None
    problems: tuple[str, ...] = ()
    #: Hands that no longer replay under the engine installed: a note, not a failed check.
    engine_changed: tuple[str, ...] = ()

    @property
    def hands_void(self) -> int:
        return sum(1 for h in self.hands if h.status == "void")


def down_entries(session: Session, down: Down, hands: Sequence[Hand]) -> list[StoredEntry]:
    """The entries of the session's hands and the table's other entries while it was open."""
    off_hand = off_hand_while_open(down)
    hand_ids = [h.id for h in hands]
    where = or_(off_hand, LedgerEntry.hand_id.in_(hand_ids)) if hand_ids else off_hand
    return load_entries(session, where)


def conditions_collected(entries: Sequence[StoredEntry], account: str) -> int:
    """Chips ``account`` collected for conditions: net of voids and of a foul's refunds."""
    by_seq = {e.seq: e for e in entries}
    total = 0
    for e in entries:
        original = by_seq.get(e.reverses) if e.reverses is not None else None
        if e.reason_code == "condition" and e.to_account == account:
            total += e.chips
        elif e.reason_code == "foul_refund" and e.from_account == account:
            total -= e.chips
        elif original is not None and original.reason_code in ("condition", "foul_refund"):
            # A reversal moves the original's chips back: undo what it counted.
            if original.reason_code == "condition" and original.to_account == account:
                total -= e.chips
            elif original.reason_code == "foul_refund" and original.from_account == account:
                total += e.chips
    return total


def down_report(session: Session, down_id: int, reprint: int = 0) -> DownReport:
    """Everything the session report prints; raises NotFound for an unknown id.

    The floor checks itself as it goes: before the report is made, the ledger checks run over
    what was written since the last checked checkpoint (`verify`, the quick checks: with the
    sessions' reports printed through the shift, the links of a few downs), and the head they
    reached is filed as a checkpoint, checked when they found nothing. The report says what
    they checked and found; the next report checks from there.
    """
    down = get_down(session, down_id)
    checks = verify(session)
    table = session.get_one(Table, down.table_id)
    hands = down_hands(session, down)
    entries = down_entries(session, down, hands)
    net = nets(entries)
    seatings = _seatings(session, entries, hands)
    by_hand: dict[int | None, list[StoredEntry]] = defaultdict(list)
    for e in entries:
        by_hand[e.hand_id].append(e)
    disputes = dispute_lines(session, [h.id for h in hands])
    hand_lines, won = _hand_lines(hands, by_hand, seatings, table.name, disputes)
    seats = tuple(
        _seat_line(s, entries, won[s.id]) for s in sorted(seatings, key=lambda s: (s.seat, s.id))
    )
    pots = sum(
        chips
        for account, chips in net.items()
        if (parsed := parse_account(account)) is not None and parsed.kind == "pot"
    )
    people = names_of(session, [down.dealer_id, down.close_confirmed_by])
    return DownReport(
        table=table.name,
        down_id=down.id,
        dealer=people.get(down.dealer_id, "?"),
        opened_at=down.opened_at,
        closed_at=down.closed_at,
        close_confirmed_by=(
            people.get(down.close_confirmed_by) if down.close_confirmed_by is not None else None
        ),
        chip_value_cents=table.chip_value_cents,
        seats=seats,
        hands=hand_lines,
        house_drop=net.get(house_account(table.id), 0),
        corrections=_corrections(session, hands, by_hand),
        reprint=reprint,
        pot=pots,
        opened_by_dealing=down.implicit,
        chain=verification_view(checks),
        problems=problem_lines(checks),
        engine_changed=change_lines(checks),
        checkpoint=filed(checkpoint_report(session, checks, f"session report {down.id}")),
        disputes=disputes,
        count=count_view(session, down.id),
    )


def _hand_lines(
    hands: Sequence[Hand],
    by_hand: Mapping[int | None, list[StoredEntry]],
    seatings: Iterable[Seating],
    table_name: str,
    disputes: Iterable[DisputeLine],
) -> tuple[tuple[HandLine, ...], dict[int, int]]:
    """Each hand of the session as a line (its won and drop, its own entries), and the hands
    each seating won."""
    won: dict[int, int] = defaultdict(int)
    player = {s.id: s.player for s in seatings}
    still_open = Counter(d.hand for d in disputes if d.is_open)
    lines = []
    for hand in hands:
        winner = hand.seats.get(str(hand.winner)) if hand.winner is not None else None
        if winner is not None and hand.status == "settled":
            won[winner] += 1
        name = player.get(winner, "?") if winner is not None else ""
        net = nets(by_hand[hand.id])
        lines.append(hand_line(hand, net, table_name, name, still_open[hand.id]))
    return tuple(lines), won


def _seatings(
    session: Session, entries: Iterable[StoredEntry], hands: Iterable[Hand]
) -> list[Seating]:
    """Every seating the session touched: dealt into one of its hands, or moving chips in it."""
    ids: set[int] = {seating for hand in hands for seating in hand.seats.values()}
    for e in entries:
        for account in (e.from_account, e.to_account):
            parsed = parse_account(account)
            if parsed is not None and parsed.kind == "seating" and parsed.id is not None:
                ids.add(parsed.id)
    if not ids:
        return []
    return list(session.scalars(select(Seating).where(Seating.id.in_(ids))))


def _seat_line(seating: Seating, entries: Sequence[StoredEntry], hands_won: int) -> DownSeat:
    account = seating_account(seating.id)
    buy_ins = cash_outs = net = 0
    for e in entries:
        if e.to_account == account:
            if e.from_account == CAGE:
                buy_ins += e.chips
            else:
                net += e.chips
        elif e.from_account == account:
            if e.to_account == CAGE:
                cash_outs += e.chips
            else:
                net -= e.chips
    return DownSeat(
        seat=seating.seat,
        player=seating.player,
        buy_ins=buy_ins,
        cash_outs=cash_outs,
        net=net,
        conditions=conditions_collected(entries, account),
        hands_won=hands_won,
    )


def _corrections(
    session: Session, hands: Sequence[Hand], by_hand: dict[int | None, list[StoredEntry]]
) -> tuple[Correction, ...]:
    """Every void, voided hand, foul and discard penalty, with who approved it and why."""
    ids = [h.id for h in hands]
    wanted = session.scalars(
        select(Event.hand_id).where(Event.hand_id.in_(ids), Event.type.in_(CORRECTION_TYPES))
    ).all()
    if not wanted:
        return ()
    out: list[Correction] = []
    for hand in (h for h in hands if h.id in set(wanted)):
        played = recorded(session, hand)
        # The events' own sentences, as the hand slip says them (a void names what it voids);
        # a hand the engine can no longer replay keeps its stored descriptions.
        worded = played.engine is not None
        texts = event_sentences(played.engine) if played.engine is not None else played.texts()
        rows = [r for r in played.events if r.type in CORRECTION_TYPES]
        people = names_of(session, [i for r in rows for i in (r.user_id, r.supervisor_id)])
        for row in rows:
            action = row.action or {}
            text = texts[row.seq - 1]
            if row.type == "void" and not worded:
                text += f" ({texts[int(action['event']) - 1]})"
            out.append(
                Correction(
                    at=row.created_at,
                    hand_number=hand.number,
                    kind=row.type,
                    text=text,
                    chips=sum(e.chips for e in by_hand[hand.id] if e.event_id == row.id),
                    recorded_by=people.get(row.user_id, "?"),
                    approved_by=people.get(row.supervisor_id) if row.supervisor_id else None,
                    reason=str(action.get("reason") or _why(row.type)),
                )
            )
    return tuple(out)


def _why(kind: str) -> str:
    """What a correction without a reason of its own is for."""
    if kind == "foul":
        return say("Foul: the seat is out of the hand and pays back its condition chips.")
    if kind == "penalty":
        return say("Discard penalty: the offender reimburses the others' losses for the hand.")
    return ""
