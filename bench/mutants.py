"""The mutation score of each package of the services and the read layer, with mutmut.

Run from the repository root: ``python -m bench.mutants`` (every package in `PACKAGES`, each
in a process of its own), ``--package floor`` for one, ``--module counts`` for one module of
it; ``make mutants PACKAGE=floor MODULE=counts`` says the same. Not part of `make test` or
`make bench`: a package takes minutes to hours (see bench/README.md).

mutmut copies ``dealer/`` into ``mutants/`` (git-ignored), writes each mutant there beside the
original, records once which of the package's tests reach which function, then runs, for each
mutant, only those tests, on SQLite alone (``-m "not postgres"``, pyproject.toml's
``[tool.mutmut]``: the PostgreSQL halves run the same service code). Each mutant's test
session reuses the SQLite templates the first one migrated (``DEALER_TEST_TEMPLATES``,
tests/conftest.py). What it changes: comparisons, operators, numbers, strings, and/or, an
argument or a statement left out; not the words of a sentence said through the vocabulary
(`SENTENCES`): what a person reads is pinned by tests/words and the screens' tests.

A survivor is either killed by a test or argued in ``tests/mutants_equivalent.txt`` (one line
each: the mutant's name, a colon, why no test can tell it from the original). Each package
ends with one line::

    package=floor mutants=359 killed=... survived=... equivalent=... score=0.93 ...

score = killed / (mutants - equivalent); a mutant no selected test reaches counts as
survived (``untested`` says how many). The survivors, each with its change, are written to
bench/out/mutants-PACKAGE.txt; mutmut's own output to bench/out/mutants-PACKAGE.log.

``--sample N`` runs a random sample of N of the package's mutants (drawn with ``--seed``, so
the same N and seed draw the same mutants from the same code) and says so: its line has
``sampled=N of=ALL`` and the score's 95 % interval (Wilson), ``ci95=LOW-HIGH``: an estimate of
the whole package's score, not a count of it.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import pkgutil
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mutmut.runners.harness import PytestRunner

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
EQUIVALENTS = ROOT / "tests" / "mutants_equivalent.txt"

#: The tests that exercise each package: its own folder and the service-level tests that
#: reach it through a door (the API), kept to those that do, so a run is minutes per module.
PACKAGES: dict[str, list[str]] = {
    "floor": [
        "tests/floor",
        "tests/reports/test_counts.py",
        "tests/api/test_table_sessions.py",
        "tests/api/test_tables.py",
        "tests/api/test_limits.py",
        "tests/api/test_acting_seat.py",
    ],
    "hands": ["tests/hands", "tests/api/test_hands.py", "tests/api/test_golden_hands.py"],
    "disputes": [
        "tests/disputes",
        "tests/api/test_disputes.py",
        "tests/api/test_rulings.py",
        "tests/api/test_players.py",
        "tests/api/test_payment_search.py",
        "tests/screens/test_search_in_words.py",
        "tests/screens/test_dispute_desk.py",
    ],
    "people": [
        "tests/people",
        "tests/api/test_users.py",
        "tests/api/test_session.py",
        "tests/api/test_lockout.py",
        "tests/api/test_sign_ins_end.py",
        "tests/api/test_authority.py",
    ],
    # The reports' tests read views/documents; the tables', sessions' and hands' doors and the
    # floor's, the shift's and the sessions' screens read the rest.
    "views": [
        "tests/views",
        "tests/api/test_hand_replay.py",
        "tests/api/test_statement.py",
        "tests/reports",
        "tests/api/test_tables.py",
        "tests/api/test_table_sessions.py",
        "tests/api/test_hands.py",
        "tests/screens/test_floor.py",
        "tests/screens/test_shift_hands.py",
        "tests/screens/test_sessions_screen.py",
    ],
    "ledger": ["tests/ledger"],
    # The purity tests read the rules' source for its imports and import it in a bare
    # interpreter, and a mutated copy imports mutmut.
    "rules": ["tests/rules", "--ignore=tests/rules/test_purity.py"],
}

#: A module's own, narrower selection, where its package's would run far more than reaches it.
MODULES: dict[str, list[str]] = {
    "floor/counts": ["tests/floor", "tests/reports/test_counts.py"],
    "views/replay": ["tests/views", "tests/api/test_hand_replay.py"],
}

#: Calls whose arguments are a sentence of the vocabulary (dealer/words): not mutated.
SENTENCES = {"say", "say_n", "say_later", "say_html", "say_n_html", "say_in"}

#: mutmut's exit codes per mutant (mutmut.stats.status_by_exit_code), as this line counts them.
KILLED = {1, 3, -24, 24, 152, 255, -11, -9, 36, 37}
UNTESTED = {5, 33}
SURVIVED = {0} | UNTESTED

#: The tests a mutant's session runs (pyproject.toml's ``[tool.mutmut]``), and with
#: ``--both-databases`` (code that runs on PostgreSQL alone: its write-behind, its locks).
ONE_DATABASE = "not postgres and not browser"
BOTH_DATABASES = "not browser"

#: The sample's seed unless told (``--seed``): the same sample from one run to the next.
SEED = 48


def equivalents() -> dict[str, str]:
    """The equivalent mutants, by name, with the reason given for each."""
    found: dict[str, str] = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, why = line.partition(":")
            found[name.strip()] = why.strip()
    return found


def selection(package: str, module: str | None) -> tuple[str, list[str]]:
    """The files to mutate (a glob under dealer/) and the tests to run for them."""
    if module is None:
        return f"dealer/{package}/*", PACKAGES[package]
    tests = MODULES.get(f"{package}/{module}", PACKAGES[package])
    return f"dealer/{package}/{module}.py", tests


def warmed_runner() -> type[PytestRunner]:
    """mutmut's pytest runner whose fork server, once it has collected the tests, also
    imports every module of ``dealer`` (the mutated copy), so that each mutant's process,
    forked from it, starts with them imported. `create_app` imports the doors (the API, the
    screens, the reports) when the first app is made, and the tests' collection does not make
    one: each mutant's session imported them again, some 2 s of its time. Importing runs no
    function of the package (the mutants are switched on when a function is called), and
    starts no thread."""
    from mutmut.runners import harness

    class WarmedRunner(harness.PytestRunner):
        def warm_up(self) -> None:
            super().warm_up()
            import dealer

            for found in pkgutil.walk_packages(dealer.__path__, "dealer."):
                __import__(found.name)

    return WarmedRunner


def configure(package: str, module: str | None) -> str:
    """mutmut's configuration narrowed to the selection (and widened to PostgreSQL's halves
    of the tests when ``MUTANTS_BOTH_DATABASES`` is set: `main`'s ``--both-databases``), and
    its runner warmed (`warmed_runner`); the pattern that names every mutant of the
    selection."""
    from mutmut import configuration
    from mutmut.mutation import file_mutation
    from mutmut.workers import isolation

    files, tests = selection(package, module)
    tests = [t for t in tests if t.startswith("-") or (ROOT / t).exists()]
    file_mutation.NEVER_MUTATE_FUNCTION_CALLS |= SENTENCES
    loaded = configuration._load_config()
    added = loaded.pytest_add_cli_args
    if os.environ.get("MUTANTS_BOTH_DATABASES"):
        added = [BOTH_DATABASES if arg == ONE_DATABASE else arg for arg in added]
    configuration._config = dataclasses.replace(
        loaded,
        only_mutate=[files],
        pytest_add_cli_args_test_selection=tests,
        pytest_add_cli_args=added,
    )
    isolation.PytestRunner = warmed_runner()  # type: ignore[attr-defined]
    return files.removesuffix(".py").removesuffix("/*").replace("/", ".") + ".*"


def generate(package: str, module: str | None, jobs: int) -> list[str]:
    """Write the selection's mutants into mutants/ (as mutmut's run does first, which then
    finds them written) and return their names."""
    from mutmut.__main__ import create_mutants
    from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir

    configure(package, module)
    copy_src_dir()
    copy_also_copy_files()
    create_mutants(jobs)
    return sorted(results(package, module))


def sample_of(names: list[str], size: int, seed: int) -> list[str]:
    """``size`` of ``names`` drawn at random with ``seed``: the same names, size and seed
    draw the same sample."""
    return sorted(random.Random(seed).sample(sorted(names), min(size, len(names))))


def run_mutmut(package: str, module: str | None, jobs: int, only: list[str]) -> None:
    """mutmut's run on the selection, in this process (its configuration narrowed here):
    every mutant of it, or ``only`` these."""
    from mutmut.__main__ import _run

    pattern = configure(package, module)
    _run(only or [pattern], jobs)


def results(package: str, module: str | None) -> dict[str, int | None]:
    """Each mutant's exit code, from the files mutmut left beside the mutated modules."""
    found: dict[str, int | None] = {}
    for meta in metas(package, module):
        found.update(json.loads(meta.read_text())["exit_code_by_key"])
    return found


def wilson(killed: int, counted: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval (Wilson's) of a score of ``killed`` out of ``counted`` sampled."""
    if not counted:
        return 0.0, 1.0
    p = killed / counted
    centre = (p + z * z / (2 * counted)) / (1 + z * z / counted)
    half = z * math.sqrt(p * (1 - p) / counted + z * z / (4 * counted * counted))
    half /= 1 + z * z / counted
    return max(0.0, centre - half), min(1.0, centre + half)


def metas(package: str, module: str | None) -> list[Path]:
    """The files mutmut keeps each mutated module's verdicts in: the module's, or every module's
    of the package, its subpackages' too (views/documents)."""
    files, _ = selection(package, module)
    if module is None:
        return sorted((ROOT / "mutants" / "dealer" / package).rglob("*.py.meta"))
    return sorted((ROOT / "mutants").glob(files + ".meta"))


def keep_verdicts(package: str, module: str | None, earlier: dict[str, int | None]) -> None:
    """Put back the ``earlier`` verdicts of the mutants a run of survivors did not try: mutmut
    forgets every verdict when the tests it runs change (PostgreSQL's halves added, a test
    file added to the selection), and a mutant killed stays killed when tests are only added."""
    for meta in metas(package, module):
        data = json.loads(meta.read_text())
        codes = data["exit_code_by_key"]
        kept = {
            n: earlier[n]
            for n, code in codes.items()
            if code is None and earlier.get(n) is not None
        }
        if kept:
            codes.update(kept)
            meta.write_text(json.dumps(data))


def line(
    package: str,
    module: str | None,
    codes: dict[str, int | None],
    seconds: float,
    sample: list[str] | None = None,
) -> str:
    """The package's line: of every mutant in ``codes``, or of the ``sample`` of them (with
    how many it was drawn from and the score's 95 % interval). A mutant a run stopped before
    trying is left out of the score and counted as ``untried`` (0 once a run is whole)."""
    of = len(codes)
    if sample is not None:
        codes = {name: codes.get(name) for name in sample}
    argued = equivalents()
    tried = {name: code for name, code in codes.items() if code is not None}
    killed = sum(1 for code in tried.values() if code in KILLED)
    untested = sum(1 for code in tried.values() if code in UNTESTED)
    equivalent = sum(1 for name, code in tried.items() if name in argued and code in SURVIVED)
    survived = len(tried) - killed - equivalent
    counted = len(tried) - equivalent
    score = killed / counted if counted else 1.0
    name = package if module is None else f"{package}/{module}"
    size = f"mutants={of}" if sample is None else f"sampled={len(codes)} of={of}"
    interval = ""
    if sample is not None:
        low, high = wilson(killed, counted)
        interval = f" ci95={low:.3f}-{high:.3f}"
    return (
        f"package={name} {size} killed={killed} survived={survived} "
        f"equivalent={equivalent} score={score:.3f}{interval} untested={untested} "
        f"untried={len(codes) - len(tried)} seconds={seconds:.0f}"
    )


def survivors_report(package: str, module: str | None, codes: dict[str, int | None]) -> Path:
    """The survivors not argued as equivalent, each with its change (mutmut's diff)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    argued = equivalents()
    lines: list[str] = []
    for name, code in sorted(codes.items()):
        if code not in SURVIVED or name in argued:
            continue
        path = Path(*name.split(".")[:-1]).with_suffix(".py")
        with contextlib.chdir(ROOT):
            diff = get_diff_for_mutant(name, path=str(path))
        changed = [
            d for d in diff.splitlines() if d[:1] in "+-" and not d.startswith(("+++", "---"))
        ]
        lines.append(f"{name} ({'untested' if code in UNTESTED else 'survived'})")
        lines.extend("    " + d for d in changed)
    label = package if module is None else f"{package}-{module}"
    out = OUT / f"mutants-{label}.txt"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


@contextlib.contextmanager
def quiet(log: Path) -> Iterator[None]:
    """mutmut's progress (a spinner on the terminal, by file descriptor) into ``log``."""
    sys.stdout.flush()
    sys.stderr.flush()
    kept = os.dup(1), os.dup(2)
    with log.open("w") as out:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(kept[0], 1)
            os.dup2(kept[1], 2)
            os.close(kept[0])
            os.close(kept[1])


def report(package: str, module: str | None, sample: int | None, seed: int) -> int:
    """The line of the last run as it stands (a run stopped part way: its ``untried``)."""
    codes = results(package, module)
    if not codes:
        print("no run of it in mutants/", file=sys.stderr)
        return 1
    drawn = sample_of(list(codes), sample, seed) if sample else None
    print(line(package, module, codes, 0, drawn))
    return 0


def one(
    package: str, module: str | None, jobs: int, again: bool, sample: int | None, seed: int
) -> int:
    """Mutate one package (or module), run its tests per mutant (every one, or a ``sample``
    of them drawn with ``seed``), print its line. ``again``: only the last run's survivors
    (of the sample, when one is asked for, with those of it a stopped run did not reach),
    against the tests as they are now."""
    OUT.mkdir(parents=True, exist_ok=True)
    os.chdir(ROOT)
    os.environ["DEALER_TEST_TEMPLATES"] = str(ROOT / "mutants" / "templates-kept")
    label = package if module is None else f"{package}-{module}"
    started = time.monotonic()
    log = OUT / f"mutants-{label}.log"
    codes = results(package, module)
    drawn = sample_of(list(codes), sample, seed) if sample and again else None
    # Of a sample, those a stopped run did not reach are tried too.
    only = [n for n in (drawn or codes) if codes[n] in SURVIVED or (drawn and codes[n] is None)]
    if again and not only:
        print("no survivors of an earlier run to try again", file=sys.stderr)
        return 1
    with quiet(log):
        try:
            if not again:
                shutil.rmtree(ROOT / "mutants", ignore_errors=True)
                names = generate(package, module, jobs)
                drawn = sample_of(names, sample, seed) if sample else None
                only = drawn or []
            run_mutmut(package, module, jobs, only)
            if again:
                keep_verdicts(package, module, codes)
            stopped = 0
        except SystemExit as stop:
            stopped = 0 if stop.code is None else int(stop.code)
    if stopped:
        print(f"mutmut stopped ({stopped}): see {log.relative_to(ROOT)}", file=sys.stderr)
        return 1
    codes = results(package, module)
    mine = codes if drawn is None else {name: codes[name] for name in drawn}
    report = survivors_report(package, module, mine)
    print(f"survivors of {label}: {report.relative_to(ROOT)}")
    print(line(package, module, codes, time.monotonic() - started, drawn), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package", choices=sorted(PACKAGES), help="one package (default all)")
    parser.add_argument("--module", help="one module of the package, e.g. counts")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once")
    parser.add_argument(
        "--survivors", action="store_true", help="try only the last run's survivors again"
    )
    parser.add_argument("--report", action="store_true", help="the last run's line, no run")
    parser.add_argument(
        "--sample", type=int, help="a random sample of this many mutants, not every one"
    )
    parser.add_argument("--seed", type=int, default=SEED, help=f"the sample's (default {SEED})")
    parser.add_argument(
        "--both-databases",
        action="store_true",
        help="PostgreSQL's halves of the tests too (with --survivors: code only it runs)",
    )
    args = parser.parse_args(argv)
    if args.both_databases:
        os.environ["MUTANTS_BOTH_DATABASES"] = "1"
    if args.module and not args.package:
        parser.error("--module needs --package")
    if args.report and args.package:
        return report(args.package, args.module, args.sample, args.seed)
    if args.package:
        return one(args.package, args.module, args.jobs, args.survivors, args.sample, args.seed)
    failed = 0
    sampled = ["--sample", str(args.sample), "--seed", str(args.seed)] if args.sample else []
    for package in PACKAGES:  # each in its own process: mutmut keeps its state globally
        command = [sys.executable, "-m", "bench.mutants", "--package", package, *sampled]
        failed |= subprocess.call([*command, "--jobs", str(args.jobs)], cwd=ROOT)
    return failed


if __name__ == "__main__":
    sys.exit(main())
