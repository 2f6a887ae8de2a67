"""The layers point one way, firmware -> web -> companion, and companion/ stays pure: no
hardware, web, clock or randomness. Times arrive in events' `at`; reading them
(datetime.fromisoformat) is fine, asking a clock (datetime.now) is not."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARDWARE_AND_WEB = {"gpiozero", "luma", "flask", "werkzeug", "waitress", "PIL", "RPi", "lgpio",
                    "qrcode"}
FORBIDDEN = {
    "companion": HARDWARE_AND_WEB | {"firmware", "web", "time", "random", "secrets", "uuid",
                                     "socket"},
    "web": {"firmware", "gpiozero", "luma", "RPi", "lgpio"},
}
CLOCK_CALLS = {"now", "utcnow", "today"}


def imported_roots(path: Path) -> set[str]:
    """Top-level modules a file imports, plus markers for __import__ and clock calls."""
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


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_layers_checker_sees_a_forbidden_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom random import choice\nimport luma.oled.device\n"
                      "from . import sibling\nfrom datetime import datetime\n"
                      "started = datetime.now()\n")
    assert imported_roots(sample) == {"os", "random", "luma", "datetime", "a clock (now())"}


def test_layers_finds_the_sources():
    names = {p.relative_to(ROOT).as_posix() for p in sources("companion") + sources("web")}
    assert {"companion/replay.py", "companion/games/kat_en_muis.py", "web/api.py"} <= names


@pytest.mark.parametrize("path", sources("companion") + sources("web"),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_layers_module_imports_only_what_its_layer_may(path):
    layer = path.relative_to(ROOT).parts[0]
    found = imported_roots(path)
    bad = found & FORBIDDEN[layer]
    if layer == "companion":
        bad |= {n for n in found if n == "__import__" or n.startswith("a clock")}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_layers_importing_companion_loads_no_hardware_or_web():
    code = ("import sys, companion, companion.session, companion.games, companion.randomness.stats;"
            "print(' '.join(sorted(m.split('.')[0] for m in sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True, cwd=ROOT).stdout.split())
    assert "companion" in loaded
    assert not loaded & (HARDWARE_AND_WEB | {"firmware", "web", "secrets"})
