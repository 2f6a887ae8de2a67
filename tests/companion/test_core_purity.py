"""companion/ stays pure: no hardware, web, clock or randomness imports, and it never reaches
up into the layers above it (firmware -> web -> companion). Times arrive in events' `at`;
reading them (datetime.fromisoformat) is fine, asking a clock (datetime.now) is not."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import companion

PACKAGE = Path(companion.__file__).parent
FORBIDDEN = {"gpiozero", "luma", "flask", "werkzeug", "waitress", "PIL", "RPi", "lgpio",
             "time", "random", "secrets", "firmware", "web", "uuid"}
CLOCK_CALLS = {"now", "utcnow", "today"}
SOURCES = sorted(PACKAGE.rglob("*.py"))


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            roots.add("__import__")
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in CLOCK_CALLS:
            roots.add(f"a clock ({node.func.attr}())")
    return roots


def test_purity_finds_the_sources():
    names = {p.relative_to(PACKAGE).as_posix() for p in SOURCES}
    assert {"replay.py", "rulebook.py", "games/kat_en_muis.py"} <= names


def test_purity_checker_sees_a_forbidden_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom random import choice\nimport luma.oled.device\n"
                      "from datetime import datetime\nstarted = datetime.now()\n")
    assert imported_roots(sample) == {"os", "random", "luma", "datetime", "a clock (now())"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_purity_companion_module_imports_nothing_impure(path):
    bad = {name for name in imported_roots(path)
           if name in FORBIDDEN or name == "__import__" or name.startswith("a clock")}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_purity_importing_companion_loads_no_hardware_or_web():
    code = ("import sys, companion, companion.session, companion.games;"
            "print(' '.join(sorted(m.split('.')[0] for m in sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert "companion" in loaded
    assert not loaded & {"gpiozero", "luma", "flask", "werkzeug", "waitress", "PIL", "firmware",
                         "web", "secrets"}
