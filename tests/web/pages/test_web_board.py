"""Fox and Geese from the phone: the board in the state, a move by PIN (POST
/api/control/move; an illegal one is a 4xx JSON and changes nothing), the Pi chosen in the
start form, and the board tapped in a real browser at 390x844."""

from __future__ import annotations

import os
import re

import pytest

from simulated_table import ROOT
from web_support import PIN, serving

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def fox(control):
    response = control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
    assert response.status_code == 200
    return response.get_json()


def test_web_board_move_by_pin(control, fox):
    assert fox["turn"] == 1 and ["c4", "c5"] in fox["board"]["moves"]
    response = control("move", {"path": ["c4", "c5"]})
    assert response.status_code == 200
    state = response.get_json()
    assert state["board"]["last_move"] == ["c4", "c5"] and state["turn"] == 0
    assert control("move", {"path": ["d4", "d5"]}, pin=None).status_code == 401


@pytest.mark.parametrize("body, status, words", [
    ({"path": ["d4", "d6"]}, 409, "the Fox cannot go d4 - d6"),
    ({"path": ["b2", "b3"]}, 409, "not a point of the board"),
    ({"path": "d4d5"}, 400, "'path' must be a list of point names"),
    ({"path": ["d4"]}, 400, "'path' must be a list"),
    ({"path": ["d4", 5]}, 400, "'path' must be a list"),
    ({}, 400, "'path' must be a list"),
])
def test_web_board_illegal_move_is_a_4xx_json_and_changes_nothing(control, fox, body, status,
                                                                   words):
    control("move", {"path": ["c4", "c5"]})
    before = control("undo").get_json()            # the same state, any version
    control("move", {"path": ["c4", "c5"]})
    response = control("move", body)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert before["board"]["moves"] != [] and control("next").status_code == 409


def test_web_board_new_game_with_the_pi(control, client):
    response = control("new-game", {"game": "fox-and-geese", "players": ["Pi", "Ben"],
                                    "pi": [0], "pi_level": "best"})
    assert response.status_code == 200
    assert response.get_json()["players"][0]["pi"] == "best"
    for body, words in (({"pi": [0], "pi_level": "hard"}, "'pi_level' must be one of"),
                        ({"pi": "0"}, "'pi' must be a list of seat numbers"),
                        ({"pi": [0, 1]}, "the Pi plays one side"),):
        response = control("new-game", {"game": "fox-and-geese", "players": ["Pi", "Ben"],
                                        **body})
        assert response.status_code in (400, 409) and words in response.get_json()["error"]
    response = control("new-game", {"game": "kat-en-muis", "players": ["Pi", "Ben"],
                                    "pi": [0]})
    assert response.status_code == 409 and "does not play Kat en Muis" in \
        response.get_json()["error"]


def test_web_board_start_form_offers_the_pi(client, control):
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    page = client.get("/").get_data(as_text=True)
    assert 'name="pi-fox-and-geese"' in page and 'name="pi-level-domino-rex"' in page
    assert 'name="pi-kat-en-muis"' not in page
    assert 'id="board-card" hidden' in page


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed")
def test_web_board_tapped_on_a_phone(app, control):
    from playwright.sync_api import sync_playwright
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
    ARTIFACTS.mkdir(exist_ok=True)
    with serving(app) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844},
                                          device_scale_factor=2, has_touch=True)
            context.set_default_timeout(10_000)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.goto(url + "/")
            page.fill("input[name=pin]", PIN)
            page.click("#control form button[type=submit]")
            page.wait_for_selector("#board-card:not([hidden]) [data-point=c4].goose")
            page.locator("[data-point=c1] .hit").tap()          # a goose with no move yet
            assert page.locator("#board-hint").inner_text() == \
                "The goose on c1 cannot move now: tap a goose that can move."   # it is there
            page.locator("[data-point=d4] .hit").tap()          # the Fox, on the Geese's move
            assert page.locator("#board-hint").inner_text() == \
                "That is the Fox: it is the Geese's move. Tap a goose that can move."
            page.locator("[data-point=c4] .hit").tap()
            page.wait_for_selector("[data-point=c5].target")
            assert page.locator("#board-hint").inner_text() == "Now tap where it goes."
            page.locator("#board-card").screenshot(path=str(ARTIFACTS / "board-chosen.png"))
            page.locator("[data-point=c5] .hit").tap()
            page.wait_for_selector("[data-point=c5].goose")
            page.locator("[data-point=d4] .hit").tap()          # the Fox, then a wrong step
            page.locator("[data-point=e5] .hit").tap()
            page.wait_for_selector("[data-point=e5].fox")
            page.screenshot(path=str(ARTIFACTS / "board-phone.png"), full_page=False)
            page.locator("#board-card").screenshot(path=str(ARTIFACTS / "board-card.png"))
            assert errors == []
        finally:
            browser.close()


def test_web_board_start_form_seats_the_pi_among_the_names(client, session):
    import re
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    client.post("/control/login", data={"pin": PIN, "csrf": token})
    token = re.search(r'name="csrf" value="([^"]+)"',
                      client.get("/").get_data(as_text=True)).group(1)
    response = client.post("/control/new-game", data={
        "csrf": token, "game": "fox-and-geese", "player": ["Ann", ""],
        "pi-fox-and-geese": "0", "pi-level-fox-and-geese": "best"})
    assert response.status_code == 303
    snap = session.snapshot()
    assert [p["name"] for p in snap["players"]] == ["Pi", "Ann"]
    assert snap["players"][0]["pi"] == "best" and snap["players"][0]["role"] == "fox"
    for side, fox_seat, names in (("fox", "1", ["Ann", "Pi"]), ("geese", "1", ["Pi", "Ann"]),
                                  ("geese", "0", ["Ann", "Pi"])):
        client.post("/control/new-game", data={
            "csrf": token, "game": "fox-and-geese", "player": ["Ann", ""],
            "option-fox-and-geese-fox_seat": fox_seat,
            "pi-fox-and-geese": side, "pi-level-fox-and-geese": "good"})
        players = session.snapshot()["players"]
        assert [p["name"] for p in players] == names      # the side chosen, whichever seat
        assert [p["role"] for p in players if p.get("pi")] == [side], (side, fox_seat)
    page = client.post("/control/new-game", data={
        "csrf": token, "game": "fox-and-geese", "player": ["Ann", "Pi"],
        "pi-fox-and-geese": "geese"}, follow_redirects=True).get_data(as_text=True)
    assert "the Pi takes one seat: type only the people&#39;s names." in page
    before = session.snapshot()["version"]
    for seat in ("99", "2", "-1"):                        # seats the form never offers
        page = client.post("/control/new-game", data={
            "csrf": token, "game": "fox-and-geese", "player": ["Ann", ""],
            "pi-fox-and-geese": seat}, follow_redirects=True).get_data(as_text=True)
        assert "Fox and Geese has seats 1 to 2: choose the Pi&#39;s from the list." in page \
            or "is not a seat number" in page, seat
    assert session.snapshot()["version"] == before               # no game was started


def test_web_board_api_board_data_lies_over_the_defaults(control, session):
    """JSON board data is laid over the shipped defaults, as a board file and an upload are:
    `vacant` alone once asked for `sideways`, a key it never sent."""
    response = control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"],
                                    "board": {"vacant": ["b4", "f4"]}})
    assert response.status_code == 200, response.get_json()
    board = session.snapshot()["board"]
    assert "b4" not in board["geese"] and "a4" in board["geese"]
    response = control("new-game", {"game": "cats-and-dogs", "players": ["Ann", "Ben"],
                                    "board": {"arrows": {"7": 15}}})
    assert response.status_code == 200, response.get_json()
    response = control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"],
                                    "board": {"vacant": ["a4"]}})       # F1: still checked whole
    assert response.status_code == 409 and "vacant" in response.get_json()["error"]
    response = control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"],
                                    "board": {"track": 3}})
    assert response.status_code == 409 and "no board data" in response.get_json()["error"]


@pytest.mark.parametrize("game, players, action, body", [
    ("fox-and-geese", ["Ann", "Pi"], "move", {"path": ["c4", "c5"]}),     # the Geese go first
    ("domino-rex", ["Pi", "Ann"], "roll", {}),
])
def test_web_board_no_phone_or_api_call_moves_for_the_pis_seat(client, control, session, game,
                                                               players, action, body):
    """The Pi's turn is the Pi's: a move, a throw or a choice for its seat from the PIN, the
    page or the API is refused (409) and changes nothing; the page offers no move for it and
    says the Pi moves by itself (the box asks it after an undo, and then says so)."""
    control("new-game", {"game": game, "players": players, "pi": [players.index("Pi")]})
    snap = session.snapshot()
    assert snap["players"][snap["turn"]]["pi"]
    response = control(action, body)
    assert response.status_code == 409
    assert response.get_json()["error"] == "It is the Pi's turn: the Pi moves by itself."
    assert session.snapshot()["version"] == snap["version"]
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    page = client.get("/").get_data(as_text=True)
    moves_card = page[page.index('id="moves"'):page.index("</div>", page.index('id="moves"'))]
    assert 'class="move"' not in moves_card
    assert " - the Pi moves by itself</p>" in page


def test_web_board_after_an_undo_the_page_says_the_pi_waits_for_the_knob(client, control,
                                                                        session):
    """"The Pi moves by itself (after an undo, press the knob at the box)" stood on every Pi
    turn, from the first: the page says the Pi waits only when it does, after an undo."""
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Pi"], "pi": [1]})
    snap = session.snapshot()
    assert "taken_back" not in snap
    session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="pi")
    control("undo")
    snap = session.snapshot()
    assert snap["taken_back"] is True and snap["players"][snap["turn"]]["pi"]
    waits = "the Pi waits after the undo: press the knob at the box for its move"
    response = control("move", {"path": snap["board"]["moves"][0]})
    assert response.status_code == 409
    assert response.get_json()["error"] == f"It is the Pi's turn: {waits}."
    assert f"Pi (Geese) - {waits}</p>" in client.get("/").get_data(as_text=True)  # watching
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    assert "Pi (Geese) - the Pi waits after the undo: Let the Pi move, or press the knob at " \
        "the box</p>" in client.get("/").get_data(as_text=True)      # its button is below
    session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="pi")   # asked
    assert "taken_back" not in session.snapshot()


def test_web_board_a_phone_asks_the_waiting_pi_to_move(client, control, session):
    """After an undo the Pi waits to be asked: `pi-move` asks it (through the program that
    runs the Pi, `session.ask_pi`), and only then; the page offers it as a move."""
    from web.moves import moves
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    response = control("pi-move")                          # said as it is: no Pi in this game
    assert response.status_code == 409 and response.get_json()["error"] == \
        "The Pi does not play in this game: nothing to ask it."
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Pi"], "pi": [1]})
    response = control("pi-move")
    assert response.status_code == 409 and "not waiting" in response.get_json()["error"]
    session.submit({"type": "move", "path": session.snapshot()["board"]["moves"][0]}, by="pi")
    control("undo")
    snap = session.snapshot()
    assert moves(snap) == [{"action": "pi-move", "label": "Let the Pi move"}]
    response = control("pi-move")                          # no program runs the Pi here
    assert response.status_code == 409 and "No Pi plays" in response.get_json()["error"]
    asked = []
    session.ask_pi = lambda: asked.append(True) or True
    assert control("pi-move").status_code == 200 and asked == [True]
    assert session.snapshot()["log"] == snap["log"]         # asked: its move comes by itself


def test_web_board_the_pis_seat_is_called_pi_and_no_person_is(control, session):
    """The box says "Pi moved a goose": a person called Pi beside the Pi, or the Pi's seat
    renamed, made the log and the box name different players."""
    response = control("new-game", {"game": "fox-and-geese", "players": ["Hal", " pi "],
                                    "pi": [0]})
    assert response.status_code == 409
    assert response.get_json()["error"] == \
        "Pi is the Pi's name: call the player at seat 2 otherwise."
    assert session.snapshot()["game"] is None
    off = control("new-game", {"game": "fox-and-geese", "players": ["Hal", "Pi"], "pi": [5]})
    assert off.status_code in (400, 409) and "Pi's name" not in off.get_json()["error"]
    assert "seat" in off.get_json()["error"]          # the seat is what is wrong, said first
    assert session.snapshot()["game"] is None
    assert control("new-game", {"game": "domino-rex", "players": ["Pi", "Ann"]}).status_code \
        == 200                                                  # no Pi at the table: any name
    control("new-game", {"game": "fox-and-geese", "players": ["Pi", "Ann"], "pi": [0]})
    version = session.snapshot()["version"]
    for body, words in (({"seat": 0, "name": "Hal"}, "The Pi's seat keeps its name, Pi."),
                        ({"seat": 1, "name": "PI"}, "Pi is the Pi's name: choose another.")):
        response = control("rename", body)
        assert response.status_code == 409 and response.get_json()["error"] == words
    assert session.snapshot()["version"] == version
    assert control("rename", {"seat": 1, "name": "Anna"}).status_code == 200


def test_web_board_the_pi_is_listed_without_a_button_and_cannot_be_renamed(client, control,
                                                                          session):
    """The forms listed "Pi (button 2)": the Pi presses no button, and its seat cannot be
    renamed (the table refuses it), yet the rename list offered it. Each person keeps their
    own seat's number, the Pi at seat 1 or before them."""
    control("new-game", {"game": "fox-and-geese", "players": ["Pi", "Ann"], "pi": [0]})
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    page = client.get("/").get_data(as_text=True)
    rename = page[page.index('id="rename"'):page.index("</form>", page.index('id="rename"'))]
    button = session.snapshot()["players"][1]["button"]
    assert re.findall(r'<option value="(\d)">([^<]*)</option>', rename) == \
        [("1", f"Ann (button {button})")]
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Pi"], "pi": [1]})
    page = client.get("/").get_data(as_text=True)
    rename = page[page.index('id="rename"'):page.index("</form>", page.index('id="rename"'))]
    assert re.findall(r'<option value="(\d)">([^<]*)</option>', rename) == [("0", "Ann (button 1)")]
    resign = page[page.index('data-seats="checkbox"'):page.index("</fieldset>",
                                                                 page.index('data-seats="checkbox"'))]
    assert "> Pi</label>" in resign and "Pi (button" not in page


def test_web_board_f3_the_foxs_count_is_headed_geese_taken(client, control, session):
    """F3: Fox and Geese has no points, yet the phone headed the Fox's geese taken "Score"."""
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"],
                         "board": {"vacant": ["a4", "g4"], "geese_to_pen": 16}})
    control("move", {"path": ["b4", "b5"]})
    control("move", {"path": ["d4", "b4"]})                  # the Fox must jump: 1 taken
    assert session.snapshot()["players"][0]["score"] == 1
    page = client.get("/").get_data(as_text=True)
    assert '<th scope="col" class="col-score">Geese taken</th>' in page
