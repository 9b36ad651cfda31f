"""What the printed documents are made from: frozen plain data, no database.

The ledger fills these from its entries; the events are the views every door reads
(`dealer.views.events`); the documents only lay them out. Chips are
``int`` everywhere. A document that covers one table multiplies by that table's
``chip_value_cents``; an amount summed over several tables (whose chip values may differ) is an
``Amount``: its chips and its cents, each summed table by table.

Times are UTC ``datetime``\\ s; a naive one is taken as UTC (SQLite drops the zone). The
documents show them in ``PrintOptions.timezone``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from dealer.views.events import EventView
from dealer.views.sessions import CountView
from dealer.views.shift_hands import HandLine

__all__ = [
    "Amount",
    "ChainCheck",
    "Correction",
    "DisputeLine",
    "FiledCheckpoint",
    "HandSlip",
    "PrintOptions",
    "SeatLine",
    "SessionReport",
    "SessionSeat",
]

#: Paper: a page (letter, A4) or an 80 mm receipt roll (the slips only).
PageSize = Literal["letter", "A4", "receipt"]


@dataclass(frozen=True, slots=True)
class PrintOptions:
    """How a document is printed: paper, currency, the clock it shows, who printed it."""

    page_size: PageSize = "letter"
    currency: str = "$"
    #: An IANA zone name such as ``America/Los_Angeles``; every time is shown in it.
    timezone: str = "UTC"
    #: When the document was printed (UTC); ``None`` means now.
    printed_at: datetime | None = None
    printed_by: str | None = None


@dataclass(frozen=True, slots=True)
class Amount:
    """Chips and what they are worth, summed table by table (chip values may differ)."""

    chips: int = 0
    cents: int = 0

    @classmethod
    def of(cls, chips: int, chip_value_cents: int) -> Amount:
        return cls(chips, chips * chip_value_cents)

    def __add__(self, other: Amount) -> Amount:
        return Amount(self.chips + other.chips, self.cents + other.cents)


@dataclass(frozen=True, slots=True)
class FiledCheckpoint:
    """The ledger's head as filed, signed, outside the database when the document was made.

    Kept on paper, it lets anyone later see that the ledger up to it was never rewritten.
    """

    seq: int  # the keyed chain's link
    hash: str
    at: datetime
    entries: int  # the ledger's last entry then
    checked: bool  # the checks ran over everything since the last checked checkpoint: clean
    signature: str  # Ed25519, hex
    key: str  # the signing key's fingerprint


# ----------------------------------------------------------------- hand slip


@dataclass(frozen=True, slots=True)
class SeatLine:
    """A seat's part in one hand."""

    seat: int
    player: str
    status: str  # in, dropped, fouled
    settlement: int  # chips it received (+) or paid (-) when the hand was settled
    net: int  # its change over the whole hand, fees included


@dataclass(frozen=True, slots=True)
class DisputeLine:
    """A dispute on the record, and its ruling once there is one (`dealer.disputes.record`)."""

    id: int
    table: str
    hand_id: int
    hand_number: int
    raised_by: str  # "Rosa, seat 3" or "the dealer" (`dealer.disputes.said`)
    claim: str
    about: str | None  # the payment it is about, in words
    opened_by: str
    opened_at: datetime
    outcome: str  # open, upheld, denied
    ruled_by: str | None = None
    ruled_at: datetime | None = None
    reason: str | None = None
    led_to: str | None = None  # "void of #12", "correction"

    @property
    def is_open(self) -> bool:
        return self.outcome == "open"


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


# ------------------------------------------------------------- table session


@dataclass(frozen=True, slots=True)
class SessionSeat:
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
class ChainCheck:
    """The ledger checks' verdict, as ``GET /api/v1/ledger/verify`` gives it: what a shift ledger
    or a session report checked before it was made."""

    ok: bool
    entries: int
    head: str
    #: How many links of the keyed chain these checks recomputed under the key.
    links: int = 0
    #: The signed checkpoint they started from, trusting the links up to it (None: from the
    #: ledger's first link): its time and its link.
    since: datetime | None = None
    since_link: int = 0


@dataclass(frozen=True, slots=True)
class SessionReport:
    """A dealer's session at one table (``GET /reports/sessions/{id}.pdf``)."""

    table: str
    session_id: int
    dealer: str
    opened_at: datetime
    closed_at: datetime | None  # None while open
    close_confirmed_by: str | None  # the supervisor who confirmed the close
    chip_value_cents: int
    seats: tuple[SessionSeat, ...]
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
    chain: ChainCheck | None = None
    problems: tuple[str, ...] = ()
    #: Hands that no longer replay under the engine installed: a note, not a failed check.
    engine_changed: tuple[str, ...] = ()

    @property
    def hands_void(self) -> int:
        return sum(1 for h in self.hands if h.status == "void")
