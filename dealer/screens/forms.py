"""The forms of the dealer's screens (Flask-WTF: every one carries a CSRF token).

Every form that records carries ``key``, the idempotency key made when it is
drawn (`dealer.web.once.new_page_key`), and ``page``, the address it was drawn on, so that a
form kept over a sign-out comes back to the same screen. A form that has an API twin
judges nothing itself: its ``model`` (`dealer.inputs`, the API's declaration) does, through
`dealer.screens.declared.Declared`, so both doors say the same sentence of the same input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.widgets import HiddenInput

from dealer.bounds import (
    CARDS_TEXT,
    COLLECTION_FIELDS,
    MAX_ID,
    REASON,
    SEATS,
)
from dealer.inputs import (
    ChipMove,
    CloseSession,
    Leave,
    NewAssignment,
    NewEvent,
    NewHand,
    NewSeat,
    NewTable,
    TableSettings,
    TakeCollection,
)
from dealer.screens.declared import MISSING, Declared, bounds_of, one_of, sent, whole_number
from dealer.screens.knob_fields import CHOICE_KNOBS, NUMBER_KNOBS, choice_field, knob_field
from dealer.screens.said_form import SaidForm
from dealer.web.once import REUSED, new_page_key
from dealer.words.catalogue import say_later
from dealer.words.tables import acting_seat_choices

__all__ = [
    "ActionForm",
    "AssignForm",
    "ChipsForm",
    "CollectForm",
    "DealForm",
    "FitsForm",
    "LeaveForm",
    "MoveForm",
    "OpenTableForm",
    "PrefsForm",
    "SeatForm",
    "SettleForm",
    "TableSettingsForm",
    "UnassignForm",
    "VoidForm",
    "stay_at",
]

COLLECTIONS = {
    "none": say_later("None"),
    "per_hand": say_later("Per hand: each seat dealt in pays a fixed fee"),
    "time": say_later("Time: each seated player pays every so many minutes"),
    "rake_percent": say_later("Rake: a share of the winner's collection"),
}


class OnceForm(SaidForm):
    """A form that records: sent at most once, by its key."""

    # No ids: a page holds several of these forms, and an id is the page's one element.
    key = HiddenField(render_kw={"id": False})
    page = HiddenField(render_kw={"id": False})

    def stamp(self, page: str) -> OnceForm:
        """Give a form being drawn its key (kept if it already has one) and its page."""
        if not self.key.data:
            self.key.data = new_page_key()
        if not self.page.data:
            self.page.data = page
        return self

    def renew_if_reused(self, error: Exception) -> None:
        """After "this key was already used with other content", give the entry a new key."""
        if getattr(error, "code", None) == REUSED:
            self.key.data = new_page_key()


def _setting(name: str, words: str) -> Any:
    """The field for a collection setting, bounded as the engine bounds it."""
    low, high = next(f[name] for f in COLLECTION_FIELDS.values() if name in f)
    return IntegerField(words, render_kw={"min": low, "max": high})


def _limit(words: str) -> Any:
    """A money limit of the table, its bounds read from the declaration (`TableSettings`)."""
    return IntegerField(words, render_kw=bounds_of(TableSettings, "min_buy_in"))


def _stay() -> Any:
    """The stay in the seat a form drawn at a seat is made for (`stay_at`): sent late, the
    entry is refused once that player has left, never put on who sits there then."""
    return IntegerField(widget=HiddenInput(), render_kw={"id": False, "data-unsaid": ""})


def stay_at(form: ApprovalForm, seating: int | None) -> Any:
    """``form`` made for the stay ``seating``, unless it already names one (kept as typed)."""
    field = form["seating"]
    if field.data is None and seating is not None:
        field.data = seating
    return form


#: Where a refusal of a supervisor's approval is shown.
APPROVAL_SHOWN_AT: Mapping[str, str] = {
    "supervisor": "supervisor_pin",
    "supervisor.name": "supervisor_name",
    "supervisor.pin": "supervisor_pin",
}


class ApprovalForm(OnceForm, Declared):
    """A write a supervisor may have to approve on the spot: their name and PIN."""

    shown_at = APPROVAL_SHOWN_AT
    supervisor_name = StringField(say_later("Supervisor's name"))
    supervisor_pin = PasswordField(say_later("Supervisor's PIN"))

    def body(self) -> dict[str, Any]:
        """The form's data, and the supervisor's name and PIN when either was typed."""
        out = super().body()
        name, pin = sent(self.supervisor_name), sent(self.supervisor_pin)
        if name is not MISSING or pin is not MISSING:
            out["supervisor"] = {
                "name": "" if name is MISSING else name,
                "pin": "" if pin is MISSING else pin,
            }
        return out


class OpenTableForm(OnceForm, Declared):
    model = NewTable
    shown_at: ClassVar[Mapping[str, str]] = {"rules": "profile", "collection": "collection"}
    name = StringField(say_later("Table name"), render_kw=bounds_of(NewTable, "name"))
    profile = one_of(
        say_later("Rule profile"),
        {
            "classic": say_later("Classic (seed 000): 320 cards, drop pays 2, going out 1"),
            "cardroom": say_later("Card room: 310 cards, 1-chip ante, going out 2"),
        },
        default="classic",
    )
    collection = one_of(say_later("House collection"), COLLECTIONS, default="none")
    chips = _setting("chips", say_later("Chips"))
    minutes = _setting("minutes", say_later("Every (min)"))
    percent = _setting("percent", say_later("Percent"))
    cap = _setting("cap", say_later("Cap (chips)"))
    chip_value_cents = IntegerField(
        say_later("Chip value, in cents"),
        default=100,
        render_kw=bounds_of(NewTable, "chip_value_cents"),
    )
    min_buy_in = _limit(say_later("Least buy-in, chips"))
    max_buy_in = _limit(say_later("Largest buy-in, chips"))
    approval_above = _limit(say_later("Supervisor approves buy-ins and cash-outs above, chips"))

    def body(self) -> dict[str, Any]:
        """The table as the API's body: the knobs and the collection set, blanks left out."""
        out = super().body()
        out["collection"] = self.collection_model()
        overrides = self.overrides()
        if overrides:
            out["rules"] = overrides
        return out

    def overrides(self) -> dict[str, Any]:
        """The knobs the floor set, as typed (the engine judges them)."""
        out: dict[str, Any] = {}
        for name, *_ in NUMBER_KNOBS:
            value = sent(getattr(self, name))
            if value is not MISSING:
                out[name] = value
        if self.addition_pay.data:
            out["addition_pay"] = self.addition_pay.data
        for name, *_ in CHOICE_KNOBS[1:]:
            value = getattr(self, name).data
            if value:
                out[name] = value == "true"
        return out

    def collection_model(self) -> dict[str, Any]:
        """The collection in its API form; a missing setting is left for the engine to name."""
        kind = self.collection.data or "none"
        settings = COLLECTION_FIELDS.get(kind, {})
        out: dict[str, Any] = {"kind": kind}
        for name in settings:
            value = sent(getattr(self, name))
            if value is not MISSING:
                out[name] = value
        return out


# One optional field per knob of the engine, so a knob added there appears here too.
for _name, *_rest in NUMBER_KNOBS:
    setattr(OpenTableForm, _name, knob_field(_name))
for _name, *_rest in CHOICE_KNOBS:
    setattr(OpenTableForm, _name, choice_field(_name))


class SeatForm(ApprovalForm):
    model = NewSeat
    seat = SelectField(say_later("Seat"), coerce=int, validate_choice=False)
    player = StringField(say_later("Player's name"), render_kw=bounds_of(NewSeat, "player"))
    buy_in = IntegerField(say_later("Buy-in, chips"), render_kw=bounds_of(NewSeat, "buy_in"))
    #: The player chosen from the search (dealer.js), or "new": keep the name as a new player.
    player_id = HiddenField()

    def body(self) -> dict[str, Any]:
        out = super().body()
        out.pop("player_id", None)  # "new" or a chosen id: `chosen_player` reads it
        return out


class ChipsForm(ApprovalForm):
    model = ChipMove
    kind = one_of(
        say_later("Chips"),
        {
            "buy_in": say_later("Buy in (from the cage)"),
            "cash_out": say_later("Cash out (to the cage)"),
        },
        default="buy_in",
    )
    amount = IntegerField(say_later("How many chips"), render_kw=bounds_of(ChipMove, "amount"))
    #: Where to go once recorded, when not the table (a buy-in made from the hand screen).
    back = HiddenField(render_kw={"id": False})
    seating = _stay()


class LeaveForm(ApprovalForm):
    """The player leaves: the whole stack is cashed out."""

    model = Leave
    seating = _stay()


class CollectForm(ApprovalForm):
    """Take the time collection from every seated player (early: a supervisor overrides)."""

    model = TakeCollection


class TableSettingsForm(OnceForm, Declared):
    """A table's money limits (one left blank stays) and where its acting seat goes after a
    drop, as a supervisor changes them."""

    model = TableSettings
    min_buy_in = _limit(say_later("Least buy-in, chips"))
    max_buy_in = _limit(say_later("Largest buy-in, chips"))
    approval_above = _limit(say_later("Supervisor approves buy-ins and cash-outs above, chips"))
    acting_seat = one_of(say_later("After a drop or a foul, the acting seat"), {})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        said = acting_seat_choices()  # as the form is made, in the language chosen at start
        self.acting_seat.choices = [SelectChoice(value, words) for value, words in said.items()]


class AssignForm(OnceForm, Declared):
    """A supervisor sends a dealer to the table."""

    model = NewAssignment
    dealer = SelectField(say_later("Dealer"), validate_choice=False)


class UnassignForm(OnceForm):
    """A supervisor takes a dealer off the table."""

    dealer_id = IntegerField(validators=[whole_number((1, MAX_ID), "dealer")])


class DealForm(OnceForm, Declared):
    """The stay-or-drop round: the seats that drop before the first meld."""

    model = NewHand
    dropped = SelectMultipleField(say_later("Drops"), coerce=int, choices=[], validate_choice=False)


class ActionForm(OnceForm):
    """One event of the hand: the seat acting, the meld it acts on, and the cards.

    Judged as the API's event (`dealer.inputs.NewEvent`, the engine first) once the screen
    has made it into the API's body (`dealer.screens.hands.event_body`)."""

    action = HiddenField()
    seat = IntegerField(say_later("Seat"), render_kw={"min": SEATS[0], "max": SEATS[1]})
    meld = IntegerField(say_later("Meld"))
    cards = StringField(say_later("Cards"), render_kw={"maxlength": CARDS_TEXT})
    take = StringField(say_later("Cards taken from the meld"), render_kw={"maxlength": CARDS_TEXT})
    into_first = StringField(
        say_later("First meld after the split"), render_kw={"maxlength": CARDS_TEXT}
    )
    into_second = StringField(
        say_later("Second meld (blank: the rest)"), render_kw={"maxlength": CARDS_TEXT}
    )
    #: The seat did not ask for its chips before discarding: the cards move, nothing is paid.
    not_claimed = BooleanField(say_later("Not claimed"))


class MoveForm(OnceForm):
    """Move the entry just recorded to another seat (the seat is the button tapped)."""

    seat = IntegerField(say_later("Seat"), validators=[whole_number(SEATS, "seat")])


class FitsForm(SaidForm):
    """Where would the discard fit? (a question: nothing is recorded)."""

    class Meta:
        csrf = False

    fits = StringField(say_later("Discard"))


class SettleForm(OnceForm):
    seat = IntegerField(validators=[whole_number(SEATS, "seat")])


class VoidForm(ApprovalForm):
    """Void an event or the whole hand: a reason, and a supervisor's PIN when the rules ask.

    ``event`` is the event voided (None: the whole hand), from the address it is sent to."""

    model = NewEvent
    shown_at: ClassVar[Mapping[str, str]] = {
        **APPROVAL_SHOWN_AT,
        "": "reason",
    }  # the engine's refusal: of the reason
    reason = StringField(say_later("Reason"), render_kw={"maxlength": REASON})
    event: int | None = None

    def body(self) -> dict[str, Any]:
        out = super().body()
        reason = sent(self.reason)
        out["reason"] = "" if reason is MISSING else reason
        if self.event is None:
            return {"type": "void_hand", **out}
        return {"type": "void", "event": self.event, **out}


class PrefsForm(SaidForm):
    four_colour = HiddenField()
    theme = HiddenField()
    page = HiddenField()


class OpenSessionForm(OnceForm):
    """Open the signed-in dealer's session (their down) at a table."""


class CloseSessionForm(ApprovalForm):
    """End a session; a supervisor's name and PIN confirm the close on the spot."""

    model = CloseSession
