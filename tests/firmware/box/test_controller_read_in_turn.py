"""Changes made elsewhere a moment apart, as the box shows them: undos a moment apart said
together, with every piece to set back, each notice up its reading time, and a restart's
recap names every undo of the last run."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from companion.session import Session
from companion.words import undo_notice
from controller_support import SEED, FakeControls, press
from firmware import controller as ctl
from firmware.controller.parts.notices import AGAIN_SECONDS, reading_seconds
from firmware.oled.screens import FLASH_SECONDS, flash_pages

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
PHONE = "pin-0a1b2c"


def settled(table) -> None:
    """Everything up read and gone by itself: the turn screen of the newest state."""
    for _ in range(10):
        table.clock.advance(60)
        table.update()
        table.render()
        if table.screen == "play" and not table.notice.text and not table.held_change.waiting:
            return
    raise AssertionError(table.view())


def frames(table, name: str) -> None:
    """The OLED as drawn now, each page of the notice up, 4x, for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    pages = len(flash_pages(table.notice.text)) if table.notice.text else 1
    now = table.clock()
    for page in range(pages):
        table.clock.now = max(now, table.notice.at + (page + 0.5) * table.notice.seconds)
        table.render().convert("L").resize((512, 256), Image.NEAREST).save(
            ARTIFACTS / f"oled-{name}-{page + 1}.png")
    table.clock.now = now
    table.render()


def uncovered(table, session, moves: int = 4) -> None:
    """Domino Rex for Ann, Ben and Cy from phones, `moves` uncovers made and read."""
    session.new_game("domino-rex", ["Ann", "Ben", "Cy"], by="web")
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web")
    for _ in range(moves):
        snap = session.snapshot()
        session.submit({"type": "choose", "value": snap["players"][snap["turn"]]["covered"][-1]},
                       by="web")
    settled(table)


def stays_up(table, words: str) -> None:
    """The notice up says `words` and stays up its whole reading time, page by page."""
    assert table.notice.text == words
    seconds = max(FLASH_SECONDS, reading_seconds(words)) * len(flash_pages(words))
    assert table.notice.until - table.notice.at == pytest.approx(seconds)
    table.clock.advance(table.notice.until - table.clock() - 0.05)
    table.update()
    assert table.notice.text == words, "taken away before it was read"


@pytest.mark.parametrize("gap", [0.1, 1.0, 2.0])
def test_controller_undos_a_moment_apart_from_a_phone_are_said_together(table, session, clock,
                                                                       gap):
    """Two undos from a phone 0.1-2 s apart: "Taken back from a phone: ... Cover Cy's 1
    again." was up only for the gap, then the second's notice alone took its place: Cy's
    square stayed uncovered on a box-only table. Both are said, with every piece to set back,
    and the notice stays up its reading time."""
    uncovered(table, session)
    first = session.undo(by=PHONE)
    table.update()
    table.render()
    clock.advance(gap)
    second = session.undo(by=PHONE)
    table.update()
    assert first["put_back"] and second["put_back"]
    words = undo_notice([*first["undone"], *second["undone"]],
                        [*first["put_back"], *second["put_back"]], "from a phone")
    frames(table, f"two-undos-{gap}")
    stays_up(table, words)
    assert table.screen == "play" and table.view()["flash"] == words


def test_controller_undos_a_moment_apart_at_the_box_are_said_together(table, session, clock):
    """The box's own Undo pressed twice, a second apart: the second notice said only its own
    undo, the first's square to cover gone after a second."""
    uncovered(table, session)
    press(table, "undo")
    first = session.snapshot()
    clock.advance(1.0)
    press(table, "undo")
    second = session.snapshot()
    assert second["undos"][0]["undone"] == first["undone"]          # one run of two
    words = undo_notice([*first["undone"], *second["undone"]],
                        [*first["put_back"], *second["put_back"]])
    assert words.startswith("Taken back: ")
    stays_up(table, words)


def test_controller_undos_a_moment_apart_in_fox_and_geese_set_back_both_pieces(table, session,
                                                                              clock):
    """Fox and Geese against the Pi: two taps on a phone's Undo 0.8 s apart took back the
    Pi's reply and Ann's move; the box said "Taken back from a phone: Pi's goose: e5 to e6"
    for 0.8 s, then Ann's move alone, and the goose stayed on e6."""
    table.pi.detach()                                 # the Pi moves when the test says so
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy", by="web")
    for made in range(9):                             # Ann's moves and the Pi's replies
        if made >= 4 and session.snapshot()["last_by"] == "pi":
            break
        snap = session.snapshot()
        by = "pi" if snap["players"][snap["turn"]].get("pi") else "web"
        session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by=by)
        table.update()
        table.render()
        for _ in range(3):
            if table.screen == "pi_moved":
                clock.advance(AGAIN_SECONDS)
                press(table, "press")                 # copied
        settled(table)
    assert session.snapshot()["last_by"] == "pi"
    pis = session.undo(by=PHONE)
    table.update()
    clock.advance(0.8)
    anns = session.undo(by=PHONE)
    table.update()
    assert pis["undone"][0].startswith("Pi's ") and anns["undone"][0].startswith("Ann's ")
    words = undo_notice([*pis["undone"], *anns["undone"]], [], "from a phone")
    frames(table, "two-undos-fox-and-geese")
    stays_up(table, words)


def test_controller_after_a_restart_the_last_move_names_every_undo_of_the_run(store, clock):
    """Two undos from a phone, then the power went: "Last move: taken back ..." after
    "Resumed" named only the last (the phones and `undos` had both)."""
    first = Session(store, new_seed=lambda: SEED)
    box = ctl.Controller(first, controls=FakeControls(), seats=4, clock=clock)
    box.attach()
    uncovered(box, first)
    box.close()
    one = first.undo(by=PHONE)
    two = first.undo(by=PHONE)
    again = ctl.Controller(Session(store, new_seed=lambda: SEED), controls=FakeControls(),
                           seats=4, clock=clock)
    assert again.screen == "resumed"
    clock.advance(ctl.RESUMED_SECONDS + 0.1)
    again.update()
    words = undo_notice([*one["undone"], *two["undone"]], [*one["put_back"], *two["put_back"]],
                        "from a phone")
    assert again.screen == "play" and \
        again.notice.text == f"Last move: {words[:1].lower()}{words[1:]}"
    frames(again, "recap-two-undos")
