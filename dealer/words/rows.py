"""What a person calls the rows the ledger's chains link, what a checkpoint counts, and each
field a version of a row keeps (`dealer.ledger.chain.IDENTITY`), in the reader's language: the
ledger's problems (`dealer.words.ledger`) name them."""

from __future__ import annotations

from dealer.words.catalogue import say, say_later
from dealer.words.numbers import capital

#: What a person calls a row of each kind the keyed chain links.
_ROWS = {
    "entry": say_later("Entry"),
    "event": say_later("Event"),
    "print": say_later("Print"),
    "dispute": say_later("Dispute"),
    "ruling": say_later("Ruling"),
    "audit": say_later("Audit record"),
    "checkpoint": say_later("The record of checkpoint"),
    "version": say_later("Version"),
}
#: What each count of a checkpoint counts.
_COUNTED = {
    "link": say_later("links of the keyed chain"),
    "entry": say_later("ledger entries"),
    "event": say_later("events"),
    "print": say_later("prints"),
    "dispute": say_later("disputes"),
    "ruling": say_later("rulings"),
    "audit": say_later("audit records"),
    "checkpoint": say_later("records of checkpoints"),
    "version": say_later("versions of people, tables and seats"),
}
#: What a person calls a row of each identity kind, and each field its versions keep
#: (`dealer.ledger.chain.IDENTITY`).
_IDENTITY_NOUNS = {
    "user": say_later("user"),
    "table": say_later("table"),
    "seating": say_later("seating"),
    "player": say_later("player"),
    "session": say_later("dealer's session"),
    "assignment": say_later("dealer's assignment"),
}
IDENTITY_WORDS: dict[str, dict[str, str]] = {
    "user": {
        "name": say_later("name"),
        "role": say_later("role"),
        "active": say_later("standing"),
        "pin_hash": say_later("PIN"),
    },
    "table": {
        "name": say_later("name"),
        "profile": say_later("rule profile"),
        "rules": say_later("rules"),
        "collection": say_later("house collection"),
        "chip_value_cents": say_later("chip value"),
        "created_by": say_later("creator"),
        "min_buy_in": say_later("least buy-in"),
        "max_buy_in": say_later("largest buy-in"),
        "approval_above": say_later("approval threshold"),
        "count_tolerance": say_later("count tolerance"),
        "sells_for_cash": say_later("sale of chips for cash"),
        "acting_seat": say_later("acting seat after a drop"),
    },
    "seating": {
        "table_id": say_later("table"),
        "seat": say_later("seat number"),
        "player": say_later("player's name"),
        "player_id": say_later("player"),
        "seated_at": say_later("time seated"),
    },
    "player": {
        "name": say_later("name"),
        "card_number": say_later("card number"),
        "created_by": say_later("creator"),
    },
    "session": {
        "table_id": say_later("table"),
        "dealer_id": say_later("dealer"),
        "opened_at": say_later("opening time"),
        "implicit": say_later("way it was opened"),
        "closed_at": say_later("closing time"),
        "close_requested_by": say_later("closer"),
        "close_confirmed_by": say_later("confirming supervisor"),
        "close_confirmed_at": say_later("time its close was confirmed"),
    },
    "assignment": {
        "table_id": say_later("table"),
        "dealer_id": say_later("dealer"),
        "assigned": say_later("standing"),
        "by_id": say_later("supervisor"),
        "at": say_later("time"),
    },
}


def row_noun(kind: str) -> str:
    """A linked row of ``kind``, as a sentence begins with it (``Entry``)."""
    return say(_ROWS[kind]) if kind in _ROWS else kind


def counted_words(kind: str) -> str:
    """What a checkpoint's count of ``kind`` counts (``ledger entries``)."""
    return say(_COUNTED[kind]) if kind in _COUNTED else kind


def identity_noun(kind: str, ref: int | None = None, *, first: bool = False) -> str:
    """A row of an identity ``kind`` (``user``), with its number when given (``user #4``), its
    first letter up when it begins the sentence (``first``)."""
    noun = say(_IDENTITY_NOUNS[kind])
    named = noun if ref is None else say("{noun} #{ref}", noun=noun, ref=ref)
    return capital(named) if first else named


def field_words(kind: str, field: str) -> str:
    """What a person calls ``field`` of a row of ``kind`` (``least buy-in``)."""
    return say(IDENTITY_WORDS[kind][field])
