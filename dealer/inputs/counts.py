"""The count at a session's close, as a request gives it."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from dealer.bounds import MAX_CHIPS, REASON
from dealer.inputs.bodies import Approval, Body, Supervisor
from dealer.inputs.words import Asked, optional_text, whole
from dealer.words.catalogue import say_later

__all__ = ["CountSettings", "DownCount"]

#: The most cash a drop box is counted at, in cents (a million chips at a hundred dollars).
MAX_CASH_CENTS = MAX_CHIPS * 10_000


class DownCount(Body, title="SessionCount"):
    """What the dealer counted at the session's close, and the second person who confirms it."""

    tray_chips: Annotated[
        int,
        whole((0, MAX_CHIPS), say_later("chips in the tray")),
        Asked(say_later("Chips in the tray")),
    ] = Field(description="The chips counted in the table's tray.")
    drop_box_cents: Annotated[
        int | None,
        whole((0, MAX_CASH_CENTS), say_later("cash in the drop box"), optional=True),
        Asked(say_later("Cash in the drop box, in cents")),
    ] = Field(
        None,
        description="The cash counted in the drop box, in cents: needed where the table "
        "sells chips for cash.",
    )
    witness: Annotated[
        Supervisor,
        Asked(parts=(say_later("Second person's name"), say_later("Second person's PIN"))),
    ] = Field(description="The second person (any role) who confirms the count: name and PIN.")
    supervisor: Approval = Field(
        None, description="A variance over the table's tolerance: the approving supervisor."
    )
    reason: Annotated[
        str | None,
        optional_text(REASON, say_later("reason for the variance")),
        Asked(say_later("Reason for a variance")),
    ] = Field(
        None, description="Why the count differs from the ledger (with a supervisor's approval)."
    )


class CountSettings(Body):
    """How a table's count at a session's close is held."""

    tolerance: Annotated[int, whole((0, MAX_CHIPS), say_later("tolerance in chips"))] = Field(
        description="The variance (chips, either way) a count may show without a supervisor."
    )
    sells_for_cash: bool = Field(
        description="The table sells chips for cash into a drop box: its cash is counted too."
    )
