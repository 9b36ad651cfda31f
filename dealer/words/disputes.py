"""A dispute on the audit trail, in words: opened (who raised it, and the payment it is about
or the whole hand) and ruled (with the void or the correction it led to); each case one
whole message, so a translation may order it as its language does."""

from __future__ import annotations

from dealer.words.catalogue import say, say_later

#: A dispute opened: who raised it and the payment it is about, in words (`dealer.disputes.said`).
_OPENED = say_later("Dispute {id} opened on hand {number} (id {hand}) · {said}: {claim}")
#: A ruling, by (it led to a void, it led to a correction).
_RULED = {
    (True, True): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) ({said}) {outcome}, led to "
        "the void of #{event} and to a correction: {reason}"
    ),
    (True, False): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) ({said}) {outcome}, led to "
        "the void of #{event}: {reason}"
    ),
    (False, True): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) ({said}) {outcome}, led to "
        "a correction: {reason}"
    ),
    (False, False): say_later(
        "{user} ruled dispute {id} on hand {number} (id {hand}) ({said}) {outcome}: {reason}"
    ),
}


def dispute_opened(dispute_id: int, number: int, hand_id: int, said: str, claim: str) -> str:
    """The audit trail's sentence for a dispute opened: ``said``, who raised it and the
    payment it is about in words, as every screen says it."""
    return say(_OPENED, id=dispute_id, number=number, hand=hand_id, said=said, claim=claim)


def dispute_ruled(
    user: str,
    dispute_id: int,
    number: int,
    hand_id: int,
    said: str,
    upheld: bool,
    led_to: tuple[int | None, int | None],
    reason: str,
) -> str:
    """The audit trail's sentence for a ruling of the dispute ``said`` (in words), with what
    it led to: the void (its number in the hand, #3) and a correction, either or both or
    neither (the audit's details keep their ids)."""
    void_seq, correction_seq = led_to
    message = _RULED[void_seq is not None, correction_seq is not None]
    outcome = say("upheld") if upheld else say("denied")
    fields = {"event": void_seq, "reason": reason}
    return say(
        message,
        user=user,
        id=dispute_id,
        number=number,
        hand=hand_id,
        said=said,
        outcome=outcome,
        **fields,
    )
