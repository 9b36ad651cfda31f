"""A dispute on the audit trail, in words: opened (by a seat or the dealer, about a ledger
entry or the whole hand) and ruled (with the void or the correction it led to); each case one
whole message, so a translation may order it as its language does."""

from __future__ import annotations

from dealer.words.catalogue import say

__all__ = ["dispute_opened", "dispute_ruled"]


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
    fields = {"id": dispute_id, "number": number, "hand": hand_id, "claim": claim}
    if seat is not None and entry_seq is not None:
        return say(
            "Dispute {id} opened on hand {number} (id {hand}), raised by seat {seat} about "
            "ledger entry {entry}: {claim}",
            seat=seat,
            entry=entry_seq,
            **fields,
        )
    if seat is not None:
        return say(
            "Dispute {id} opened on hand {number} (id {hand}), raised by seat {seat}: {claim}",
            seat=seat,
            **fields,
        )
    if entry_seq is not None:
        return say(
            "Dispute {id} opened on hand {number} (id {hand}), raised by the dealer about "
            "ledger entry {entry}: {claim}",
            entry=entry_seq,
            **fields,
        )
    return say(
        "Dispute {id} opened on hand {number} (id {hand}), raised by the dealer: {claim}", **fields
    )


def dispute_ruled(
    user: str,
    dispute_id: int,
    number: int,
    hand_id: int,
    outcome: str,
    void_event_id: int | None,
    correction_seq: int | None,
    reason: str,
) -> str:
    """The audit trail's sentence for a ruling, with the void or the correction it led to."""
    fields = {
        "user": user,
        "id": dispute_id,
        "number": number,
        "hand": hand_id,
        "outcome": say("upheld") if outcome == "upheld" else say("denied"),
        "reason": reason,
    }
    if void_event_id is not None and correction_seq is not None:
        return say(
            "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}, led to the void "
            "(event {event}), led to the correction (entry {entry}): {reason}",
            event=void_event_id,
            entry=correction_seq,
            **fields,
        )
    if void_event_id is not None:
        return say(
            "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}, led to the void "
            "(event {event}): {reason}",
            event=void_event_id,
            **fields,
        )
    if correction_seq is not None:
        return say(
            "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}, led to the "
            "correction (entry {entry}): {reason}",
            entry=correction_seq,
            **fields,
        )
    return say(
        "{user} ruled dispute {id} on hand {number} (id {hand}) {outcome}: {reason}", **fields
    )
