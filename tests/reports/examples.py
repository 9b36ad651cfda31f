"""Report inputs built the way the ledger will build them: hands played through the engine."""

from __future__ import annotations

import hashlib
import io
from datetime import UTC, datetime, timedelta

from pypdf import PdfReader

from dealer.hands.reading import Replayed
from dealer.ledger import Report
from dealer.models import Event
from dealer.models import Hand as HandRow
from dealer.rules import (
    HOUSE,
    POT,
    Hand,
    action_from_dict,
    action_to_dict,
    make_collection,
    make_rules,
    total_by_party,
)
from dealer.views.documents.down import Correction, DownReport, DownSeat
from dealer.views.documents.hand import HandSlip, SeatLine
from dealer.views.documents.shift import ShiftReport, ShiftTable
from dealer.views.documents.shift_summary import PlayerTotal
from dealer.views.documents.shift_tally import Amount, HourDrop, TrialLine
from dealer.views.events import EventView, event_views
from dealer.views.ledger import CheckpointView, VerificationView, verification_view
from dealer.views.shift_hands import HandLine
from dealer.words.rules import rules_explained, rules_in_force

PLAYERS = {1: "Ana", 2: "Bea", 3: "Cruz", 4: "Dev", 5: "Eli", 6: "Fay"}
OPENED = datetime(2024, 5, 3, 21, 0, tzinfo=UTC)
CHIP_VALUE = 50  # cents


def checked(
    entries: int,
    head: str,
    ok: bool = True,
    links: int = 0,
    since: datetime | None = None,
    since_link: int = 0,
) -> VerificationView:
    """The ledger checks' verdict a document prints: ``links`` recomputed after the signed
    checkpoint of ``since`` at link ``since_link`` (None: from the first link)."""
    view = verification_view(Report(entries, head, links=links, checked_from=since_link))
    start = None if since is None else CheckpointView(seq=since_link, hash=head, at=since)
    return view.model_copy(update={"ok": ok, "checkpoint": start})


def listed(
    table: str,
    number: int,
    settled_at: datetime | None,
    status: str,
    winner: tuple[int, str] | None,
    won: int,
    drop: int,
    hand_id: int = 0,
) -> HandLine:
    """A hand as a document lists it: six seats dealt, dealt at ``OPENED``, no open dispute."""
    return HandLine(
        id=hand_id or number,
        number=number,
        table=0,
        table_name=table,
        status=status,
        status_words=status,
        winner=winner[0] if winner else None,
        winner_player=winner[1] if winner else "",
        moved=0,
        started_at=OPENED,
        open_disputes=0,
        settled_at=settled_at,
        seats=6,
        won=won,
        drop=drop,
    )


def seed_000_hand(mis_entry: bool = False) -> Hand:
    """Seed 000's example: six play, seat 5 drops, seat 1 shows 5S 5S 5S and JH QH KH, goes out.

    With ``mis_entry`` the dealer first keys a meld for seat 2 that is voided at once: the
    payments are reversed and the nets are the same.
    """
    hand = Hand(make_rules("classic"), PLAYERS, make_collection(None))
    bodies: list[dict[str, object]] = [{"type": "drop", "seat": 5}]
    if mis_entry:
        bodies += [
            {"type": "meld", "seat": 2, "cards": ["7H", "7H", "7H"]},
            {
                "type": "void",
                "event": 3,
                "reason": "Keyed for the wrong seat: it was seat 3's <discard> & no meld",
            },
        ]
    bodies += [
        {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
        {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]},
        {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C", "5C", "6C"]},
        {"type": "go_out", "seat": 1},
    ]
    for body in bodies:
        hand.apply(action_from_dict(body))
    return hand


def events_of(hand: Hand) -> list[EventView]:
    """The events of an engine hand as every door tells them, recorded by Dana (a void
    approved by Flo), 40 seconds apart."""
    rows = [
        Event(
            id=900 + e.seq,
            seq=e.seq,
            type=e.type,
            seat=e.seat,
            action=action_to_dict(e.action) if e.action is not None else None,
            user_id=1,
            supervisor_id=2 if e.type == "void" else None,
            device="tablet 7",
            created_at=OPENED + timedelta(seconds=40 * i),
        )
        for i, e in enumerate(hand.events)
    ]
    stored = Replayed(HandRow(id=1234), hand, rows)
    return event_views(stored, PLAYERS, {1: "Dana", 2: "Flo"}, hand.rules)


def slip_of(hand: Hand, reprint: int = 0, first_seq: int = 101) -> HandSlip:
    """The hand slip of an engine hand, as the ledger would fill it (its words included)."""
    events = events_of(hand)
    settled = total_by_party(hand.events[-1].payments) if hand.status == "settled" else {}
    seats = tuple(
        SeatLine(
            seat=s,
            player=PLAYERS[s],
            status=hand.seat_status[s],
            settlement=settled.get(s, 0),
            net=hand.net[s],
        )
        for s in hand.seats
    )
    count = len(hand.payments)
    last = first_seq + count - 1
    return HandSlip(
        table="Table 7",
        hand_id=1234,
        number=57,
        dealer="Dana",
        status=hand.status,
        winner=hand.winner,
        opened_at=OPENED,
        settled_at=events[-1].at,
        rules_words=tuple(rules_in_force(hand.rules, hand.collection)),
        chip_value_cents=CHIP_VALUE,
        events=tuple(events),
        seats=seats,
        pot=hand.net[POT],
        house=hand.net[HOUSE],
        ledger_first_seq=first_seq,
        ledger_last_seq=last,
        head_hash=hashlib.sha256(str(last).encode()).hexdigest(),
        reprint=reprint,
        rules_applied=tuple(rules_explained([p.rule for p in hand.payments])),
    )


def long_hand() -> Hand:
    """A busy hand of 19 events: two drops, melds and adds by four seats, a void, going out."""
    hand = Hand(make_rules("classic"), PLAYERS, make_collection({"kind": "per_hand", "chips": 1}))
    bodies: list[dict[str, object]] = [
        {"type": "drop", "seat": 5},
        {"type": "drop", "seat": 6},
        {"type": "meld", "seat": 2, "cards": ["6H", "6C", "6D"]},
        {"type": "meld", "seat": 3, "cards": ["4H", "4C", "4D"]},
        {"type": "meld", "seat": 4, "cards": ["7D", "7D", "7D"]},
        {"type": "add", "seat": 2, "meld": 1, "cards": ["6S"]},
        {"type": "add", "seat": 3, "meld": 2, "cards": ["4S"]},
        {"type": "add", "seat": 4, "meld": 3, "cards": ["7D"]},
        {"type": "meld", "seat": 1, "cards": ["5S", "5S", "5S"]},
        {"type": "add", "seat": 1, "meld": 4, "cards": ["5S"]},
        {"type": "meld", "seat": 2, "cards": ["AH", "2H", "3H"]},
        {"type": "meld", "seat": 3, "cards": ["KS", "KS", "KS"]},
        {"type": "void", "event": 13, "reason": "The kings were seat 4's, not seat 3's."},
        {"type": "meld", "seat": 1, "cards": ["JH", "QH", "KH"]},
        {"type": "add", "seat": 4, "meld": 3, "cards": ["7D"]},
        {"type": "meld", "seat": 1, "cards": ["2C", "3C", "4C", "5C"]},
        {"type": "go_out", "seat": 1},
    ]
    for body in bodies:
        hand.apply(action_from_dict(body))
    return hand


def rotated_hand(winner: int, dropper: int, collection: dict[str, object] | None) -> Hand:
    """Seed 000's hand with the seats turned: ``winner`` goes out, ``dropper`` drops."""
    hand = Hand(make_rules("classic"), PLAYERS, make_collection(collection))
    hand.apply(action_from_dict({"type": "drop", "seat": dropper}))
    for cards in (["5S", "5S", "5S"], ["JH", "QH", "KH"], ["2C", "3C", "4C", "5C", "6C"]):
        hand.apply(action_from_dict({"type": "meld", "seat": winner, "cards": cards}))
    hand.apply(action_from_dict({"type": "go_out", "seat": winner}))
    return hand


def down_example(hands: int = 12, reprint: int = 0) -> DownReport:
    """A dealer's session of ``hands`` hands at a table taking 1 chip a hand; two corrections."""
    collection = {"kind": "per_hand", "chips": 1}
    net = dict.fromkeys(PLAYERS, 0)
    conditions = dict.fromkeys(PLAYERS, 0)
    won = dict.fromkeys(PLAYERS, 0)
    drop = 0
    lines = []
    for n in range(1, hands + 1):
        winner, dropper = (n - 1) % 6 + 1, (n + 2) % 6 + 1
        hand = rotated_hand(winner, dropper, collection)
        for s in PLAYERS:
            net[s] += hand.net[s]
        for p in hand.payments:
            if p.rule == "condition":
                conditions[p.payee] += p.chips  # type: ignore[index]
        won[winner] += 1
        drop += hand.net[HOUSE]
        lines.append(
            listed(
                "Table 7",
                n,
                OPENED + timedelta(minutes=2 * n),
                "settled",
                (winner, PLAYERS[winner]),
                hand.net[winner],
                hand.net[HOUSE],
                hand_id=5000 + n,
            )
        )
    seats = tuple(
        DownSeat(
            seat=s,
            player=PLAYERS[s],
            buy_ins=500,
            cash_outs=500 + net[s] if s % 2 else 0,
            net=net[s],
            conditions=conditions[s],
            hands_won=won[s],
        )
        for s in PLAYERS
    )
    corrections = (
        Correction(
            at=OPENED + timedelta(minutes=5),
            hand_number=2,
            kind="void",
            text="void of event 3 (seat 2 melds 7H 7H 7H)",
            chips=8,
            recorded_by="Dana",
            approved_by=None,
            reason="Keyed for the wrong seat: it was seat 3's <discard> & no meld.",
        ),
        Correction(
            at=OPENED + timedelta(minutes=9),
            hand_number=4,
            kind="void",
            text="void of event 6 after settlement (seat 4 adds 7D to meld 2)",
            chips=12,
            recorded_by="Dana",
            approved_by="Flo",
            reason=(
                "The 7D was the discard of seat 3 and seat 4 had already drawn; the floor "
                "watched the replay and ruled the add void. The chips go back to seats 1, 2, 5."
            ),
        ),
    )
    return DownReport(
        table="Table 7",
        down_id=88,
        dealer="Dana",
        opened_at=OPENED,
        closed_at=OPENED + timedelta(minutes=2 * hands + 5),
        close_confirmed_by="Flo",
        chip_value_cents=CHIP_VALUE,
        seats=seats,
        hands=tuple(lines),
        house_drop=drop,
        corrections=corrections,
        reprint=reprint,
    )


def shift_example(problems: tuple[str, ...] = (), reprint: int = 0) -> ShiftReport:
    """Three tables over two hours; chip values differ; the books balance unless told."""
    tables = (
        ShiftTable("Table 7", 50, hands=3, drop=18, void_hands=1, voided_events=2),
        ShiftTable("Table 9", 100, hands=2, drop=12, void_hands=0),
        ShiftTable("High stakes <VIP> & co", 500, hands=1, drop=6, void_hands=0),
    )
    hands = (
        listed("Table 7", 1, OPENED + timedelta(minutes=3), "settled", (1, "Ana"), 45, 6),
        listed("Table 7", 2, OPENED + timedelta(minutes=9), "settled", (2, "Bea"), 45, 6),
        listed("Table 7", 3, OPENED + timedelta(minutes=70), "settled", (3, "Cruz"), 45, 6),
        listed("Table 9", 1, OPENED + timedelta(minutes=12), "settled", (4, "Gus"), 45, 6),
        listed("Table 9", 2, None, "void", None, 0, 6),
        listed(
            "High stakes <VIP> & co",
            1,
            OPENED + timedelta(minutes=80),
            "settled",
            (1, "Hal"),
            45,
            6,
        ),
    )
    players = (
        PlayerTotal(
            "Ana", ("Table 7",), 3, Amount(500, 25000), Amount(530, 26500), Amount(30, 1500)
        ),
        PlayerTotal(
            "=HYPERLINK(evil)",
            ("Table 9",),
            2,
            Amount(300, 30000),
            Amount(250, 25000),
            Amount(-50, -5000),
        ),
        PlayerTotal(
            "Hal",
            ("High stakes <VIP> & co",),
            1,
            Amount(100, 50000),
            Amount(120, 60000),
            Amount(20, 10000),
        ),
    )
    trial = (
        TrialLine("Table 7 seats", 120, 138),
        TrialLine("Table 7 house", 18, 0),
        TrialLine("Table 9 seats", 80, 92),
        TrialLine("Table 9 house", 12, 0),
        TrialLine("High stakes <VIP> & co seats", 40, 46),
        TrialLine("High stakes <VIP> & co house", 6, 0),
    )
    return ShiftReport(
        window_from=OPENED,
        window_to=OPENED + timedelta(hours=2),
        tables=tables,
        players=players,
        drop_by_hour=(
            HourDrop(OPENED, Amount(24, 1800)),
            HourDrop(OPENED + timedelta(hours=1), Amount(12, 3300)),
        ),
        trial_balance=trial,
        chain=checked(412, "9f" * 32, ok=not problems),
        hands=hands,
        problems=problems,
        reprint=reprint,
    )


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page, as pypdf reads it back."""
    assert data.startswith(b"%PDF-")
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
