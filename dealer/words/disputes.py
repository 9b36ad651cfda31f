"""A dispute on the audit trail, in words: opened (by a seat or the dealer, about a ledger
entry or the whole hand) and ruled (with the void or the correction it led to); each case one
whole message, so a translation may order it as its language does."""

from __future__ import annotations

from dealer.words.catalogue import say, say_later

__all__ = ["dispute_opened", "dispute_ruled"]


#: A dispute opened, by (raised by a seat, about a ledger entry).
_OPENED = {
    (True, True): say_later(
        "Dispute {id} opened on hand {number} (id {hand}), raised by seat {seat} about ledger "
        "entry {entry}: {claim}"
    ),
    (True, False): say_later(
        "Dispute {id} opened on hand {number} (id {hand}), raised by seat {seat}: {claim}"
    ),
    (False, True): say_later(
        "Dispute {id} opened on hand {number} (id {hand}), raised by the dealer about ledger "
        "entry {entry}: {claim}"
    ),
    (False, False): say_later(
        "Dispute {id} opened on hand {number} (id {hand}), raised by the dealer: {claim}"
    ),
}
#: A ruling, by (it led to a void, it led to a correction).
_RULED = {
    (True, True): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}, led to the void "
        "(event {event}), led to the correction (entry {entry}): {reason}"
    ),
    (True, False): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}, led to the void "
        "(event {event}): {reason}"
    ),
    (False, True): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}, led to the "
        "correction (entry {entry}): {reason}"
    ),
    (False, False): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}: {reason}"
    ),
}


def dispute_opened(
    dispute_id: int,
    number: int,
    hand_id: int,
    seat: int | None,
    entry_seq: int | None,
    claim: str,
) -> str:
    """The audit trail's sentence for a dispute opened: raised by a seat or the dealer, about
    a ledger entry or the whole hand."""
    message = _OPENED[seat is not None, entry_seq is not None]
    fields = {"seat": seat, "entry": entry_seq, "claim": claim}
    return say(message, id=dispute_id, number=number, hand=hand_id, **fields)


def dispute_ruled(
    user: str,
    dispute_id: int,
    number: int,
    hand_id: int,
    upheld: bool,
    led_to: tuple[int | None, int | None],
    reason: str,
) -> str:
    """The audit trail's sentence for a ruling, with what it led to: the void (its event) and
    the correction (its ledger entry), either or both or neither."""
    void_event_id, correction_seq = led_to
    message = _RULED[void_event_id is not None, correction_seq is not None]
    outcome = say("upheld") if upheld else say("denied")
    fields = {"event": void_event_id, "entry": correction_seq, "reason": reason}
    return say(
        message, user=user, id=dispute_id, number=number, hand=hand_id, outcome=outcome, **fields
    )
