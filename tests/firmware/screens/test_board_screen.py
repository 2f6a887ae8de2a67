"""The board on the OLED and the Pi at the table: the knob steps through the legal moves and a
press makes one; the Pi's seat moves by itself off the device loop, is shown for a player to
copy, and waits for a press."""

from __future__ import annotations

import threading

import pytest
from PIL import Image

from firmware.oled import board_screen, lettering
from firmware.oled.views import box_words, choice_meaning
from firmware.controller import RESULT_SECONDS, Controller
from controller_support import press
from firmware.workers.pi_worker import PiWorker, pi_setups
from companion.games import get_rulebook
from companion.games.domino_rex import ORDINAL
from firmware.controller.parts.notices import AGAIN_SECONDS
from companion.record.store import Store
from companion.session import Session
from firmware.controller.spin import UNCOVER_PIS, asks_to_uncover
from controller_support import SEED, FakeControls, ann_plays_domino_rex, settle_pi



@pytest.fixture
def table(session, clock):
    c = Controller(session, seats=4, clock=clock)
    c.attach()
    yield c
    c.close()


def pis_request(snap: dict, who: str = "Pi") -> str:
    """What the box asks of the players after the Pi's uncover: its square, by number."""
    return UNCOVER_PIS.format(who=who, value=snap["last_uncovered"])


def wait_for_pi(c):
    """Let the Pi's thread finish, then let the loop take in the change (shown once the
    result up before it has been read)."""
    settle_pi(c.pi)
    c.update()
    if c.held_change.waiting:
        c.render()
        c.clock.advance(max(0.0, c.held_until - c.clock()))
        c.update()
        c.clock.advance(1.0)             # read: a press sooner was meant for the result before
        c.update()
    c.render()


def start_with_pi(c, game, label):
    press(c, "press")
    press(c, "turn", detents=[g.id for g in c.games].index(game))
    press(c, "press")
    press(c, "seat", seat=2)
    press(c, "press")
    assert c.screen == "pi_setup"
    labels = [words for words, _, _ in c.setups]
    press(c, "turn", detents=labels.index(label))
    press(c, "press")


def lit(image: Image.Image, x: int, y: int) -> bool:
    return image.getpixel((x, y)) != 0


def test_board_screen_draws_33_points_pieces_and_the_knobs_move(session):
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    snap = session.snapshot()
    image = board_screen.choosing(snap, 0)
    assert image.size == (128, 64)
    for point in snap["board"]["geese"]:
        assert lit(image, *board_screen.xy(point))            # each goose a filled dot
    fox = board_screen.xy("d4")
    assert lit(image, fox[0] - 4, fox[1]) and not lit(image, fox[0] - 2, fox[1])  # hollow
    assert board_screen.knob_move(snap, 0) == snap["board"]["moves"][0]
    assert board_screen.knob_move(snap, len(snap["board"]["moves"])) == \
        snap["board"]["moves"][0]                               # the knob goes round
    x0, y0 = board_screen.xy("c4")
    x1, y1 = board_screen.xy("c5")
    path = ["c4", "c5"]
    index = snap["board"]["moves"].index(path)
    drawn = board_screen.choosing(snap, index)
    assert lit(drawn, x0, (y0 + y1) // 2) and not lit(board_screen.board_image(snap["board"]),
                                                       x0 + 1, (y0 + y1) // 2)  # the arrow
    assert all(y + 4 < 64 for _, y in map(board_screen.xy, ("c1", "d1", "e1")))


def test_board_screen_knob_turns_through_moves_and_press_makes_one(table, session):
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    table.update()
    moves = session.snapshot()["board"]["moves"]
    press(table, "turn", detents=3)
    press(table, "press")
    snap = session.snapshot()
    assert snap["board"]["last_move"] == moves[3] and snap["turn"] == 0
    a, b = moves[3]
    assert table.screen == "result" and f"{a} to {b}" in " ".join(table.view()["text"])
    table.clock.advance(AGAIN_SECONDS)               # read (the same press again is held)
    press(table, "press")                            # the move in words, then the board
    assert table.screen == "play"


def test_board_screen_pi_setup_offers_either_side_at_three_levels():
    fox = get_rulebook("fox-and-geese")
    assert [label for label, _, _ in pi_setups(fox, 1)] == [
        "Pi: Fox, easy", "Pi: Fox, good", "Pi: Fox, best",
        "Pi: Geese, easy", "Pi: Geese, good", "Pi: Geese, best"]
    assert pi_setups(fox, 2) == [("No Pi", [], None)]
    rex = get_rulebook("domino-rex")
    assert [s[1] for s in pi_setups(rex, 2)] == [[], [2], [2], [2]]
    assert pi_setups(rex, 4) == [("No Pi", [], None)]


def test_board_screen_pi_plays_the_geese_and_waits_for_the_press(table, session):
    start_with_pi(table, "fox-and-geese", "Pi: Geese, easy")
    snap = session.snapshot()
    assert [p["name"] for p in snap["players"]] == ["Green", "Pi"]
    assert snap["players"][1]["pi"] == "easy" and table.buttons == [2, -1]
    assert [p["button"] for p in snap["players"]] == [3, 1]          # the Pi: a button no one holds
    wait_for_pi(table)                              # the Geese move first: the Pi's turn
    snap = session.snapshot()
    assert snap["turn"] == 0 and snap["board"]["last_move"]
    events = session.store.events(session.game_id)
    assert events[-1]["type"] == "move" and events[-1]["by"] == "pi"
    assert table.screen == "pi_moved" and snap["last_by"] == "pi"
    a, b = snap["board"]["last_move"]
    table.render()
    assert table.pager.text[:2] == ["Pi moved", "a goose"] and table.pager.text[2] == f"{a}-{b}"
    press(table, "turn", detents=1)                 # nothing happens until the press
    assert table.screen == "pi_moved"
    press(table, "press")
    assert table.screen == "play"
    press(table, "press")                           # at once: the same press, held
    assert table.screen == "play" and session.snapshot()["turn"] == 0
    table.clock.advance(AGAIN_SECONDS)
    press(table, "press")                           # the player's move (the knob's first)
    wait_for_pi(table)
    assert session.snapshot()["turn"] == 0 and table.screen == "pi_moved"
    assert sum(e.get("by") == "pi" for e in session.store.events(session.game_id)) == 2


def test_board_screen_pi_waits_after_an_undo_until_asked(table, session):
    start_with_pi(table, "fox-and-geese", "Pi: Geese, easy")
    wait_for_pi(table)
    press(table, "press")
    press(table, "undo")                             # takes back the Pi's move
    wait_for_pi(table)
    snap = session.snapshot()
    assert snap["turn"] == 1 and snap["board"]["last_move"] is None
    assert not table.pi.thinking
    press(table, "press")                            # the undo's notice read away: only that
    assert table.notice.text == "" and not table.pi.thinking
    screen = table.render()
    table.clock.advance(AGAIN_SECONDS)               # read (its bounce is held)
    press(table, "press")                            # its turn: the press asks it
    assert table.notice.text == "The Pi is thinking"
    assert screen.tobytes() != board_screen.playing(snap, 0, True).tobytes()   # said "press"
    wait_for_pi(table)
    assert session.snapshot()["turn"] == 0
    # its move shows without "The Pi is thinking" over it: it has thought
    assert table.screen == "pi_moved" and table.notice.text == ""


def test_board_screen_pi_waits_after_its_lead_throw_is_taken_back_until_the_knob_asks(
        table, session):
    """Domino Rex: the Pi's lead throw taken back, the box said "Press the knob and the Pi
    moves", and each press only refused ("The lead is still being thrown")."""
    session.new_game("domino-rex", ["Ann", "Pi", "Cy"], pi=[1], pi_level="good")
    session.roll(by="knob")                          # Ann's lead throw
    wait_for_pi(table)                               # the Pi's
    assert session.store.events(session.game_id)[-1]["by"] == "pi"
    press(table, "undo")
    wait_for_pi(table)
    snap = session.snapshot()
    assert snap["turn"] == 1 and snap["awaiting"] == "roll" and table.pi.waiting
    press(table, "press")                            # the undo's notice read away
    assert table.view()["text"] == ["Pi", "Press the knob", "and the Pi moves"]   # as drawn
    table.clock.advance(AGAIN_SECONDS)               # read (its bounce is held)
    press(table, "press")                            # its turn: the press asks it
    assert table.notice.text == "The Pi is thinking"
    wait_for_pi(table)
    last = session.store.events(session.game_id)[-1]
    assert last["type"] == "roll" and last["by"] == "pi" and not table.pi.waiting


def test_board_screen_a_press_reads_a_phones_undo_before_it_asks_the_pi(table, session):
    """A phone took back the Pi's move; "Taken back from a phone: ..." covered "press knob to
    move it", and the press that took the notice away also made the Pi move again. The first
    press reads the notice; the next asks the Pi."""
    start_with_pi(table, "fox-and-geese", "Pi: Geese, easy")
    wait_for_pi(table)
    press(table, "press")
    table.clock.advance(AGAIN_SECONDS)
    moved = len(session.store.events(session.game_id))
    session.undo(by="web")                           # a phone's Undo
    wait_for_pi(table)
    assert table.notice.text.startswith("Taken back from a phone")
    press(table, "press")
    assert table.notice.text == "" and not table.pi.thinking
    assert len(session.store.events(session.game_id)) == moved + 1        # the undo alone
    table.clock.advance(AGAIN_SECONDS)               # read (its bounce is held)
    press(table, "press")                            # now it is asked
    assert table.notice.text == "The Pi is thinking"
    wait_for_pi(table)
    assert session.snapshot()["turn"] == 0 and session.snapshot()["last_by"] == "pi"


@pytest.mark.parametrize("game, players, pi", [("domino-rex", ["Ann", "Pi"], [1]),
                                               ("fox-and-geese", ["Ann", "Pi"], [1])])
def test_board_screen_pi_waits_after_an_undo_while_chances_and_names_change(session, game,
                                                                           players, pi):
    """After its move is taken back the Pi waits to be asked, even when the chances come in
    for the new state or a player is renamed meanwhile (each a new version of the state), and
    after a restart (it moved by itself once resumed, while the box and the phones said it
    waited for the knob)."""
    session.new_game(game, players, pi=pi, pi_level="good")
    worker = PiWorker(session)
    worker.attach()
    try:
        for _ in range(40):                         # Ann plays until the Pi has answered
            snap = session.snapshot()
            if any(e.get("by") == "pi" and e["type"] != "roll"
                   for e in session.store.events(session.game_id)):
                break
            if snap["turn"] == 0:
                if snap["awaiting"] == "roll":
                    session.roll(by="knob")
                elif snap["awaiting"] == "choose":
                    session.submit({"type": "choose", "value":
                                    snap["players"][0]["covered"][0]}, by="knob")
                else:
                    session.submit({"type": "move", "path": ["c4", "c5"]}, by="knob")
            settle_pi(worker)
        session.undo(by="knob")                     # the Pi's move taken back
        settle_pi(worker)
        moved = len([e for e in session.store.events(session.game_id) if e.get("by") == "pi"])
        snap = session.snapshot()
        assert snap["players"][snap["turn"]]["pi"] and worker.waiting
        session.publish_odds(snap["state_version"], {"win": [0.5, 0.5]})      # chances came
        session.submit({"type": "rename", "seat": 0, "name": "Anna"}, by="web")
        settle_pi(worker)
        events = session.store.events(session.game_id)
        assert len([e for e in events if e.get("by") == "pi"]) == moved     # it still waits
        worker.close()                                                      # a restart
        session = Session(session.store, new_seed=lambda: SEED)
        worker = PiWorker(session)
        worker.attach()
        settle_pi(worker)
        events = session.store.events(session.game_id)
        assert len([e for e in events if e.get("by") == "pi"]) == moved and worker.waiting
        assert worker.request() and not worker.waiting                      # the knob asks
        settle_pi(worker)
        events = session.store.events(session.game_id)
        assert len([e for e in events if e.get("by") == "pi"]) > moved
    finally:
        worker.close()


def test_board_screen_pi_plays_domino_rex_lead_and_squares(session):
    session.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="best")
    worker = PiWorker(session)
    worker.attach()
    try:
        snap = ann_plays_domino_rex(session, worker, 40)
        events = session.store.events(session.game_id)
        by_pi = [e for e in events if e.get("by") == "pi"]
        assert any(e["type"] == "roll" for e in by_pi)
        assert any(e["type"] == "choose" for e in by_pi)
        assert snap["players"][1]["covered"] == [] or snap["phase"] == "over"
    finally:
        worker.close()


def test_board_screen_search_runs_off_the_loop(session, monkeypatch):
    """While the Pi thinks, the caller's thread is free: the worker returns at once."""
    release = threading.Event()
    import firmware.workers.pi_worker as module

    def slow(*args, **kwargs):
        release.wait(5)
        return None
    monkeypatch.setattr(module, "pi_event", slow)
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1])
    worker = PiWorker(session)
    worker.attach()                                 # the Pi's Geese are to move: it thinks
    assert worker.thinking                          # and attach returned meanwhile
    assert worker.request() and worker.thinking     # asking again while it thinks is harmless
    release.set()
    settle_pi(worker, seconds=5)
    worker.close()


def test_board_screen_words_fit_whole_beside_the_board(session):
    session.new_game("fox-and-geese", ["Benedictcumber", "Ann"])
    snap = session.snapshot()
    lines = board_screen.choosing_lines(snap, 0)
    moves = snap["board"]["moves"]
    assert [words for words, _ in lines] == [snap["players"][snap["turn"]]["name"], "Geese",
                                             "-".join(moves[0]), f"knob 1/{len(moves)}",
                                             "press=move"]    # what the knob and press do
    assert sum(size for _, size in lines) <= 64                  # every line whole, none cut
    room = 128 - board_screen.PANEL - 1
    assert all(lettering.font(size).getlength(words) <= room for words, size in lines[1:])


@pytest.mark.parametrize("path, rows", [
    (["c3", "c4"], ["Pi moved", "a goose", "c3-c4", "move it,", "press knob"]),
    (["d4", "d5"], ["Pi moved", "the Fox", "d4-d5", "move it,", "press knob"]),
    (["d4", "d6"], ["Pi took", "1 goose", "d4-d6", "move it,", "press knob"]),       # off the board
    (["d4", "d6", "f6"], ["Pi took", "2 geese", "d4-d6-f6", "move it,", "press knob"]),
    (["d4", "d6", "f6", "f4", "d4"], ["Pi took 4", "d4-d6-f6", "-f4-d4", "move it,", "press knob"]),
    (["e3", "e5", "c5", "c7", "e5"], ["Pi took 4", "e3-e5-c5", "-c7-e5", "move it,", "press knob"]),
    (["d4", "d6", "f6", "f4", "d4", "b4", "b6", "d6"],
     ["Pi took", "7 geese", "d4-…-d6", "move it,", "press knob"]),
])
def test_board_screen_the_pis_move_fits_whole_beside_the_board(path, rows):
    fox = path[-1] if len(path) > 2 or path[0] == "d4" else "d3"
    snap = {"board": {"fox": fox, "geese": [], "last_move": path, "moves": []}}
    lines = board_screen.pi_moved_lines(snap)
    assert [words for words, _ in lines] == rows      # who moves the piece, and which control
    assert sum(size for _, size in lines) <= 64       # five whole lines, closer together
    room = 128 - board_screen.PANEL - 1
    assert all(lettering.width(words, size) <= room for words, size in lines)
    assert board_screen.pi_moved(snap).size == (128, 64)


@pytest.mark.parametrize("path", [["c3", "c4"], ["d4", "d6"], ["d4", "d6", "f6", "f4", "d4"],
                                  ["d4", "d6", "f6", "f4", "d4", "b4", "b6", "d6"]])
@pytest.mark.parametrize("winners, end", [([0], "and wins,"), ([1], "game over,")])
def test_board_screen_the_pis_last_move_says_to_press_the_knob(path, winners, end):
    """The Pi's winning move ended "and wins" beside the board, with no word of the press that
    shows the game's end: it says "press knob" as every other move of the Pi, whole."""
    fox = path[-1] if len(path) > 2 or path[0] == "d4" else "d3"
    snap = {"board": {"fox": fox, "geese": [], "last_move": path, "moves": []},
            "phase": "over", "winners": winners, "players": [{"pi": "easy"}, {}]}
    lines = board_screen.pi_moved_lines(snap)
    assert [words for words, _ in lines][-2:] == [end, "press knob"]
    assert len(lines) <= 5 and sum(size for _, size in lines) <= 64
    room = 128 - board_screen.PANEL - 1
    assert all(lettering.width(words, size) <= room for words, size in lines)


def test_board_screen_twelve_jump_chains_each_read_apart_with_the_geese_they_take(session):
    """The Fox on a3 with twelve jump chains: the knob's picks 1 and 4 both read "a3-c3-…-g5",
    3 and 6 "a3-c3-…-a3", though they take different geese (4 and 3); only the thin arrow
    told them apart. Each chain is said over two lines, cut between points, under "takes n";
    no two picks read alike, every line whole beside the board."""
    session.new_game("fox-and-geese", ["Red", "Blue"])
    snap = session.snapshot()
    chains = [["a3", "c3", "e3", "e5", "g5"], ["a3", "c3", "c5", "e5", "g5"],
              ["a3", "c3", "e3", "e5", "c5", "a5", "a3"], ["a3", "c3", "c5", "a5", "a3"],
              ["a3", "c3", "e3", "e5", "c5", "c3", "e3", "e1", "c1", "a3"]]
    snap = {**snap, "turn": 0, "board": {**snap["board"], "moves": chains}}
    said = []
    room = 128 - board_screen.PANEL - 1
    for index, chain in enumerate(chains):
        lines = board_screen.choosing_lines(snap, index)
        words = [w for w, _ in lines]
        assert words[1] == f"takes {len(chain) - 1}" and words[-1] == f"knob {index + 1}/5"
        assert len(lines) == 5 and all(lettering.width(w, size) <= room for w, size in lines)
        assert words[3].endswith(chain[-1])                      # where it lands
        said.append(tuple(words[1:4]))
    assert len(set(said)) == len(chains)
    assert said[2] == ("takes 6", "a3-c3-e3", "…-c5-a5-a3")   # past two lines: its end


def test_board_screen_pi_moves_first_in_a_new_game_after_a_longer_one(table, session):
    """The Pi's first move does not wait for a press whatever game came before: a new game's
    shorter log is not an undo."""
    session.new_game("lifes-mishaps", ["Ann", "Ben", "Cy"])
    for _ in range(12):
        session.roll(by="web")
    session.abandon(by="web")
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy")
    wait_for_pi(table)                               # no press: the Geese move first
    snap = session.snapshot()
    assert snap["turn"] == 0 and snap["board"]["last_move"] and snap["last_by"] == "pi"
    assert table.screen == "pi_moved"


def test_board_screen_pi_moved_screen_fits_its_instruction(table, session):
    """The Pi's turn after an undo says in whole words that a press makes it move."""
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy")
    wait_for_pi(table)
    press(table, "press")
    press(table, "undo")
    wait_for_pi(table)
    room = 128 - board_screen.PANEL - 1
    for thinking in (False, True):
        lines = board_screen.playing_lines(session.snapshot(), thinking=thinking)
        assert [w for w, _ in lines][-2:] == (["press knob", "Pi moves"] if not thinking
                                             else ["easy", "thinking"])
        for words, size in lines:
            assert board_screen.screens.width(words, size) <= room, words
        assert sum(size + 2 for _, size in lines) - 2 <= 64          # every line whole


def settle(table):
    """Take in the latest change and skip any dial and result it showed."""
    table.update()
    while table.screen in ("spin", "result"):
        press(table, "press")


def domino_rex_with_pi(table, session):
    session.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="easy")
    for _ in range(20):                              # the lead throws, whoever makes them
        wait_for_pi(table)
        settle(table)
        snap = session.snapshot()
        if snap["awaiting"] != "roll":
            return snap
        session.roll(by="web")
    raise AssertionError("the lead did not settle")


def test_board_screen_domino_rex_phone_choice_shows_under_the_players_name(table, session):
    snap = domino_rex_with_pi(table, session)
    table.pi.detach()                                # the Pi moves when the test says so
    seen_ann = seen_pi = 0
    for _ in range(30):
        if snap["phase"] == "over":
            break
        if snap["turn"] == 0:                         # Ann uncovers from her phone
            before = snap
            # the Pi's uncover copied: the press its request asks for
            table.clock.advance(max(0.0, table.held_until - table.clock()))
            for _ in range(4):                       # read to its last page first
                if not table._waits_for_press:
                    break
                table.clock.advance(1.0)
                press(table, "press")
            assert not table._waits_for_press
            session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]},
                           by="web")
            table.update()
            snap = session.snapshot()
            if snap["turn"] == 0 or snap["phase"] == "over":
                continue
            # The OLED shows Ann's uncover as Ann's, never as the Pi's, as the box's own
            # knob would: what she uncovered and the sum, then the log's new lines.
            mine = snap["last_uncovered"]
            assert table.screen == "result" and table.result.outcome[:2] == (
                "Ann uncovers", choice_meaning(before, mine, snap)), table.result.outcome
            assert table.result.lines == snap["log"][len(before["log"]):]
            assert all("Pi" not in line.split()[:1] for line in table.result.lines)
            seen_ann += 1
            assert table.pi.request()
            settle_pi(table.pi)
            table.update()                           # the Pi's reply waits: Ann's is read
            assert table.result.outcome[0] == "Ann uncovers" and table.held_change.waiting
            assert table.wait_time() <= table.held_until - table.clock()   # wakes to show it
        else:
            assert table.pi.request()
        wait_for_pi(table)
        snap = session.snapshot()
        if snap["phase"] != "over":
            assert snap["last_by"] == "pi"
            assert table.screen == "result" and table.result.outcome[0] == "Pi uncovers"
            assert table.result.outcome[1] == choice_meaning(
                {**snap, "last_uncovered": None}, snap["last_uncovered"], snap) or \
                " = " in table.result.outcome[1] or table.result.outcome[1] == "Rex!"
            assert table.result.lines[-1] == pis_request(snap)
            assert all(not line.startswith("Ann ") for line in table.result.lines)
            seen_pi += 1
    assert snap["phase"] == "over" and seen_ann and seen_pi
    for _ in range(8):                                # the last uncover read, page by page
        if table.screen == "over":
            break
        assert table.screen == "result" and table.result.lines[-1] == snap["log"][-1]
        table.clock.advance(RESULT_SECONDS)
        table.update()
    assert table.screen == "over"                     # the end, without a press


def anns_turn_on_the_box(table, session, snap: dict) -> dict:
    """The Pi's move shown and read, and the box on Ann's turn screen; the state then."""
    if snap["turn"] != 0:
        wait_for_pi(table)
        settle(table)
    table.clock.advance(max(0.0, table.held_until - table.clock()))
    table.update()
    settle(table)
    return session.snapshot()


def read_to_the_last_page(table):
    """Press through a result's pages: each press before the last turns to the next."""
    table.render()
    for page in range(table.pager.page, table.pager.count - 1):
        press(table, "press")
        assert table.screen == "result" and table.pager.page == page + 1
    assert " ".join(table.pager.text[1:]).endswith("then press the knob.")


def test_board_screen_domino_rex_a_box_uncover_is_read_before_the_pis_reply(table, session):
    """Ann uncovered with the knob and the Pi answered at once: her "Ann uncovers 4 + 3 = 7"
    was replaced before anyone could read it. It stays up until read; a press shows the
    Pi's sooner."""
    snap = domino_rex_with_pi(table, session)
    for press_sooner in (False, True):
        snap = anns_turn_on_the_box(table, session, snap)
        if snap["phase"] == "over":
            break
        press(table, "press")                        # the square the knob points at
        assert table.result.outcome[0] == "Ann uncovers"
        mine = table.result.outcome
        settle_pi(table.pi)
        table.update()
        table.render()
        if session.snapshot()["phase"] == "over":
            break
        assert table.result.outcome == mine and table.held_change.waiting   # the Pi's reply waits
        if press_sooner:
            table.clock.advance(AGAIN_SECONDS)       # read (its bounce is held)
            press(table, "press")
        else:
            table.clock.advance(max(0.0, table.held_until - table.clock()))
            table.update()
            table.clock.advance(1.0)                 # the Pi's uncover read
        assert table.result.outcome[0] == "Pi uncovers" and not table.held_change.waiting
        assert table.result.lines[-1] == pis_request(session.snapshot())
        read_to_the_last_page(table)
        table.clock.advance(AGAIN_SECONDS)           # read, not the same hand again
        press(table, "press")                        # copied: Ann's turn
        assert table.screen == "play"
        snap = session.snapshot()


def test_board_screen_domino_rex_chances_coming_in_keep_the_pis_request(table, session):
    """The Pi answered Ann's uncover while hers was up, and the chances of the new state came
    in meanwhile (a newer version, the same game): the Pi's uncover, shown once hers was read,
    dropped "Uncover it on the board, then press the knob." as if shown late, and went on by
    itself. Chances are not a move: it asks, and waits for the press."""
    snap = anns_turn_on_the_box(table, session, domino_rex_with_pi(table, session))
    press(table, "press")                            # Ann, with the knob
    settle_pi(table.pi)
    table.update()
    now = session.snapshot()
    assert table.held_change.waiting and now["phase"] != "over" and now["last_by"] == "pi"
    odds = {"win": [0.5, 0.5]}
    assert session.publish_odds(now["state_version"], odds)          # chances only
    table.update()
    assert table.snap["version"] > now["version"]
    assert table.held_change.waiting                 # still Ann's result up
    table.clock.advance(max(0.0, table.held_until - table.clock()))
    table.update()
    assert table.result.outcome[0] == "Pi uncovers" and table.result.lines[-1] == pis_request(now)
    assert snap["turn"] == 0


def test_board_screen_domino_rex_the_box_is_never_more_than_one_result_behind(table, session):
    """Ann's uncover up, the Pi's reply waiting, and Ann uncovers again from her phone: the
    waiting change takes in hers and shows at once (she has moved on), both under both names,
    not the Pi's alone (a result behind) and hers after it; and the Pi's square, by number,
    is still to be uncovered on the board (nobody was told)."""
    anns_turn_on_the_box(table, session, domino_rex_with_pi(table, session))
    press(table, "press")                            # Ann, with the knob
    assert table.result.outcome[0] == "Ann uncovers"
    settle_pi(table.pi)
    table.update()
    assert table.held_change.waiting                 # the Pi's reply waits
    snap = session.snapshot()
    assert snap["phase"] != "over" and snap["turn"] == 0            # the seed is fixed
    session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]}, by="web")
    table.update()                                   # no wait: the newest, now
    heading, values, words = table.result.outcome
    assert heading == "Pi, then Ann" and values == "" and not table.held_change.waiting
    assert words[0].startswith("Pi uncovers") or "Pi's" in words[0]
    assert "Ann" in words[-2] and sum(map(asks_to_uncover, words)) == 1   # Ann has answered,
    assert words[-1].startswith("Uncover Pi's ") and \
        words[-1].endswith(" on the board, then press the knob.")      # still to uncover
    assert table._waits_for_press


def test_board_screen_domino_rex_a_phone_move_and_the_pis_reply_in_one_change(table, session):
    """The loop may take in Ann's uncover and the Pi's reply together: both are shown, under
    both names, with what to do for the Pi."""
    snap = domino_rex_with_pi(table, session)
    if snap["turn"] != 0:
        wait_for_pi(table)
        settle(table)
        snap = session.snapshot()
    value = snap["players"][0]["covered"][0]
    session.submit({"type": "choose", "value": value}, by="web")
    wait_for_pi(table)                               # the Pi answers before the loop looks
    snap = session.snapshot()
    assert snap["last_by"] == "pi" and snap["phase"] != "over"
    assert table.screen == "result" and table.result.outcome[0] == "Ann, then Pi"
    assert "Ann" in table.result.lines[0] and any("Pi" in line for line in table.result.lines)
    assert table.result.lines[-1] == pis_request(snap)


def test_board_screen_domino_rex_phone_moves_around_the_pis_in_one_change_name_both(
        table, session):
    """Ann uncovers from her phone, the Pi replies, Ann uncovers again, all before the loop
    looks: the change ends on Ann's move, and it was headed "Ann" over the Pi's uncover and
    its request to copy it."""
    snap = domino_rex_with_pi(table, session)
    if snap["turn"] != 0:
        wait_for_pi(table)
        settle(table)
        snap = session.snapshot()
    session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]}, by="web")
    settle_pi(table.pi)                              # the Pi answers; the loop has not looked
    snap = session.snapshot()
    assert snap["last_by"] == "pi" and snap["turn"] == 0 and snap["phase"] != "over"
    table.pi.detach()                                # Ann's next move is the newest
    session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]}, by="web")
    table.update()
    heading, _, words = table.result.outcome
    assert any(line.startswith("Uncover Pi's ") for line in words), words
    assert heading == "Ann, then Pi", (heading, words)


def test_board_screen_a_resignation_that_names_the_pi_is_no_move_of_the_pis(table, session):
    """Ann resigns from her phone: "Ann resigns" / "Pi wins" was headed "Ann, then Pi" as if
    the Pi had moved after her (any line naming the Pi was taken for its move)."""
    session.new_game("fox-and-geese", ["Pi", "Ann"], pi=[0], pi_level="easy")
    table.update()
    assert session.snapshot()["turn"] == 1                           # the Geese move first
    session.submit({"type": "declare", "winners": [0]}, by="web")   # Ann resigns
    table.update()
    heading, _, words = table.result.outcome
    assert words == ["Ann resigns", "Pi wins"] and heading == "Ann", table.result.outcome


def lead_at_the_box_against_the_pi(table, session) -> dict:
    """Domino Rex, Ann against the Pi: Ann throws for the lead with the knob, the Pi by
    itself, until the lead is settled; the state then."""
    session.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="easy")
    table.update()
    for _ in range(10):
        snap = session.snapshot()
        if snap["awaiting"] != "roll":
            break
        if snap["turn"] == 0:
            press(table, "flick", strength=0.5)
        wait_for_pi(table)
    return session.snapshot()


def test_board_screen_the_pis_uncover_after_a_box_throw_comes_before_the_next_turns_words(
        tmp_path, clock):
    """Ann's throw from the box lost the lead to the Pi, which uncovered at once: the dial's
    result began with Ann's next instruction ("uncover a domino square (last uncovered: 5)"),
    before the lines that said the Pi led and what it uncovered, and the request to copy it
    came pages later. Now the lines come in order and end with that request."""
    store = Store(tmp_path / "lead.db")
    session = Session(store, new_seed=lambda: bytes([2]) * 32)    # a seed where the Pi leads
    table = Controller(session, seats=4, clock=clock)
    table.attach()
    try:
        snap = lead_at_the_box_against_the_pi(table, session)
        assert snap["last_by"] == "pi" and snap["last_type"] == "choose"   # the Pi led
        heading, _, words = table.result.outcome
        assert heading == "Ann, then Pi" and words[-1] == pis_request(snap)   # not Ann's
        assert words[-2] == snap["log"][-1] and words[-2].startswith("Pi uncovers")
        assert not any("covered:" in line for line in words)    # Ann's turn: after the press
        if table.screen == "spin":
            press(table, "press")                    # the press skips the dial to its result
        assert table.screen == "result"
        read_to_the_last_page(table)                 # the press reads on to the request
        clock.advance(AGAIN_SECONDS)                 # read, not the same hand again
        press(table, "press")                        # the Pi's square is uncovered: go on
        assert table.screen == "play" and table.view()["turn"].name == "Ann"
    finally:
        table.close()
        store.close()


def test_board_screen_a_piece_on_the_g_column_never_touches_the_words():
    """The Fox ringed on g5 reached x = 64 and the words began at 63 ("□Fox")."""
    for fox, path in (("g5", ["f5", "g5"]), ("g3", ["g4", "g3"]), ("g4", None)):
        board = {"fox": fox, "geese": ["g5"] if fox != "g5" else ["g3"], "last_move": path}
        image = board_screen.board_image(board, path)
        assert image.crop((board_screen.PANEL - 1, 0, 128, 64)).getbbox() is None, fox
    assert image.crop((0, 0, board_screen.PANEL - 1, 64)).getbbox()[2] == board_screen.PANEL - 1


def the_pis_uncover_up(table, session) -> dict:
    """Domino Rex against the Pi, to the Pi's first uncover on the box (Ann's, if she leads,
    made from a phone); the state then."""
    snap = domino_rex_with_pi(table, session)
    if snap["turn"] == 0:
        session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]},
                       by="web")
        wait_for_pi(table)
    return session.snapshot()


def test_board_screen_the_pis_uncover_waits_for_the_press_it_asks_for(table, session, clock):
    """"Uncover Pi's 4 on the board, then press the knob" paged away by itself, and the press
    then uncovered a square for Ann."""
    snap = the_pis_uncover_up(table, session)
    assert snap["last_by"] == "pi" and snap["turn"] == 0 and snap["phase"] != "over"
    assert table.screen == "result" and table.result.lines[-1] == pis_request(snap)
    for _ in range(10):                                 # the table looks away a while
        clock.advance(12)
        table.update()
        table.render()
    assert table.pager.page == table.pager.count - 1           # every page read
    assert table.screen == "result" and table.wait_time() is None    # no busy wake-ups
    press(table, "press")                               # the press it asked for
    assert table.screen == "play"
    assert session.snapshot()["version"] == snap["version"]          # Ann's square untouched


def test_board_screen_the_pis_request_names_its_square_on_the_page_it_ends(table, session):
    """The Pi's uncover took two pages and the second said only "Uncover it on the board,
    then press the knob.": a player who looked up as the page turned could not tell what
    to uncover. The request names the Pi and its square, so its page reads alone."""
    snap = the_pis_uncover_up(table, session)
    assert snap["last_by"] == "pi" and table.result.outcome[0].endswith("Pi")
    read_to_the_last_page(table)
    last_page = " ".join(table.pager.text[1:])
    assert table.pager.count > 1 and f"Pi's {snap['last_uncovered']} on the board" in last_page


def test_board_screen_the_pis_uncover_that_ends_domino_rex_is_shown_before_the_end(
        session, clock):
    """The Pi's last uncover went straight to "Pi wins": what it uncovered never showed. Now
    it shows as any uncover of the Pi's does (under "Pi"), with the win's sound; a press then
    shows the end."""
    controls = FakeControls()
    table = Controller(session, controls=controls, seats=4, clock=clock)
    table.attach()
    try:
        ends_with_the_pis_uncover(table, session, controls)
    finally:
        table.close()


def ends_with_the_pis_uncover(table, session, controls):
    session.new_game("domino-rex", ["Pi", "Ann"], pi=[0], pi_level="best")
    for _ in range(200):
        wait_for_pi(table)
        snap = session.snapshot()
        if snap["phase"] == "over":
            break
        settle(table)
        if snap["turn"] == 1:
            if snap["awaiting"] == "roll":
                session.roll(by="web")
            else:
                session.submit({"type": "choose", "value": snap["players"][1]["covered"][-1]},
                               by="web")
            table.update()
    assert snap["phase"] == "over" and snap["last_by"] == "pi"       # the Pi ended it
    assert table.screen == "result" and table.result.outcome[0] == "Pi uncovers"
    uncovered = [line for line in table.result.lines if line.startswith("Pi uncovers")]
    assert uncovered and "Every domino square is uncovered" in " ".join(table.result.lines)
    assert not any(line.startswith("Uncover it") for line in table.result.lines)   # it is over
    assert controls.beeps[-1] == "win"
    from browser_support import ARTIFACTS
    ARTIFACTS.mkdir(exist_ok=True)
    for page in range(table.pager.count):                         # looked at, at 4x
        table.pager.page = page
        table.render().resize((512, 256), Image.NEAREST).save(
            ARTIFACTS / f"oled-pi-ends-domino-rex-{page + 1}.png")
    table.pager.page = table.pager.count - 1
    press(table, "press")
    assert table.screen == "over"


def restarted_on_the_pis_turn(session, clock, game):
    """A game left on the Pi's turn (the box stopped before it moved) and the box started again
    on the same store: its controller, attached, with the Pi thinking."""
    session.new_game(game, ["Ann", "Pi"], pi=[1], pi_level="easy")   # the Geese move first
    for _ in range(20):                        # Domino Rex: the lead, then Ann's squares
        snap = session.snapshot()
        if snap["awaiting"] == "roll":
            session.roll(by="web")
        elif snap["turn"] == 0:
            session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]},
                           by="web")
        else:
            break
    snap = session.snapshot()
    assert snap["turn"] == 1 and snap["awaiting"] in ("move", "choose")
    again = Session(session.store, new_seed=lambda: SEED, clock=lambda: "2025-01-01T12:00:00Z")
    c = Controller(again, seats=4, clock=clock)
    assert c.screen == "resumed"
    c.attach()
    return c


@pytest.mark.parametrize("game", ["fox-and-geese", "domino-rex"])
def test_board_screen_a_restart_on_the_pis_turn_shows_its_move_to_copy(session, clock, game):
    """Started again on the Pi's turn, the Pi moved under "Resumed ... Ann to play" and the
    OLED went on to Ann's turn: its move was never shown, and the board no longer matched."""
    c = restarted_on_the_pis_turn(session, clock, game)
    try:
        wait_for_pi(c)
        snap = c.session.snapshot()
        assert snap["last_by"] == "pi" and snap["turn"] == 0
        if game == "fox-and-geese":
            assert c.screen == "pi_moved" and c.pager.text[-2:] == ["move it,", "press knob"]
        else:
            assert c.screen == "result" and c.result.outcome[0] == "Pi uncovers"
            assert c.result.lines[-1] == pis_request(snap)
        clock.advance(60)                              # the table looks away a while
        c.update()
        assert c.screen in ("pi_moved", "result")      # still there until the press
        press(c, "press")
        assert c.screen == "play"
    finally:
        c.close()


def test_board_screen_the_pis_winning_move_is_shown_to_copy_before_the_end(session, clock):
    """The Fox's jump that won the game went straight to "Pi wins!": the players never saw
    which goose to take off the board. The jump first, then a press, as the panel says (it
    ended "and wins" with no word of the knob): the game's end."""
    controls = FakeControls()
    c = Controller(session, controls=controls, seats=4, clock=clock)
    c.attach()
    try:
        session.new_game("fox-and-geese", ["Pi", "Ann"], pi=[0], pi_level="easy",
                         board={"sideways": ["c3", "e3"], "vacant": ["a4", "g4"],
                                "geese_to_pen": 17})          # one goose taken ends it
        c.update()
        moves = session.snapshot()["board"]["moves"]
        press(c, "turn", detents=moves.index(["b4", "b5"]))
        press(c, "press")                                      # the Fox must jump c4
        wait_for_pi(c)
        snap = session.snapshot()
        assert snap["phase"] == "over" and snap["winners"] == [0]
        assert snap["board"]["last_move"] == ["d4", "b4"]
        assert c.screen == "pi_moved" and controls.beeps[-1] == "win"
        assert c.pager.text == ["Pi took", "1 goose", "d4-b4", "and wins,", "press knob"]
        press(c, "press")
        assert c.screen == "over"
    finally:
        c.close()


def test_board_screen_the_pis_winning_move_is_said_after_a_power_cut(session, clock):
    """The Pi's winning jump was up on the box, to copy, when the power went: the box came
    back on the start screen and went on to the game list, the jump never said (the phones
    said "Pi won"). Leaving the start screen, the box says it first, once."""
    from drawn_words import shows
    session.new_game("fox-and-geese", ["Pi", "Ann"], pi=[0], pi_level="easy",
                     board={"sideways": ["c3", "e3"], "vacant": ["a4", "g4"],
                            "geese_to_pen": 17})              # one goose taken ends it
    session.submit({"type": "move", "path": ["b4", "b5"]}, by="pin-1a2b3c")
    ended = session.submit({"type": "move", "path": ["d4", "b4"]}, by="pi")  # then the cut
    again = Session(session.store, new_seed=lambda: SEED)
    c = Controller(again, seats=4, clock=clock)
    c.attach()
    c.pi.detach()
    try:
        assert c.screen == "start"
        press(c, "press")
        assert c.screen == "result"
        heading, _, lines = c.result.outcome
        assert heading == "Last game"
        assert lines == [box_words(line) for line in ended["log"][-len(lines):]]
        assert any("d4" in line and "b4" in line for line in lines)
        assert any("Pi wins" in line for line in lines), lines
        assert shows(c.render(), "Last game")
        press(c, "press")
        while c.screen == "result":                      # read on to the game list
            press(c, "press")
        assert c.screen == "games"
        press(c, "menu")
        press(c, "menu")                                  # not said again
        assert c.screen != "result"
    finally:
        c.close()


@pytest.mark.parametrize("kind, button", [("ignored", 0), ("ignored", 3), ("seat", 0)])
def test_board_screen_a_seat_press_on_the_pis_move_says_to_copy_it(session, clock, kind,
                                                                    button):
    """A seat press on "Pi moved ... then press" did nothing, without a flash or a sound,
    where the turn screen says why: it says what to do, and changes nothing; the knob's
    press, as it says, goes on (it took only the words away, a second press went on)."""
    controls = FakeControls()
    c = Controller(session, controls=controls, seats=4, clock=clock)
    c.attach()
    try:
        session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy")
        wait_for_pi(c)
        assert c.screen == "pi_moved"
        version = session.snapshot()["version"]
        press(c, kind, seat=button)
        assert c.screen == "pi_moved"
        assert c.notice.text == "Copy the Pi's move, then press the knob."
        assert controls.beeps[-1] == "error"
        assert session.snapshot()["version"] == version
        press(c, "press")                            # copied: the press the words ask for
        assert c.screen == "play" and not c.notice.text
    finally:
        c.close()


def flick_before_the_pi(c, session, players):
    """Domino Rex's lead with the Pi last: the people throw by the box's knob, each result
    read, until the last of them flicks and the Pi throws while that dial still spins."""
    session.new_game("domino-rex", players, pi=[len(players) - 1], pi_level="easy")
    c.update()
    while session.snapshot()["turn"] != len(players) - 2:
        press(c, "flick", strength=0.5)
        while c.screen in ("spin", "result"):
            press(c, "press")
    press(c, "flick", strength=0.5)
    flicked = c.snap["last_roll"]                  # the Pi may have thrown already
    wait_for_pi(c)
    assert c.screen == "spin" and session.snapshot()["last_roll"]["seat"] == len(players) - 1
    return flicked


def test_board_screen_a_flick_just_before_the_pis_throw_shows_the_flickers_number(
        session, clock):
    """White flicked for the lead, the Pi threw at once, and White's dial ended on "Pi throws
    4": White never saw their own number as the big value."""
    c = Controller(session, controls=FakeControls(), seats=4, clock=clock)
    c.attach()
    try:
        flicked = flick_before_the_pi(c, session, ["Blue", "White", "Pi"])
        snap = session.snapshot()
        value = str(flicked["values"][0])
        assert c.animation.values == tuple(flicked["values"])
        assert c.result.outcome[:2] == ("White, then Pi", value)          # the Pi threw after White
        assert c.result.lines[-3:] == snap["log"][-3:]          # each line, White's first
        assert snap["log"][-3] == f"White throws {value} for the lead"
        assert snap["log"][-2].startswith("Pi throws")
        press(c, "press")
        assert c.screen == "result" and c.pager.text[:2] == ["White, then Pi", value]
    finally:
        c.close()


def test_board_screen_a_phones_undo_during_the_dial_drops_the_line_taken_back(session, clock):
    """The Pi led and uncovered while Ann's dial spun; a phone took the uncover back, and the
    result still listed it, with "Uncover Pi's 6 on the board"."""
    c = Controller(session, controls=FakeControls(), seats=4, clock=clock)
    c.attach()
    c.pi.detach()                                    # the Pi moves when the test says so
    try:
        session.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="easy")
        c.update()
        press(c, "flick", strength=0.5)
        session.roll(by="pi")                         # each change taken in on its own
        c.update()
        snap = session.snapshot()
        assert snap["log"][-1] == "Pi leads", snap["log"]
        session.submit({"type": "choose", "value": snap["players"][1]["covered"][0]}, by="pi")
        c.update()
        uncover = session.snapshot()["log"][-1]
        assert c.result.lines[-2:] == [uncover, pis_request(session.snapshot())]
        session.undo(by="pin-0a1b2c")
        c.update()
        assert c.screen == "spin" and uncover not in c.result.lines
        assert not any(line.startswith("Uncover it") for line in c.result.lines)
        assert c.result.lines[-1] == session.snapshot()["log"][-1] == "Pi leads"
        press(c, "press")
        assert c.screen == "result"
    finally:
        c.close()


def test_board_screen_f3_the_end_counts_geese_not_points(table, session):
    """Fox and Geese has no points (F3): the end said "wins, 0 points" for the Geese and
    "turn: all points" on a board whose places are called points."""
    session.new_game("fox-and-geese", ["Ann", "Ben"],
                     board={"sideways": ["c3", "e3"], "vacant": ["a4", "g4"],
                            "geese_to_pen": 17})          # one goose taken ends it
    session.submit({"type": "move", "path": ["b4", "b5"]}, by="knob")
    session.submit({"type": "move", "path": ["d4", "b4"]}, by="knob")   # the Fox must jump
    table.update()
    table.render()
    assert table.screen == "over"
    assert table.pager.text == ["Ann", "wins, 1 goose taken", "press: new game"]
    press(table, "turn", detents=1)                     # everyone's standing: geese, no points
    assert table.screen == "scores" and any("1 goose taken" in row for row in table.pager.text)
    assert not any(" pt" in row for row in table.pager.text)
    press(table, "press")
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    session.submit({"type": "declare", "winners": [1]}, by="knob")      # the Fox resigns
    table.update()
    table.render()
    assert table.pager.text == ["Ben", "wins, Ann resigned", "press: new game"]   # F3
    press(table, "press")              # "Ben / wins, Fox resigned" read as Ben the Fox: named,
    session.new_game("fox-and-geese", ["Bartholomew Feathers", "Ben"])   # or the side where
    session.submit({"type": "declare", "winners": [1]}, by="knob")      # the name is too long
    table.update()
    table.render()
    assert table.pager.text == ["Ben", "wins, Fox resigned", "press: new game"]


def test_board_screen_the_pis_seat_button_says_it_is_the_pis(table, session, clock):
    """The state gives the Pi's player a seat button; pressed, it said "Button 2 is not in
    this game."."""
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy")
    wait_for_pi(table)
    press(table, "press")                          # the Pi's move copied: Ann's turn
    button = session.snapshot()["players"][1]["button"]
    press(table, "ignored", seat=button - 1)        # not armed: the box says why
    assert table.notice.text == f"Button {button} is the Pi's seat: the Pi moves by itself."
    press(table, "press")
    press(table, "ignored", seat=4)
    assert table.notice.text == "Button 5 is not in this game."


def test_board_screen_a_lead_won_against_the_pi_shows_the_throws_first(tmp_path, clock):
    """Ann won the lead against the Pi at the box: its result began with a bare "uncover a
    domino square to open the game; covered: 1, 1, 2, ..." over two pages, before the throws
    that said who led. A lead allows no move: the result is the throws and who leads; the
    turn screen after it says what to do."""
    for b in range(40):                              # a seed where Ann leads
        store = Store(tmp_path / f"lead{b}.db")
        session = Session(store, new_seed=lambda b=b: bytes([b]) * 32)
        table = Controller(session, seats=4, clock=clock)
        table.attach()
        try:
            snap = lead_at_the_box_against_the_pi(table, session)
            if snap["phase"] == "play" and snap["turn"] == 0:
                heading, values, words = table.result.outcome
                assert heading in ("Ann throws", "Ann, then Pi", "The lead"), table.result.outcome
                assert not any("uncover a domino square" in w for w in words), words
                assert words[-1] == "Ann leads", words
                return
        finally:
            table.close()
            store.close()
    raise AssertionError("no seed of 40 gave Ann the lead")


def test_board_screen_domino_rex_two_pi_seats_each_named_in_its_heading(table, session):
    """Two Pi seats ("Pi" and "Pi 2"): Pi 2's uncover was headed "Pi uncovers" over "Pi 2's
    seventh checker ...", and Ann's move with its reply "Ann, then Pi". Each is headed by the
    seat that made it."""
    session.new_game("domino-rex", ["Cy", "Pi", "Ann", "Pi 2"], pi=[1, 3], pi_level="easy")
    headed: list[tuple[str, str]] = []
    for _ in range(60):
        wait_for_pi(table)
        snap = session.snapshot()
        if table.screen == "result":
            heading, _, words = table.result.outcome
            headed.append((heading, words[0]))
        settle(table)
        snap = session.snapshot()
        if snap["phase"] == "over":
            break
        if snap["players"][snap["turn"]].get("pi"):
            continue
        if snap["awaiting"] == "roll":
            session.roll(by="web")
        else:
            session.submit({"type": "choose",
                            "value": snap["players"][snap["turn"]]["covered"][0]}, by="web")
    pairs = {h for h, _ in headed if ", then " in h}      # a phone's move and the Pi's reply
    assert "Ann, then Pi 2" in pairs and "Cy, then Pi" in pairs        # Pi 2 sits after Ann
    assert "Ann, then Pi" not in pairs
    single = [(h, w) for h, w in headed if h.endswith(" uncovers")]
    named = [(h, w) for h, w in single                        # "Cy uncovers" over Cy's line
             if w.startswith(h) or f"{h.removesuffix(' uncovers')}'s " in w]
    assert named == single


def test_board_screen_a_press_on_the_undos_notice_moves_nothing(table, session):
    """Red (the Fox) turned the knob to "4 of 8"; Undo gave the Geese their move back under
    "Taken back: ...", and the press that meant to clear it played the Geese's 4th move,
    which no one had seen. The press reads the notice; the knob's pick starts at 1 again."""
    session.new_game("fox-and-geese", ["Red", "Blue"])
    table.update()
    press(table, "press")                            # the Geese's first move, by the knob
    settle(table)
    assert session.snapshot()["turn"] == 0
    press(table, "turn", detents=3)                  # the Fox's 4th move, picked
    assert table.move_index == 3
    press(table, "undo")
    assert table.notice.text.startswith("Taken back:") and table.move_index == 0
    events = len(session.store.events(session.game_id))
    press(table, "press")                            # read: nothing else
    assert table.notice.text == "" and len(session.store.events(session.game_id)) == events
    table.render()
    assert table.view()["text"][-2].startswith("knob 1/"), table.view()["text"]


def test_board_screen_a_seat_button_says_how_a_move_is_made(table, session):
    """The Geese's own button said "Fox and Geese has no seat-button action: give the move's
    path": words for the API, not the table. It says how: the knob picks and makes a move."""
    session.new_game("fox-and-geese", ["Red", "Blue"])
    table.update()
    assert session.snapshot()["turn"] == 1
    events = len(session.store.events(session.game_id))
    press(table, "seat", seat=table.buttons[1])
    assert table.notice.text == "Turn the knob to pick Blue's move, then press the knob."
    assert len(session.store.events(session.game_id)) == events


def test_board_screen_domino_rex_a_seat_button_says_how_a_square_is_uncovered(table, session):
    """Domino Rex: the lit button of the player to uncover did nothing and said nothing. It
    says how: the knob picks the square and its press uncovers it."""
    session.new_game("domino-rex", ["Red", "Blue"])
    table.update()
    while session.snapshot()["awaiting"] != "choose":
        session.roll(by="knob")                      # the lead
    for _ in range(10):
        table.clock.advance(30)
        table.update()                               # the throws shown, then read
    assert table.screen == "play", table.screen
    turn = session.snapshot()["turn"]
    events = len(session.store.events(session.game_id))
    press(table, "seat", seat=table.buttons[turn])
    name = session.snapshot()["players"][turn]["name"]
    assert table.notice.text == f"Turn the knob to pick {name}'s square, then press the knob."
    assert len(session.store.events(session.game_id)) == events


@pytest.mark.parametrize("game", ["fox-and-geese", "domino-rex"])
def test_board_screen_after_a_restart_the_pis_last_move_is_shown_to_copy(tmp_path, clock, game):
    """The power went just after the Pi moved (or the Pi moved as the box came back, before
    its first frame): the box said "Resumed ... Ann to play" and never showed the move to
    copy. After "Resumed", the Pi's move, if it is the game's last, is shown as in play."""
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: SEED)
    session.new_game(game, ["Ann", "Pi"], pi=[1], pi_level="easy")
    worker = PiWorker(session)
    worker.attach()
    try:
        for _ in range(40):                          # Ann plays until the Pi has moved
            snap = session.snapshot()
            if snap["last_by"] == "pi" and snap["last_type"] != "roll":
                break
            settle_pi(worker)
            snap = session.snapshot()
            if snap["turn"] != 0 or snap["last_by"] == "pi" and snap["last_type"] != "roll":
                continue
            if snap["awaiting"] == "roll":
                session.roll(by="web")
            elif snap["awaiting"] == "move":
                session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="web")
            else:
                session.submit({"type": "choose",
                                "value": snap["players"][0]["covered"][0]}, by="web")
    finally:
        worker.close()
    assert session.snapshot()["last_by"] == "pi"
    store.close()
    store = Store(tmp_path / "parlour.db")           # the box again, after the power cut
    box = Controller(Session(store, new_seed=lambda: SEED), seats=4, clock=clock)
    try:
        assert box.screen == "resumed"
        press(box, "press")
        if game == "fox-and-geese":
            assert box.screen == "pi_moved"
        else:
            assert box.screen == "result" and box.result.outcome[0] == "Pi's last move"
            value = box.snap["last_uncovered"]
            assert box.result.lines[-1] == \
                f"If Pi's {value} is still covered, uncover it on the board; then press the knob."
            clock.advance(60)
            box.update()
            assert box.screen == "result"            # it waits for the press
    finally:
        store.close()


def test_board_screen_undo_under_a_held_reply_shows_the_pis_move_first(table, session):
    """Ann's uncover was up with the Pi's reply held, and Undo did nothing (refused, as the
    box had not drawn the reply) and dropped the reply: the Pi's square was never shown to
    uncover. Undo shows the Pi's move instead; the next Undo takes it back."""
    anns_turn_on_the_box(table, session, domino_rex_with_pi(table, session))
    press(table, "press")                            # Ann, with the knob
    settle_pi(table.pi)
    table.update()
    assert table.held_change.waiting and session.snapshot()["last_by"] == "pi"
    events = len(session.store.events(session.game_id))
    press(table, "undo")
    assert len(session.store.events(session.game_id)) == events    # nothing taken back yet
    assert table.result.outcome[0] == "Pi uncovers"
    assert table.result.lines[-1] == pis_request(session.snapshot())
    press(table, "undo")                             # now on what is shown: the Pi's move
    assert session.store.events(session.game_id)[-1]["type"] == "undo"
    assert table.notice.text.startswith("Taken back: ")


def test_board_screen_a_press_just_after_the_held_reply_showed_is_not_for_it(table, session):
    """The Pi's held reply took the place of Ann's result, and a press meant for Ann's result,
    a moment late, closed the Pi's before it could be read."""
    anns_turn_on_the_box(table, session, domino_rex_with_pi(table, session))
    press(table, "press")
    settle_pi(table.pi)
    table.update()
    table.clock.advance(max(0.0, table.held_until - table.clock()))
    table.update()                                   # the Pi's reply, shown by itself
    assert table.result.outcome[0] == "Pi uncovers"
    press(table, "press")                            # a moment late, for Ann's
    assert table.screen == "result" and table.result.outcome[0] == "Pi uncovers"


def test_board_screen_domino_rex_an_undo_says_which_square_to_cover_again(table, session):
    """"Taken back: 6 + 4 = 10: Pi's tenth checker goes into Domino" left the players to work
    out which square to cover again (the Pi's 6, not Blue's 4): the notice says it."""
    snap = domino_rex_with_pi(table, session)
    if snap["turn"] != 1:                            # the Pi's uncover to take back
        anns_turn_on_the_box(table, session, snap)
        press(table, "press")
        wait_for_pi(table)
    before = session.snapshot()
    assert before["last_by"] == "pi"
    value = before["last_uncovered"]
    press(table, "undo")
    after = session.snapshot()
    moved = [n for n, place in after["players"][1]["checkers"].items()
             if before["players"][1]["checkers"][n] != place]
    back = {"rex": "to the Rex row", "domino": "into Domino", "crowned": "to its crown"}
    again = f". Cover Pi's {value} again." + "".join(
        f" Pi's {ORDINAL[int(n)]} checker back {back[after['players'][1]['checkers'][n]]}."
        for n in moved)
    assert table.notice.text.startswith("Taken back: ")
    assert table.notice.text.endswith(again), table.notice.text
    session.submit({"type": "choose", "value": value}, by="pi")       # as it was
    table.update()
    table.render()
    session.undo(by="web")                           # and from a phone
    table.update()
    assert table.notice.text.endswith(again)


def test_board_screen_an_undo_says_what_the_state_says_to_put_back():
    """"Taken back from a phone: 5 + 5 = 10: Cy's tenth checker goes home and is crowned.
    Rex! Cover Cy's 5 again." never said to take the checker off its crown: the state's
    `put_back` says it, as every phone does."""
    from firmware.oled.views import undo_notice
    after = {"game": "domino-rex", "phase": "play", "taken_back": True,
             "undone": ["5 + 5 = 10: Cy's tenth checker goes home and is crowned. Rex!"],
             "put_back": ["Cover Cy's 5 again.", "Cy's tenth checker back into Domino."]}
    assert undo_notice(after, "from a phone") == (
        "Taken back from a phone: 5 + 5 = 10: Cy's tenth checker goes home and is crowned. "
        "Rex! Cover Cy's 5 again. Cy's tenth checker back into Domino.")
    assert undo_notice({**after, "undone": ["Ann's turn ends"], "put_back": []}) == \
        "Taken back: the end of Ann's turn (Ann plays on)"


def test_board_screen_of_two_pi_seats_the_waiting_one_is_named():
    """Pi 2's uncover taken back: the box said "Pi / Press the knob / and the Pi moves" where
    the turn is Pi 2's."""
    snap = {"game": "domino-rex", "turn": 2, "players": [{"name": "Ann"}, {"name": "Pi"},
                                                          {"name": "Pi 2"}]}
    assert board_screen.pi_message(False, board_screen.pi_name(snap)) == \
        ["Pi 2", "Press the knob", "and Pi 2 moves"]
    assert board_screen.pi_message(True, board_screen.pi_name({**snap, "turn": 1})) == \
        ["Pi", "is thinking", ""]


def test_board_screen_the_bounce_of_a_move_is_held_though_the_pi_answered_meanwhile(table,
                                                                                  session):
    """Fox and Geese against the Pi: Red's move ("Red's goose: a3 to a4") and its bounce 0.4 s
    later, after the Pi had answered: the answer changed the game, so the hold lapsed and the
    bounce put Red's move away for the Pi's, unread. A change made elsewhere keeps the hold;
    a press once read shows the Pi's move."""
    start_with_pi(table, "fox-and-geese", "Pi: Fox, easy")
    table.clock.advance(AGAIN_SECONDS)
    press(table, "press")                            # the player's move
    mine = table.result.outcome
    assert table.screen == "result" and mine[0].endswith(" moves") and mine[0] != "Pi moves"
    settle_pi(table.pi)
    table.update()
    assert table.held_change.waiting                 # the Pi's answer waits behind it
    table.clock.advance(0.4)
    press(table, "press")                            # the bounce: held
    assert table.screen == "result" and table.result.outcome == mine
    table.clock.advance(AGAIN_SECONDS)
    press(table, "press")                            # read: the Pi's move to copy
    assert table.screen == "pi_moved"


@pytest.mark.parametrize("game", ["fox-and-geese", "domino-rex"])
def test_board_screen_a_flick_where_the_knob_picks_moves_the_pick(table, session, game):
    """A brisk twist of the heavy knob (5 detents at 30-40 a second) reads as a flick: in Fox
    and Geese (or Domino Rex after the lead) it was refused, "No throw now. Turn the knob to
    pick ...", the pick left where it was (64 of 100 twists at 30 a second). Where the knob
    picks, a flick moves the pick by the detents turned, as a turn does; nothing is
    recorded."""
    session.new_game(game, ["Red", "Blue"])
    table.update()
    while session.snapshot()["awaiting"] == "roll":
        session.roll(by="knob")                      # Domino Rex's lead
    for _ in range(10):
        table.clock.advance(30)
        table.update()
    assert table.screen == "play"
    snap = session.snapshot()
    events = len(session.store.events(session.game_id))
    picked = (table.move_index, table.choice_index)
    press(table, "flick", strength=0.3, detents=2)
    turned = (table.move_index, table.choice_index)
    press(table, "turn", detents=-2)
    assert turned != picked and (table.move_index, table.choice_index) == picked
    assert table.notice.text == "" and table.screen == "play"
    assert len(session.store.events(session.game_id)) == events


def test_board_screen_a_flick_on_the_pis_turn_says_how_it_moves(table, session):
    """The same on the Pi's turn, after an undo (the Pi waits to be asked): the flick says
    the knob's press makes it move."""
    start_with_pi(table, "fox-and-geese", "Pi: Fox, easy")
    table.clock.advance(AGAIN_SECONDS)
    press(table, "press")                              # the player's move
    wait_for_pi(table)
    press(table, "undo")                               # the Pi's move taken back
    wait_for_pi(table)
    assert table.pi.waiting and session.snapshot()["turn"] == 0
    table.clock.advance(AGAIN_SECONDS)
    press(table, "press")                              # the undo's notice read away
    table.clock.advance(AGAIN_SECONDS)
    events = len(session.store.events(session.game_id))
    press(table, "flick", strength=0.5)
    assert table.notice.text == "No throw now. Press the knob and the Pi moves."
    assert len(session.store.events(session.game_id)) == events


@pytest.fixture
def box(session, clock):
    """The box, the Pi's worker at rest: the Pi moves when the test says so."""
    c = Controller(session, controls=FakeControls(), seats=4, clock=clock)
    c.attach()
    c.pi.detach()
    yield c
    c.close()


def pis_reply_held(c, session, clock) -> dict:
    """Domino Rex, Ann against the Pi, to Ann's uncover from her phone being read on the box
    and the Pi's reply held back behind it, unshown: the game as the box drew it."""
    session.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="easy")
    c.update()
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web" if session.snapshot()["turn"] == 0 else "pi")
    c.update()
    press(c, "press")                            # past the dial
    clock.advance(60)
    c.update()
    while session.snapshot()["turn"] != 0:       # the Pi led: its opening uncover, shown
        session.submit({"type": "choose",
                        "value": session.snapshot()["players"][1]["covered"][0]}, by="pi")
        c.update()
        press(c, "press")
        clock.advance(60)
        c.update()
    snap = session.snapshot()
    session.submit({"type": "choose", "value": snap["players"][0]["covered"][0]}, by="web")
    c.update()
    assert c.screen == "result"                  # Ann's uncover, being read
    drawn = c.snap
    session.submit({"type": "choose",
                    "value": session.snapshot()["players"][1]["covered"][-1]}, by="pi")
    c.update()
    assert c.held_change.waiting and c.screen == "result"     # the Pi's reply, held back
    return drawn


def test_board_screen_an_undo_of_the_pis_reply_never_shown_says_what_to_set_back_if_done(
        box, session, clock):
    """Ann uncovered from her phone; the Pi's reply waited behind her result, unshown, and a
    phone took it back. The box said "Cover Pi's 1 again" of a square it had not asked anyone
    to uncover; then "Nothing to set back on the board", while the phones, which had shown the
    reply, said "Cover Pi's 1 again": a table copying the Pi's move from a phone kept the
    square bare. The box now says what the phones say, as what to do if it was done."""
    c = box
    drawn = pis_reply_held(c, session, clock)
    pis = session.snapshot()["log"][len(drawn["log"]):]
    session.undo(by="pin-0a1b2c")
    c.update()
    back = session.snapshot()["put_back"]        # the state's words, as the phones say them
    assert back and back[0].startswith("Cover Pi's ")
    from companion.words import joined
    assert c.notice.text == ("Taken back from a phone before it was shown here: "
                             + joined(pis) + ". If it was done on the board: "
                             + " ".join(back))
    assert c.screen == "play" and not c.held_change.waiting
    first = c.notice.text
    session.undo(by="pin-0a1b2c")                # then Ann's own uncover, shown: hers, after
    c.update()                                   # the first, still read
    from firmware.oled.views import undo_notice
    assert c.notice.text == f"{first} {undo_notice(session.snapshot(), 'from a phone')}"
    assert c.notice.text.lower().count("cover pi's") == 1 and "Cover Ann's" in c.notice.text


def uncovered_from_phones(c, session, clock, moves: int) -> None:
    """Domino Rex, Ann and Ben, `moves` uncovers from their phones, shown on the box and
    read."""
    session.new_game("domino-rex", ["Ann", "Ben"])
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web")
    for _ in range(moves):
        snap = session.snapshot()
        session.submit({"type": "choose",
                        "value": snap["players"][snap["turn"]]["covered"][-1]}, by="web")
    c.update()
    clock.advance(60)
    c.update()
    press(c, "press")


def test_board_screen_two_undos_taken_in_at_once_are_both_said(box, session, clock):
    """Two undos from phones a moment apart, the box taking in only the newest state: it said
    the second's square to cover, never the first's (the board kept a square uncovered)."""
    c = box
    uncovered_from_phones(c, session, clock, 3)
    first = session.undo(by="pin-0a1b2c")
    second = session.undo(by="pin-0a1b2c")
    c.update()                                   # both at once
    assert first["put_back"] and second["put_back"]
    from companion.words import undo_notice as said
    assert c.notice.text == said([*first["undone"], *second["undone"]],
                                [*first["put_back"], *second["put_back"]], "from a phone")


@pytest.mark.parametrize("together", [True, False])
def test_board_screen_a_pi_first_game_begun_from_a_phone_over_a_join_says_so(session, clock,
                                                                             together):
    """A phone began Domino Rex with the Pi first while Kat en Muis was being joined at the
    box: "From a phone: ... begun instead" went under the Pi's lead throw, never read. The
    Pi's first result says it first, whether its throw came with the game or after it."""
    instead = "From a phone: Domino Rex begun instead of the game joined here."
    c = Controller(session, controls=FakeControls(), seats=4, clock=clock)
    c.attach()
    c.pi.detach()                                    # the Pi moves when the test says so
    try:
        press(c, "press")
        press(c, "press")                            # the first game: join
        press(c, "seat", seat=0)
        session.new_game("domino-rex", ["Pi", "Ann"], pi=[0], pi_level="easy", by="web")
        if not together:
            c.update()                               # the game alone: nothing over the turn
            assert c.notice.text == "" and c.result.lead_in == [instead]
        session.roll(by="pi")
        c.update()
        if c.screen == "spin":
            press(c, "press")                        # past the dial
        assert c.screen == "result" and c.result.lines[0] == instead
        assert c.notice.text == "" and c.result.lead_in == []
    finally:
        c.close()


def test_board_screen_a_join_overtaken_is_said_over_the_pis_board_move_or_the_next_game(
        box, session, clock):
    """The Pi's board move (Fox and Geese, the Pi's Geese first) has no result to say "From a
    phone: ... begun instead of the game joined here." first: it was said a move late, on
    Ann's own. And a second game begun before the Pi's first move emptied it, never said."""
    c = box
    press(c, "press")
    press(c, "press")                            # the first game: join
    press(c, "seat", seat=0)
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy", by="web")
    c.update()
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy", by="web")
    c.update()                                   # again, before the Pi moved: still said
    snap = session.snapshot()
    assert snap["players"][snap["turn"]].get("pi")
    session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="pi")
    c.update()
    assert c.screen == "pi_moved" and c.notice.text == \
        "From a phone: Fox and Geese begun instead of the game joined here."
    assert c.result.lead_in == []


@pytest.mark.parametrize("way", ["two at once", "under the menu", "after a restart"])
def test_board_screen_undos_say_each_once_and_never_a_move_not_shown(box, session, clock, way):
    """Ann's uncover read, the Pi's reply held back unshown: two undos taken in at once said
    "Cover Pi's 6 again" of the reply as if the box had asked for it (now: "If it was done on
    the board: Cover Pi's 6 again", as the phones showed it); one under the menu, once the
    menu went, said the same; a box started again between two undos under the menu lost the
    first one."""
    c = box
    pis_reply_held(c, session, clock)
    if way == "two at once":
        pis = session.undo(by="pin-0a1b2c")
        hers = session.undo(by="pin-0a1b2c")
        c.update()
        from companion.words import undo_notice   # the Pi's reply: set back if it was done,
        back = pis["put_back"]                    # as the phones, which showed it, say
        assert c.notice.text == undo_notice(
            hers["undone"], [*hers["put_back"], "If it was done on the board:",
                             *back], "from a phone")
    elif way == "under the menu":
        press(c, "menu")
        session.undo(by="pin-0a1b2c")
        c.update()
        press(c, "menu")                         # back to the game
        assert c.notice.text.startswith("Taken back from a phone before it was shown here")
        assert "If it was done on the board: Cover Pi's " in c.notice.text
    else:
        c.close()
        c = Controller(session, controls=FakeControls(), seats=4, clock=clock)
        c.attach()
        c.pi.detach()
        press(c, "press")                        # "Resumed" read
        c.update()
        press(c, "menu")
        pis = session.undo(by="pin-0a1b2c")
        hers = session.undo(by="pin-0a1b2c")
        c.update()
        press(c, "menu")
        from companion.words import undo_notice
        assert c.notice.text == undo_notice([*pis["undone"], *hers["undone"]],
                                           [*pis["put_back"], *hers["put_back"]],
                                           "from a phone")
        c.close()


@pytest.mark.parametrize("then", ["a move", "an undo of it"])
def test_board_screen_an_undo_and_what_came_after_it_under_the_menu_are_both_said(
        box, session, clock, then):
    """Under the menu a phone took Ben's uncover back and Ben uncovered again: the log as long
    as before, the box showed neither (Ben's first square stayed bare on the board). Back on
    the game it says what to set back, then the new move; a move taken back too is said as
    never shown, with its lines (taken for the first undo, at the same place, it was said
    with none)."""
    c = box
    uncovered_from_phones(c, session, clock, 2)
    press(c, "menu")
    undone = session.undo(by="pin-0a1b2c")
    c.update()
    snap = session.snapshot()
    again = session.submit({"type": "choose",
                            "value": snap["players"][snap["turn"]]["covered"][0]}, by="web")
    c.update()
    if then == "an undo of it":
        session.undo(by="pin-0a1b2c")
        c.update()
    press(c, "menu")                             # back to the game
    from companion.words import undo_notice as said
    first = said(undone["undone"], undone["put_back"], "from a phone")
    if then == "a move":
        assert c.screen == "result" and c.result.lines[0] == first
        assert c.result.lines[1:] == [box_words(w) for w in again["log"][len(undone["log"]):]]
    else:
        back = session.snapshot()["put_back"]    # Ben's second square: his to cover again
        assert c.notice.text == first + " " + said(
            again["log"][len(undone["log"]):],
            ["If it was done on the board:", *back],
            "from a phone before it was shown here")


def test_board_screen_a_join_overtaken_is_not_said_on_the_boxs_own_next_game(box, session, clock):
    """The notice kept for the Pi's first move was said on the next game the box began itself
    ("From a phone: Fox and Geese begun instead ..." over Red's lead throw)."""
    c = box
    press(c, "press")
    press(c, "press")
    press(c, "seat", seat=0)
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy", by="web")
    c.update()
    assert c.result.lead_in                             # kept for the Pi's first move
    press(c, "menu")
    press(c, "turn", detents=c.menu_items.index("New game"))
    press(c, "press")
    press(c, "turn", detents=1)
    press(c, "press")                            # set aside, at the box: the games
    press(c, "press")                            # a game of the box's own: join
    assert c.screen == "join" and c.result.lead_in == []


def gantlope_at_the_box(session, c, names=("Ann", "Ben")):
    """Gantlope from a phone, its lead thrown, the box on the first turn's screen."""
    session.new_game("gantlope", list(names), by="web")
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web")
    c.update()
    for _ in range(3):
        press(c, "press")
        c.clock.advance(60)
        c.update()
    assert c.screen == "play", c.screen


def test_board_screen_a_rename_between_undos_never_says_the_first_again(box, session, clock):
    """小明 is drawn as "Red" until Ann is renamed Red: the undos' words, as the box draws
    names, changed with the rename, and the undo of the rename said the first undo again."""
    c = box
    gantlope_at_the_box(session, c, names=("小明", "Ann"))
    if session.snapshot()["turn"] != 0:          # 小明's turn to end, to be said by name
        session.roll(by="web")
        session.submit({"type": "next"}, by="web")
    session.roll(by="web")
    session.submit({"type": "next"}, by="web")
    c.update()
    for _ in range(3):                           # the throw and the turn's end, read
        press(c, "press")
        clock.advance(60)
        c.update()
    assert c.screen == "play", c.screen
    session.undo(by="web")
    c.update()
    assert "turn" in c.notice.text                # the ended turn, said once
    session.submit({"type": "rename", "seat": 1, "name": "Red"}, by="web")
    c.update()
    session.undo(by="web")                       # the rename taken back
    c.update()
    assert c.notice.text.startswith("Taken back from a phone: ") and \
        "is now called" in c.notice.text and "turn" not in c.notice.text, c.notice.text


def test_board_screen_an_ended_turn_never_shown_is_not_said_as_shown(box, session, clock):
    """Under the menu a phone threw, ended the turn and took both back: the box, back to the
    game as it had drawn it, said "the end of Ben's turn (Ben plays on)", a turn end it never
    showed, and not the throw."""
    c = box
    gantlope_at_the_box(session, c)
    press(c, "menu")
    session.roll(by="web")
    session.submit({"type": "next"}, by="web")
    session.undo(by="web")
    session.undo(by="web")
    c.update()
    press(c, "menu")                             # back to the game
    assert c.notice.text.startswith("Taken back from a phone before it was shown here: ")
    assert c.notice.text.endswith("Nothing to set back on the board.")
