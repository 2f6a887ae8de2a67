"""Stateful fuzzing of the table: random sequences of every device input (through the screen
controller) and every control API action, for each of the ten games, against a Session on a
real SQLite store. Refusals are fine; anything else escaping is a bug. After every step: the
state is the replay of the stored log, chips are conserved and never negative, and an undo
that is accepted restores exactly the state before the step it takes back. Now and then the
table is "powered off" (the store's files copied as they are) and must resume identically.

PARLOUR_SOAK (any value) multiplies the examples for `make soak`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, rule,
                                 run_state_machine_as_test)

from companion.errors import Refused
from companion.games import GAMES
from companion.replay import replay
from companion.session import Session
from companion.record.store import Store
from firmware.controller import Controller
from firmware.pins.inputs import InputEvent
from firmware.oled.views import choices
from web.control import ACTIONS
from web.errors import ApiError
from fakes import FakeClock
from reliability_support import comparable

SOAK = bool(os.environ.get("PARLOUR_SOAK"))
EXAMPLES = 300 if SOAK else 30
STEPS = 80 if SOAK else 40
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
COUNTS: dict[str, int] = {"examples": 0, "steps": 0, "events": 0, "refused": 0, "undos": 0,
                          "restarts": 0}

ints = st.integers(min_value=-3, max_value=12)
accounts = st.one_of(st.just("pool"), st.integers(min_value=0, max_value=6))
CONTROL = st.one_of(
    st.tuples(st.sampled_from(["undo", "roll", "next", "end"]), st.just({})),
    st.tuples(st.just("press"), st.fixed_dictionaries({"seat": ints})),
    st.tuples(st.just("choose"), st.fixed_dictionaries({"value": ints})),
    st.tuples(st.just("declare"), st.fixed_dictionaries({"winners": st.lists(ints, max_size=3)})),
    st.tuples(st.just("transfer"), st.fixed_dictionaries(
        {"from": accounts, "to": accounts, "amount": st.integers(-1, 60),
         "reason": st.text(max_size=5)})),
    st.tuples(st.just("rename"), st.fixed_dictionaries(
        {"seat": ints, "name": st.sampled_from(["", "Bea", "ann", " Zed ", "x" * 30])})),
    st.tuples(st.just("new-game"), st.fixed_dictionaries(
        {"game": st.sampled_from([*GAMES, "nope"]),
         "players": st.lists(st.sampled_from(NAMES), min_size=0, max_size=7)})),
    st.tuples(st.sampled_from(["press", "choose", "transfer"]),
              st.dictionaries(st.sampled_from(["seat", "value", "from", "amount"]),
                              st.one_of(st.none(), st.booleans(), st.text(max_size=3),
                                        st.floats(allow_nan=True)), max_size=3)),
)
DEVICE = st.one_of(
    st.builds(lambda s: InputEvent("seat", seat=s), st.integers(0, 5)),
    st.builds(lambda s: InputEvent("ignored", seat=s), st.integers(0, 5)),
    st.sampled_from([InputEvent("press"), InputEvent("hold"), InputEvent("undo"),
                     InputEvent("menu")]),
    st.builds(lambda d: InputEvent("turn", detents=d), st.integers(-4, 4)),
    st.builds(lambda s: InputEvent("flick", strength=s), st.floats(0, 1)),
)


class TableMachine(RuleBasedStateMachine):
    """One table, one game of `game` to start with (set by the test)."""

    game = "kat-en-muis"

    def __init__(self):
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-fuzz-"))
        self.seeds = 0
        self.clock = FakeClock()
        self.history: dict[tuple[int, int], dict] = {}
        self.totals: dict[int, int] = {}
        self._open(self.dir / "parlour.db")
        COUNTS["examples"] += 1

    def _seed(self) -> bytes:
        self.seeds += 1
        return hashlib.sha256(f"fuzz {self.seeds}".encode()).digest()

    def _open(self, path: Path) -> None:
        self.store = Store(path)
        self.session = Session(self.store, new_seed=self._seed,
                               clock=lambda: "2025-01-01T12:00:00Z")
        self.session.subscribe(self._record)
        self.controller = Controller(self.session, seats=6, clock=self.clock)
        self.controller.attach()

    def _record(self, snap: dict) -> None:
        """Every state the session announces, by (game, events in effect)."""
        if snap["game_id"] is not None:
            key = (snap["game_id"], len(self.session.table.effective))
            self.history[key] = comparable(snap)
            self.totals.setdefault(snap["game_id"], _chips(snap))
            COUNTS["events"] += 1

    def teardown(self) -> None:
        self.controller.close()
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @initialize(data=st.data())
    def start(self, data) -> None:
        rulebook = GAMES[self.game]
        n = data.draw(st.integers(rulebook.min_players, rulebook.max_players), label="players")
        self.session.new_game(self.game, NAMES[:n])

    # -- inputs ---------------------------------------------------------------------------

    def _try(self, call) -> None:
        try:
            call()
        except (Refused, ApiError):
            COUNTS["refused"] += 1
        COUNTS["steps"] += 1

    @rule()
    def awaited_move(self) -> None:
        """What the game waits for (most of a real game), so games get deep and end."""
        snap = self.session.snapshot()
        awaiting, turn = snap["awaiting"], snap["turn"] or 0
        if awaiting == "press":
            self._try(lambda: self.session.submit({"type": "press", "seat": turn}))
        elif awaiting == "choose":
            self._try(lambda: self.session.submit({"type": "choose",
                                                   "value": (choices(snap) or [0])[0]}))
        elif awaiting in ("next", "declare"):
            event = {"type": "next"} if awaiting == "next" else \
                {"type": "declare", "winners": [turn]}
            self._try(lambda: self.session.submit(event))
        else:
            self._try(self.session.roll)

    @rule(action=CONTROL)
    def control_api(self, action) -> None:
        name, data = action
        self._try(lambda: ACTIONS[name](self.session, dict(data)))

    @rule(event=DEVICE, later=st.sampled_from([0.0, 0.05, 1.5, 7.0]))
    def device_input(self, event, later) -> None:
        self.controller.handle(event)           # refusals flash on screen, never raise
        self.clock.now += later
        self.controller.update()
        self.controller.render()
        COUNTS["steps"] += 1

    @rule()
    def undo(self) -> None:
        snap = self.session.snapshot()
        table = self.session.table
        expected = None if table is None else \
            self.history.get((snap["game_id"], len(table.effective) - 1))
        try:
            after = self.session.undo()
        except Refused:
            COUNTS["refused"] += 1
            return
        COUNTS["undos"] += 1
        assert snap["game_id"] == after["game_id"] and expected is not None
        assert comparable(after) == expected, "undo did not restore the state before"

    @rule(now=st.integers(0, 3))
    def power_cut(self, now) -> None:
        """The store's files as they are on disk now, opened by a new session."""
        if now:                                     # one time in four: keep the table busy
            return
        before = self.session.snapshot()
        other = self.dir / f"cut-{COUNTS['restarts']}"
        other.mkdir()
        for name in ("parlour.db", "parlour.db-wal"):
            if (self.store.path.parent / name).exists():
                shutil.copy(self.store.path.parent / name, other / name)
        self.controller.close()
        self.store.close()
        self._open(other / "parlour.db")
        COUNTS["restarts"] += 1
        after = self.session.snapshot()
        if before["game_id"] is not None and before["phase"] != "over":
            assert self.session.resumed and comparable(after) == comparable(before)
        else:
            assert not self.session.resumed and after["phase"] == "idle"

    # -- what must always hold -------------------------------------------------------------

    @invariant()
    def state_is_the_replay_of_the_stored_log(self) -> None:
        snap = self.session.snapshot()
        if snap["game_id"] is None:
            return
        stored = replay(self.store.events(snap["game_id"])).to_json()
        assert comparable(stored) == comparable(snap)

    @invariant()
    def chips_are_conserved_and_never_negative(self) -> None:
        snap = self.session.snapshot()
        if snap["game_id"] is None:
            return
        assert snap["pool"] >= 0 and all(p["chips"] >= 0 for p in snap["players"])
        assert _chips(snap) == self.totals[snap["game_id"]]


def _chips(snap: dict) -> int:
    return snap["pool"] + sum(p["chips"] for p in snap["players"])


@pytest.mark.parametrize("game", list(GAMES))
def test_fuzz_every_input_keeps_the_table_right(game):
    machine = type(f"Table_{game.replace('-', '_')}", (TableMachine,), {"game": game})
    run_state_machine_as_test(machine, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
    print(f"\nfuzz so far: {COUNTS}")          # shown with -s (make soak)
