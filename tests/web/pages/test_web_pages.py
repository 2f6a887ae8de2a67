"""The pages: status (/), its control forms with PIN and CSRF, /history, /fairness."""

import re

import pytest

from companion.buttons import SHADES
from companion.session import Session
from web import create_app, pages

from fakes import FakeClock
from web_support import FAST, PIN, play_to_the_end, seeds


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def login(client) -> str:
    """Log `client` in through the page's PIN form; returns its CSRF token."""
    token = csrf(client.get("/").get_data(as_text=True))
    response = client.post("/control/login", data={"pin": PIN, "csrf": token})
    assert response.status_code == 303
    return csrf(client.get("/").get_data(as_text=True))


@pytest.fixture
def logged_in(client):
    """A client logged in through the page's PIN form; returns its CSRF token."""
    return login(client)


def test_pages_status_idle_invites_a_game(client):
    """With no game, a phone is told where one is chosen: a phone without the PIN has no game
    form below (it said "or below" over the PIN box and pairing), a signed-in one has; the
    page carries the same words for status.js, which says them once a game ends."""
    page = client.get("/").get_data(as_text=True)
    watching = "Choose a game at the box, or enter the PIN below to start one here"
    assert "No game in play" in page and f'id="prompt">{watching}<' in page
    assert "or below" not in page and "start a game" in page     # the PIN form's own words
    assert '<noscript><meta http-equiv="refresh"' in page
    assert 'name="viewport"' in page
    token = csrf(page)
    assert client.post("/control/login", data={"pin": PIN, "csrf": token}).status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert 'id="prompt">Choose a game at the box, or below<' in page and watching not in page
    assert 'id="new-game"' in page                                   # the form it points to


def test_pages_status_shows_players_turn_and_log(client, kat, control):
    control("roll")
    page = client.get("/").get_data(as_text=True)
    assert "Kat en Muis" in page
    assert "Ben - throw the dice for the lead" in page
    assert 'class="dot button-1"' in page and 'class="dot button-2"' in page     # X12
    assert "Button 1, </span>Red<" in page and "Button 2, </span>Blue<" in page
    assert "Ann" in page and "Ben" in page
    assert "Last throw: Ann" in page
    log = page[page.index('id="log"'):]
    assert log.index("Ann throws") < log.index("Kat en Muis: Ann, Ben")     # newest first
    assert kat["commitment"] in page


def test_pages_status_a_game_with_nothing_thrown_shows_no_commitment(client, kat, control):
    """Fox and Geese throws nothing: its page said "Commitment: 6f1c..." over 0 throws, a
    promise about rolls there are none of. Kat en Muis keeps its "Dice commitment"."""
    line = re.compile(r'<p class="fine" id="commitment-line"( hidden)?>')
    assert line.search(client.get("/").get_data(as_text=True)).group(1) is None
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
    page = client.get("/").get_data(as_text=True)
    assert line.search(page).group(1) == " hidden"


def test_pages_status_kat_en_muis_calls_its_stakes_both_pots(client, kat, control):
    """K1, K8: each player stakes into their own pot and the winner takes both; "Pool" is what
    Life's Mishaps has (L1)."""
    page = client.get("/").get_data(as_text=True)
    assert '<span id="pool-label">Both pots</span>: <strong id="pool">6</strong> chips' in page
    control("new-game", {"game": "lifes-mishaps", "players": ["Ann", "Ben"]})
    page = client.get("/").get_data(as_text=True)
    assert '<span id="pool-label">Pool</span>:' in page


def test_pages_status_escapes_names(client, control):
    control("new-game", {"game": "kat-en-muis", "players": ["<b>Ann</b>", "Ben"]})
    page = client.get("/").get_data(as_text=True)
    assert "<b>Ann</b>" not in page and "&lt;b&gt;Ann&lt;/b&gt;" in page


def test_pages_status_is_read_only_without_the_pin(client, kat):
    page = client.get("/").get_data(as_text=True)
    assert 'name="pin"' in page
    assert "Start the game" not in page and "Move the chips" not in page


def test_pages_status_winners_at_the_end(client, kat, session):
    end = play_to_the_end(session)
    page = client.get("/").get_data(as_text=True)
    winner = end["players"][end["winners"][0]]["name"]
    assert f"{winner} wins" in page
    assert end["seed"] in page


def test_pages_form_login_wrong_pin_and_expired_form(client):
    token = csrf(client.get("/").get_data(as_text=True))
    response = client.post("/control/login", data={"pin": "1", "csrf": token},
                           follow_redirects=True)
    assert "Wrong PIN." in response.get_data(as_text=True)
    response = client.post("/control/login", data={"pin": PIN, "csrf": "stale"},
                           follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "That form had expired" in page and "Start the game" not in page


def test_pages_form_login_shows_the_controls(client, logged_in):
    page = client.get("/").get_data(as_text=True)
    assert "Start the game" in page and "Move the chips" in page and "Declare" in page
    assert 'name="pin"' not in page


def test_pages_form_new_game_with_options(client, logged_in, session):
    response = client.post("/control/new-game", data={
        "csrf": logged_in, "game": "kat-en-muis", "player": ["Ann", "Ben", "", ""],
        "option-kat-en-muis-purse": "12", "option-kat-en-muis-stake": "4"},
        follow_redirects=True)
    assert "New game started" in response.get_data(as_text=True)
    snap = session.snapshot()
    assert [p["name"] for p in snap["players"]] == ["Ann", "Ben"]
    assert snap["options"] == {"purse": 12, "stake": 4}


def test_pages_form_actions_need_the_csrf_token(client, logged_in, kat, session):
    response = client.post("/control/roll", data={"csrf": "forged"}, follow_redirects=True)
    assert "That form had expired" in response.get_data(as_text=True)
    assert session.snapshot()["rolls"] == 0
    client.post("/control/roll", data={"csrf": logged_in})
    assert session.snapshot()["rolls"] == 1


def test_pages_form_actions_need_the_login(client, kat, session):
    token = csrf(client.get("/").get_data(as_text=True))
    response = client.post("/control/roll", data={"csrf": token}, follow_redirects=True)
    assert "Enter the table" in response.get_data(as_text=True)
    assert session.snapshot()["rolls"] == 0


def test_pages_form_undo_transfer_and_refusals(client, logged_in, kat, session):
    client.post("/control/roll", data={"csrf": logged_in})
    client.post("/control/undo", data={"csrf": logged_in})
    assert session.snapshot()["rolls"] == 0
    page = client.post("/control/transfer", data={"csrf": logged_in, "from": "0", "to": "pool",
                                                  "amount": "two"}, follow_redirects=True)
    assert "enter a whole number" in page.get_data(as_text=True)
    client.post("/control/transfer", data={"csrf": logged_in, "from": "pool", "to": "1",
                                           "amount": "2", "reason": "spilled"})
    assert session.snapshot()["players"][1]["chips"] == 19
    page = client.post("/control/declare", data={"csrf": logged_in, "winners": ["0", "x"]},
                       follow_redirects=True).get_data(as_text=True)
    assert "is not a seat number" in page
    page = client.post("/control/declare", data={"csrf": logged_in, "winners": ["0"]},
                       follow_redirects=True).get_data(as_text=True)
    assert 'class="flash error"' in page and "Game ended" not in page
    assert session.snapshot()["phase"] == "lead"


def test_pages_form_free_play_with_a_randomizer_then_declare(client, logged_in, session):
    client.post("/control/new-game", data={
        "csrf": logged_in, "game": "free-play", "player": ["Ann", "Ben"],
        "option-free-play-randomizer": "indicator", "option-free-play-chips": "3"})
    snap = session.snapshot()
    assert snap["game"] == "free-play" and snap["randomizer"]["kind"] == "indicator"
    assert [p["chips"] for p in snap["players"]] == [3, 3]
    page = client.post("/control/new-game", data={
        "csrf": logged_in, "game": "free-play", "player": ["Cy"],
        "option-free-play-randomizer": "d7"}, follow_redirects=True).get_data(as_text=True)
    assert "Choose a randomizer from the list." in page and session.snapshot()["game_id"] == snap["game_id"]
    client.post("/control/new-game", data={"csrf": logged_in, "game": "free-play",
                                           "player": ["Cy", "Di"],
                                           "option-free-play-randomizer": "none"})
    page = client.post("/control/declare", data={"csrf": logged_in, "winners": ["1"]},
                       follow_redirects=True).get_data(as_text=True)
    assert "Game ended" in page and "Di wins" in page


def test_pages_form_offers_every_randomizer_the_box_offers(make_app, session):
    """The free-play ruling's spinners of 2 to 12, on the phone as on the box's dice screen:
    each option the form offers starts a game with one of the box's randomizers (a game a
    second: a signed-in phone's pace, web/access/pace.py)."""
    from firmware.oled.views import RANDOMIZERS
    clock = FakeClock()
    client = make_app(test_config={"CLOCK": clock}).test_client()
    logged_in = login(client)
    page = client.get("/").get_data(as_text=True)
    select = re.search(r'<select name="option-free-play-randomizer">(.*?)</select>', page, re.S)
    values = re.findall(r'<option value="([^"]+)"', select.group(1))
    started = []
    for value in values:
        clock.advance(1.0)
        client.post("/control/new-game", data={"csrf": logged_in, "game": "free-play",
                                               "player": ["Ann", "Ben"],
                                               "option-free-play-randomizer": value})
        started.append(session.snapshot()["randomizer"] or {"kind": "none"})
    box = [randomizer for _, randomizer in RANDOMIZERS]
    assert len(values) == len(box)
    assert [next(r for r in box if all(s.get(k) == v for k, v in r.items())) for s in started] \
        == box


def test_pages_form_unknown_action_is_404(client, logged_in):
    assert client.post("/control/teleport", data={"csrf": logged_in}).status_code == 404


def test_pages_history_lists_games_and_totals(client, control, session):
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    end = play_to_the_end(session)
    control("new-game", {"game": "kat-en-muis", "players": ["ann", "Cy"]})
    page = client.get("/history").get_data(as_text=True)
    winner = end["players"][end["winners"][0]]["name"]
    assert "Kat en Muis" in page and "2024-05-01" in page
    text = re.sub(r"<[^>]+>", "", page)
    assert "being played" in page and f'won by <strong class="won">{winner}</strong>' in page
    chips = {p["name"]: p["chips"] for p in end["players"]}
    button = {p["name"]: p["button"] for p in end["players"]}[winner]
    assert f"{button}Button {button}, " in text                            # X12: its badge
    assert f'{winner}</span> <span class="figure">{chips[winner]} chips' in page
    totals = page[page.index('id="totals"'):]
    rows = re.findall(r'<tr><td class="who">(\w+)</td><td>(\d+)</td><td>(\d+)</td></tr>', totals)
    assert ("Ann", "2", "1" if winner == "Ann" else "0") in rows
    assert ("Cy", "1", "0") in rows


def test_pages_history_free_play_shows_points_and_chips(client, session):
    """Free play that kept chips ends with both: the history gives each player's points and
    chips, as the table showed them (points alone hid what the chips settled)."""
    session.new_game("free-play", ["Ann", "Ben"], {"chips": 10})
    while session.snapshot()["phase"] != "play":              # the lead (a tie: again)
        session.roll()
    session.submit({"type": "press", "seat": 0})
    session.submit({"type": "transfer", "from": 1, "to": 0, "amount": 3, "reason": "a bet"})
    session.submit({"type": "declare", "winners": [0]})
    text = re.sub(r"<[^>]+>", "", client.get("/history").get_data(as_text=True))
    assert "Ann 1 pt · 13 chips" in text and "Ben 0 pts · 7 chips" in text


def test_pages_history_game_tells_the_log_in_words(client, kat, control):
    control("roll")
    page = client.get(f"/history/{kat['game_id']}").get_data(as_text=True)
    assert "Kat en Muis: Ann, Ben" in page and "for the lead" in page
    assert f"/api/games/{kat['game_id']}/log" in page


def test_pages_a_long_log_lists_its_newest_lines_and_pages_the_rest(client, session,
                                                                     monkeypatch):
    """The status page listed every line of the log in a reversed list (a long game froze a
    phone): now its newest LOG_SHOWN, numbered each, and a link to the line before them on the
    game's page, which shows LOG_PAGE lines a page."""
    monkeypatch.setattr(pages, "LOG_SHOWN", 5)
    monkeypatch.setattr(pages, "LOG_PAGE", 10)
    session.new_game("free-play", ["Ann", "Ben"], {"randomizer": {"kind": "none"}})
    for n in range(25):
        session.submit({"type": "press", "seat": n % 2})
    log, game = session.snapshot()["log"], session.game_id
    page = client.get("/").get_data(as_text=True)
    listed = re.search(r'<ol class="log" id="log"[^>]*>(.*?)</ol>', page, re.S)
    assert "reversed" not in listed.group(0).split(">")[0]
    assert re.findall(r'<li value="(\d+)">([^<]*)</li>', listed.group(1)) == [
        (str(n), log[n - 1]) for n in range(len(log), len(log) - 5, -1)]
    earlier = len(log) - 5                                    # 22: on the third page
    assert f'href="/history/{game}?page=3#line-{earlier}"' in page
    assert f"The newest 5 of {len(log)} lines." in page
    third = client.get(f"/history/{game}?page=3").get_data(as_text=True)
    assert 'start="21"' in third and f'<li id="line-{earlier}">{log[earlier - 1]}</li>' in third
    assert re.findall(r'<li id="line-(\d+)">', third) == [str(n) for n in range(21, 28)]
    assert f'href="/history/{game}?page=2" rel="prev"' in third and 'rel="next"' not in third
    assert client.get(f"/history/{game}?page=99").get_data(as_text=True) == third   # the last
    first = client.get(f"/history/{game}").get_data(as_text=True)
    assert 'start="1"' in first and f'href="/history/{game}?page=2" rel="next"' in first
    for bad in ("0", "abc", "-1"):
        assert client.get(f"/history/{game}?page={bad}").status_code == 400


def test_pages_history_missing_game_is_404(client):
    response = client.get("/history/42", headers={"Accept": "text/html"})
    assert response.status_code == 404 and "Back to the table" in response.get_data(as_text=True)


def test_pages_fairness_shows_histogram_test_and_verification(client, control, session):
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    end = play_to_the_end(session)
    control("new-game", {"game": "cats-and-dogs", "players": ["Cy", "Di"]})
    control("roll")
    page = client.get("/fairness").get_data(as_text=True)
    assert "Dice" in page and "Spinner of 6" in page
    assert page.count('class="bar"') == 12
    assert "Chi-square test" in page or "Too few throws" in page
    assert end["seed"] in page and "match the committed seed" in page
    assert "revealed when the game is over" in page


def test_pages_fairness_says_how_to_check_and_its_way_works(client, control, session, tmp_path,
                                                           capsys):
    """The fairness page showed seeds and ticks but not how anyone checks them, nor which game
    each was (no link); the game's page said "Dice check" in a spinner game. Now it says how,
    the way it says works on the game's own downloaded log, and each game links to its page."""
    from firmware.cli import main
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    end = play_to_the_end(session)
    game_id = end["game_id"]
    page = client.get("/fairness").get_data(as_text=True)
    how = page[page.index('id="how-to-check"'):]
    assert "parlour verify" in how and "download its log" in how
    assert f'href="/history/{game_id}"><strong>#{game_id} ' in page      # its page, linked
    log = tmp_path / "the-log.jsonl"
    log.write_bytes(client.get(f"/api/games/{game_id}/log").get_data())
    assert main(["verify", str(log)]) == 0                        # the way it names
    said = capsys.readouterr().out.strip()
    assert said.endswith("match the committed seed.") and said in page
    game = client.get(f"/history/{game_id}").get_data(as_text=True)
    assert "Dice check" not in game and "Fairness check: " + said in game
    assert 'href="/fairness#how-to-check"' in game
    assert 'href="/fairness#how-to-check"' in client.get("/").get_data(as_text=True)


def test_pages_fairness_empty_table(client):
    assert "No throws yet" in client.get("/fairness").get_data(as_text=True)


@pytest.mark.parametrize("game", sorted(__import__("companion.games").games.GAMES))
def test_pages_render_every_game(client, control, session, game):
    from companion.games import GAMES
    rulebook = GAMES[game]
    players = [f"P{n}" for n in range(1, max(rulebook.min_players, 2) + 1)]
    players = players[:rulebook.max_players]
    assert control("new-game", {"game": game, "players": players}).status_code == 200
    if session.snapshot()["awaiting"] == "roll":
        control("roll")
    for path in ("/", "/history", f"/history/{session.snapshot()['game_id']}", "/fairness"):
        response = client.get(path)
        assert response.status_code == 200, path
    from markupsafe import escape
    assert str(escape(rulebook.title)) in client.get("/").get_data(as_text=True)


def test_pages_form_rename_and_set_aside(client, logged_in, kat, session):
    page = client.post("/control/rename", data={"csrf": logged_in, "seat": "1", "name": "Bea"},
                       follow_redirects=True).get_data(as_text=True)
    assert "Renamed" in page and session.snapshot()["players"][1]["name"] == "Bea"
    game_id = session.game_id
    page = client.post("/control/end", data={"csrf": logged_in},
                       follow_redirects=True).get_data(as_text=True)
    assert "Game set aside" in page
    assert session.store.game(game_id).status == "abandoned"


def test_pages_form_new_game_with_a_board_file(client, logged_in, session):
    import io
    board = (io.BytesIO(b"track_length = 38\n[arrows]\n7 = 15\n"), "our-board.toml")
    response = client.post("/control/new-game", data={
        "csrf": logged_in, "game": "cats-and-dogs", "player": ["Ann", "Ben"], "board": board},
        content_type="multipart/form-data", follow_redirects=True)
    assert "New game started" in response.get_data(as_text=True)
    first = session.export_log(session.game_id)[0]
    assert first["board"] == {"track_length": 38, "arrows": {"7": 15}}


@pytest.mark.parametrize("content, message", [
    (b"track_length = \n", "not valid TOML"),
    (b"track_length = 5\n", "track_length"),
    (b"# ours\ntrack_lenght = 40\n", "bad.toml&#39;, line 2: unknown key"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_pages_form_bad_board_file_starts_nothing(client, logged_in, session, content, message):
    import io
    response = client.post("/control/new-game", data={
        "csrf": logged_in, "game": "cats-and-dogs", "player": ["Ann", "Ben"],
        "board": (io.BytesIO(content), "bad.toml")},
        content_type="multipart/form-data", follow_redirects=True)
    assert message in response.get_data(as_text=True)
    assert session.snapshot()["phase"] == "idle"


# -- X12: seat buttons and their colours ----------------------------------------------------

def test_pages_x12_form_rows_are_buttons_an_empty_row_moves_no_one(client, logged_in, session):
    client.post("/control/new-game", data={
        "csrf": logged_in, "game": "lifes-mishaps", "player": ["Ann", "", "Cy", ""],
        "button": ["4"]})
    snap = session.snapshot()
    assert [(p["name"], p["button"]) for p in snap["players"]] == [
        ("Ann", 1), ("Cy", 3), ("Yellow", 4)]              # ticked, unnamed: its colour


def test_pages_x12_form_refuses_a_button_the_box_has_not(client, logged_in, session):
    response = client.post("/control/new-game", data={
        "csrf": logged_in, "game": "kat-en-muis", "player": ["Ann"], "button": ["1", "7"]},
        follow_redirects=True)
    assert "There is no seat button 7" in response.get_data(as_text=True)
    assert session.snapshot()["game"] is None


def test_pages_x12_new_game_form_offers_the_box_buttons(make_app, session):
    from companion.buttons import ButtonColour
    app = make_app(buttons=[ButtonColour("Ivory", "#fffff0"), ButtonColour("Jade", "#00a86b")])
    client = app.test_client()
    token = csrf(client.get("/").get_data(as_text=True))
    client.post("/control/login", data={"pin": PIN, "csrf": token})
    page = client.get("/").get_data(as_text=True)
    form = page[page.index('id="new-game"'):page.index("</form>", page.index('id="new-game"'))]
    assert form.count('name="button"') == 2 and 'placeholder="Jade"' in form
    assert "Button 2, </span>Jade<" in form
    css = client.get("/buttons.css")
    assert css.mimetype == "text/css"
    rules = css.get_data(as_text=True)
    assert ".button-1 { --button: #fffff0; --button-ink: #000000; }" in rules
    assert ".button-2 { --button: #00a86b; --button-ink: #000000; }" in rules   # 6.8:1, not 3.1
    assert ".button-3 { --button: #8a8a8a;" in rules          # no such button here: grey


def contrast(one: str, two: str) -> float:
    """WCAG's contrast ratio of two "#rrggbb" colours."""
    def luminance(css: str) -> float:
        r, g, b = ((c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
                   for c in (int(css[i:i + 2], 16) / 255 for i in (1, 3, 5)))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("shade", sorted({*SHADES.values(), "#00a86b", "#808080", "#767676"}))
def test_pages_x12_a_seats_number_reads_on_its_button_at_4_5_to_1(shade):
    """A seat's number on its button's dot is small text: white on Green, Orange, Pink, Grey
    and Cyan read at 2.5 to 4.3:1; black or white, whichever is higher, is 4.5:1 or more."""
    from web.pages import ink
    assert contrast(ink(shade), shade) >= 4.5


def test_pages_x12_players_show_their_button_not_their_seat(client, logged_in, control,
                                                            session):
    control("new-game", {"game": "cats-and-dogs", "players": ["Ann", "Ben"], "buttons": [6, 2]})
    page = client.get("/").get_data(as_text=True)
    assert '<option value="0">Ann (button 6)</option>' in page                 # the forms too
    players = page[page.index('id="players"'):page.index("</table>", page.index('id="players"'))]
    rows = re.findall(r'class="dot button-(\d)".*?Button \d, </span>(\w+)<.*?class="name">(\w+)',
                      players, re.S)
    assert rows == [("6", "Black", "Ann"), ("2", "Blue", "Ben")]
    history = re.sub(r"<[^>]+>", "", client.get("/history").get_data(as_text=True))
    history = history.replace("&nbsp;", " ")           # the dot kept with the name's start
    assert "6Button 6, Black Ann" in history and "2Button 2, Blue Ben" in history
    game = client.get(f"/history/{session.game_id}").get_data(as_text=True)
    assert 'class="dot button-6"' in game and "Button 6, </span>Black<" in game


def test_pages_x12_api_buttons_checked(control, session):
    answer = control("new-game", {"game": "kat-en-muis", "players": ["A", "B"], "buttons": "12"})
    assert answer.status_code == 400 and "'buttons'" in answer.get_json()["error"]
    answer = control("new-game", {"game": "kat-en-muis", "players": ["A", "B"], "buttons": [3, 3]})
    assert answer.status_code == 409
    assert answer.get_json()["error"] == "two players cannot share seat button 3"
    assert session.snapshot()["game"] is None


def test_pages_x12_the_pis_seat_shows_no_button(client, control):
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Pi"], "pi": [1]})
    page = client.get("/").get_data(as_text=True)
    players = page[page.index('id="players"'):page.index("</table>", page.index('id="players"'))]
    assert players.count('class="dot button-') == 1                    # Ann's only
    assert '<span class="marker">Pi</span>' in players


def test_pages_history_past_the_last_page_says_so(client, control):
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    page = client.get("/history?page=99").get_data(as_text=True)
    assert "past the last page" in page and "No games have been played" not in page
    assert "Kat en Muis" in client.get("/history?page=1").get_data(as_text=True)


def test_pages_x12_history_shows_no_button_for_the_pi(client, control):
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Pi"], "pi": [1]})
    page = client.get("/history").get_data(as_text=True)
    rows = page[page.index('id="games"'):page.index("</ol>")]
    assert rows.count('class="dot button-') == 1 and "Pi" in rows


def test_pages_gantlope_men_in_the_goal_show_beside_the_player(client, session):
    """Gantlope's men home in the Goal are on the phone (and the OLED's standing), not only in
    the log."""
    from firmware.oled.views import standing
    session.new_game("gantlope", ["Ann", "Ben"])
    for _ in range(20):
        snap = session.snapshot()
        if snap["phase"] == "play" and snap["awaiting"] != "roll":
            break
        session.roll()
    session.submit({"type": "press", "seat": snap["turn"]})
    snap = session.snapshot()
    assert snap["players"][snap["turn"]]["in_goal"] == 1
    page = client.get("/").get_data(as_text=True)
    assert "1 in Goal" in page
    assert '<th scope="col" class="col-role">Now</th>' in page
    assert "1 in Goal" in standing(snap, snap["turn"])


def test_pages_ld2_who_has_the_diamond_shows_beside_the_player(client, session):
    """Once "Ben takes the Lost Diamond" scrolled past, neither the phone nor the OLED said
    who had it, and LD2 hangs on that."""
    from firmware.oled.views import score_rows, standing
    session.new_game("lost-diamond", ["Ann", "Ben"])
    while session.snapshot()["phase"] == "lead":
        session.roll()
    page = client.get("/").get_data(as_text=True)
    assert "has the diamond" not in page
    turn = session.snapshot()["turn"]
    snap = session.submit({"type": "press", "seat": turn})          # a Field move takes it
    page = client.get("/").get_data(as_text=True)
    rows = page[page.index('id="players"'):page.index("</table>")]
    assert rows.count("has the diamond") == 1
    name = snap["players"][turn]["name"]
    assert rows.index(name) < rows.index("has the diamond")
    assert '<th scope="col" class="col-role">Now</th>' in rows
    assert standing(snap, turn) == "has the diamond" and standing(snap, 1 - turn) == ""
    assert [row.figure for row in score_rows(snap)].count("has the diamond") == 1


@pytest.mark.parametrize("game, squares", [("kat-en-muis", True), ("cats-and-dogs", True),
                                            ("lost-diamond", False), ("india", False),
                                            ("free-play", False), ("fox-and-geese", False)])
def test_pages_a_square_column_only_where_the_companion_keeps_squares(client, session, game,
                                                                     squares):
    """The assisted games showed a "Square" column of "—" for men that were on the board:
    the companion does not keep their squares, so the column is not there."""
    session.new_game(game, ["Ann", "Ben"])
    page = client.get("/").get_data(as_text=True)
    head = re.search(r'<th scope="col" class="col-square"( hidden)?>Square</th>', page)
    assert head is not None and (head.group(1) is None) == squares


def role_head(page: str) -> str | None:
    """The Role column's heading, None while the column is hidden."""
    head = re.search(r'<th scope="col" class="col-role"( hidden)?>([^<]*)</th>', page)
    assert head is not None
    return None if head.group(1) else head.group(2)


@pytest.mark.parametrize("game, heading", [("lifes-mishaps", None), ("cats-and-dogs", None),
                                           ("india", None), ("gantlope", None),
                                           ("lost-diamond", None), ("fox-and-geese", "Role"),
                                           ("cats-and-mice", "Role")])
def test_pages_a_role_column_only_where_a_player_has_a_role_or_a_standing(client, session,
                                                                         game, heading):
    """Life's Mishaps, Cats and Dogs and India showed a "Role" heading over an empty column:
    the column is there only where a player has something in it."""
    session.new_game(game, ["Ann", "Ben"])
    page = client.get("/").get_data(as_text=True)
    assert role_head(page) == heading
    rows = page[page.index("<tbody>"):page.index("</tbody>")]
    hidden = rows.count('<td class="col-role" hidden>')
    assert hidden == (2 if heading is None else 0)


def test_pages_kat_en_muis_roles_head_their_column_once_the_lead_gives_them(client, session):
    """Cat and Mouse come with the lead (K2): no column before it, "Role" after."""
    snap = session.new_game("kat-en-muis", ["Ann", "Ben"])
    assert role_head(client.get("/").get_data(as_text=True)) is None
    while snap["phase"] == "lead":
        snap = session.roll()
    page = client.get("/").get_data(as_text=True)
    assert role_head(page) == "Role"
    assert '<td class="col-role">Cat</td>' in page and '<td class="col-role">Mouse</td>' in page
    assert "(Cat)" in page.split('id="prompt">', 1)[1].split("<", 1)[0]    # as the prompt says


def test_pages_d1_domino_rex_lead_die_is_a_throw_once_play_begins(client, session):
    """Play has no randomizer, so the lead's last throw read "Last roll: Ben 2" on the phone
    (and "Last throw" during the lead); the box says "Ben throws"."""
    snap = session.new_game("domino-rex", ["Ann", "Ben"])
    for _ in range(20):
        if snap["phase"] == "play":
            break
        snap = session.roll()
    assert snap["phase"] == "play" and snap["randomizer"] is None and snap["last_roll"]
    page = client.get("/").get_data(as_text=True)
    caption = page.split('id="roll-text">', 1)[1].split("<", 1)[0]
    assert caption.startswith("Last throw: ")


def test_pages_domino_rex_squares_are_named_by_what_they_do(client, logged_in, session):
    """A screen reader read a square to uncover as "4", and the eye saw a bare 4 where the box
    says "uncover a 4: 4+3=7": the page without its script names each square by what it does
    (D2: the sum, and the checker it moves) and shows the sum and the move under its spots
    (moves.js does the same, tested in chromium)."""
    snap = session.new_game("domino-rex", ["Ann", "Ben"])
    for _ in range(20):
        if snap["awaiting"] == "choose":
            break
        snap = session.roll()
    assert snap["awaiting"] == "choose"
    page = client.get("/").get_data(as_text=True)
    opening = re.findall(r'aria-label="Uncover a (\d): it opens the game; nothing moves">'
                         r'<span class="spots">(\d)</span> <span class="detail"><span>opens '
                         r'the game</span></span>', page)
    assert opening and all(said == shown for said, shown in opening)
    turn = snap["turn"]
    first = snap["players"][turn]["covered"][0]
    snap = session.submit({"type": "choose", "value": first})     # the opening: 3 moves nothing
    player = snap["players"][snap["turn"]]
    page = client.get("/").get_data(as_text=True)
    shown = re.findall(r'aria-label="Uncover a (\d): (\d) \+ (\d) = (\d+)[^"]*">'
                       r'<span class="spots">(\d)</span> <span class="detail"><span>'
                       r'(\d)\+(\d)=(\d+)</span><span>([^<]+)</span>', page)
    assert sorted({int(m[0]) for m in shown}) == sorted(set(player["covered"]))
    for said, a, b, total, spots, a2, b2, total2, effect in shown:
        assert said == a == spots == a2 and b == b2 == str(first)
        assert int(total) == int(total2) == int(said) + first
        assert effect == ("into Domino" if 7 <= int(total) <= 11 else "no checker")
    assert 'id="roll-text">Last uncovered: %d<' % first in page        # not the lead's die
    assert "; covered:" not in page.split('id="prompt">', 1)[1].split("<", 1)[0]
    assert 'class="checkers" role="img" aria-label="Checkers: 7, 8, 9, 10 and 11 in the Rex ' \
           'row"' in page


def test_pages_k1_kat_en_muis_squares_say_whose_numbering(client, session):
    """The board numbers its path twice, red from the Cat's corner and black from the Mouse's,
    and a player's square is in their own numbering: "sq 12" on the box and "12" on the phone
    did not say which of the two numbers on the square to read. Both say "red 12" for the Cat
    and "black 55" for the Mouse (the CLI too, `test_cli_replay_*`); other games say "sq 12"."""
    from firmware.oled.views import standing
    snap = session.new_game("kat-en-muis", ["Ann", "Ben"])
    for _ in range(60):
        if snap["phase"] == "play" and all(p["position"] for p in snap["players"]):
            break
        snap = session.roll()
    colour = {"cat": "red", "mouse": "black"}
    expected = [f"{colour[p['role']]} {p['position']}" for p in snap["players"]]
    page = client.get("/").get_data(as_text=True)
    rows = page[page.index('id="players"'):page.index("</table>")]
    assert sorted(re.findall(r'<td class="col-square">([^<]*)</td>', rows)) == sorted(expected)
    assert [standing(snap, seat).split(" · ")[0] for seat in (0, 1)] == expected
    snap = session.new_game("cats-and-dogs", ["Ann", "Ben"])
    for _ in range(60):
        if snap["phase"] == "play" and snap["players"][snap["turn"]]["position"]:
            break
        snap = session.roll()
    assert standing(snap, snap["turn"]).startswith("sq ")


def test_pages_c2_cats_and_dogs_start_is_called_start(client, session):
    """Square 0 read "0" on the phone and "sq 0" on the OLED: it is the Start."""
    from firmware.oled.views import standing
    snap = session.new_game("cats-and-dogs", ["Ann", "Ben"])
    while snap["phase"] == "lead":
        snap = session.roll()
    assert snap["players"][0]["position"] == 0
    rows = client.get("/").get_data(as_text=True)
    rows = rows[rows.index('id="players"'):rows.index("</table>")]
    assert rows.count('<td class="col-square">Start</td>') == 2
    assert standing(snap, 0) == "at Start"


def test_pages_c1_players_are_listed_in_the_order_of_play(app):
    """Cats and Dogs with 4: Cy, Ann, Ben, Dee play in that order (C1), and the phone and the
    OLED listed them by seat: nothing told the table who came next."""
    from flask import render_template

    from companion.replay import replay
    from companion.state import row_order
    from firmware.oled.views import score_rows
    state = replay([{"type": "new_game", "game": "cats-and-dogs",
                     "players": ["Ann", "Ben", "Cy", "Dee"]}] +
                   [{"type": "roll", "values": [v]} for v in (6, 3, 6, 3, 1, 2, 5, 4)]).to_json()
    assert [row.name for row in score_rows(state)] == ["Cy", "Ann", "Ben", "Dee"]
    with app.test_request_context():
        page = render_template("parts/players.html", state=state, row_order=row_order(state),
                               show={}, button_names=["Red", "Blue", "Green", "Yellow"])
    at = [page.index(f'class="name">{name}') for name in ("Cy", "Ann", "Ben", "Dee")]
    assert at == sorted(at)


NO_LAST_GAME = '<p class="note" id="last-game" hidden></p>'     # its place, for status.js


def test_pages_with_no_game_in_play_the_last_one_is_a_tap_away(client, session, store):
    """After a restart (or a game set aside) the page said "No game yet" after eleven games,
    and a finished game's record and BG Stats link were gone from it: it now names the last
    game and links to its page, where both are."""
    assert NO_LAST_GAME in client.get("/").get_data(as_text=True)           # none stored yet
    won = session.new_game("fox-and-geese", ["Ann", "Ben"])["game_id"]
    session.submit({"type": "declare", "winners": [1]}, by="test")
    assert NO_LAST_GAME in client.get("/").get_data(as_text=True)           # still shown
    restarted = create_app(Session(store, new_seed=lambda: bytes(32)), pin=PIN,
                           test_config={"TESTING": True}).test_client()
    page = restarted.get("/").get_data(as_text=True)
    assert "No game in play" in page
    line = page.split('id="last-game"', 1)[1].split("</p>", 1)[0]
    assert f'href="/history/{won}"' in line and "Fox and Geese" in line
    assert "finished (Ben won)" in " ".join(line.split())
    aside = session.new_game("kat-en-muis", ["Cy", "Dee"])["game_id"]
    assert NO_LAST_GAME in client.get("/").get_data(as_text=True)           # one in play
    assert client.get("/last-game").get_data(as_text=True).strip() == NO_LAST_GAME
    session.abandon(by="test")                                              # set aside
    line = client.get("/").get_data(as_text=True).split('id="last-game"', 1)[1]
    assert f'href="/history/{aside}"' in line.split("</p>", 1)[0]
    assert "Kat en Muis</a>, set aside," in " ".join(line.split("</p>", 1)[0].split())
    fetched = client.get("/last-game")                  # what an open page asks for (live)
    assert fetched.headers["Cache-Control"] == "no-store"
    assert fetched.get_data(as_text=True).split('id="last-game"', 1)[1].split("</p>")[0] == \
        line.split("</p>", 1)[0]


def test_pages_fox_seat_is_offered_in_players_words(client, logged_in, session):
    """The form asked for "Fox seat (seat of the Fox: 0 the first player, 1 the second)": a
    number counted from 0, where everything players read counts from 1. It offers the first
    or the second player, and the game records the option as before."""
    page = client.get("/").get_data(as_text=True)
    field = page.split('name="option-fox-and-geese-fox_seat"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="(\d)"( selected)?>([^<]+)<', field) == \
        [("0", " selected", "the first player"), ("1", "", "the second player")]
    assert "0 the first player" not in page
    client.post("/control/new-game", data={"csrf": logged_in, "game": "fox-and-geese",
                                           "player": ["Ann", "Ben"],
                                           "option-fox-and-geese-fox_seat": "1"})
    roles = [p["role"] for p in session.snapshot()["players"]]
    assert roles == ["geese", "fox"]


def test_pages_an_undo_says_what_it_took_back(client, logged_in, session):
    """The phone answered an undo with "Undone", whatever it was: it names the lines."""
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    session.submit({"type": "rename", "seat": 0, "name": "Ada"}, by="test")
    line = session.snapshot()["log"][-1]
    answer = client.post("/control/undo", data={"csrf": logged_in},
                         headers={"Accept": "application/json"}).get_json()
    now = session.snapshot()
    assert answer.pop("state") == now                   # the state it led to, for the page
    assert answer == {"ok": True, "message": f"Taken back: {line}",
                      "game_id": now["game_id"], "turn": now["turn"]}   # the turn it stays for
    assert now["players"][0]["name"] == "Ann"


def clock_column(page: str) -> tuple[bool, list[str]]:
    """Whether the Clock column shows, and its cells top to bottom."""
    head = re.search(r'<th scope="col" class="col-clock"( hidden)?>Clock</th>', page)
    assert head is not None
    cells = re.findall(r'<td class="col-clock"(?: hidden)?>([^<]*)</td>', page)
    return head.group(1) is None, cells


@pytest.mark.parametrize("seconds, words", [(0, "0:00"), (59.9, "0:59"), (61, "1:01"),
                                            (3599, "59:59"), (3600, "1:00:00"),
                                            (3725.5, "1:02:05"), (-3, "0:00")])
def test_pages_f1_clock_text_is_minutes_and_seconds_then_hours(seconds, words):
    from web.pages import clock_text
    assert clock_text(seconds) == words


def test_pages_f1_fox_and_geese_shows_each_players_thinking_clock(client, session,
                                                                  monkeypatch):
    """F1's clocks were in the state JSON and shown nowhere: a Clock column with each player's
    thinking time, the one to move's running up to the table's time now."""
    from datetime import datetime, timezone
    import web.pages
    snap = session.new_game("fox-and-geese", ["Ann", "Ben"])           # stamped 19:00:00
    snap = session.submit({"type": "move", "path": snap["board"]["moves"][0]})   # 19:00:01
    assert snap["clock"] == {"seat": 0, "since": "2024-05-01T19:00:01"}
    monkeypatch.setattr(web.pages, "server_now",
                        lambda: datetime(2024, 5, 1, 19, 2, 5, 600000, timezone.utc))
    assert clock_column(client.get("/").get_data(as_text=True)) == (True, ["2:04", "0:01"])
    monkeypatch.setattr(web.pages, "server_now",
                        lambda: datetime(2024, 5, 1, 20, 0, 1, tzinfo=timezone.utc))
    page = client.get("/").get_data(as_text=True)
    assert clock_column(page) == (True, ["1:00:00", "0:01"])
    assert 'data-now="2024-05-01T20:00:01.000+00:00"' in page
    session.submit({"type": "declare", "winners": [1]})               # over: no clock runs
    assert clock_column(client.get("/").get_data(as_text=True)) == (True, ["0:01", "0:01"])


def test_pages_f1_a_wall_clock_jump_mid_game_is_not_charged_to_the_running_clock(store):
    """Events are stamped by the table's clock, which a jump of the wall clock (NTP at home,
    a Pi with no real-time clock) does not move mid-game; the page read the running clock
    against the wall clock, so the player to move showed hours of thinking."""
    from datetime import datetime, timedelta, timezone
    from firmware.stamps import TableClock
    wall, ticks = [datetime(2024, 5, 1, 19, 0, tzinfo=timezone.utc)], [100.0]
    stamps = TableClock(wall=lambda: wall[0], monotonic=lambda: ticks[0])
    seed = seeds()
    session = Session(store, new_seed=lambda: next(seed), clock=stamps)
    client = create_app(session, pin=PIN, test_config=FAST, table_time=stamps.now).test_client()
    snap = session.new_game("fox-and-geese", ["Ann", "Ben"])
    ticks[0] += 5
    session.submit({"type": "move", "path": snap["board"]["moves"][0]})     # Ben: 5 s
    ticks[0] += 65                                                           # Ann thinks
    wall[0] += timedelta(hours=3, seconds=65)                                # and NTP comes
    page = client.get("/").get_data(as_text=True)
    assert clock_column(page) == (True, ["1:05", "0:05"])
    assert 'data-now="2024-05-01T19:01:10.000+00:00"' in page               # the phone's too


def test_pages_f1_a_clock_column_only_in_games_with_clocks(client, session):
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    assert clock_column(client.get("/").get_data(as_text=True)) == (False, ["", ""])


def test_pages_the_form_links_each_games_own_board_file(client, logged_in):
    """The form's board data note pointed a phone at companion/boards/, a folder of the source:
    it links each game's shipped file, which parses as the game's board data."""
    import tomllib
    from companion.boarddata import default_board
    from companion.games import GAMES
    page = client.get("/").get_data(as_text=True)
    assert "companion/boards" not in page
    linked = re.findall(r'<a href="/boards/([a-z-]+)\.toml">', page)
    assert linked and set(linked) == {g for g in GAMES if default_board(g)}
    for game in linked:
        answer = client.get(f"/boards/{game}.toml")
        assert answer.status_code == 200 and answer.mimetype == "text/plain"
        assert tomllib.loads(answer.get_data(as_text=True)) == default_board(game)
    none = client.get("/boards/kat-en-muis.toml")                         # none shipped: said
    assert none.status_code == 404 and none.get_json() == {
        "error": "Kat en Muis has no board data: nothing on its board can be changed by a file"}
    unknown = client.get("/boards/nothing.toml")
    assert unknown.status_code == 404 and "no game called 'nothing'" in unknown.get_json()["error"]


def test_pages_domino_rex_hint_says_whose_turn_it_is_for(client, logged_in, session):
    """"A hint" on a phone at the table: for the player whose turn it is, by name."""
    session.new_game("domino-rex", ["Ann", "Ben"])
    while session.snapshot()["awaiting"] == "roll":
        session.roll()
    snap = session.snapshot()
    assert session.publish_odds(snap["state_version"], {
        "win": [0.5, 0.5], "hint": {"value": 1, "text": "uncover a 1: it opens the game"}})
    page = client.get("/").get_data(as_text=True)
    turn = snap["players"][snap["turn"]]["name"]
    assert f'<summary id="hint-for">A hint for {turn}</summary>' in page


def test_pages_three_winners_are_named_as_the_box_names_them(client, control, session):
    """"Red and Green and Pi win" on the phone, "won by Red and Green and Pi" in history: a
    list reads "Red, Green and Cy", as the box says it."""
    from web.pages import winners_text
    control("new-game", {"game": "free-play", "players": ["Red", "Green", "Cy"]})
    while session.snapshot()["phase"] == "lead":
        control("roll", {})
    over = control("declare", {"winners": [0, 1, 2]}).get_json()
    assert winners_text(over) == "Red, Green and Cy win"
    assert "Red, Green and Cy win" in client.get("/").get_data(as_text=True)
    history = client.get("/history").get_data(as_text=True)
    assert 'won by <strong class="won">Red, Green and Cy</strong>' in history
    game = client.get(f"/history/{over['game_id']}").get_data(as_text=True)
    assert "won by Red, Green and Cy" in game


def test_pages_a_bad_page_request_in_a_browser_answers_a_page(client):
    """/history?page=abc and /history/999 answered a browser with raw JSON: a page says it,
    in the message's own case; the API still answers JSON."""
    html = {"Accept": "text/html,application/xhtml+xml"}
    for path, status in (("/history?page=abc", 400), ("/history/999", 404)):
        page = client.get(path, headers=html)
        assert page.status_code == status and page.mimetype == "text/html", path
        assert "Back to the table" in page.get_data(as_text=True)
    page = client.get("/history?page=abc", headers=html).get_data(as_text=True)
    assert "Enter a whole number in the digits 0-9." in page or ": enter a whole number" in page
    answer = client.get("/api/games/999/record", headers=html)
    assert answer.status_code == 404 and answer.is_json


def test_pages_x10_name_fields_say_how_long_a_name_may_be(client, logged_in, kat):
    """X10: "Benjamin Alexander-Fitzgerald" typed into "New name" became "Benjamin
    Alexander-Fitzg" without a word (the field stops at the longest name the rules take).
    Each name field says that length, and stops there."""
    import re
    from companion.replay import MAX_NAME
    page = client.get("/").get_data(as_text=True)
    fields = re.findall(r'<input name="(?:player|name)" maxlength="(\d+)"', page)
    assert fields and set(fields) == {str(MAX_NAME)}
    assert f"New name (up to {MAX_NAME} letters)" in page
    assert f"give a name of up to {MAX_NAME} letters)" in page


def test_pages_p2_the_log_says_a_claim_in_the_phones_words(client, control, session):
    """P2: a claim's prompt and answer on the phone say "... or end the turn to withdraw it",
    and its log line said "press again to confirm, the knob cancels": a phone has no knob.
    The page's log, like its prompt, is in the phone's words."""
    control("new-game", {"game": "india", "players": ["Ann", "Ben"]})
    for _ in range(40):
        if session.snapshot()["phase"] == "play":
            break
        session.roll()
    session.roll()
    turn = session.snapshot()["turn"]
    session.submit({"type": "press", "seat": turn}, by="web")
    claim = session.snapshot()["log"][-1]
    assert claim.endswith("press again to confirm, the knob cancels"), claim
    page = client.get("/").get_data(as_text=True)
    assert "the knob cancels" not in page.split('id="log"')[1].split("</ol>")[0]
    assert ": confirm, or end the turn to withdraw it</li>" in page
