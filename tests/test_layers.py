"""Imports run one way: rules -> the services -> the front doors, and no front door imports
another. The JSON API, the screens (with their sign-in pages) and the printed reports are
peers; what they share sits beneath them (`dealer.web`, the services, `dealer.rules`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "dealer"

#: Each front door, by the top-level packages that make it up.
FRONT_DOORS = {
    "api": ("dealer.api",),
    "screens": ("dealer.screens",),
    "reports": ("dealer.reports",),
}
#: Where the app is put together: it may import everything.
ROOT = ("dealer", "dealer.cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every dealer module ``path`` imports, relative imports resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {i for i in found if i == "dealer" or i.startswith("dealer.")}


def door_of(module: str) -> str | None:
    for door, packages in FRONT_DOORS.items():
        if any(module == p or module.startswith(p + ".") for p in packages):
            return door
    return None


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_module_imports_a_front_door_it_is_not_part_of(path: Path) -> None:
    name = module_name(path)
    if name in ROOT:
        return
    mine = door_of(name)
    for target in imports_of(path):
        door = door_of(target)
        if door is not None and door != mine:
            where = f"front door {mine!r}" if mine else "the layer beneath the front doors"
            pytest.fail(f"{name} ({where}) imports {target}, of front door {door!r}")


def test_the_scan_sees_the_imports_it_is_meant_to_forbid(tmp_path: Path) -> None:
    """The scan itself: a relative import from a front door is resolved to its module."""
    api = PACKAGE / "api" / "hands.py"
    assert "dealer.web.signin" in imports_of(api)
    assert "dealer.api" in imports_of(api)  # `from . import bp`
    assert door_of("dealer.screens.auth.guard") == "screens"
    assert door_of("dealer.web.once") is None
