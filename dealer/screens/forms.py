"""The forms of the dealer's screens (Flask-WTF: every one carries a CSRF token).

Every form that records carries ``key``, the idempotency key made when it is
drawn (`dealer.web.once.new_page_key`), and ``page``, the address it was drawn on, so that a
form kept over a sign-out comes back to the same screen. The forms check shape
only (a number is a number); the rules engine judges everything else.
"""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    ValidationError,
)

from dealer.auth.forms import plain_text
from dealer.bounds import MAX_CHIPS
from dealer.rules import ACTION_TYPES
from dealer.web.once import REUSED, new_page_key

__all__ = [
    "ActionForm",
    "ChipsForm",
    "CollectForm",
    "DealForm",
    "FitsForm",
    "LeaveForm",
    "OpenTableForm",
    "PrefsForm",
    "SeatForm",
    "SettleForm",
    "VoidForm",
]

#: Knobs a table may override, with the words the floor sees. Blank keeps the profile's.
NUMBER_KNOBS = (
    ("packs", "Packs in the shoe", 1, 20),
    ("spade_sets_removed", "Sets of spades taken out", 0, 19),
    ("hand_size", "Cards dealt (10; 15 for Fifteen)", 5, 20),
    ("tops_ante", "Tops ante, chips", 0, 1000),
    ("drop_forfeit", "Drop forfeit (tops), chips", 0, 1000),
    ("going_out_chips", "Going out pays, chips", 0, 1000),
)
CHOICE_KNOBS = (
    (
        "addition_pay",
        "Cards beyond three pay",
        [
            SelectChoice("value", "their value again"),
            SelectChoice("unit", "1 (2 in spades), sets only"),
        ],
    ),
    ("spades_double", "Spades double", [SelectChoice("true", "yes"), SelectChoice("false", "no")]),
    (
        "mixed_valle_condition",
        "Mixed valle set is a condition",
        [SelectChoice("true", "yes"), SelectChoice("false", "no")],
    ),
)
COLLECTIONS = [
    SelectChoice("none", "None"),
    SelectChoice("per_hand", "Per hand: each seat dealt in pays a fixed fee"),
    SelectChoice("time", "Time: each seated player pays every so many minutes"),
    SelectChoice("rake_percent", "Rake: a share of the winner's collection"),
]


class OnceForm(FlaskForm):
    """A form that records: sent at most once, by its key."""

    key = HiddenField()
    page = HiddenField()

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


def _knob(name: str) -> Any:
    """The field for a number knob of `NUMBER_KNOBS`; blank keeps the profile's value."""
    _name, words, low, high = next(k for k in NUMBER_KNOBS if k[0] == name)
    return IntegerField(words, validators=[Optional(), NumberRange(low, high)])


def _choice(name: str) -> Any:
    _name, words, options = next(k for k in CHOICE_KNOBS if k[0] == name)
    return SelectField(words, choices=[SelectChoice("", "as the profile"), *options], default="")


class OpenTableForm(OnceForm):
    name = StringField(
        "Table name", validators=[DataRequired("Name the table."), Length(max=100), plain_text]
    )
    profile = RadioField(
        "Rule profile",
        choices=[
            SelectChoice("classic", "Classic (seed 000): 320 cards, drop pays 2, going out 1"),
            SelectChoice("cardroom", "Card room: 310 cards, 1-chip ante, going out 2"),
        ],
        default="classic",
        validators=[InputRequired("Choose a rule profile.")],
    )
    packs = _knob("packs")
    spade_sets_removed = _knob("spade_sets_removed")
    hand_size = _knob("hand_size")
    tops_ante = _knob("tops_ante")
    drop_forfeit = _knob("drop_forfeit")
    going_out_chips = _knob("going_out_chips")
    addition_pay = _choice("addition_pay")
    spades_double = _choice("spades_double")
    mixed_valle_condition = _choice("mixed_valle_condition")
    collection = RadioField("House collection", choices=COLLECTIONS, default="none")
    chips = IntegerField("Chips", validators=[Optional(), NumberRange(1, 1000)])
    minutes = IntegerField("Every (min)", validators=[Optional(), NumberRange(1, 600)])
    percent = IntegerField("Percent", validators=[Optional(), NumberRange(1, 100)])
    cap = IntegerField("Cap (chips)", validators=[Optional(), NumberRange(1, 100000)])
    chip_value_cents = IntegerField(
        "Chip value, in cents",
        default=100,
        validators=[InputRequired("Give the chip value in cents."), NumberRange(0, 10_000_000)],
    )

    def overrides(self) -> dict[str, Any]:
        """The knobs the floor set, as the service takes them."""
        out: dict[str, Any] = {}
        for name, *_ in NUMBER_KNOBS:
            value = getattr(self, name).data
            if value is not None:
                out[name] = value
        if self.addition_pay.data:
            out["addition_pay"] = self.addition_pay.data
        for name in ("spades_double", "mixed_valle_condition"):
            value = getattr(self, name).data
            if value:
                out[name] = value == "true"
        return out

    def collection_model(self) -> dict[str, Any]:
        """The collection in its API form; a missing setting is left for the engine to name."""
        kind = self.collection.data or "none"
        settings = {
            "per_hand": ("chips",),
            "time": ("chips", "minutes"),
            "rake_percent": ("percent", "cap"),
        }.get(kind, ())
        out: dict[str, Any] = {"kind": kind}
        for name in settings:
            value = getattr(self, name).data
            if value is not None:
                out[name] = value
        return out


class SeatForm(OnceForm):
    seat = SelectField("Seat", coerce=int, validators=[InputRequired("Choose a seat.")])
    player = StringField(
        "Player's name",
        validators=[DataRequired("Enter the player's name."), Length(max=60), plain_text],
    )
    buy_in = IntegerField(
        "Buy-in, chips",
        validators=[InputRequired("Enter the buy-in."), NumberRange(0, MAX_CHIPS)],
    )


class ChipsForm(OnceForm):
    kind = RadioField(
        "Chips",
        choices=[
            SelectChoice("buy_in", "Buy in (from the cage)"),
            SelectChoice("cash_out", "Cash out (to the cage)"),
        ],
        default="buy_in",
        validators=[InputRequired("Say whether chips come in or go out.")],
    )
    amount = IntegerField(
        "How many chips",
        validators=[InputRequired("Enter the number of chips."), NumberRange(1, MAX_CHIPS)],
    )


class LeaveForm(OnceForm):
    """The player leaves: the whole stack is cashed out."""


class CollectForm(OnceForm):
    """Take the time collection from every seated player."""


class DealForm(OnceForm):
    """The stay-or-drop round: the seats that drop before the first meld."""

    dropped = SelectMultipleField("Drops", coerce=int, choices=[], validate_choice=False)


class ActionForm(OnceForm):
    """One event of the hand: the seat acting, the meld it acts on, and the cards."""

    action = HiddenField(validators=[DataRequired("Choose an action.")])
    seat = IntegerField("Seat", validators=[Optional(), NumberRange(1, 8)])
    meld = IntegerField("Meld", validators=[Optional(), NumberRange(1, 2**31 - 1)])
    cards = StringField("Cards", validators=[Length(max=400)])
    take = StringField("Cards taken from the meld", validators=[Length(max=400)])
    into_first = StringField("First meld after the split", validators=[Length(max=400)])
    into_second = StringField("Second meld (blank: the rest)", validators=[Length(max=400)])

    def validate_action(self, field: Any) -> None:
        if field.data not in ACTION_TYPES:
            raise ValidationError(f"{field.data!r} is not an action.")


class FitsForm(FlaskForm):
    """Where would the discard fit? (a question: nothing is recorded)."""

    class Meta:
        csrf = False

    fits = StringField("Discard", validators=[Length(max=10)])


class SettleForm(OnceForm):
    seat = IntegerField(validators=[InputRequired(), NumberRange(1, 8)])


class VoidForm(OnceForm):
    """Void an event or the whole hand: a reason, and a supervisor's PIN when the rules ask."""

    reason = StringField(
        "Reason", validators=[DataRequired("Say why, for the floor."), Length(max=500), plain_text]
    )
    supervisor_name = StringField("Supervisor's name", validators=[Length(max=60), plain_text])
    supervisor_pin = PasswordField("Supervisor's PIN", validators=[Length(max=8)])


class PrefsForm(FlaskForm):
    four_colour = HiddenField()
    page = HiddenField()


class OpenSessionForm(OnceForm):
    """Open the signed-in dealer's session (their down) at a table."""


class CloseSessionForm(OnceForm):
    """End a session; a supervisor's name and PIN confirm the close on the spot."""

    supervisor_name = StringField("Supervisor's name", validators=[Length(max=60)])
    supervisor_pin = PasswordField("Supervisor's PIN", validators=[Length(max=8)])
