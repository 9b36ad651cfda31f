"""dealer/words/page.py: the script's every sentence comes from the vocabulary, via the page."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from dealer.words.page import script_words
from tests.conftest import REPO

SCRIPT = (REPO / "static" / "dealer.js").read_text()


def test_every_sentence_the_script_asks_for_is_worded_and_every_one_worded_is_asked_for() -> None:
    asked = set(re.findall(r'\bsaid\("(\w+)"', SCRIPT))
    asked |= {n for pair in re.findall(r'said\(\w[^)]*\? "(\w+)" : "(\w+)"', SCRIPT) for n in pair}
    assert asked, "the scan found no sentence asked for"
    worded = set(script_words())
    assert asked - worded == set(), "asked for but not worded"
    assert worded - asked == set(), "worded but never asked for"


def test_the_script_writes_no_sentence_of_its_own() -> None:
    """No English text in a string of the script, but in its comments and its selectors."""
    code = re.sub(r"^\s*//.*$|/\*.*?\*/", "", SCRIPT, flags=re.M | re.S)
    sentences = [
        s
        for s in re.findall(r'"([^"\\]*)"', code)
        if re.search(r"[A-Z][a-z]+ [a-z]+", s) and "[" not in s and "," not in s
    ]
    assert sentences == []


def test_every_page_hands_the_words_over(client: FlaskClient) -> None:
    page = client.get("/first-run").get_data(as_text=True)
    assert '<script type="application/json" id="dealer-words">' in page
    assert "Pending: sending {n} entries in order." in page
