"""STYLE.md: ``dealer/rules`` is pure, standard library only (no Flask, no SQLAlchemy).

Two independent checks: every ``import`` in the package's source names the standard library
or the package itself (relative), and a fresh interpreter without site-packages imports
every module of the package by file path, without running ``dealer/__init__.py`` (which
imports Flask). Both are shown to catch a stray third-party import on a copy of the package.
"""

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "dealer" / "rules"
STDLIB = frozenset(sys.stdlib_module_names)


def import_problems(package: Path) -> list[str]:
    """Each import in ``package`` that is neither the standard library nor relative inside it."""
    problems = []
    for path in sorted(package.rglob("*.py")):
        depth = len(path.relative_to(package).parts)  # 1 for a module at the top of it
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                targets = [node.module or ""]
            elif isinstance(node, ast.ImportFrom):
                if node.level > depth:  # climbs out of dealer.rules: runs dealer/__init__.py
                    problems.append(
                        f"{path.name}:{node.lineno}: relative import leaves the package"
                    )
                continue
            else:
                continue
            for target in targets:
                if target.partition(".")[0] not in STDLIB:
                    problems.append(f"{path.name}:{node.lineno}: imports {target}")
    return problems


PROBE = """
import importlib, importlib.util, json, pathlib, sys, types

package = pathlib.Path(sys.argv[1])
before = set(sys.modules)
# A stub parent package, so that dealer/__init__.py (and Flask with it) never runs.
parent = types.ModuleType("dealer")
parent.__path__ = [str(package.parent)]
sys.modules["dealer"] = parent
spec = importlib.util.spec_from_file_location(
    "dealer.rules", package / "__init__.py", submodule_search_locations=[str(package)]
)
rules = importlib.util.module_from_spec(spec)
sys.modules["dealer.rules"] = rules
spec.loader.exec_module(rules)
for path in sorted(package.glob("*.py")):
    if path.stem != "__init__":
        importlib.import_module("dealer.rules." + path.stem)
loaded = sorted(
    name for name in set(sys.modules) - before
    if name.partition(".")[0] not in sys.stdlib_module_names
    and name != "dealer" and not name.startswith("dealer.rules")
)
print(json.dumps({"foreign": loaded, "exports": len(rules.__all__)}))
"""


def probe_import(package: Path) -> subprocess.CompletedProcess[str]:
    """Import every module of ``package`` in a new interpreter with no site-packages (-S)."""
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", PROBE, str(package)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_rules_source_imports_only_the_standard_library_and_itself() -> None:
    assert import_problems(RULES) == []


def test_every_rules_module_imports_in_a_bare_interpreter_without_dealer_init() -> None:
    done = probe_import(RULES)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["foreign"] == []
    assert report["exports"] > 0


def test_both_checks_catch_a_third_party_import(tmp_path: Path) -> None:
    """A copy of the package with ``import flask`` added to hand.py fails both checks."""
    copy = tmp_path / "dealer" / "rules"
    shutil.copytree(RULES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    hand = copy / "hand.py"
    hand.write_text(hand.read_text(encoding="utf-8") + "\nimport flask\n", encoding="utf-8")
    assert any("imports flask" in p for p in import_problems(copy))
    done = probe_import(copy)
    assert done.returncode != 0
    assert "flask" in done.stderr


def test_the_checks_catch_an_import_that_climbs_to_dealer(tmp_path: Path) -> None:
    copy = tmp_path / "dealer" / "rules"
    shutil.copytree(RULES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    cards = copy / "cards.py"
    cards.write_text(
        cards.read_text(encoding="utf-8") + "\nfrom .. import extensions\nimport dealer.models\n",
        encoding="utf-8",
    )
    problems = import_problems(copy)
    assert any("leaves the package" in p for p in problems)
    assert any("imports dealer.models" in p for p in problems)
