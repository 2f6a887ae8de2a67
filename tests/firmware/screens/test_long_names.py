"""Long names on the box's screens, read in the pixels drawn: every name whole, on some page,
where the controller's words alone would pass a name cut or left off the frame."""

from __future__ import annotations

import pytest

from drawn_words import shows
from firmware.controller import Controller
from firmware.controller.spin import PAGE_SECONDS
from firmware.oled import lettering

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
    for _ in range(table.page_count - 1):
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
