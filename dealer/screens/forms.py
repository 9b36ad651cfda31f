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
    BooleanField,
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

from dealer.bounds import (
    BUY_IN_CHIPS,
    CARDS_TEXT,
    CHIP_VALUE_CENTS,
    COLLECTION_FIELDS,
    KNOB_BOUNDS,
    MAX_CHIPS,
    MAX_ID,
    PIN_DIGITS,
    PLAYER_NAME,
    REASON,
    SEATS,
    TABLE_NAME,
    USER_NAME,
)
from dealer.rules import ACTION_TYPES
from dealer.rules.profiles import KNOBS
from dealer.screens.auth.forms import plain_text
from dealer.web.once import REUSED, new_page_key

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
]

#: The words the floor sees for each knob; the knobs and their bounds are the engine's.
KNOB_WORDS = {
    "packs": "Packs in the shoe",
    "spade_sets_removed": "Sets of spades taken out",
    "hand_size": "Cards dealt (10; 15 for Fifteen)",
    "tops_ante": "Tops ante, chips",
    "drop_forfeit": "Drop forfeit (tops), chips",
    "going_out_chips": "Going out pays, chips",
    "addition_pay": "Cards beyond three pay",
    "spades_double": "Spades double",
    "mixed_valle_condition": "Mixed valle set is a condition",
    "rearrange_needs_card": "A split or borrow must play a card from hand",
}
YES_NO = [SelectChoice("true", "yes"), SelectChoice("false", "no")]


def _words(knob: str) -> str:
    return KNOB_WORDS.get(knob, knob.replace("_", " ").capitalize())


#: Knobs a table may override, with the words the floor sees. Blank keeps the profile's.
NUMBER_KNOBS = tuple((name, _words(name), low, high) for name, (low, high) in KNOB_BOUNDS.items())
CHOICE_KNOBS = (
    (
        "addition_pay",
        _words("addition_pay"),
        [
            SelectChoice("value", "their value again"),
            SelectChoice("unit", "1 (2 in spades), sets only"),
        ],
    ),
    *(
        (name, _words(name), YES_NO)
        for name in KNOBS
        if name not in KNOB_BOUNDS and name != "addition_pay"
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


def _setting(name: str, words: str) -> Any:
    """The field for a collection setting, bounded as the engine bounds it."""
    low, high = next(f[name] for f in COLLECTION_FIELDS.values() if name in f)
    return IntegerField(words, validators=[Optional(), NumberRange(low, high)])


def _limit(words: str, *, required: bool = False) -> Any:
    """A money limit of the table, bounded as `dealer.bounds` bounds it."""
    first = InputRequired(f"Enter the {words.lower()}.") if required else Optional()
    return IntegerField(words, validators=[first, NumberRange(*BUY_IN_CHIPS)])


class ApprovalForm(OnceForm):
    """A write a supervisor may have to approve on the spot: their name and PIN."""

    supervisor_name = StringField(
        "Supervisor's name", validators=[Length(max=USER_NAME), plain_text]
    )
    supervisor_pin = PasswordField("Supervisor's PIN", validators=[Length(max=PIN_DIGITS[1])])


class OpenTableForm(OnceForm):
    name = StringField(
        "Table name",
        validators=[DataRequired("Name the table."), Length(max=TABLE_NAME), plain_text],
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
    collection = RadioField("House collection", choices=COLLECTIONS, default="none")
    chips = _setting("chips", "Chips")
    minutes = _setting("minutes", "Every (min)")
    percent = _setting("percent", "Percent")
    cap = _setting("cap", "Cap (chips)")
    chip_value_cents = IntegerField(
        "Chip value, in cents",
        default=100,
        validators=[InputRequired("Give the chip value in cents."), NumberRange(*CHIP_VALUE_CENTS)],
    )
    min_buy_in = _limit("Least buy-in, chips")
    max_buy_in = _limit("Largest buy-in, chips")
    approval_above = _limit("Supervisor approves buy-ins and cash-outs above, chips")

    def limits(self) -> dict[str, int | None]:
        """The money limits set (blank: the default), as the service takes them."""
        return {
            "min_buy_in": self.min_buy_in.data,
            "max_buy_in": self.max_buy_in.data,
            "approval_above": self.approval_above.data,
        }

    def overrides(self) -> dict[str, Any]:
        """The knobs the floor set, as the service takes them."""
        out: dict[str, Any] = {}
        for name, *_ in NUMBER_KNOBS:
            value = getattr(self, name).data
            if value is not None:
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
            value = getattr(self, name).data
            if value is not None:
                out[name] = value
        return out


# One optional field per knob of the engine, so a knob added there appears here too.
for _name, *_rest in NUMBER_KNOBS:
    setattr(OpenTableForm, _name, _knob(_name))
for _name, *_rest in CHOICE_KNOBS:
    setattr(OpenTableForm, _name, _choice(_name))


class SeatForm(ApprovalForm):
    seat = SelectField("Seat", coerce=int, validators=[InputRequired("Choose a seat.")])
    player = StringField(
        "Player's name",
        validators=[DataRequired("Enter the player's name."), Length(max=PLAYER_NAME), plain_text],
    )
    buy_in = IntegerField(
        "Buy-in, chips",
        validators=[InputRequired("Enter the buy-in."), NumberRange(0, MAX_CHIPS)],
    )
    #: The player chosen from the search (dealer.js), or "new": keep the name as a new player.
    player_id = HiddenField()


class ChipsForm(ApprovalForm):
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


class LeaveForm(ApprovalForm):
    """The player leaves: the whole stack is cashed out."""


class CollectForm(ApprovalForm):
    """Take the time collection from every seated player (early: a supervisor overrides)."""


class TableSettingsForm(OnceForm):
    """A table's money limits, as a supervisor changes them."""

    min_buy_in = _limit("Least buy-in, chips", required=True)
    max_buy_in = _limit("Largest buy-in, chips", required=True)
    approval_above = _limit("Supervisor approves buy-ins and cash-outs above, chips", required=True)


class AssignForm(OnceForm):
    """A supervisor sends a dealer to the table."""

    dealer = SelectField("Dealer", validators=[InputRequired("Choose a dealer.")])


class UnassignForm(OnceForm):
    """A supervisor takes a dealer off the table."""

    dealer_id = IntegerField(validators=[InputRequired(), NumberRange(1, MAX_ID)])


class DealForm(OnceForm):
    """The stay-or-drop round: the seats that drop before the first meld."""

    dropped = SelectMultipleField("Drops", coerce=int, choices=[], validate_choice=False)


class ActionForm(OnceForm):
    """One event of the hand: the seat acting, the meld it acts on, and the cards."""

    action = HiddenField(validators=[DataRequired("Choose an action.")])
    seat = IntegerField("Seat", validators=[Optional(), NumberRange(*SEATS)])
    meld = IntegerField("Meld", validators=[Optional(), NumberRange(1, MAX_ID)])
    cards = StringField("Cards", validators=[Length(max=CARDS_TEXT)])
    take = StringField("Cards taken from the meld", validators=[Length(max=CARDS_TEXT)])
    into_first = StringField("First meld after the split", validators=[Length(max=CARDS_TEXT)])
    into_second = StringField("Second meld (blank: the rest)", validators=[Length(max=CARDS_TEXT)])
    #: The seat did not ask for its chips before discarding: the cards move, nothing is paid.
    not_claimed = BooleanField("Not claimed")

    def validate_action(self, field: Any) -> None:
        if field.data not in ACTION_TYPES:
            raise ValidationError(f"{field.data!r} is not an action.")


class MoveForm(OnceForm):
    """Move the entry just recorded to another seat (the seat is the button tapped)."""

    seat = IntegerField("Seat", validators=[InputRequired("Tap a seat."), NumberRange(*SEATS)])


class FitsForm(FlaskForm):
    """Where would the discard fit? (a question: nothing is recorded)."""

    class Meta:
        csrf = False

    fits = StringField("Discard", validators=[Length(max=10)])


class SettleForm(OnceForm):
    seat = IntegerField(validators=[InputRequired(), NumberRange(*SEATS)])


class VoidForm(OnceForm):
    """Void an event or the whole hand: a reason, and a supervisor's PIN when the rules ask."""

    reason = StringField(
        "Reason",
        validators=[DataRequired("Say why, for the floor."), Length(max=REASON), plain_text],
    )
    supervisor_name = StringField(
        "Supervisor's name", validators=[Length(max=USER_NAME), plain_text]
    )
    supervisor_pin = PasswordField("Supervisor's PIN", validators=[Length(max=PIN_DIGITS[1])])


class PrefsForm(FlaskForm):
    four_colour = HiddenField()
    page = HiddenField()


class OpenSessionForm(OnceForm):
    """Open the signed-in dealer's session (their down) at a table."""


class CloseSessionForm(OnceForm):
    """End a session; a supervisor's name and PIN confirm the close on the spot."""

    supervisor_name = StringField("Supervisor's name", validators=[Length(max=USER_NAME)])
    supervisor_pin = PasswordField("Supervisor's PIN", validators=[Length(max=PIN_DIGITS[1])])
