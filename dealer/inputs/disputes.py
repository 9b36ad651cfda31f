"""The bodies of the dispute desk's writes (API.md): a dispute opened on a hand, and its ruling."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from dealer.bounds import CLAIM, MAX_ID, RULING_REASON, SEATS
from dealer.inputs.bodies import Body
from dealer.inputs.words import Asked, one_of, text, whole
from dealer.models import DISPUTE_OUTCOMES, DISPUTE_RAISERS
from dealer.words import inputs as said
from dealer.words.catalogue import say_later

__all__ = ["NewDispute", "Ruling"]


class NewDispute(Body):
    """A dispute opened on a hand: who raised it, what was claimed, and the payment if one."""

    raised_by: Annotated[str, one_of(DISPUTE_RAISERS, said.raiser)] = Field(
        description="seat (a player at the table) or dealer."
    )
    seat: Annotated[int | None, whole(SEATS, say_later("seat"), optional=True)] = Field(
        None, description="The seat that raised it (when raised_by is seat)."
    )
    claim: Annotated[str, text(CLAIM, say_later("claim")), Asked(say_later("What is claimed"))] = (
        Field(description="What was claimed.")
    )
    entry: Annotated[
        int | None,
        whole((1, MAX_ID), say_later("ledger entry"), optional=True),
        Asked(say_later("The payment")),
    ] = Field(None, description="The seq of the ledger entry (the payment) the claim is about.")


class Ruling(Body):
    """A supervisor's ruling on a dispute: upheld (with the void or correction) or denied."""

    outcome: Annotated[
        str,
        one_of(DISPUTE_OUTCOMES, said.outcome),
        Asked(
            say_later("Ruling"),
            choices={"upheld": say_later("Upheld"), "denied": say_later("Denied")},
        ),
    ]
    reason: Annotated[
        str, text(RULING_REASON, say_later("reason for the ruling")), Asked(say_later("Why"))
    ] = Field(description="Why, in the supervisor's words.")
    void_event: Annotated[
        int | None,
        whole((1, MAX_ID), say_later("void's event"), optional=True),
        Asked(say_later("The void it led to")),
    ] = Field(None, description="Upheld: the id of the void event (of this hand) it led to.")
    correction: Annotated[
        int | None,
        whole((1, MAX_ID), say_later("correction"), optional=True),
        Asked(say_later("The correction it led to (ledger entry)")),
    ] = Field(None, description="Upheld: the seq of the correcting ledger entry (of this hand).")
