"""The dispute desk's forms: open a dispute on a hand, rule on it, and a player's record.

Shape only, as every form of the screens (`forms`): a number is a number, text is text within
its bound; the services (`dealer.disputes.record`, `dealer.disputes.players`) judge the rest.
"""

from __future__ import annotations

from wtforms import IntegerField, RadioField, SelectChoice, StringField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from dealer.bounds import CARD_NUMBER, CLAIM, MAX_ID, PLAYER_NAME, PLAYER_NOTES, RULING_REASON
from dealer.screens.auth.forms import plain_text
from dealer.screens.forms import OnceForm

__all__ = ["DisputeForm", "PlayerForm", "RulingForm"]


class DisputeForm(OnceForm):
    """Who raised it (a seat's number, or 0: the dealer), the claim, the payment if one."""

    raised_by = IntegerField(
        "Raised by", validators=[InputRequired("Say who raises it."), NumberRange(0, 8)]
    )
    claim = StringField(
        "What is claimed",
        validators=[DataRequired("Say what is claimed."), Length(max=CLAIM), plain_text],
    )
    entry = IntegerField("The payment", validators=[Optional(), NumberRange(1, MAX_ID)])


class RulingForm(OnceForm):
    """Upheld (with the void or correction it led to) or denied, and why."""

    outcome = RadioField(
        "Ruling",
        choices=[
            SelectChoice("upheld", "Upheld"),
            SelectChoice("denied", "Denied"),
        ],
        validators=[InputRequired("Rule it upheld or denied.")],
    )
    reason = StringField(
        "Why",
        validators=[
            DataRequired("Say why, for the record."),
            Length(max=RULING_REASON),
            plain_text,
        ],
    )
    void_event = IntegerField("The void it led to", validators=[Optional(), NumberRange(1, MAX_ID)])
    correction = IntegerField(
        "The correction it led to (ledger entry)", validators=[Optional(), NumberRange(1, MAX_ID)]
    )


class PlayerForm(OnceForm):
    """A new player: a name or nickname; a card number and notes if the floor has them."""

    name = StringField(
        "Name or nickname",
        validators=[DataRequired("Enter the player's name."), Length(max=PLAYER_NAME), plain_text],
    )
    card_number = StringField(
        "Card number", validators=[Optional(), Length(max=CARD_NUMBER), plain_text]
    )
    notes = StringField("Notes", validators=[Optional(), Length(max=PLAYER_NOTES), plain_text])
