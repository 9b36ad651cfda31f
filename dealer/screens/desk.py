"""The dispute desk on the screens: a seat's statement for a hand, finding a payment (the
floor), and the rules' own text, which every rule named on a screen links to."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from flask import current_app, render_template, url_for
from markupsafe import Markup, escape

from dealer.clock import floor_clock
from dealer.disputes.asking import query_from
from dealer.disputes.search import SEARCH_ROLE, find_payments
from dealer.errors import DealerError
from dealer.extensions import current_session
from dealer.inputs import PaymentSearch
from dealer.people.devices import read_device
from dealer.rulebook import RuleSection, block, rule_section, rule_sections, said_piece
from dealer.screens.auth.guard import page
from dealer.screens.blueprint import HAND, bp
from dealer.screens.screen import filled_args
from dealer.views.statement import seat_statement
from dealer.web.contract import SEAT, read_query
from dealer.web.refusals import refusal
from dealer.words.catalogue import say
from dealer.words.rules import HAND_RULES, Rule, code_words, rule

STATEMENT = HAND + f"/seats/<{SEAT}:seat>/statement"


def rule_address(found: Rule) -> str:
    """Where a rule's text is: its section, at its item."""
    if not found.section:
        return url_for("screens.rules_index")
    anchor = f"item-{found.item}" if found.item else None
    return url_for("screens.rule_text", number=found.number, _anchor=anchor)


@bp.app_context_processor
def rule_words() -> dict[str, Any]:
    """Every screen links a rule through `rule_address`, and names a device as records do."""
    return {"rule_address": rule_address, "device_of": read_device}


@bp.get(STATEMENT)
@page(at="read")
def statement(hand_id: int, seat: int) -> str:
    """A seat's statement for a hand; each line opens its payment's dispute view."""
    found = seat_statement(current_session(), hand_id, seat)
    return render_template("screens/statement.html", s=found)


@bp.get("/payments")
@page(SEARCH_ROLE)
def find_payment() -> tuple[str, int]:
    """Find a payment: the form, and what it found (when something was asked). A filter the
    search refuses is said above the form, which keeps what was asked."""
    asked = filled_args()
    found, error, status = None, None, 200
    if asked:
        try:
            query = query_from(
                read_query(PaymentSearch, asked),
                floor_clock(current_app.config).zone,
            )
            found = find_payments(current_session(), query)
        except DealerError as refused:
            status, _code, error = refusal(refused)
    return render_template(
        "screens/find_payment.html",
        asked=asked,
        any_player=url_for("screens.find_payment", **_without(asked, "player_id")),
        found=found,
        error=error,
        rules=[rule(code) for code in HAND_RULES],
    ), status


def _without(asked: dict[str, str], name: str) -> dict[str, Any]:
    return {k: v for k, v in asked.items() if k != name}


def _said(section: RuleSection) -> RuleSection:
    """A section of the rules with its title in the catalogue's language (its text is said
    piece by piece as it is drawn, `_inline`)."""
    return replace(section, title=say(section.title))


@bp.get("/rules")
@page()
def rules_index() -> str:
    sections = [_said(s) for s in rule_sections().values()]
    return render_template("screens/rules.html", sections=sections, section=None)


@bp.get("/rules/<int(max=99):number>")
@page()
def rule_text(number: int) -> str:
    """One section of the rules, as the app applies them; its numbered items anchored."""
    section = rule_section(number)
    return render_template(
        "screens/rules.html",
        sections=[_said(s) for s in rule_sections().values()],
        section=_said(section),
        blocks=[_block(b) for b in section.blocks],
    )


_INLINE = re.compile(r"\*\*(.+?)\*\*|`([^`]+)`")


def _inline(text: str) -> Markup:
    """``**bold**`` and ``code`` of the rules' markdown (codes in words); the rest escaped.
    Each piece of the rules' text (a paragraph, a list's item, a table's cell) is a message of
    the catalogue, its markdown kept in the message."""
    text = say(text) if said_piece(text) else text  # a figure alone is no message
    out = Markup("")
    last = 0
    for m in _INLINE.finditer(text):
        out += escape(text[last : m.start()])
        # A code the rules quote (a knob, a refusal) is said in words: no code on a screen.
        out += (
            Markup("<strong>%s</strong>") % m[1]
            if m[1]
            else Markup("<em>%s</em>") % code_words(m[2])
        )
        last = m.end()
    return out + escape(text[last:])


def _block(text: str) -> Markup:
    """One block of the rules' markdown as HTML: a table, a list (numbered items anchored
    ``item-N``, as a rule's section "5.4" links to), or a paragraph (`dealer.rulebook.block`)."""
    found = block(text)
    if found.kind == "table":
        head = Markup("").join(
            Markup("<th scope='col'>%s</th>") % _inline(c) for c in found.rows[0]
        )
        body = Markup("").join(
            Markup("<tr>%s</tr>") % Markup("").join(Markup("<td>%s</td>") % _inline(c) for c in row)
            for row in found.rows[1:]
        )
        return Markup(
            "<div class='table-wrap' tabindex='0' role='region' aria-label='%s'><table "
            "class='grid'><thead><tr>%s</tr></thead><tbody>%s</tbody></table></div>"
        ) % (say("A table of the rules"), head, body)
    if found.kind == "list":
        tag = "ol" if found.items[0][0] else "ul"
        lis = Markup("").join(
            (Markup("<li id='item-%s' value='%s'>") % (kind, kind) if kind else Markup("<li>"))
            + _inline(words)
            + Markup("</li>")
            for kind, words in found.items
        )
        return Markup("<%s class='rule-list'>%s</%s>") % (Markup(tag), lis, Markup(tag))
    return Markup("<p>%s</p>") % _inline(found.text)
