"""Registered devices: the floor names each tablet, and what it records says so.

A supervisor registers a tablet from the tablet itself: the app makes a random token, keeps
only its sha256, and the tablet keeps the token in a long-lived cookie. Every request from
that tablet is then recorded from "<name> (registered #<id>)". A request from anywhere else
is recorded, as before, with what the browser says of itself (its ``X-Device`` header or its
User-Agent): the browser's own claim, which anyone can write.

How a device reaches a record, and how a record's device is read back, is decided here only:
`recorded_as` writes the words, `read_device` reads them. The registered mark is only ever
written by `recorded_as` from the server's own row of the device (the tablet's cookie found in
`Device`), never taken from what a browser says: a claim that looks like a registered record
anywhere is stored marked as a claim (``claimed: ...``), and a record so marked is never read
as registered; a registered tablet's own claim comes after its name and number, and the first
number is the one read. A tablet's name can hold neither the mark nor the number's words.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from dealer.bounds import check_name_text, refuse_lookalike
from dealer.errors import Conflict, Invalid
from dealer.models import Device, User, by_id, utcnow
from dealer.people.audit import record_by
from dealer.words.catalogue import say

#: The longest short name of a tablet, in characters.
DEVICE_NAME = 40
#: What a record keeps of its device, at most (``events.device`` and the others).
LONGEST_RECORD = 200
#: A record made from a registered tablet: its name (the shortest that fits, so a claim after
#: it that names another number is read as the claim it is), its number, then the claim.
_REGISTERED = re.compile(r"^(?P<name>.+?) \(registered #(?P<id>[0-9]+)\)(?: · (?P<claim>.*))?$")
#: What a tablet's name may not hold: it would read as another tablet's number.
_NUMBER_WORDS = re.compile(r"\(registered #", re.IGNORECASE)
CLAIM_MARK = "claimed: "


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def recorded_as(device: Device | None, claim: str) -> str:
    """What a record stores as its device: the registered name, then the browser's claim."""
    claim = "".join(ch for ch in claim if ch.isprintable()) or "unknown"
    if device is not None:
        return f"{device.name} (registered #{device.id}) · {claim}"[:LONGEST_RECORD]
    if _REGISTERED.match(claim) or _NUMBER_WORDS.search(claim):
        claim = CLAIM_MARK + claim.removeprefix(CLAIM_MARK)
    return claim[:LONGEST_RECORD]


@dataclass(frozen=True, slots=True)
class DeviceWords:
    """A record's device as a screen shows it: the registered name, and the browser's claim."""

    #: The floor's name for the tablet, None when it was not a registered one.
    name: str | None
    registered: int | None
    #: What the browser said of itself (its User-Agent or X-Device), as recorded.
    claim: str

    @property
    def shown(self) -> str:
        return self.name if self.name is not None else "an unregistered device"


def read_device(stored: str) -> DeviceWords:
    """The words a record's device was stored with (`recorded_as`), read back: registered only
    as `recorded_as` writes it for a registered tablet, never a record marked as a claim."""
    found = None if stored.startswith(CLAIM_MARK) else _REGISTERED.match(stored)
    if found is None:
        return DeviceWords(None, None, stored)
    return DeviceWords(found["name"], int(found["id"]), found["claim"] or "")


def tablet_device(session: Session, token: str | None) -> Device | None:
    """The registered, unretired device whose cookie holds ``token``."""
    if not token or len(token) > 100:
        return None
    return session.scalars(
        select(Device).where(Device.token_hash == _digest(token), Device.retired_at.is_(None))
    ).first()


def _name(session: Session, name: object, renamed: int | None = None) -> str:
    """``name`` for a tablet (``renamed``: the one renamed), read unlike any other in use: a
    retired tablet's name is free for the one that replaces it (its records keep its number)."""
    checked = check_name_text(name, DEVICE_NAME, "tablet's name", "name")
    if _NUMBER_WORDS.search(checked) or checked.casefold().startswith(CLAIM_MARK.strip()):
        raise Invalid(
            say(
                "A tablet's name cannot say it is registered or claimed: the floor's records "
                "say so."
            ),
            "invalid_name",
        )
    in_use = select(Device.name).where(Device.retired_at.is_(None), Device.id != (renamed or 0))
    refuse_lookalike(
        checked, session.scalars(in_use.order_by(Device.id)), "tablet", "device_exists"
    )
    return checked


def register_device(
    session: Session, name: object, user: User, current: Device | None
) -> tuple[str, Device]:
    """Register the tablet asking as ``name``; its token, for its cookie, and its row.

    A tablet that already holds a registration is renamed instead, never registered twice.
    """
    if current is not None:
        raise Conflict(
            say(
                "This tablet is already registered as {name}: rename it instead.", name=current.name
            ),
            "device_registered",
        )
    token = secrets.token_urlsafe(32)
    device = Device(name=_name(session, name), token_hash=_digest(token), registered_by=user.id)
    session.add(device)
    session.flush()
    words = say("{user} registered this tablet as {name}.", user=user.name, name=device.name)
    record_by(session, "device_registered", user, words, None, device=device.id)
    return token, device


def _get(session: Session, device_id: int) -> Device:
    unknown = say("There is no device {device_id}.", device_id=device_id)
    return by_id(session, Device, device_id, unknown, "unknown_device")


def rename_device(session: Session, device_id: int, name: object, user: User) -> Device:
    device = _get(session, device_id)
    if device.retired_at is not None:
        raise Conflict(
            say("{name} is retired: register the tablet again.", name=device.name), "device_retired"
        )
    was, device.name = device.name, _name(session, name, device.id)
    words = say("{user} renamed tablet {was} to {name}.", user=user.name, was=was, name=device.name)
    return _changed(session, device, user, words, was=was)


def retire_device(session: Session, device_id: int, user: User) -> Device:
    """Retire a device: its cookie no longer names it (a lost or replaced tablet)."""
    device = _get(session, device_id)
    if device.retired_at is None:
        device.retired_at = utcnow()
        words = say("{user} retired tablet {name}.", user=user.name, name=device.name)
        _changed(session, device, user, words, retired=True)
    return device


def _changed(session: Session, device: Device, user: User, words: str, **details: object) -> Device:
    """A change to ``device`` written, and on the audit trail in ``words``."""
    session.flush()
    record_by(session, "device_changed", user, words, None, device=device.id, **details)
    return device


def devices(session: Session) -> list[Device]:
    """Every device, the ones in use first, then by name."""
    rows = session.scalars(select(Device).order_by(Device.name, Device.id)).all()
    return sorted(rows, key=lambda d: d.retired_at is not None)


def device_claim(stored: str | None) -> str:
    """A record's device in words that say what the floor registered and what the browser only
    claimed: "Tablet 3 (registered #4); claimed: Mozilla/5.0 ..." or "claimed: ...". The API
    returns it beside ``device`` (``device_claim``)."""
    if not stored:
        return CLAIM_MARK + "nothing"
    words = read_device(stored)
    claim = CLAIM_MARK + words.claim.removeprefix(CLAIM_MARK) if words.claim else ""
    if words.name is None:
        return claim or CLAIM_MARK + "nothing"
    registered = f"{words.name} (registered #{words.registered})"
    return f"{registered}; {claim}" if claim else registered
