"""Long names on the box's screens, read in the pixels drawn: every name whole, on some page,
where the controller's words alone would pass a name cut or left off the frame."""

from __future__ import annotations

import pytest
from PIL import Image

from companion.session import Session
from controller_support import SEED, press
from drawn_words import shows
from fakes import ChangingNetwork
from firmware.controller import Controller
from firmware.controller.parts.pager import PAGE_SECONDS
from firmware.oled import board_screen, lettering, screens

LONG = ["WWWWWWWWWWWWWWWWWWWWWWWW", "Margaretha van der Wal", "Éléonore-Amélie Dubœuf"]


@pytest.fixture
def table(session, clock):
    c = Controller(session, seats=6, clock=clock)
    c.attach()
    yield c
    c.close()


def pages_seen(table) -> list:
    """Each page of the screen up, as drawn, turned by the clock round to the first again."""
    frames = [table.render()]
    for _ in range(table.pager.count - 1):
        table.clock.advance(PAGE_SECONDS + 0.01)
        table.update()
        frames.append(table.render())
    return frames


def test_long_names_sharing_a_win_are_each_drawn_whole_under_game_over(table, session):
    """Three long names sharing a win: the end screen drew "WWW… & Margaretha van der Wal &"
    and "share the win", the third winner and "Game over" left off. Its pages now draw every
    winner's name, each line of it found on a frame, with "Game over" and the verb on each."""
    session.new_game("free-play", LONG, options={"randomizer": {"kind": "dice", "count": 1}})
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    session.submit({"type": "declare", "winners": [0, 1, 2]}, by="test")
    table.update()
    assert table.screen == "over"
    frames = pages_seen(table)
    assert len(frames) > 1
    for frame in frames:
        assert shows(frame, "Game over") and shows(frame, "share the win")
    for name in LONG:
        for line in lettering.wrap(name, lettering.SMALL):
            assert any(shows(frame, line, bold=True) or shows(frame, f"{line} &", bold=True)
                       for frame in frames), line


BERG, WAL = "Margaretha van der Berg", "Margaretha van der Wal"


@pytest.mark.parametrize("heading,values,lines,said", [
    (f"{BERG} throws", "3 · 6", [f"{BERG} moves to 13"], [f"{BERG} throws and moves to 13"]),
    (f"{WAL} pressed", "", [f"{WAL} is home with the Lost Diamond", f"{WAL} wins"],
     [f"{WAL} is home with the Lost Diamond and wins"]),
    (f"{WAL} pressed", "", [f"{WAL}'s man enters the Goal (1 of 4)"],
     [f"{WAL}'s man enters the Goal (1 of 4)"]),
])
def test_long_names_two_lines_about_one_player_join_after_the_whole_name(
        table, session, heading, values, lines, said):
    """Two lines about one player made one sentence after the name's capitalised words only:
    "Margaretha van der Berg throws and van der Berg moves to 13", "... and van der Wal wins",
    "Wal pressed and van der Wal's man enters". The subject is the player's whole name, as
    the game has it; a line of the player's man ("...'s man enters") is not joined, and
    names who pressed (the top line's "... pressed" was a page of its own)."""
    session.new_game("kat-en-muis", [BERG, WAL])
    table.update()
    table.screen, table.result.outcome = "result", (heading, values, lines)
    frame = table.render()
    assert table.pager.count == 1
    expected = lettering.wrapped(said)
    assert table.pager.text[-len(expected):] == expected
    for line in expected:
        assert shows(frame, line) or shows(frame, line, bold=True), line


def test_long_names_a_long_name_and_its_role_lead_the_turn_and_the_resumed_screens(
        table, session, store, clock):
    """"Margaretha van der Berg (Mouse) - throw the dice": a name and role over 30 characters
    were taken for no name, so the turn screen drew the seat box alone over the whole prompt,
    its page 2 no name, and after a restart Resumed said "... - throw the dice" (the box has no
    dice). The name and role are drawn whole over "flick to throw", and Resumed says whose
    turn it is."""
    session.new_game("kat-en-muis", [BERG, WAL])
    for _ in range(20):
        snap = session.snapshot()
        if snap["phase"] == "play" and snap["prompt"].startswith(f"{BERG} (Mouse) - "):
            break
        session.roll(by="test")
    table.update()
    who = f"{BERG} (Mouse)"
    assert len(who) > 30
    assert table.screen == "play" and table.view()["turn"].name == who
    frames = pages_seen(table)
    for line in lettering.wrap(who, lettering.SMALL, lettering.W - 22):
        assert shows(frames[0], line), line
    assert any(shows(frame, "flick to throw") for frame in frames)
    again = Controller(Session(store, new_seed=lambda: SEED), seats=6, clock=clock)
    again.attach()
    assert again.screen == "resumed"
    frame = again.render()
    for line in lettering.wrap(f"{who} to play", lettering.SMALL):
        assert shows(frame, line), line
    again.close()


@pytest.mark.parametrize("name", ["Bartholomew Fitzgerald", "Bartholomew Fitz-Smythe",
                                  "Maximilianusbartholomews"])
def test_long_names_a_two_line_name_is_drawn_on_every_page_of_the_turn(table, session, name):
    """The Lost Diamond's long instruction under a name of two lines: page 1 drew "2
    Bartholomew" / "Fitzgerald", pages 2 and 3 only "or press the knob to move in the Field."
    and "Or press your button ...": whose button? Every page draws the whole name above its
    lines, and every word of the instruction is on some page."""
    session.new_game("lost-diamond", ["Ann", name], by="web")
    while session.snapshot()["phase"] == "lead" or session.snapshot()["turn"] != 1:
        session.roll(by="web")
    table.update()
    table.screen = "play"
    view = table.view()["turn"]
    assert view.name == name and len(screens.name_lines(view)) == 2
    frames = pages_seen(table)
    assert len(frames) > 1
    for line in screens.name_lines(view):
        assert all(shows(frame, line, bold=True) for frame in frames), line
    said = [word for page in screens.turn_pages(view) for line in page for word in line.split()]
    assert said == view.action.split()
    for page, frame in zip(screens.turn_pages(view), frames):
        for line in page:
            assert shows(frame, line), line


LONG_WIFI = "Vodafone-Home-5G-Guest-Network"


@pytest.mark.parametrize("screen,status,after", [
    ("wifi", {"mode": "joining", "network": "", "url": "http://10.42.0.1:8080/",
              "message": f"Joining {LONG_WIFI}"}, "if it fails: back to Parlour-ab12"),
    ("start", {"mode": "home", "network": f"Parlour: {LONG_WIFI}", "url": "", "message": ""},
     "waiting for an address"),
])
def test_long_names_a_long_network_name_is_drawn_whole(session, clock, screen, status, after):
    """Menu, Wi-Fi while joining drew "Joining / Vodafone-Home-5G-", the start screen waiting
    for an address "Wi-Fi Vodafone-Home-5G-": "Guest-Network" dropped, a name a player may
    type. The name goes small, whole, with what the screen says after it."""
    box = Controller(session, seats=4, clock=clock, url="")
    box.network = ChangingNetwork(**status)
    box.attach()
    try:
        box.update()
        box.screen, box.notice.text = screen, ""
        frame = box.render()
        for line in lettering.wrap(LONG_WIFI, lettering.SMALL) + \
                lettering.wrap(after, lettering.SMALL):
            assert shows(frame, line), line
    finally:
        box.close()


@pytest.mark.parametrize("reason,lines", [
    ("The SD card is full: the game store cannot be opened until some space is freed",
     ["The SD card is full:", "the game store cannot", "be opened until some",
      "space is freed"]),
    ("cannot open the store /var/lib/parlour/parlour.db: file is not a database",
     ["cannot open the store", "/var/lib/parlour/", "parlour.db: file is", "not a database"]),
])
def test_long_names_cannot_start_draws_its_whole_reason_a_path_broken_at_a_slash(reason,
                                                                                 lines):
    """"Cannot start" cut its reason at three lines ("... cannot be opened until some"), and a
    path too long for a line broke where the letters ran out ("/var/lib/parlour/parlou" /
    "r.db"). The panel is left so as the program ends, with no pages to turn: the whole reason
    in four small lines, a path broken after a slash."""
    frame = screens.cannot_start(reason)
    assert shows(frame, "Parlour cannot start")
    for line in lines:
        assert shows(frame, line), line


def test_long_names_the_join_screens_roster_pick_draws_a_long_name_whole(table, session):
    """Two roster names both drawn "Margaretha van der B…" could not be told apart on the join
    screen: a name too long for a small line takes two, each line found on the frame."""
    names = [BERG, "Margaretha van der Bosch"]
    session.store.remember_names(names)
    press(table, "press")
    press(table, "press")                               # the first game: join
    assert table.screen == "join"
    seen = set()
    for _ in range(len(names) + 1):
        press(table, "turn", detents=1)
        name = table._roster_name()
        if name in names:
            seen.add(name)
            frame = table.render()
            for line in lettering.wrap(name, lettering.SMALL):
                assert shows(frame, line), line
    assert seen == set(names)


def test_long_names_a_fox_jump_chain_too_long_for_the_panel_keeps_its_landing_point(
        session):
    """The knob's pick of a Fox's jump chain was cut at its end, "c5-a5-a3-…", where the Pi's
    moves keep it ("…-e5"): where the Fox lands was not said. The chain is said whole over two
    lines, cut between points, under the geese it takes."""
    session.new_game("fox-and-geese", ["Red", "Blue"])
    snap = session.snapshot()
    path = ["c5", "a5", "a3", "c3", "e5"]
    snap = {**snap, "turn": 0, "board": {**snap["board"], "moves": [path]}}
    lines = board_screen.choosing_lines(snap, 0)
    assert [words for words, _ in lines[1:4]] == ["takes 4", "c5-a5-a3", "-c3-e5"]
    frame = board_screen._panel(Image.new("1", (128, 64)), lines)
    assert shows(frame, "c5-a5-a3") and shows(frame, "-c3-e5")


@pytest.mark.parametrize("kind, faces", [("indicator", 8), ("dice", 6)])
def test_long_names_two_like_names_on_the_spin_are_told_apart(kind, faces):
    """While the dial spins, Margaretha van der Berg and Margaretha van der Bosch both read
    "Margareth…" (the dice: "Margaretha van d…"): whose throw it was could not be told. Each
    now keeps her name's end, on a second line."""
    from firmware.oled.views import SpinFrame

    def spinning(name: str) -> Image.Image:
        return screens.spin(SpinFrame(kind=kind, faces=faces, name=name, angles=(0.3, 1.2),
                                      faces_up=(3, 5), shown=("3", "5"), settled=False))

    berg, bosch = spinning("Margaretha van der Berg"), spinning("Margaretha van der Bosch")
    assert shows(berg, "Berg", bold=True) and not shows(berg, "Bosch", bold=True)
    assert shows(bosch, "Bosch", bold=True) and not shows(bosch, "Berg", bold=True)
    for frame in (berg, bosch):
        assert shows(frame, "Margaretha", bold=True)
        assert kind == "dice" or shows(frame, "3 · 5", 22, bold=True)   # the throw, clear


def test_long_names_a_one_word_name_too_long_for_the_dial_breaks_with_a_hyphen():
    """"Bartholomew" was "Bartholom…" beside the dial; it is broken with a hyphen, whole."""
    size, lines = lettering.two_line_name("Bartholomew", 61)
    assert size == lettering.SMALL and "".join(lines) == "Bartholom-ew"
    assert all(lettering.width(line, size) <= 61 for line in lines)
    assert lettering.two_line_name("Ann", 61) == (lettering.MEDIUM, ["Ann"])
