"""The forms of the dealer's screens (Flask-WTF: every one carries a CSRF token).

Every form that records carries ``key``, the idempotency key made when it is
drawn (`dealer.web.once.new_page_key`), and ``page``, the address it was drawn on, so that a
form kept over a sign-out comes back to the same screen. A form that has an API twin is
drawn from, and judged by, its ``model`` (`dealer.inputs`, the API's declaration), through
`dealer.screens.declared.Declared`: its fields, labels and bounds are said there, once, and both
doors say the same sentence of the same input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel
from wtforms import BooleanField, HiddenField, IntegerField, SelectChoice, StringField

from dealer.bounds import CARDS_TEXT, COLLECTION_FIELDS, MAX_ID, SEATS
from dealer.inputs import (
    ChipMove,
    CloseDown,
    DownCount,
    Leave,
    NewAssignment,
    NewDispute,
    NewEvent,
    NewHand,
    NewPlayer,
    NewSeat,
    NewTable,
    Ruling,
    TableSettings,
    TakeCollection,
)
from dealer.inputs.events import VoidEvent
from dealer.screens.declared import MISSING, Declared, field_for, sent, whole_number
from dealer.screens.knob_fields import CHOICE_KNOBS, NUMBER_KNOBS, knob_fields
from dealer.screens.said_form import SaidForm
from dealer.web.once import REUSED, new_page_key
from dealer.words.catalogue import say_later
from dealer.words.tables import acting_seat_choices


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


def stay_at(form: ApprovalForm, seating: int | None) -> Any:
    """``form`` made for the stay ``seating``, unless it already names one (kept as typed)."""
    field = form["seating"]
    if field.data is None and seating is not None:
        field.data = seating
    return form


class ApprovalForm(OnceForm, Declared):
    """A write a supervisor may have to approve on the spot: their name and PIN, drawn first
    on every such form (the time collection is the approval alone)."""

    model: ClassVar[type[BaseModel]] = TakeCollection


class OpenTableForm(OnceForm, Declared):
    model = NewTable
    shown_at: ClassVar[Mapping[str, str]] = {"rules": "profile"}
    chips = _setting("chips", say_later("Chips"))
    minutes = _setting("minutes", say_later("Every (min)"))
    percent = _setting("percent", say_later("Percent"))
    cap = _setting("cap", say_later("Cap (chips)"))

    def body(self) -> dict[str, Any]:
        """The table as the API's body: the collection and the knobs set, as typed (the engine
        judges them; a missing setting is left for it to name), blanks left out."""
        out = super().body()
        kind = self.collection.data or "none"
        out["collection"] = {"kind": kind, **self.typed(COLLECTION_FIELDS.get(kind, {}))}
        chosen = self.typed(name for name, *_ in CHOICE_KNOBS)  # yes or no, but addition_pay
        overrides = {
            **self.typed(name for name, *_ in NUMBER_KNOBS),
            **{k: v if k == "addition_pay" else v == "true" for k, v in chosen.items()},
        }
        if overrides:
            out["rules"] = overrides
        return out

    def typed(self, names: Iterable[str]) -> dict[str, Any]:
        """What was typed in the fields ``names``, blanks left out."""
        return {name: value for name in names if (value := sent(self[name])) is not MISSING}


for _name, _knob in knob_fields().items():
    setattr(OpenTableForm, _name, _knob)


class SeatForm(ApprovalForm):
    model = NewSeat
    #: The player chosen from the search (dealer.js), or "new": keep the name as a new player.
    player_id = HiddenField()

    def body(self) -> dict[str, Any]:
        out = super().body()
        out.pop("player_id", None)  # "new" or a chosen id: `chosen_player` reads it
        return out


class ChipsForm(ApprovalForm):
    model = ChipMove
    #: Where to go once recorded, when not the table (a buy-in made from the hand screen).
    back = HiddenField(render_kw={"id": False})


class LeaveForm(ApprovalForm):
    """The player leaves: the whole stack is cashed out."""

    model = Leave


class CollectForm(ApprovalForm):
    """Take the time collection from every seated player (early: a supervisor overrides)."""


class CountForm(ApprovalForm):
    """The tray's chips (and the drop box's cash), the second person's name and PIN, and a
    supervisor with a reason for a variance over the table's tolerance."""

    model = DownCount


class TableSettingsForm(OnceForm, Declared):
    """A table's money limits (one left blank stays) and where its acting seat goes after a
    drop, as a supervisor changes them."""

    model = TableSettings

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        said = acting_seat_choices()  # as the form is made, in the language chosen at start
        self.acting_seat.choices = [SelectChoice(value, words) for value, words in said.items()]


class AssignForm(OnceForm, Declared):
    """A supervisor sends a dealer to the table."""

    model = NewAssignment


class UnassignForm(OnceForm):
    """A supervisor takes a dealer off the table."""

    dealer_id = IntegerField(validators=[whole_number((1, MAX_ID), "dealer")])


class DealForm(OnceForm, Declared):
    """The stay-or-drop round: the seats that drop before the first meld."""

    model = NewHand


#: A field of cards, as typed: at most `dealer.bounds.CARDS_TEXT` characters.
CARDS = {"maxlength": CARDS_TEXT}


class ActionForm(OnceForm):
    """One event of the hand: the seat acting, the meld it acts on, and the cards.

    Judged as the API's event (`dealer.inputs.NewEvent`, the engine first) once the screen
    has made it into the API's body (`dealer.screens.hands.event_body`)."""

    action = HiddenField()
    seat = IntegerField(say_later("Seat"), render_kw={"min": SEATS[0], "max": SEATS[1]})
    meld = IntegerField(say_later("Meld"))
    cards = StringField(say_later("Cards"), render_kw=CARDS)
    take = StringField(say_later("Cards taken from the meld"), render_kw=CARDS)
    into_first = StringField(say_later("First meld after the split"), render_kw=CARDS)
    into_second = StringField(say_later("Second meld (blank: the rest)"), render_kw=CARDS)
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
    shown_at: ClassVar[Mapping[str, str]] = {"": "reason"}  # the engine's refusal: of the reason
    reason = field_for(VoidEvent, "reason")
    event: int | None = None

    def body(self) -> dict[str, Any]:
        out = self.body_of(VoidEvent)  # the reason, and the supervisor's approval if typed
        if self.event is None:
            return {"type": "void_hand", **out}
        return {"type": "void", "event": self.event, **out}


class PrefsForm(SaidForm):
    four_colour = HiddenField()
    theme = HiddenField()
    page = HiddenField()


class OpenDownForm(OnceForm):
    """Open the signed-in dealer's session (their down) at a table."""


class CloseDownForm(ApprovalForm):
    """End a session; a supervisor's name and PIN confirm the close on the spot."""

    model = CloseDown


class DisputeForm(OnceForm, Declared):
    """Who raised it (a seat's number, or 0: the dealer), the claim, the payment if one."""

    model = NewDispute
    shown_at: ClassVar[Mapping[str, str]] = {"seat": "raised_by"}
    raised_by = IntegerField(say_later("Raised by"))

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


class PlayerForm(OnceForm, Declared):
    """A new player: a name or nickname; a card number and notes if the floor has them."""

    model = NewPlayer
