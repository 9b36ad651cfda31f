"""How many examples a property test draws: the count its test names, scaled for the run.

`make test` draws half of each (``DEALER_EXAMPLES=0.5``, the default), its short version: the
suite shares two cores and stays under seven minutes from a fresh clone. The long version is
``python -m bench.properties``: every property test and the API's fuzzing at twice each count
(``DEALER_EXAMPLES=2``) with fresh seeds, which takes minutes that the suite cannot spend.
"""

from __future__ import annotations

import os

SCALE = float(os.environ.get("DEALER_EXAMPLES", "0.5"))


def examples(count: int) -> int:
    """``count`` examples scaled for this run (at least one)."""
    return max(1, round(count * SCALE))
