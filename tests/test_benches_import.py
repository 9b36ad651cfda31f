"""Every benchmark still imports: a name moved or renamed in the product breaks `make bench`
here, not on the night someone measures with it."""

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
MODULES = sorted(
    ".".join(("bench", *path.relative_to(BENCH).with_suffix("").parts))
    for path in BENCH.rglob("*.py")
    # measured.conf.py is gunicorn's settings file for bench.floor, read by path.
    if path.name != "measured.conf.py"
)


@pytest.mark.parametrize("name", MODULES)
def test_imports(name: str) -> None:
    assert importlib.import_module(name)
