"""What the import contracts cannot say. Which layer imports which, that the doors are peers
and that no modules import each other round a circle are import-linter's contracts
(pyproject.toml, run by `make lint`); here: no door queries the database or builds a view
itself, and no module or door function outgrows its limit."""

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


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def door_of(module: str) -> str | None:
    for door, packages in FRONT_DOORS.items():
        if any(module == p or module.startswith(p + ".") for p in packages):
            return door
    return None


MODULES = sorted(PACKAGE.rglob("*.py"))


#: What reads or writes the database: a door asks a service or the read layer instead.
QUERIES = {"scalars", "scalar", "execute", "query", "scalar_one", "scalar_one_or_none"}
SQL_BUILDERS = {"select", "text", "update", "delete", "insert", "func"}


def _models() -> set[str]:
    from dealer import models

    return {
        name
        for name, value in vars(models).items()
        if isinstance(value, type) and hasattr(value, "__table__")
    }


def queries_in(path: Path, models: set[str]) -> list[str]:
    """Each place ``path`` queries the database itself: a query call, an SQL builder imported,
    or a row fetched by its model and key (``session.get(User, 4)``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            found += [f"imports {a.name}" for a in node.names if a.name in SQL_BUILDERS]
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if node.func.attr in QUERIES:
            found.append(f"line {node.lineno}: .{node.func.attr}()")
        elif node.func.attr == "get" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Name) and first.id in models:
                found.append(f"line {node.lineno}: .get({first.id}, ...)")
    return found


DOOR_MODULES = [p for p in MODULES if door_of(module_name(p)) is not None]


@pytest.mark.parametrize("path", DOOR_MODULES, ids=lambda p: module_name(p))
def test_no_door_queries_the_database_itself(path: Path) -> None:
    """A door parses, authorises through a service and renders what the read layer built;
    the picture of a hand, a table or a seat is never its own query."""
    found = queries_in(path, _models())
    assert not found, f"{module_name(path)} queries the database itself: {found}"


def test_the_query_scan_sees_a_query(tmp_path: Path) -> None:
    door = tmp_path / "door.py"
    door.write_text(
        "from sqlalchemy import select\n"
        "def f(session, User):\n"
        "    session.get(User, 1)\n"
        "    return session.scalars(select(User))\n"
    )
    found = queries_in(door, {"User"})
    assert "imports select" in found
    assert any(".get(User" in f for f in found) and any(".scalars()" in f for f in found)
    flask_session = tmp_path / "cookie.py"
    flask_session.write_text("def f(session):\n    return session.get('_user_id')\n")
    assert queries_in(flask_session, {"User"}) == []


def _view_classes() -> set[str]:
    import importlib
    import pkgutil

    import dealer.views
    from dealer.views.base import View

    for info in pkgutil.walk_packages(dealer.views.__path__, "dealer.views."):
        importlib.import_module(info.name)
    out: set[str] = set()
    stack = [View]
    while stack:
        cls = stack.pop()
        out.add(cls.__name__)
        stack.extend(cls.__subclasses__())
    return out


def view_builds_in(path: Path, views: set[str]) -> list[str]:
    """Each place ``path`` builds a view itself: a call of a view class it imported."""
    tree = ast.parse(path.read_text())
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dealer.views")
        for alias in node.names
        if alias.name in views
    }
    return [
        f"line {node.lineno}: {node.func.id}(...)"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in imported
    ]


OUTSIDE_VIEWS = [p for p in MODULES if not module_name(p).startswith("dealer.views")]


def test_only_the_read_layer_builds_views() -> None:
    """Views (a hand, an event, a statement, a payment, a settlement...) are built in
    `dealer.views` alone; everyone else asks it for them."""
    views = _view_classes()
    assert {"HandView", "Statement", "EventView"} <= views
    built = {module_name(p): found for p in OUTSIDE_VIEWS if (found := view_builds_in(p, views))}
    assert not built, built


#: No module longer than this many lines, and no function longer than that many: a module
#: that outgrows it holds two things, and a function that does is to be named in parts.
LONGEST_MODULE = 400
LONGEST_FUNCTION = 60


def too_long(path: Path) -> list[str]:
    """What in ``path`` is longer than the limits allow: the module, or a function."""
    text = path.read_text()
    found = []
    if (lines := len(text.splitlines())) > LONGEST_MODULE:
        found.append(f"{lines} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > LONGEST_FUNCTION:
                found.append(f"{node.name}: {length} lines")
    return found


def test_no_module_and_no_function_is_too_long() -> None:
    long = {module_name(p): found for p in MODULES if (found := too_long(p))}
    assert not long, long


def test_the_length_scan_sees_a_long_module_and_a_long_function(tmp_path: Path) -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(LONGEST_FUNCTION))
    module = tmp_path / "door.py"
    module.write_text("def f():\n" + body + "\n" * LONGEST_MODULE)
    assert too_long(module) == [f"{LONGEST_MODULE + 61} lines", "f: 61 lines"]
    last = LONGEST_FUNCTION - 1
    module.write_text("def f():\n" + body[: -len(f"    x{last} = {last}\n")])
    assert too_long(module) == []
