"""The layers point one way: firmware -> web -> companion; companion is pure."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "companion": {"gpiozero", "luma", "flask", "werkzeug", "waitress", "PIL", "RPi", "lgpio",
                  "qrcode", "firmware", "web", "random", "secrets", "time", "socket"},
    "web": {"firmware", "gpiozero", "luma", "RPi", "lgpio"},
}
CLOCK_CALL = re.compile(r"\b(datetime|date)\.(now|today|utcnow)\(|\btime\.(time|monotonic)\(")


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_imports_point_one_way(package):
    offenders = {}
    for path in sources(package):
        bad = imported_roots(path) & FORBIDDEN[package]
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert sources(package), f"no sources found under {package}/"
    assert offenders == {}


def test_layers_companion_reads_no_clock():
    calls = {str(p.relative_to(ROOT)): CLOCK_CALL.findall(p.read_text(encoding="utf-8"))
             for p in sources("companion")}
    assert {k: v for k, v in calls.items() if v} == {}


def test_layers_checker_sees_a_forbidden_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom gpiozero import Button\nfrom . import sibling\n")
    assert imported_roots(sample) == {"os", "gpiozero"}
