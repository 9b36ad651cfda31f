"""dealer/screens/declared.py: a form is drawn from the API's declaration of its input (its
`Asked` labels, choices and the model's bounds), and its data is sent as the API's body."""

from __future__ import annotations

from flask import Flask

from dealer.bounds import MAX_CHIPS, PLAYER_NAME
from dealer.screens.forms import ChipsForm, CountForm, SeatForm


def test_a_form_has_the_fields_labels_and_bounds_its_declaration_asks_for(app: Flask) -> None:
    with app.test_request_context():
        form = SeatForm(formdata=None)
        fields = {f.name: f for f in form}
        assert list(fields) == [
            "key",
            "page",
            "supervisor_name",
            "supervisor_pin",
            "player_id",
            "seat",
            "player",
            "buy_in",
        ]
        assert (fields["seat"].type, fields["seat"].label.text) == ("SelectField", "Seat")
        assert fields["player"].render_kw == {"maxlength": PLAYER_NAME}
        assert fields["buy_in"].render_kw == {"min": 0, "max": MAX_CHIPS}
        assert fields["supervisor_pin"].type == "PasswordField"
        assert fields["supervisor_pin"].label.text == "Supervisor's PIN"
        chips = ChipsForm(formdata=None)
        assert [c.label.text for c in chips.kind] == [
            "Buy in (from the cage)",
            "Cash out (to the cage)",
        ]
        assert chips.kind.data == "buy_in"
        assert chips.seating() == '<input data-unsaid="" name="seating" type="hidden" value="">'


def test_a_held_model_is_sent_once_typed_and_always_when_required(app: Flask) -> None:
    with app.test_request_context(method="POST", data={"tray_chips": "7"}):
        form = CountForm()
        assert form.body() == {"tray_chips": 7, "witness": {"name": "", "pin": ""}}
    typed = {"amount": "5", "kind": "cash_out", "supervisor_pin": "1234"}
    with app.test_request_context(method="POST", data=typed):
        body = ChipsForm().body()
        assert body == {"kind": "cash_out", "amount": 5, "supervisor": {"name": "", "pin": "1234"}}


def test_a_refusal_inside_a_held_model_is_shown_beside_its_part(app: Flask) -> None:
    sent = {"tray_chips": "7", "witness_name": "Ada", "witness_pin": "12"}
    with app.test_request_context(method="POST", data=sent):
        form = CountForm()
        assert form.judged() is None
        assert form.witness_pin.errors == ["A PIN is 4 to 8 digits."]
        assert not form.witness_name.errors and not form.tray_chips.errors
