"""The count at a session's close, as the table screen asks for it."""

from __future__ import annotations

from typing import Any, ClassVar

from wtforms import IntegerField, PasswordField, StringField

from dealer.inputs import SessionCount
from dealer.screens.declared import MISSING, bounds_of, sent
from dealer.screens.forms import ApprovalForm
from dealer.words.catalogue import say_later

__all__ = ["CountForm"]


class CountForm(ApprovalForm):
    """The tray's chips (and the drop box's cash), the second person's name and PIN, and a
    supervisor with a reason for a variance over the table's tolerance."""

    model = SessionCount
    shown_at: ClassVar[dict[str, str]] = {
        **ApprovalForm.shown_at,
        "witness": "witness_name",
        "witness.name": "witness_name",
        "witness.pin": "witness_pin",
    }
    tray_chips = IntegerField(
        say_later("Chips in the tray"), render_kw=bounds_of(SessionCount, "tray_chips")
    )
    drop_box_cents = IntegerField(say_later("Cash in the drop box, in cents"))
    witness_name = StringField(say_later("Second person's name"))
    witness_pin = PasswordField(say_later("Second person's PIN"))
    reason = StringField(say_later("Reason for a variance"))

    def body(self) -> dict[str, Any]:
        out = super().body()
        name, pin = sent(self.witness_name), sent(self.witness_pin)
        out["witness"] = {
            "name": "" if name is MISSING else name,
            "pin": "" if pin is MISSING else pin,
        }
        return out
