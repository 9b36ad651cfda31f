"""The floor's languages measured (issue 45): how much of each shipped catalogue is translated,
how many English messages are left on the screens, in the documents and in the API's refusals
drawn in Spanish and Filipino, and what drawing the hand page in Spanish costs against English.

The untranslated counts are those of the tests that hold them at none (the role walk's screens,
the knobbed hand's documents, the API's bad-input and engine refusals, each drawn in es and fil:
`tests.words.untranslated`'s checker), run here once, on SQLite: each English message left is
counted once per page, line or refusal it is found in. The hand page is `bench.ui`'s, asked for
by the same signed-in tablet with ``Accept-Language: es`` and ``en`` in turn.

Ends with one line of key=value pairs, e.g. ``es_translated_pct=100 ... hand_page_es_vs_en=1.01``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ui import RUNS, WARM_UP, hand_page  # noqa: E402
from tests.words import untranslated  # noqa: E402

#: Where each count comes from: the tests that hold it at none.
TESTS = {
    "untranslated_on_screens": "tests/screens/test_untranslated.py",
    "untranslated_in_documents": "tests/words/test_documents_untranslated.py",
    "untranslated_in_api": "tests/words/test_api_untranslated.py::"
    "test_every_api_refusal_is_said_in_the_language",
}


def untranslated_count(tests: str) -> int:
    """The English messages the checker finds while ``tests`` run (pass or fail)."""
    before = len(untranslated.FOUND)
    pytest.main([str(ROOT / tests), "-q", "-n", "0", "-p", "no:cacheprovider", "--no-header"])
    return len(untranslated.FOUND) - before


def hand_page_ms() -> dict[str, float]:
    """The hand page's median server render time in Spanish and in English, asked in turn."""
    times: dict[str, list[float]] = {"es": [], "en": []}
    with hand_page() as (tablet, path):
        for language in times:
            html = tablet.get(path, headers={"Accept-Language": language}).get_data(as_text=True)
            assert f'lang="{language}"' in html, language
        for run in range(WARM_UP + RUNS):
            for language, taken in times.items():
                start = time.perf_counter()
                answer = tablet.get(path, headers={"Accept-Language": language})
                if run >= WARM_UP:
                    taken.append((time.perf_counter() - start) * 1000)
                assert answer.status_code == 200
    return {language: statistics.median(taken) for language, taken in times.items()}


def main() -> None:
    figures: dict[str, object] = {
        f"{language}_translated_pct": f"{untranslated.translated_pct(language):g}"
        for language in ("es", "fil")
    }
    figures.update({name: untranslated_count(tests) for name, tests in TESTS.items()})
    ms = hand_page_ms()
    ratio = ms["es"] / ms["en"]
    print(
        "catalogues: "
        + ", ".join(f"{k.split('_')[0]} {v} % translated" for k, v in figures.items() if "pct" in k)
    )
    print(
        f"untranslated messages drawn in es and fil: {figures['untranslated_on_screens']} on "
        f"screens, {figures['untranslated_in_documents']} in documents, "
        f"{figures['untranslated_in_api']} in API refusals"
    )
    print(
        f"hand page over {RUNS} runs each: es {ms['es']:.2f} ms, en {ms['en']:.2f} ms "
        f"(es/en {ratio:.3f}; target within 5 %: {'ok' if ratio <= 1.05 else 'OVER'})"
    )
    figures.update(
        hand_page_es_ms=f"{ms['es']:.2f}",
        hand_page_en_ms=f"{ms['en']:.2f}",
        hand_page_es_vs_en=f"{ratio:.3f}",
    )
    print("name=languages " + " ".join(f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
