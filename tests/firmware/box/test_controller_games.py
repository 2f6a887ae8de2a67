"""Each of the ten games played through the real controller, session and store: everything the
log records for a throw, a seat press, a choice or a declaration reaches the OLED, page by page.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PIL import Image

from companion.games import GAMES
from controller_support import past_setup, read_on
from firmware.controller import Controller
from firmware.controller.parts.notices import AGAIN_SECONDS, LATE_PRESS_SECONDS
from firmware.pins.inputs import InputEvent
from firmware.oled.views import RANDOMIZERS, box_words

STEPS = 120                # inputs per game: enough to finish most, few enough to stay fast
# PARLOUR_SCREEN_SHEETS=<dir>: also save every distinct frame of each game at 4x, in sheets
SHEETS = os.environ.get("PARLOUR_SCREEN_SHEETS")


def press(c, kind, **fields):
    c.handle(InputEvent(kind, **fields))
    frame = c.render()
    frames = getattr(c, "frames", None)
    if frames is not None and (not frames or frames[-1].tobytes() != frame.tobytes()):
        frames.append(frame)


def save_sheets(frames: list[Image.Image], name: str, cols: int = 3, rows: int = 6) -> None:
    """Frames at 4x, `cols` x `rows` to a sheet, for a person to look at."""
    per = cols * rows
    for n, first in enumerate(range(0, len(frames), per)):
        part = frames[first:first + per]
        sheet = Image.new("L", (cols * 528, -(-len(part) // cols) * 272), 128)
        for i, frame in enumerate(part):
            sheet.paste(frame.convert("L").resize((512, 256), Image.NEAREST),
                        ((i % cols) * 528, (i // cols) * 272))
        sheet.save(Path(SHEETS) / f"{name}_{n}.png")


def norm(words: str) -> str:
    """Words as a player reads them across line breaks (wrapping drops nothing else)."""
    return re.sub(r"\s+", " ", words).strip()


class Table:
    """A controller with a script's hands: acts, then reads every page the screen shows."""

    def __init__(self, controller: Controller, session, clock):
        self.c, self.session, self.clock = controller, session, clock
        self.shown: list[str] = []
        self.missing: list[tuple[str, str]] = []

    def read_pages(self) -> str:
        """Skip a spin, then read a result's every page with the knob; the words shown."""
        c = self.c
        if c.screen == "spin":
            press(c, "press")
        text = list(c.view()["text"])
        flash = c.notice.text
        if c.screen == "result":
            for _ in range(c.pager.count - 1):
                press(c, "turn", detents=1)
                text += c.view()["text"][1:]           # the heading repeats on each page
        return norm(" ".join(text + [flash]))

    def act(self, kind: str, **fields) -> None:
        """One input; every new log line must be on one of the pages that answer it."""
        log = len(self.session.snapshot()["log"])
        press(self.c, kind, **fields)
        new = self.session.snapshot()["log"][log:]
        shown = self.read_pages()
        self.shown.append(shown)
        heading, values = self.c.result.outcome[0], self.c.result.outcome[1]
        for i, line in enumerate(new):
            if norm(box_words(line)) in shown:            # in the box's words (its controls)
                continue
            # a spin's first line that only restates it ("Ann throws 3 and 5") is shown by
            # the heading and the big values: the name, the verb and the numbers, nothing else
            name = heading.rsplit(" ", 1)[0]
            rest = line[len(name):].replace(",", " ").replace(" and ", " ").split() \
                if line.startswith(name) else ["?"]
            restated = i == 0 and kind == "flick" and all(
                w in ("throws", "spins") or w in values.split() for w in rest)
            # or said after it, in the top line's words: "Red throws 6" over "Red moves to 7"
            said = re.match(rf"{re.escape(heading)} (.+?) and (.+)$", line) if i == 0 else None
            if said and norm(f"{heading} {said[1]}") in shown and \
                    norm(f"{name} {said[2]}") in shown:
                continue
            # or a bump's fine said with the bump (L6): "... and pays the pool 1 chip"
            fine = re.fullmatch(r".+ pays (\d+ chips?) into the pool \(bumped\)", line)
            if fine and i and norm(f"{new[i - 1]} and pays the pool {fine[1]}") in shown:
                continue
            # or joined to the line before about the same player, to make one page: "Blue
            # moves in the Field and takes the Lost Diamond from its square"
            subject = line.split(" ")[0] if i and new[i - 1].split(" ")[0] == \
                line.split(" ")[0] else ""
            if subject and norm(f"and {line[len(subject) + 1:]}") in shown:
                continue
            # or under big values that say its sum or its "Rex!" (Domino Rex), without them
            rest = re.split(rf"{re.escape(values)}[:,] ", line, maxsplit=1)[-1] \
                if values else line
            rest = rest.replace(" is already crowned; nothing moves", " is already crowned")
            if rest != line and norm(rest[:1].upper() + rest[1:]) in shown or \
                    values == "Rex!" and norm(line.removesuffix(" Rex!")) in shown:
                continue
            if not restated:
                self.missing.append((line, shown))


def seat_of(c: Controller) -> int:
    return c.buttons[c.snap["turn"]]


def script(t: Table, game: str) -> None:
    """Play `game` by its rules' means until it is over or STEPS inputs have gone."""
    c = t.c
    presses = 0
    for step in range(STEPS):
        snap = t.session.snapshot()
        if snap["phase"] == "over":
            return
        if c.screen == "result" and snap["awaiting"] in ("choose", "roll"):
            press(c, "press")                          # close the last answer
        awaiting = snap["awaiting"]
        if awaiting == "choose":
            t.act("press")                             # Domino Rex: uncover the first value
        elif awaiting == "roll":
            t.act("flick", strength=0.5)
        elif awaiting == "move":                       # Fox and Geese: the knob's first move
            if step > 8:
                return declare(t, 1)
            t.act("press")
        elif awaiting == "next":
            if game == "free-play" and step > 12:
                return declare(t, 0)
            if presses < 40 and snap["rolls"] % 3 != 0:
                presses += 1
                t.act("seat", seat=seat_of(c))         # a capture, a point, a goal
                if t.session.snapshot()["phase"] == "over":
                    return
                if game == "lost-diamond" and "press again" in " ".join(
                        t.session.snapshot()["log"][-1:]):
                    t.act("seat", seat=seat_of(c))
                    continue
            if t.session.snapshot()["awaiting"] == "next":
                t.act("press")                         # one press ends the turn (X8)
        else:
            raise AssertionError(f"{game}: awaiting {awaiting!r} in {snap['phase']}")


def declare(t: Table, winner: int) -> None:
    """End an open game from the menu: pick the winner, then confirm."""
    c = t.c
    if c.screen == "result":
        press(c, "press")
    press(c, "menu")
    press(c, "turn", detents=c.menu_items.index("Declare winner"))
    press(c, "press")
    assert c.screen == "declare"
    press(c, "turn", detents=winner)
    press(c, "press")
    assert c.screen == "confirm" and "end the game" in " ".join(c.view()["text"])
    press(c, "turn", detents=1)
    t.act("press")
    assert t.session.snapshot()["phase"] == "over"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_controller_games_every_log_line_reaches_the_screen(game, session, controls, clock):
    c = Controller(session, controls=controls, seats=4, clock=clock)
    c.attach()
    c.frames = [] if SHEETS else None
    try:
        rulebook = GAMES[game]
        t = Table(c, session, clock)
        press(c, "press")
        press(c, "turn", detents=[g.id for g in c.games].index(game))
        press(c, "press")
        for seat in range(max(2, rulebook.min_players)):
            press(c, "seat", seat=seat)
        press(c, "press")
        if c.screen == "dice":                          # free play: one die
            assert [label for label, _ in RANDOMIZERS][c.dice_index] == "One die"
            press(c, "press")
        if c.screen == "pi_setup":                      # a game the Pi can play: "No Pi"
            assert c.setups[c.setup_index][1] == []
            press(c, "press")
        if game in ("kat-en-muis", "lifes-mishaps"):     # the chips to put in, said first (K1, L1)
            assert c.screen == "result" and "chips" in " ".join(c.result.lines), c.result.outcome
        past_setup(c)
        assert c.screen == "play", c.notice.text
        script(t, game)
        assert t.shown, "nothing was played"
        assert not t.missing, f"{game}: not on screen: {t.missing[:3]}"
        snap = session.snapshot()
        if snap["phase"] == "over":
            winners = [snap["players"][s]["name"] for s in snap["winners"]]
            assert all(any(w in shown for shown in t.shown) for w in winners)
            while c.screen == "result":
                press(c, "press")
            assert c.screen == "over" and winners[0] in " ".join(c.view()["text"])
        if SHEETS:
            save_sheets(c.frames, game)
    finally:
        c.close()


def test_controller_games_ten_games_are_scripted():
    assert len(GAMES) == 10


def first_spin(c, session) -> None:
    """From a new spinner game's lead to the result of its first turn's spin."""
    for _ in range(30):
        if session.snapshot()["phase"] != "lead":
            break
        press(c, "flick", strength=0.5)
        press(c, "press")
    if c.screen == "result":
        press(c, "press")
    press(c, "flick", strength=0.5)
    press(c, "press")                                   # stops the spin: the result
    c.clock.advance(LATE_PRESS_SECONDS)                 # a seat's press after: not to stop it


def first_result(game, session, controls, clock) -> Controller:
    """A box at the result of the first turn's spin of a new game between Ann and Ben."""
    c = Controller(session, controls=controls, seats=4, clock=clock)
    c.attach()
    session.new_game(game, ["Ann", "Ben"])
    c.update()
    first_spin(c, session)
    return c


@pytest.mark.parametrize("game", ["cats-and-mice", "gantlope", "india"])
def test_controller_games_x8_a_press_before_the_instructions_were_up_reads_on(
        game, session, controls, clock):
    """X8: a press on page 1 of the result ("6 · 4 / Ann spins"), to read on, ended the turn
    before Ann was told to press her button for the mouse her cat took (M3): her press then
    was refused as out of turn. Until the page that says "press the knob to end the turn" has
    been up, a press turns to the next page; from then on, one press ends the turn."""
    c = first_result(game, session, controls, clock)
    snap = session.snapshot()
    assert c.screen == "result" and snap["awaiting"] == "next" and c.pager.count > 1
    assert "end the turn" in c.result.lines[-1]
    for page in range(1, c.pager.count):
        clock.advance(AGAIN_SECONDS)
        press(c, "press")                               # to read on
        assert c.pager.page == page and session.snapshot()["turn"] == snap["turn"]
    press(c, "turn", detents=-c.pager.count)             # back to the throw: read once, so
    clock.advance(AGAIN_SECONDS)
    press(c, "press")                                   # the press ends the turn
    assert session.snapshot()["turn"] != snap["turn"]


def closes_to_the_turn_screen_then_ends_it(c, session, clock, turn: int) -> None:
    """A press closes the result to the turn screen, whose pages say the knob ends the turn
    (the instructions were not read); the next press ends it."""
    clock.advance(AGAIN_SECONDS)
    press(c, "press")
    assert session.snapshot()["turn"] == turn and c.screen == "play"
    assert "end the turn" in c.view()["turn"].action    # the turn screen's pages say it
    clock.advance(AGAIN_SECONDS)
    press(c, "press")
    assert session.snapshot()["turn"] != turn


@pytest.mark.parametrize("game", ["cats-and-mice", "gantlope"])
def test_controller_games_x8_a_capture_pressed_over_unread_instructions_does_not_end_the_turn(
        game, session, controls, clock):
    """X8, M3, G3: the cat's capture pressed a moment after the spin's result came up ("Move
    your cat 1, then 1" on page 1 of 4) took the instructions as read: the next knob press,
    meant to read on, ended the turn, the mice's move never said. Its result goes on with
    them: a press reads on to "press the knob to end the turn", the next ends the turn."""
    c = first_result(game, session, controls, clock)
    snap = session.snapshot()
    assert c.screen == "result" and c.pager.page == 0 and c.pager.count > 1
    clock.advance(AGAIN_SECONDS)
    press(c, "seat", seat=snap["turn"])                 # a capture, on page 1
    assert c.result.lines[-1].endswith("Then press the knob to end the turn."), c.result.outcome
    for page in range(1, c.pager.count):
        clock.advance(AGAIN_SECONDS)
        press(c, "press")                               # to read on
        assert c.pager.page == page and session.snapshot()["turn"] == snap["turn"]
    clock.advance(AGAIN_SECONDS)
    press(c, "press")                                   # read: the press ends the turn
    assert session.snapshot()["turn"] != snap["turn"]


@pytest.mark.parametrize("when", ["while the dial spins", "on the result"])
def test_controller_games_x8_a_phones_change_over_unread_instructions_does_not_end_the_turn(
        when, session, controls, clock):
    """X8: a phone renamed Ann while Ben's dial spun; Ben's press to read on showed the
    phone's change ("From a phone", one page), and his next press ended the turn: "Press your
    button for each mouse your cat takes" never came. News over a turn whose instructions are
    unread closes to the turn screen, whose pages say them; a press there ends the turn."""
    c = first_result("cats-and-mice", session, controls, clock)
    if when == "while the dial spins":                  # the result is up: spin again
        clock.advance(AGAIN_SECONDS)
        press(c, "flick", strength=0.5)
        assert c.screen == "spin"
    snap = session.snapshot()
    other = 1 - snap["turn"]
    session.submit({"type": "rename", "seat": other, "name": "Zed"}, by="pin-0a1b2c")
    c.update()
    if when == "while the dial spins":
        press(c, "press")                               # stops the dial: its result
    clock.advance(AGAIN_SECONDS)
    assert c.screen == "result" and c.pager.page == 0 and c.pager.count > 1
    press(c, "press")                                   # to read on: the change shows
    assert c.screen == "result" and c.result.outcome[0] == "From a phone", c.result.outcome
    closes_to_the_turn_screen_then_ends_it(c, session, clock, snap["turn"])


def test_controller_games_result_press_ends_the_turn_in_one_press_once_read(session, controls,
                                                                             clock):
    """X8: "press the knob to end the turn" on the result screen does it on the first press
    once its page has been up, by the knob or by itself after PAGE_SECONDS a page."""
    from firmware.controller.parts.pager import PAGE_SECONDS
    c = first_result("cats-and-mice", session, controls, clock)
    assert c.screen == "result" and session.snapshot()["awaiting"] == "next"
    turn = session.snapshot()["turn"]
    while c.pager.page < c.pager.count - 1:                    # the pages turn by themselves
        clock.advance(PAGE_SECONDS)
        c.render()
    clock.advance(AGAIN_SECONDS)                        # (a press just as it turned was
    press(c, "press")                                   # meant to turn it)
    assert session.snapshot()["turn"] != turn


@pytest.mark.parametrize("game", ["cats-and-mice", "gantlope", "lost-diamond", "india"])
def test_controller_games_x8_a_press_that_stopped_the_dial_pressed_again_is_one_press(
        game, session, controls, clock):
    """X8: the knob pressed to stop the dial and again 0.35 s later (one hurried hand) ended
    the turn on page 1 of the instructions, unread. The same press again within
    AGAIN_SECONDS of stopping the dial is held; after it, one press ends the turn."""
    c = first_result(game, session, controls, clock)
    snap = session.snapshot()
    assert c.screen == "result" and snap["awaiting"] == "next"
    clock.advance(0.35)
    press(c, "press")                                   # the stopping press, again
    assert c.screen == "result" and session.snapshot()["version"] == snap["version"]
    clock.advance(AGAIN_SECONDS)
    read_on(c)
    press(c, "press")
    assert session.snapshot()["turn"] != snap["turn"]


def test_controller_free_play_scores_whoever_presses_as_the_phone_does(session, controls):
    """Free play keeps score for any game: every player's seat button is armed in play and a
    press scores for that player, as a phone's "Point for ..." does (the two agree)."""
    from controller_support import start
    from web.moves import game_moves
    assert game_moves()["free-play"]["press_any"] is True
    table = Controller(session, controls=controls, seats=4)
    start(table, "free-play", seats=(0, 1, 2))
    for _ in range(30):                                      # the lead, thrown at the box
        if session.snapshot()["phase"] != "lead" and table.screen == "play":
            break
        press(table, "flick", strength=0.5) if table.screen == "play" else press(table, "press")
    snap = session.snapshot()
    assert table.screen == "play" and sorted(table.armed_seats()) == [0, 1, 2]
    other = (snap["turn"] + 1) % 3
    press(table, "seat", seat=table.buttons[other])
    assert session.snapshot()["players"][other]["score"] == 1


def test_controller_games_cats_and_mice_shows_the_mice_left_on_the_board(session, controls,
                                                                        clock):
    """M3: 12 mice, the game ends with the last: the play screen's corner and the scores say
    how many are left on the board, as the phone does."""
    from firmware.oled.views import Row, score_rows, turn_view
    c = Controller(session, controls=controls, seats=4, clock=clock)
    c.frames = [] if SHEETS else None
    c.attach()
    session.new_game("cats-and-mice", ["Ann", "Ben"])
    c.update()
    assert score_rows(session.snapshot())[-1] == Row("Board", "12 mice left")
    first_spin(c, session)
    turn = session.snapshot()["turn"]
    press(c, "seat", seat=turn)                         # the cat takes a mouse ("Squeak!")
    snap = session.snapshot()
    assert snap["mice_left"] == 11 and snap["players"][turn]["score"] == 1
    read_on(c)                                          # the spin's instructions, then
    clock.advance(AGAIN_SECONDS)
    press(c, "press")                                   # end the turn
    snap = session.snapshot()
    assert turn_view(snap).corner == "11 mice left"
    assert score_rows(snap)[-1] == Row("Board", "11 mice left")
    assert c.view()["turn"].corner == "11 mice left"          # what the box draws from
    if SHEETS:
        save_sheets(c.frames, "cats_and_mice_mice_left")


def acted_on(c, session, events: int) -> bool:
    """A seat press was taken: recorded, or refused on the screen with its reason."""
    return len(session.store.events(session.game_id)) > events or bool(c.notice.text)


@pytest.mark.parametrize("game", ["cats-and-mice", "gantlope", "lost-diamond", "india"])
def test_controller_games_x8_a_seat_press_just_after_the_dial_stopped_only_stops_it(
        game, session, controls, clock):
    """A seat button pressed to stop the dial 0.15 s after it had stopped by itself was
    taken as the move: Gantlope's fourth man into Goal, a win for good with no undo, on a
    result shown for 0.12 s (a cat's capture, a claim home, the diamond taken the same). As
    with the knob, a press that soon was meant for the dial; a later one acts."""
    c = first_result(game, session, controls, clock)   # the lead settled, the first turn's result
    clock.advance(AGAIN_SECONDS)
    press(c, "press")                            # that turn ended
    turn = session.snapshot()["turn"]
    press(c, "flick", strength=0.4)
    clock.advance(c.animation.duration + 0.05)
    c.update()                                   # the dial stops by itself
    assert c.screen == "result"
    events = len(session.store.events(session.game_id))
    clock.advance(0.15)
    press(c, "seat", seat=c.buttons[turn])       # meant for the dial
    assert not acted_on(c, session, events) and c.screen == "result"
    clock.advance(1.5)
    press(c, "seat", seat=c.buttons[turn])       # read: the button acts
    assert acted_on(c, session, events)


@pytest.mark.parametrize("game", ["cats-and-mice", "gantlope", "lost-diamond", "india"])
def test_controller_games_x8_a_seat_press_that_stopped_the_dial_pressed_again_is_one_press(
        game, session, controls, clock):
    """A seat button pressed to stop the dial and again 0.3 s later (a double press) had the
    second taken as the move on the result just shown. The same button again within
    AGAIN_SECONDS of stopping the dial is held."""
    c = first_result(game, session, controls, clock)
    clock.advance(AGAIN_SECONDS)
    press(c, "press")
    turn = session.snapshot()["turn"]
    press(c, "flick", strength=0.4)
    clock.advance(1.0)
    c.update()
    assert c.screen == "spin"
    events = len(session.store.events(session.game_id))
    press(c, "seat", seat=c.buttons[turn])       # stops the dial
    assert c.screen == "result" and not acted_on(c, session, events)
    clock.advance(0.3)
    press(c, "seat", seat=c.buttons[turn])       # the same hand again
    assert not acted_on(c, session, events) and c.screen == "result"
    clock.advance(AGAIN_SECONDS)
    press(c, "seat", seat=c.buttons[turn])
    assert acted_on(c, session, events)
