"""The dispute desk's forms: open a dispute on a hand, rule on it, and a player's record.

Each is judged by the API's declaration (`dealer.inputs`: `NewDispute`, `Ruling`,
`NewPlayer`) through `Declared`: the form draws and checks CSRF, the declaration judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from wtforms import IntegerField, StringField

from dealer.inputs import NewDispute, NewPlayer, Ruling
from dealer.screens.declared import MISSING, Declared, bounds_of, one_of
from dealer.screens.forms import OnceForm
from dealer.words.catalogue import say_later

__all__ = ["DisputeForm", "PlayerForm", "RulingForm"]


class DisputeForm(OnceForm, Declared):
    """Who raised it (a seat's number, or 0: the dealer), the claim, the payment if one."""

    model = NewDispute
    shown_at: ClassVar[Mapping[str, str]] = {"seat": "raised_by"}
    raised_by = IntegerField(say_later("Raised by"))
    claim = StringField(say_later("What is claimed"), render_kw=bounds_of(NewDispute, "claim"))
    entry = IntegerField(say_later("The payment"), render_kw=bounds_of(NewDispute, "entry"))

    def body(self) -> dict[str, Any]:
        """The API's body: 0 is the dealer, a seat's number that seat."""
        out = super().body()
        raised = out.pop("raised_by", MISSING)
        if raised == 0:
            out["raised_by"] = "dealer"
        elif isinstance(raised, int):
            out["raised_by"], out["seat"] = "seat", raised
        elif raised is not MISSING:
            out["raised_by"] = raised  # typed as something else: the declaration says what
        return out


class RulingForm(OnceForm, Declared):
    """Upheld (with the void or correction it led to) or denied, and why."""

    model = Ruling
    outcome = one_of(
        say_later("Ruling"), {"upheld": say_later("Upheld"), "denied": say_later("Denied")}
    )
    reason = StringField(say_later("Why"), render_kw=bounds_of(Ruling, "reason"))
    void_event = IntegerField(
        say_later("The void it led to"), render_kw=bounds_of(Ruling, "void_event")
    )
    correction = IntegerField(
        say_later("The correction it led to (ledger entry)"),
        render_kw=bounds_of(Ruling, "correction"),
    )


class PlayerForm(OnceForm, Declared):
    """A new player: a name or nickname; a card number and notes if the floor has them."""

    model = NewPlayer
    name = StringField(say_later("Name or nickname"), render_kw=bounds_of(NewPlayer, "name"))
    card_number = StringField(
        say_later("Card number"), render_kw=bounds_of(NewPlayer, "card_number")
    )
    notes = StringField(say_later("Notes"), render_kw=bounds_of(NewPlayer, "notes"))
