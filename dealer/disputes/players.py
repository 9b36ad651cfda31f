"""Players known across sessions and days: the record, the search, and a player's statement.

A player's card number and the notes kept on them are private: only a supervisor (or an
admin) reads them, wherever a player is read (`card_for`); a dealer finds a player by name, or
by the card number the player shows, and reads only the name.

A seating (a stay in one seat) belongs to a player when one was chosen as the player sat
down; older seatings have only the name they were taken under, and stay as they were. A
player's statement is worked out here once, from the ledger entries of that player's
seatings: the screen, the PDF and the API all show this one computation.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from dealer.bounds import (
    CARD_NUMBER,
    PLAYER_NAME,
    PLAYER_NOTES,
    PLAYER_SEARCH,
    check_name_text,
    check_text,
    skeleton,
)
from dealer.errors import Conflict, Invalid
from dealer.ledger.accounts import CAGE, seating_account
from dealer.models import Hand, LedgerEntry, Player, Seating, Table, User, as_utc, by_id
from dealer.people.audit import record_by
from dealer.transactions import require_writing
from dealer.words.catalogue import say
from dealer.words.people import player_added

#: Who reads a player's card number and notes.
PRIVATE_TO = "supervisor"


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """A player as one user may read them: the card number and notes only for a supervisor
    or above (None for anyone else, as for a player who has none)."""

    id: int
    name: str
    card_number: str | None
    notes: str | None
    created_at: datetime
    #: The language the player's statement and slips are printed in; None: the asker's.
    language: str | None


def card_for(player: Player, user: User) -> PlayerCard:
    """``player`` as ``user`` may read them: the one decision of who sees the private fields."""
    private = user.can(PRIVATE_TO)
    return PlayerCard(
        id=player.id,
        name=player.name,
        card_number=player.card_number if private else None,
        notes=player.notes if private else None,
        created_at=player.created_at,
        language=player.language,
    )


def _optional_text(value: str | None, longest: int, what: str, field: str) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return check_text(value, longest, what, field)


def add_player(
    session: Session, name: str, card_number: str | None, notes: str | None, user: User
) -> Player:
    """A new player; a card number, when given, belongs to one player only."""
    require_writing(session, "ledger.players.add_player")
    name = check_name_text(name, PLAYER_NAME, "player's name", "name")
    card = _optional_text(card_number, CARD_NUMBER, "card number", "card_number")
    notes = _optional_text(notes, PLAYER_NOTES, "notes", "notes")
    if card is not None:
        holder = session.scalars(select(Player).where(Player.card_number == card)).first()
        if holder is not None:
            raise Conflict(
                say(
                    "Card number {card} is already {name}'s (player {id}).",
                    card=card,
                    name=holder.name,
                    id=holder.id,
                ),
                "card_number_taken",
            )
    player = Player(name=name, card_number=card, notes=notes, created_by=user.id)
    session.add(player)
    session.flush()
    words = player_added(user.name, player.id, name, card)
    record_by(session, "player_added", user, words, None, player=player.id, card_number=card)
    return player


#: What a seat form sends to keep the typed name as a new player.
NEW_PLAYER = "new"


def chosen_player(session: Session, chosen: str, name: str, user: User) -> int | None:
    """The player a seating belongs to, as the seat form chose it: a player's id, or
    ``NEW_PLAYER`` (``name`` kept as a new player), or none chosen (``""``: the player called
    ``name``, found or made); in the same transaction as the seating."""
    if not chosen:
        return _by_name(session, name, user)
    if chosen == NEW_PLAYER:
        return add_player(session, name, None, None, user).id
    if chosen.isascii() and chosen.isdigit() and len(chosen) < 11:
        return int(chosen)
    raise Invalid(say("Choose the player again from the list (player_id)."), "invalid_player")


def _by_name(session: Session, name: str, user: User) -> int | None:
    """A name alone: the player whose name reads as it (`skeleton`: any case, a look-alike
    letter, a run of spaces), else a new one, so the players and their statements fill as the
    floor plays. Several read so: the floor chooses one (they are told apart by their player
    number and card, as two real players may share a name)."""
    if not (name or "").strip():
        return None  # the seating says what is missing
    name = check_name_text(name, PLAYER_NAME, "player's name", "name")
    seen = skeleton(name)
    known = session.execute(select(Player.id, Player.name).order_by(Player.id))
    found = [player_id for player_id, other in known if skeleton(other) == seen]
    if len(found) > 1:
        raise Conflict(
            say("Several players are called {name}: choose one from the list.", name=name),
            "player_ambiguous",
        )
    return found[0] if found else add_player(session, name, None, None, user).id


def get_player(session: Session, player_id: int) -> Player:
    unknown = say("There is no player {player_id}.", player_id=player_id)
    return by_id(session, Player, player_id, unknown, "unknown_player")


def read_player(session: Session, player_id: int, user: User) -> PlayerCard:
    """One player, as ``user`` may read them (`card_for`)."""
    return card_for(get_player(session, player_id), user)


def find_players(
    session: Session, typed: str | None, user: User, limit: int = PLAYER_SEARCH
) -> list[PlayerCard]:
    """Players whose name holds ``typed`` (any case) or whose card number is ``typed``, as
    ``user`` may read them (`card_for`).

    Names that start with it come first; no text lists the players by name.
    """
    text = (typed or "").strip()[:PLAYER_NAME]
    query = select(Player)
    if text:
        # LIKE's own wildcards typed by the floor are taken literally.
        pattern = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        starts = func.lower(Player.name).like(f"{pattern}%", escape="\\")
        query = query.where(
            or_(
                func.lower(Player.name).like(f"%{pattern}%", escape="\\"),
                Player.card_number == text,
            )
        ).order_by(starts.desc())
    query = query.order_by(Player.name, Player.id).limit(max(1, min(limit, PLAYER_SEARCH)))
    return [card_for(player, user) for player in session.scalars(query)]


@dataclass(frozen=True, slots=True)
class HandLine:
    """The player's net on one hand."""

    hand: int
    table: str
    number: int
    seat: int
    #: When the hand was dealt.
    at: datetime
    net: int
    #: ``net`` in money, at its table's chip value.
    net_cents: int = 0


@dataclass(slots=True, kw_only=True)
class Figures:
    """Chips bought in, cashed out, and won or lost at play: each a sum of ledger entries, and
    each ``_cents`` the same in money, every chip at its own table's chip value (tables may
    value a chip differently)."""

    buy_ins: int = 0
    cash_outs: int = 0
    net: int = 0
    buy_ins_cents: int = 0
    cash_outs_cents: int = 0
    net_cents: int = 0

    def add(self, name: str, chips: int, cents: int) -> None:
        """Grow figure ``name`` by ``chips``, and its money by ``cents``."""
        setattr(self, name, getattr(self, name) + chips)
        setattr(self, f"{name}_cents", getattr(self, f"{name}_cents") + cents)


@dataclass(slots=True)
class DayLine(Figures):
    """One day on the floor's clock, and its figures."""

    day: date


@dataclass(slots=True)
class PlayerStatement(Figures):
    """A player's chips over a window.

    ``net`` is what the play won or lost (the hands, and the time collection taken from the
    seat); it equals the sum of ``hands`` plus ``collections``. What the player took home
    over the window is ``cash_outs`` - ``buy_ins``.
    """

    player: Player
    start: datetime | None
    end: datetime | None
    seatings: int = 0
    collections: int = 0
    collections_cents: int = 0
    hands: list[HandLine] = field(default_factory=list)
    days: list[DayLine] = field(default_factory=list)


def player_statement(
    session: Session,
    player_id: int,
    start: datetime | None,
    end: datetime | None,
    tz: ZoneInfo,
) -> PlayerStatement:
    """Player ``player_id``'s buy-ins, cash-outs and net by hand and by day in [start, end)."""
    if start is not None and end is not None and start >= end:
        raise Invalid(say("The window must end after it starts (from before to)."), "empty_window")
    player = get_player(session, player_id)
    statement = PlayerStatement(player, start, end)
    seatings = {
        seating_account(s.id): s
        for s in session.scalars(select(Seating).where(Seating.player_id == player.id))
    }
    statement.seatings = len(seatings)
    if not seatings:
        return statement
    accounts = list(seatings)
    entries: list[LedgerEntry] = []
    for low in range(0, len(accounts), 500):
        chunk = accounts[low : low + 500]
        query = select(LedgerEntry).where(
            or_(LedgerEntry.from_account.in_(chunk), LedgerEntry.to_account.in_(chunk))
        )
        if start is not None:
            query = query.where(LedgerEntry.at >= start)
        if end is not None:
            query = query.where(LedgerEntry.at < end)
        entries += session.scalars(query)
    tables = {s.table_id for s in seatings.values()}
    worth: dict[int, int] = {
        table: value
        for table, value in session.execute(
            select(Table.id, Table.chip_value_cents).where(Table.id.in_(tables))
        )
    }
    by_hand, seat_of = _tally(statement, entries, seatings, worth, tz)
    if by_hand:
        rows = session.execute(
            select(Hand.id, Table.name, Table.id, Hand.number, Hand.started_at)
            .join(Table, Table.id == Hand.table_id)
            .where(Hand.id.in_(list(by_hand)))
            .order_by(Hand.started_at, Hand.id)
        )
        statement.hands = [
            HandLine(
                hand_id, table, number, seat_of[hand_id], as_utc(at), net, net * worth[table_id]
            )
            for hand_id, table, table_id, number, at in rows
            for net in (by_hand[hand_id],)
        ]
    return statement


def _tally(
    statement: PlayerStatement,
    entries: list[LedgerEntry],
    seatings: dict[str, Seating],
    worth: dict[int, int],
    tz: ZoneInfo,
) -> tuple[dict[int, int], dict[int, int]]:
    """Add ``entries`` (of the player's ``seatings``) to the statement's figures and days, in
    chips and in money (each table's chip value in ``worth``); each hand's net and seat."""
    by_hand: dict[int, int] = defaultdict(int)
    seat_of: dict[int, int] = {}
    days: dict[date, DayLine] = {}
    for entry in sorted(entries, key=lambda e: e.seq):
        mine = entry.to_account if entry.to_account in seatings else entry.from_account
        chips = entry.chips if entry.to_account == mine else -entry.chips
        cents = chips * worth[seatings[mine].table_id]
        day = as_utc(entry.at).astimezone(tz).date()
        line = days.setdefault(day, DayLine(day))
        if CAGE in (entry.from_account, entry.to_account):
            for figures in (statement, line):
                if chips > 0:
                    figures.add("buy_ins", chips, cents)
                else:
                    figures.add("cash_outs", -chips, -cents)
            continue
        statement.add("net", chips, cents)
        line.add("net", chips, cents)
        if entry.hand_id is None:
            statement.add("collections", chips, cents)
        else:
            by_hand[entry.hand_id] += chips
            seat_of[entry.hand_id] = seatings[mine].seat
    statement.days = [days[d] for d in sorted(days)]
    return by_hand, seat_of


def players_dealt_in(session: Session, hand: Hand) -> list[tuple[int, str, int]]:
    """(seat, name, player id) of each seat dealt in that belongs to a player record."""
    seatings = session.execute(
        select(Seating.seat, Seating.player, Seating.player_id).where(
            Seating.id.in_(hand.seats.values()), Seating.player_id.is_not(None)
        )
    )
    return sorted((seat, name, player) for seat, name, player in seatings if player is not None)
