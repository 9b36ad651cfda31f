"""What the ledger found, in words: its checks' problems, a hand it can no longer replay, an
engine change, a refused backup.

The ledger says nothing itself (it knows nothing above it): each thing it finds carries a code
and its fields (`dealer.ledger.checks.Problem`, `dealer.ledger.checks.Refused`), said here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

from dealer import rules
from dealer.words.catalogue import say, say_later, say_n
from dealer.words.rows import counted_words, field_words, identity_noun, row_noun
from dealer.words.rules import refusal_words
from dealer.words.status import status_words
from dealer.words.times import moment_words


class Found(Protocol):
    """What the ledger found: a code, and the fields its sentence is made of."""

    @property
    def code(self) -> str: ...

    @property
    def fields(self) -> Mapping[str, Any]: ...


class Changed(Protocol):
    """A hand the engine installed no longer replays as it was played (`EngineChange`)."""

    @property
    def hand(self) -> int: ...

    @property
    def played_under(self) -> str | None: ...

    @property
    def installed(self) -> str: ...

    @property
    def found(self) -> Found: ...


#: Each problem whose fields are its message's own.
_MESSAGES = {
    "prev_hash": say_later(
        "Entry {seq} does not follow the entry before it: its prev_hash is not that entry's hash."
    ),
    "entry_changed": say_later(
        "Entry {seq} was changed after it was written: its hash does not match its fields."
    ),
    "no_account": say_later("Entry {seq} names no account: {name!r}."),
    "to_itself": say_later("Entry {seq} moves chips to where they are."),
    "not_positive": say_later("Entry {seq} moves {chips} chips."),
    "corrects_later": say_later(
        "Entry {seq} corrects entry {reverses}, which does not come before it."
    ),
    "corrected_twice": say_later("Entry {reverses} is corrected more than once."),
    "not_moved_back": say_later("Entry {seq} does not move entry {seq2}'s chips back."),
    "hand_sum": say_later("Hand {hand}'s entries sum to {total}, not 0."),
    "pot_overpaid": say_later("Hand {hand}'s pot paid out {value} it never held."),
    "pot_left": say_later("Hand {hand} is {status} but {pot} chips are left in its pot."),
    "void_moved": say_later("Hand {hand} is void but {account} is {chips:+} over it."),
    "unknown_hand": say_later("Entries name hand {hand}, which is unknown."),
    "link_out_of_order": say_later("Link {seq} of the keyed chain does not follow the one before."),
    "links_missing": say_later(
        "Links {low}..{high} of the keyed chain are missing: rows and their links were deleted."
    ),
    "not_a_checkpoint": say_later(
        "Line {value} from the end of the checkpoint file is not a checkpoint."
    ),
    "no_checkpoint": say_later(
        "No checkpoint is filed in {path}, yet the keyed chain holds {seq} links: every ledger "
        "files one with its first link, so the checkpoint file was deleted, emptied or moved "
        "(or CHECKPOINT_FILE names another file)."
    ),
    "not_last_event": say_later(
        "Hand {id} is stored as {status} (winner {winner}) but its last event left it {value} "
        "(winner {value2})."
    ),
    "backup_not_sqlite": say_later(
        "Only an SQLite database is backed up by this command: back PostgreSQL up with "
        "pg_dump --format=custom --file PATH (see the README)."
    ),
    "backup_exists": say_later("{path} exists already: back up to a new file."),
}
#: Each problem about a signed checkpoint, named in the message by its time and link.
_CHECKPOINT_MESSAGES = {
    "not_signed": say_later("{name} is not signed with this ledger's key: forged or changed."),
    "link_deleted": say_later(
        "{name} recorded link {seq}, but the keyed chain now ends at link {head}: history was "
        "deleted."
    ),
    "link_rewritten": say_later(
        "{name} recorded its hash as {value}..., but the database now gives {value2}...: "
        "history up to it was rewritten."
    ),
    "entry_rewritten": say_later(
        "{name} recorded entry {entries} as {value}..., but the ledger no longer has it so: "
        "entries were rewritten or deleted."
    ),
}
#: Why a stored hand no longer replays (said inside `_NO_REPLAY`).
_REPLAY_FAILURES = {
    "no_deal": say_later("Hand {id} has no deal stored as its first event."),
    "event_moved": say_later("Hand {id}: event {seq} replays as {seq2}."),
}
_NO_REPLAY = say_later(
    "{message} Its chips stand as the ledger records them: print its hand slip, and call a "
    "supervisor."
)


def problem_words(found: Found) -> str:
    """What the ledger found, said: a check's problem, or why it refused."""
    fields = found.fields
    if found.code in _MESSAGES:
        return say(_MESSAGES[found.code], **fields)
    if found.code in _CHECKPOINT_MESSAGES:
        named = {"name": _checkpoint(fields), "seq": fields["link"]}
        return say(_CHECKPOINT_MESSAGES[found.code], **named, **fields)
    if found.code in _REPLAY_FAILURES:
        return say(_NO_REPLAY, message=say(_REPLAY_FAILURES[found.code], **fields))
    return _COMPOSED[found.code](**fields)


def _checkpoint(fields: Mapping[str, Any]) -> str:
    return say("The checkpoint of {at} (link {link})", at=_when(fields["at"]), link=fields["link"])


def _when(moment: datetime) -> str:
    """A time in problems' sentences: UTC, to the second, as the language writes it."""
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return moment_words(utc, "datetime")


def _out_of_sequence(seq: int, expected: int) -> str:
    if seq < expected:
        return say("Entry {seq} repeats: seq {expected} was due.", seq=seq, expected=expected)
    return say(
        "Entry {seq} skips {expected}..{last}: seq {expected} was due.",
        seq=seq,
        expected=expected,
        last=seq - 1,
    )


def _figure(source: str, account: str, chips: int, hand: int | None, summed: int) -> str:
    fields = {"source": source, "account": account, "chips": chips, "summed": summed}
    if hand is None:
        return say(
            "{source} says {account} changed by {chips} in all, but its entries sum to {summed}.",
            **fields,
        )
    return say(
        "{source} says {account} changed by {chips} over hand {hand}, but its entries sum to "
        "{summed}.",
        hand=hand,
        **fields,
    )


#: A linked row gone or changed, said of a row of a hand and of one of none.
_ROW_WORDS = {
    ("row_gone", False): say_later("{noun} {ref} is gone: link {link} names it."),
    ("row_gone", True): say_later("{noun} {ref} (hand {hand}) is gone: link {link} names it."),
    ("row_changed", False): say_later(
        "{noun} {ref} was changed after it was written: it no longer matches its keyed hash "
        "(link {link})."
    ),
    ("row_changed", True): say_later(
        "{noun} {ref} (hand {hand}) was changed after it was written: it no longer matches its "
        "keyed hash (link {link})."
    ),
}


def _row(code: str, link: int, kind: str, ref: int, hand: int | None) -> str:
    """A linked row's problem: gone, or changed (``code``)."""
    message = _ROW_WORDS[code, hand is not None]
    return say(message, noun=row_noun(kind), ref=ref, hand=hand, link=link)


def _unkeyed(kind: str, count: int, first: tuple[int, ...]) -> str:
    shown = ", ".join(str(k) for k in first) + (", ..." if count > 5 else "")
    return say(
        "{keys} {noun} row(s) ({shown}) are outside the keyed chain: written before it existed "
        "(link them once: flask --app dealer ledger link-unkeyed) or added behind the app's "
        "back.",
        keys=count,
        noun=row_noun(kind).lower(),
        shown=shown,
    )


def _identity_deleted(kind: str, ref: int) -> str:
    return say(
        "{capitalize} #{ref} was deleted outside the app.",
        capitalize=identity_noun(kind, first=True),
        ref=ref,
    )


def _unversioned(kind: str, ref: int) -> str:
    return say(
        "{capitalize} is outside the keyed chain: added behind the app's back, or before its "
        "rows were versioned (flask --app dealer db upgrade links them).",
        capitalize=identity_noun(kind, ref, first=True),
    )


def _field_changed(kind: str, ref: int, field: str) -> str:
    return say(
        "The {value} of {noun} was changed outside the app.",
        value=field_words(kind, field),
        noun=identity_noun(kind, ref),
    )


def _version_changed(kind: str, ref: int) -> str:
    return say(
        "The newest version of {noun} was changed outside the app: it no longer matches its "
        "keyed hash.",
        noun=identity_noun(kind, ref),
    )


def _file_changed(at: datetime, link: int) -> str:
    return say(
        "The checkpoint file was changed just before the checkpoint of {at} (link {link}): a line "
        "was taken out, put in or altered.",
        at=_when(at),
        link=link,
    )


def _count_changed(at: datetime, link: int, kind: str, then: int, found: int) -> str:
    counted = say(
        "{name} counted {then} {noun} up to it, and the database now has {found}: ",
        name=_checkpoint({"at": at, "link": link}),
        then=then,
        noun=counted_words(kind),
        found=found,
    )
    if found < then:
        return counted + say_n("{n} was deleted.", "{n} were deleted.", then - found)
    return counted + say_n(
        "{n} was added behind the app's back.",
        "{n} were added behind the app's back.",
        found - then,
    )


def _file_older(path: str, at: datetime, link: int, missing: int) -> str:
    fields = {"path": path, "at": _when(at), "link": link}
    if missing == 1:
        return say(
            "The checkpoint file {path} no longer holds the checkpoint of {at} (link {link}) "
            "that the database recorded: the file was replaced by an older copy, cut short or "
            "changed.",
            **fields,
        )
    return say_n(
        "The checkpoint file {path} no longer holds the checkpoint of {at} (link {link}) that "
        "the database recorded, nor {n} more: the file was replaced by an older copy, cut short "
        "or changed.",
        "The checkpoint file {path} no longer holds the checkpoint of {at} (link {link}) that "
        "the database recorded, nor {n} more: the file was replaced by an older copy, cut short "
        "or changed.",
        missing - 1,
        **fields,
    )


#: A hand whose row and replay disagree.
_REPLAYS_OTHERWISE = say_later(
    "Hand {id} is stored as {status} (winner {winner}) but replays as {status2} (winner {winner2})."
)


def _replays_otherwise(
    id: int, status: str, winner: int | None, status2: str, winner2: int | None
) -> str:
    """A hand whose row says one outcome (its status, its winner) and whose events replay to
    another."""
    fields = {"status": status_words(status), "status2": status_words(status2)}
    fields |= {"winner": _seat_or_none(winner), "winner2": _seat_or_none(winner2)}
    return say(_REPLAYS_OTHERWISE, id=id, **fields)


def _seat_or_none(seat: int | None) -> str:
    return say("none") if seat is None else str(seat)


def _engine_refuses(id: int, refused: rules.RulesError) -> str:
    """The engine refused a stored event: its refusal said as every door says it."""
    said = say("Hand {id} no longer replays: {message}", id=id, message=refusal_words(refused))
    return say(_NO_REPLAY, message=said)


#: Each problem whose message is made of more than its fields.
_COMPOSED: dict[str, Callable[..., str]] = {
    "out_of_sequence": _out_of_sequence,
    "figure": _figure,
    "row_gone": partial(_row, "row_gone"),
    "row_changed": partial(_row, "row_changed"),
    "unkeyed": _unkeyed,
    "identity_deleted": _identity_deleted,
    "unversioned": _unversioned,
    "field_changed": _field_changed,
    "version_changed": _version_changed,
    "file_changed": _file_changed,
    "count_changed": _count_changed,
    "file_older": _file_older,
    "replays_otherwise": _replays_otherwise,
    "engine_refuses": _engine_refuses,
}


def change_note(
    played_under: str | None, installed: str, what: str, hand: int | None = None
) -> str:
    """What a document or a check says of a hand that no longer replays as recorded; ``what``
    says how (``"it no longer replays: ..."``), ``hand`` which hand (none: "this hand"). An
    engine change when the hand was played under another engine than the one ``installed``;
    otherwise something for the ledger checks."""
    chips = say("Its chips stand as its ledger entries say.")
    if played_under == installed:
        return say(
            "This hand does not replay as recorded: {what}; run the ledger checks. {chips}",
            what=what,
            chips=chips,
        )
    return say(
        "Engine changed: {hand} was played under {played}; under {installed} (installed) "
        "{what}. {chips}",
        hand=say("this hand") if hand is None else say("hand {id}", id=hand),
        played=played_under or say("an engine from before versions were recorded"),
        installed=installed,
        what=what,
        chips=chips,
    )


def engine_change_words(change: Changed) -> str:
    """The note on a hand the checks found played under another engine than the one installed."""
    what = say("it no longer replays as recorded ({message})", message=problem_words(change.found))
    return change_note(change.played_under, change.installed, what, change.hand)
