"""The box's controller under test: a stand-in for the controls it arms and lights, and the
steps every controller test takes (an input and a frame; a game picked, joined and started; the
lead thrown; a result read to its last page; a result of two pages; a Field move; India's
claim)."""

from __future__ import annotations

import time

from firmware.controller.parts.notices import AGAIN_SECONDS, LATE_PRESS_SECONDS
from firmware.controller.parts.result import RESULT_SECONDS
from firmware.pins.inputs import InputEvent
from firmware.oled.views import setup_words

SEED = bytes(range(32))     # every game's rolls the same from run to run


class FakeControls:
    """Records what the controller arms and lights."""

    def __init__(self):
        self.armed: object = "never"
        self.lit: list[int] = []
        self.beeps: list[str] = []

    def arm(self, seats):
        self.armed = None if seats is None else sorted(seats)

    def light(self, seats):
        self.lit = sorted(seats)

    def beep(self, pattern="click"):
        self.beeps.append(pattern)


def press(c, kind, **fields):
    c.handle(InputEvent(kind, **fields))
    c.render()


def read_on(c):
    """The result up turned with the knob to its last page: an assisted game's instructions read
    to "press the knob to end the turn", after which one press ends it."""
    if c.screen == "result" and c.pager.page < c.pager.count - 1:
        press(c, "turn", detents=c.pager.count)
        assert c.pager.page == c.pager.count - 1, c.view()


def start(c, game, seats=(0, 1)):
    """From the start-up screen: pick `game`, join `seats`, start."""
    press(c, "press")
    index = [g.id for g in c.games].index(game)
    press(c, "turn", detents=index)
    press(c, "press")
    for seat in seats:
        press(c, "seat", seat=seat)
    press(c, "press")
    if c.screen in ("dice", "pi_setup"):         # free play: one die; Domino Rex: "No Pi"
        press(c, "press")
    past_setup(c)
    assert c.screen == "play", c.notice.text


def past_setup(c):
    """A game just begun that says the chips to put in (K1, L1): read until it goes by itself,
    and the next input is not taken as meant for it."""
    if c.screen == "result" and c.result.lines == setup_words(c.snap):
        c.clock.advance(RESULT_SECONDS + 0.01)
        c.update()
        c.clock.advance(LATE_PRESS_SECONDS + AGAIN_SECONDS)
        c.update()
        c.render()


def settle_lead(c, clock):
    for _ in range(30):
        if c.snap["phase"] != "lead":
            for _ in range(c.pager.count):
                if c.screen == "result":
                    c.clock.advance(AGAIN_SECONDS)
                    press(c, "press")              # read the lead's result to its end
            assert c.screen != "result"
            return
        press(c, "flick", strength=0.5)
        press(c, "press")
        c.clock.advance(AGAIN_SECONDS)             # read, not pressed twice
    raise AssertionError("the lead never settled")


def throw_until_two_pages(c, session, clock):
    """Throw, the dial stopping by itself, until a result of more than one page is up."""
    for _ in range(80):
        press(c, "flick", strength=0.4)
        clock.advance(c.animation.duration + 0.05)
        c.update()
        c.render()
        if session.snapshot()["phase"] == "over":
            break
        assert c.screen == "result"
        if c.pager.count > 1:
            return
        clock.advance(2.0)
        press(c, "press")                                          # read: the next turn
        clock.advance(AGAIN_SECONDS)
    raise AssertionError("no outcome of two pages")


def field_move_passes_the_turn(c, session, clock):
    """The Lost Diamond from its start: the first player's knob press is a Field move, which
    ends their turn ("Red's turn ends / Red moves in the Field")."""
    start(c, "lost-diamond")
    settle_lead(c, clock)
    red = session.snapshot()["turn"]
    clock.advance(AGAIN_SECONDS)
    press(c, "press")                                              # Red's Field move
    assert c.screen == "result" and session.snapshot()["turn"] != red


def india_claim(table, session, clock) -> int:
    """India from the box, to the first turn's claim: a man home (P2). The claiming seat."""
    start(table, "india")
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    press(table, "press")                                          # skip the spin
    table.clock.advance(LATE_PRESS_SECONDS)        # another hand's press, not one that stopped it
    turn = session.snapshot()["turn"]
    press(table, "seat", seat=table.buttons[turn])                 # "a man is home"
    return turn


def settle_pi(worker, seconds: float = 30.0):
    """Let the Pi's thread finish what it was woken for (a change while it thought: it looks
    again), and go back to sleep."""
    deadline = time.monotonic() + seconds
    while worker.thinking:
        assert time.monotonic() < deadline, "the Pi is still thinking"
        time.sleep(0.005)


def ann_plays_domino_rex(session, worker, steps: int) -> dict:
    """Ann (seat 0) throws and uncovers her first covered square, the Pi answering, up to
    `steps` times or the game's end; the last state."""
    snap = session.snapshot()
    for _ in range(steps):
        snap = session.snapshot()
        if snap["phase"] == "over":
            break
        if snap["turn"] == 0:
            if snap["awaiting"] == "roll":
                session.roll(by="knob")
            else:
                session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]},
                               by="knob")
        settle_pi(worker)
    return snap
