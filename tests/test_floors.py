"""The floors in pyproject.toml are the versions `make test-floors` tests (tests/floors.txt)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def _floors() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "tests" / "floors.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def _lower_bounds() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    bounds = {}
    for text in project["dependencies"]:
        requirement = Requirement(text)
        lows = [s.version for s in requirement.specifier if s.operator == ">="]
        assert lows, f"{requirement.name} has no floor in pyproject.toml"
        bounds[canonicalize_name(requirement.name)] = lows[0]
    return bounds


def test_every_runtime_dependency_has_its_floor_tested():
    floors, bounds = _floors(), _lower_bounds()
    assert set(bounds) == set(floors)
    for name, low in bounds.items():
        pinned = floors[name]
        # "3.13" in pyproject is "3.13.0" in the pins; the pin must be that very release
        assert pinned.split(".")[:len(low.split("."))] == low.split("."), (name, low, pinned)
        assert all(part == "0" for part in pinned.split(".")[len(low.split(".")):]), (name, pinned)
