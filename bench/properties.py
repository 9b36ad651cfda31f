"""The long version of the suite's property tests and the API's fuzzing.

`make test` draws half of each property test's examples (tests/examples.py) and the same
twenty-odd requests for every API operation each run (derandomized, so CI does not flake).
This draws twice each test's count, and new API requests every run (``DEALER_FUZZ_RANDOM=1``),
over the rules engine's properties (zero-sum, nothing lost, either order the same) and every
operation of the served document on both databases: minutes that the suite cannot spend.

Run from the repository root: ``python -m bench.properties`` (``--scale 4`` for more). Ends
with one line of key=value pairs, e.g. ``tests=40 passed=40 failed=0 scale=2.0 seconds=612``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/rules/test_properties.py",
    "tests/rules/test_ruling_properties.py",
    "tests/rules/test_parsing_fuzz.py",
    "tests/api/test_openapi.py",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=2.0, help="examples per test's count")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    env = dict(os.environ, DEALER_EXAMPLES=str(args.scale), DEALER_FUZZ_RANDOM="1")
    command = [sys.executable, "-m", "pytest", "-q", "-n", str(args.workers), *TESTS]
    started = time.perf_counter()
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    print(run.stdout[-4000:], run.stderr[-2000:], sep="\n")
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    counts = {
        word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|error)", summary)
    }
    passed, failed = counts.get("passed", 0), counts.get("failed", 0) + counts.get("error", 0)
    print(
        f"property tests and API fuzzing at {args.scale} x each count: {passed} passed, "
        f"{failed} failed, {seconds:.0f} s"
    )
    print(
        f"tests={passed + failed + counts.get('skipped', 0)} passed={passed} failed={failed} "
        f"scale={args.scale} seconds={seconds:.0f}"
    )
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
