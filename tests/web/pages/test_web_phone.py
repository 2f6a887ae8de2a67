"""The phone as a controller: pairing with a seat button, what a paired phone may do without
the PIN, the PIN changed from the box, answers in players' words, the moves offered, the
roster, and history for a score app's users."""

from __future__ import annotations

import json
import os
import re

import pytest

from web.records.figures import PAGE
from companion.games import GAMES as ALL_GAMES
from web.moves import PHONE_WORDS, game_moves, moves, phone_words
from web.access.phones import CodeRefused, Pairings, seat_of_button
from web_support import PIN, play_to_the_end, random_table

JSON = {"Accept": "application/json"}


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def csrf_of(page: str) -> str:
    return re.search(r'data-csrf="([^"]+)"', page).group(1)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def pairings(tmp_path, clock):
    return Pairings(tmp_path / "phones.json", clock=clock)


@pytest.fixture
def paired_app(make_app, pairings):
    return make_app(pairings=pairings)


@pytest.fixture
def phone(paired_app):
    """A phone's client and its CSRF token (watching: no PIN)."""
    client = paired_app.test_client()
    return client, csrf_of(client.get("/").get_data(as_text=True))


def pair(phone, pairings, button: int) -> None:
    """The box offers a code for `button` (Menu, Pair a phone, that seat button); the phone
    types it."""
    client, token = phone
    code = pairings.offer(button)
    answer = client.post("/api/pair", headers={"X-Parlour-Csrf": token},
                         json={"code": f"{code[:3]} {code[3:]}"})      # typed with a space
    assert answer.status_code == 200 and answer.get_json()["button"] == button


def test_phone_pairing_needs_the_code_the_box_shows(pairings, clock, tmp_path):
    with pytest.raises(CodeRefused, match="The box shows no pairing code now"):
        pairings.claim("token-a", "123456")            # no code offered: nothing to type
    code = pairings.offer(3)
    assert len(code) == 6 and code.isdigit() and pairings.offered()[:2] == (3, code)
    clock.now += 119
    assert pairings.claim("token-a", code) == 3
    assert pairings.button("token-a") == 3 and pairings.offered() is None
    with pytest.raises(CodeRefused):
        pairings.claim("token-b", code)                # used up
    code = pairings.offer(2)
    clock.now += 121
    with pytest.raises(CodeRefused, match="no pairing code now"):
        pairings.claim("token-b", code)                # too late
    kept = Pairings(tmp_path / "phones.json", clock=clock)                # after a restart
    assert kept.button("token-a") == 3
    assert "token-a" not in (tmp_path / "phones.json").read_text()        # only digests
    assert os.stat(tmp_path / "phones.json").st_mode & 0o777 == 0o600
    assert kept.forget("token-a") and kept.button("token-a") is None
    assert Pairings(tmp_path / "phones.json", clock=clock).button("token-a") is None


def test_phone_attack_6_a_guest_cannot_pair_by_a_press_or_by_guessing(phone, pairings):
    """Attack 6: an open request used to take the next seat press on the box, whoever made
    it. Now a guest has nothing to ask for: only the code read at the box pairs, and after five
    wrong codes in a minute its address is not even compared (429), the right code neither."""
    client, token = phone
    answer = client.post("/api/pair", headers={"X-Parlour-Csrf": token}, json={"code": ""})
    assert answer.status_code == 403 and "no pairing code now" in answer.get_json()["error"]
    code = pairings.offer(1)
    wrong = f"{(int(code) + 1) % 10 ** 6:06d}"
    for typed in (wrong, "\ud800", "\udfff123456", wrong, wrong):   # lone surrogates: 500 once
        answer = client.post("/api/pair", headers={"X-Parlour-Csrf": token},
                             json={"code": typed})
        assert answer.status_code == 403 and "not the code on the box" in \
            answer.get_json()["error"]
    answer = client.post("/api/pair", headers={"X-Parlour-Csrf": token}, json={"code": code})
    assert answer.status_code == 429 and answer.headers["Retry-After"] == "61"
    assert answer.get_json()["error"] == ("Too many wrong codes from this phone: try again in "
                                          "61 s, with the code the box shows.")
    assert client.get("/api/pair").get_json()["button"] is None
    assert pairings.offered()[:2] == (1, code)                 # the box's code is still open


def not_the_code(code: str, n: int = 0) -> str:
    """A six-digit code that is not `code` (the n-th such)."""
    return f"{(int(code) + 1 + n) % 10 ** 6:06d}"


def guest_types(app, address: str, code: str):
    """A guest's phone at `address` (a fresh page, its own CSRF token) types `code`."""
    guest = app.test_client()
    guest.environ_base["REMOTE_ADDR"] = address
    token = csrf_of(guest.get("/").get_data(as_text=True))
    return guest.post("/api/pair", headers={"X-Parlour-Csrf": token}, json={"code": code})


def test_phone_lock_out_newcomers_one_guest_flooding_wrong_codes_cannot_void_the_code(
        paired_app, phone, pairings, clock):
    """A guest looping `POST /api/pair {"code": "000000"}` voided each code the box showed
    within milliseconds (five wrong codes, from anyone): the player at the table typed a void
    one. Now the guest's address is limited (429, nothing compared, nothing changed) and the
    code the box shows pairs the player who types it."""
    code = pairings.offer(3)                                    # Menu, "Pair a phone", Cy's
    flood = [guest_types(paired_app, "127.0.3.99", not_the_code(code)) for _ in range(200)]
    clock.now += 61                                             # a minute on: five more
    flood += [guest_types(paired_app, "127.0.3.99", not_the_code(code)) for _ in range(50)]
    client, token = phone                                       # Cy, at the table
    client.environ_base["REMOTE_ADDR"] = "127.0.4.1"
    answer = client.post("/api/pair", headers={"X-Parlour-Csrf": token}, json={"code": code})
    assert answer.status_code == 200 and answer.get_json()["button"] == 3
    assert [a.status_code for a in flood] == ([403] * 5 + [429] * 195) + ([403] * 5 + [429] * 45)
    assert flood[-1].headers["Retry-After"] == "61"
    assert "Too many wrong codes from this phone" in flood[-1].get_json()["error"]


def test_phone_lock_out_newcomers_many_guest_addresses_cannot_void_the_code(
        paired_app, phone, pairings, clock):
    """20 wrong PINs from 20 addresses lock every PIN check, and wrong codes from many
    addresses voided each code the box showed, so no newcomer could get in. Past 20 wrong
    codes for one code, every address that typed one is shut out of it (429); an address that
    typed none has its one try, so the player's own first try of the shown code pairs."""
    for n in range(20):
        guest = paired_app.test_client()
        guest.post("/api/login", json={"pin": "000000"},
                   environ_base={"REMOTE_ADDR": f"127.0.3.{n + 1}"})
    locked = paired_app.test_client().post("/api/login", json={"pin": PIN})
    assert locked.status_code == 429 and "every PIN waits" in locked.get_json()["error"]
    code = pairings.offer(3)
    said = []
    for n in range(300):                          # 100 addresses, three wrong codes each
        address = f"127.0.5.{n % 100 + 1}"
        said.append(guest_types(paired_app, address, not_the_code(code, n)))
        if n == 150:                              # Cy reads the box and types, meanwhile
            client, token = phone
            client.environ_base["REMOTE_ADDR"] = "127.0.4.1"
            answer = client.post("/api/pair", headers={"X-Parlour-Csrf": token},
                                 json={"code": code})
            assert answer.status_code == 200 and answer.get_json()["button"] == 3
            code = pairings.offer(4)              # and Di's seat next
    statuses = [a.status_code for a in said]
    assert statuses[:20] == [403] * 20            # the first 20 wrong codes, from anyone
    assert statuses[20:100] == [403] * 80         # each address's first: its one try
    assert set(statuses[100:151]) == {429}        # their second: shut out of that code
    assert said[100].get_json()["error"] == (
        "Too many wrong codes at this table: this phone may not try that code again. Ask "
        "the box for a new one (Menu, \"Pair a phone\").")
    assert set(statuses[251:]) == {429}           # Di's code: 20 wrong, then one an address
    di = paired_app.test_client()
    di.environ_base["REMOTE_ADDR"] = "127.0.4.2"
    token = csrf_of(di.get("/").get_data(as_text=True))
    answer = di.post("/api/pair", headers={"X-Parlour-Csrf": token}, json={"code": code})
    assert answer.status_code == 200 and answer.get_json()["button"] == 4


def test_phone_a_player_who_mistyped_a_shut_out_code_gets_in_with_a_new_one(pairings):
    """Past a code's 20 wrong codes, a player who mistyped it earlier is shut out of that code
    too (the table cannot tell them from a guest), and told to ask the box for a new one,
    which pairs them at once: the guessers' marks were for the old code."""
    from web.access.phones import CodeWait
    code = pairings.offer(2)
    with pytest.raises(CodeRefused, match="not the code on the box"):
        pairings.claim("ann", not_the_code(code), address="10.0.0.5")    # a slip
    for n in range(19):
        with pytest.raises(CodeRefused, match="not the code on the box"):
            pairings.claim("guest", not_the_code(code, n), address=f"10.0.1.{n}")
    with pytest.raises(CodeWait, match="may not try that code again") as shut:
        pairings.claim("ann", code, address="10.0.0.5")
    assert shut.value.wait is None and pairings.offered()[1] == code
    assert pairings.claim("ben", code, address="10.0.0.6") == 2       # never typed one
    assert pairings.claim("ann", pairings.offer(2), address="10.0.0.5") == 2


def test_phone_the_box_lists_and_unpairs_phones_by_button(pairings):
    for n, button in enumerate((2, 2, 4)):
        pairings.claim(f"phone-{n}", pairings.offer(button))
    assert pairings.paired() == {2: 2, 4: 1}
    assert pairings.unpair_button(2) == 2
    assert pairings.paired() == {4: 1} and pairings.button("phone-0") is None
    assert pairings.unpair_button(3) == 0


def test_phone_pairing_file_that_is_broken_pairs_no_one(tmp_path, clock):
    (tmp_path / "phones.json").write_text('{"paired": {"x": "seven", "y": true}}')
    assert Pairings(tmp_path / "phones.json", clock=clock).button("x") is None
    (tmp_path / "phones.json").write_text("not json")
    assert Pairings(tmp_path / "phones.json", clock=clock).status("x")["button"] is None


def test_phone_seat_of_button_follows_the_state_buttons():
    state = {"players": [{"name": "Ann", "button": 4}, {"name": "Ben", "button": 2}]}
    assert seat_of_button(state, 2) == 1 and seat_of_button(state, 1) is None
    assert seat_of_button({"players": [{"name": "Ann"}, {"name": "Ben"}]}, 2) == 1


def test_phone_asking_to_pair_needs_the_page_token(phone, pairings):
    client, _ = phone
    answer = client.post("/api/pair", json={"code": pairings.offer(1)})
    assert answer.status_code == 403 and "reload" in answer.get_json()["error"]


def test_phone_paired_lets_the_waiting_pi_move_but_a_stranger_cannot(phone, pairings,
                                                                       control, session):
    """After an undo the Pi waits to be asked: a phone paired with a player of the game may
    ask it ("Let the Pi move"), on the Pi's turn; a phone paired with no seat of it may not."""
    client, token = phone
    headers = {"X-Parlour-Csrf": token}
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Pi"], "pi": [1]})
    session.submit({"type": "move", "path": session.snapshot()["board"]["moves"][0]}, by="pi")
    control("undo")
    asked = []
    session.ask_pi = lambda: asked.append(True) or True
    pair(phone, pairings, button=4)                          # no player of this game
    refused = client.post("/api/control/pi-move", headers=headers)
    assert refused.status_code == 403 and asked == []
    client.post("/api/pair/forget", headers=headers)
    pair(phone, pairings, button=1)                          # Ann's
    assert client.post("/api/control/pi-move", headers=headers).status_code == 200
    assert asked == [True]


def test_phone_paired_spins_presses_and_ends_only_its_own_turn(phone, pairings, control,
                                                                session):
    client, token = phone
    control("new-game", {"game": "cats-and-mice", "players": ["Ann", "Ben"]})
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    turn = session.snapshot()["turn"]
    other = 1 - turn
    headers = {"X-Parlour-Csrf": token}
    assert client.post("/api/control/roll", headers=headers).status_code == 401   # not paired
    pair(phone, pairings, button=other + 1)
    assert client.get("/api/pair").get_json()["seat"] == other
    refused = client.post("/api/control/roll", headers=headers)
    assert refused.status_code == 409
    assert refused.get_json()["error"] == f"It is {session.snapshot()['players'][turn]['name']}'s turn, not yours."
    assert client.post("/api/control/undo", headers=headers).status_code == 403
    assert client.post("/api/control/new-game", headers=headers,
                       json={"game": "gantlope", "players": ["X", "Y"]}).status_code == 403
    assert client.post("/api/control/roll").status_code == 403        # no CSRF header
    pairings.forget("nobody")
    client.post("/api/pair/forget", headers=headers)
    pair(phone, pairings, button=turn + 1)
    rolled = client.post("/control/roll", data={"csrf": token}, headers=JSON)   # the page's form
    assert rolled.status_code == 200 and " spins " in rolled.get_json()["message"]
    assert client.post("/api/control/press", headers=headers,
                       json={"seat": other}).status_code == 403             # not its seat
    unknown = client.post("/api/control/teleport", headers=headers, json={})
    assert unknown.status_code == 404 and "unknown action" in unknown.get_json()["error"]
    missing = client.post("/api/control/press", headers=headers, json={})
    assert missing.status_code == 400 and "seat" in missing.get_json()["error"]
    pressed = client.post("/api/control/press", headers=headers, json={"seat": turn})
    assert pressed.status_code == 200 and "takes a mouse" in pressed.get_json()["log"][-1]
    assert client.post("/api/control/next", headers=headers).status_code == 200
    assert session.snapshot()["turn"] == other


def test_phone_pin_change_signs_phones_out(paired_app):
    client = paired_app.test_client()
    token = csrf_of(client.get("/").get_data(as_text=True))
    client.post("/control/login", data={"pin": PIN, "csrf": token})
    assert 'id="logout"' in client.get("/").get_data(as_text=True)
    paired_app.extensions["parlour"].guard.set_pin("97531")
    page = client.get("/").get_data(as_text=True)
    assert 'id="logout"' not in page and 'id="login"' in page
    token = csrf_of(page)
    answer = client.post("/control/login", data={"pin": PIN, "csrf": token}, headers=JSON)
    assert answer.status_code == 403 and answer.get_json()["message"] == "Wrong PIN."
    assert client.post("/control/login", data={"pin": "97531", "csrf": token},
                       headers=JSON).status_code == 200


def test_phone_form_answers_in_players_words_as_json(client, control):
    page = client.get("/").get_data(as_text=True)
    token = csrf_of(page)
    client.post("/control/login", data={"pin": PIN, "csrf": token})
    token = csrf_of(client.get("/").get_data(as_text=True))
    answer = client.post("/control/new-game", headers=JSON,
                         data={"csrf": token, "game": "kat-en-muis", "player": ["", ""]})
    assert answer.status_code == 400
    words = "Kat en Muis is for 2 players: tick their seat buttons or type their names."
    assert answer.get_json() == {"ok": False, "message": words, "error": words}
    assert control("new-game", {"game": "kat-en-muis", "players": []}).get_json()["error"] == \
        words
    long = client.post("/control/new-game", headers=JSON,
                       data={"csrf": token, "game": "kat-en-muis", "player": ["Ann", "x" * 30]})
    assert long.get_json()["message"] == "A name can be 1 to 24 letters long."
    stake = client.post("/control/new-game", headers=JSON, data={
        "csrf": token, "game": "kat-en-muis", "player": ["Ann", "Ben"],
        "option-kat-en-muis-stake": "lots"})
    assert stake.get_json()["message"] == "Stake: enter a whole number."
    expired = client.post("/control/undo", headers=JSON, data={"csrf": "old"})
    assert expired.status_code == 403 and "reload the page" in expired.get_json()["message"]
    no_js = client.post("/control/new-game", data={"csrf": token, "game": "kat-en-muis"})
    assert no_js.status_code == 303                       # without a script: the old redirect


@pytest.mark.parametrize("game, players, awaiting, expect", [
    ("kat-en-muis", ["Ann", "Ben"], "roll", [("roll", "Throw the dice")]),
    ("cats-and-dogs", ["Ann", "Ben"], "roll", [("roll", "Spin")]),
    ("lifes-mishaps", ["Ann", "Ben"], "roll", [("roll", "Throw the die")]),
    ("lost-diamond", ["Ann", "Ben"], "roll", [
        ("roll", "Spin"), ("next", "Move in the Field"),
        ("press", "Field move: take the diamond (if it reaches)")]),
])
def test_phone_moves_offer_what_the_game_awaits(session, game, players, awaiting, expect):
    session.new_game(game, players)
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    state = session.snapshot()
    assert state["awaiting"] == awaiting
    assert [(m["action"], m["label"]) for m in moves(state)] == expect


def test_phone_moves_ld1_the_lead_offers_the_spin_alone(session):
    """LD1: a Field move is a move of play; in the lead the phone offered "Move in the Field"
    beside the spin, and the table refused it."""
    state = session.new_game("lost-diamond", ["Ann", "Ben"])
    assert state["phase"] == "lead"
    assert [(m["action"], m["label"]) for m in moves(state)] == [("roll", "Spin")]


def test_phone_moves_p2_the_press_that_confirms_a_claim_says_it_wins(client, control, session):
    """P2: after "a man is home" the same button read "A man reaches home" again: a player
    pressing it for a second man ended the game. It says it confirms and wins, and the answer
    names the phone's own way to withdraw, not the box's knob."""
    control("new-game", {"game": "india", "players": ["Ann", "Ben"]})
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    session.roll(by="test")
    turn = session.snapshot()["turn"]
    assert [m["label"] for m in moves(session.snapshot()) if m["action"] == "press"] == [
        "A man reaches home"]
    token = csrf_of(client.get("/").get_data(as_text=True))
    client.post("/control/login", data={"pin": PIN, "csrf": token})
    token = csrf_of(client.get("/").get_data(as_text=True))
    said = client.post("/control/press", headers=JSON,
                       data={"csrf": token, "seat": turn}).get_json()["message"]
    assert said.endswith(": confirm, or end the turn to withdraw it"), said
    assert "knob" not in said and "press again" not in said    # the phone's buttons' words
    assert [m["label"] for m in moves(session.snapshot()) if m["action"] == "press"] == [
        "Confirm: a man is home and wins"]


def test_phone_a_game_that_keeps_score_shows_its_score_column_from_the_start(client, control):
    """Free play's Score column appeared at the first point: the table changed shape mid-game."""
    control("new-game", {"game": "free-play", "players": ["Ann", "Ben"]})
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<th scope="col" class="col-score">Score</th>', page)
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<th scope="col" class="col-score" hidden>Score</th>', page)


@pytest.mark.parametrize("game, label", [("gantlope", "A man enters the Goal"),
                                         ("cats-and-mice", "Cat takes a mouse")])
def test_phone_moves_g3_m3_no_third_press_is_offered_after_one_spin(session, game, label):
    """G3, M3: at most two presses after one spin; the phone stops offering a third (which the
    rules refuse), as the state says how many the spin still allows."""
    session.new_game(game, ["Ann", "Ben"])
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    session.roll(by="test")
    turn = session.snapshot()["turn"]
    for left in (2, 1):
        state = session.snapshot()
        assert state["presses_left"] == left and ("press", label) in [
            (m["action"], m["label"]) for m in moves(state)]
        session.submit({"type": "press", "seat": turn}, by="test")
    state = session.snapshot()
    if state["phase"] == "over":                       # two men home can end Gantlope
        return
    assert state["presses_left"] == 0
    assert [m["action"] for m in moves(state)] == ["next"]
    session.submit({"type": "next"}, by="test")
    assert session.snapshot()["presses_left"] is None        # the next player has not spun


def test_phone_moves_ld2_take_capture_and_home_with_the_diamond(session):
    """The phone offered the seat press only after a spin, where LD2 refuses to take the
    diamond from its square: a game played from phones could never be won."""
    def offered(state, seat=None):
        return [(m["action"], m["label"]) for m in moves(state, seat)]

    session.new_game("lost-diamond", ["Ann", "Ben"])
    while (state := session.snapshot())["phase"] == "lead":
        state = session.roll(by="test")
    first, other = state["turn"], 1 - state["turn"]
    assert offered(state) == [("roll", "Spin"), ("next", "Move in the Field"),
                              ("press", "Field move: take the diamond (if it reaches)")]
    assert offered(state, seat=other) == []
    state = session.submit({"type": "press", "seat": first})          # taken from its square
    assert state["diamond"] == first and offered(state) == [("next", "End turn")]
    state = session.submit({"type": "next"})
    assert offered(state)[-1] == ("press", "Field move: capture the diamond (if it reaches)")
    state = session.roll(by="test")                                   # Ben on the road
    assert offered(state) == [("press", "Capture the diamond"), ("next", "End turn")]
    state = session.submit({"type": "next"})
    assert ("press", "Field move: take the diamond (if it reaches)") not in offered(state)  # Ann's
    assert all(not label.startswith("Field move: ") for _, label in offered(state))
    state = session.roll(by="test")                                   # Ann carried it since
    assert offered(state) == [("press", "Home with the diamond"), ("next", "End turn")]
    state = session.submit({"type": "press", "seat": first})
    assert offered(state) == [("press", "Confirm: home with the diamond"), ("next", "End turn")]
    state = session.submit({"type": "press", "seat": first})
    assert state["winners"] == [first] and offered(state) == []


def test_phone_moves_domino_rex_d2_choices_and_never_end_turn(session):
    session.new_game("domino-rex", ["Ann", "Ben"])
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    state = session.snapshot()
    offered = moves(state)
    covered = sorted(set(state["players"][state["turn"]]["covered"]))
    assert [(m["action"], m["value"]) for m in offered] == [("choose", v) for v in covered]
    assert moves(state, seat=1 - state["turn"]) == []          # a paired phone off turn


def test_phone_moves_fox_f2_offers_no_buttons_the_board_makes_the_moves(session):
    state = session.new_game("fox-and-geese", ["Ann", "Ben"])
    assert state["awaiting"] == "move" and moves(state) == []
    assert game_moves()["fox-and-geese"]["press"] is None
    assert game_moves()["fox-and-geese"]["next"] is None
    state = session.submit({"type": "move", "path": state["board"]["moves"][0]})
    assert state["turn"] == 0 and moves(state) == [] and moves(state, seat=0) == []


def test_phone_roster_remembers_typed_names_and_totals_follow_renames(client, control, session):
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    control("rename", {"seat": 1, "name": "Benjamin"})
    play_to_the_end(session)
    session.new_game("kat-en-muis", ["Player 1", "Player 2"], by="knob")   # the box's defaults
    session.new_game("kat-en-muis", ["Player 1", "Player 2"], by="knob")
    assert session.store.roster() == ["Ann", "Ben", "Benjamin"]
    page = client.get("/history").get_data(as_text=True)
    totals = page[page.index('id="totals"'):]
    names = re.findall(r'<td class="who">([^<]+)</td>', totals)
    assert sorted(names) == ["Ann", "Benjamin"]            # no pooled "Player 1", Ben renamed
    words = re.sub(r"<[^>]+>", " ", page)
    assert "set aside" in words and "abandoned" not in words
    client.post("/control/login", data={"pin": PIN, "csrf": csrf_of(client.get("/").get_data(
        as_text=True))})
    datalist = client.get("/").get_data(as_text=True).split('<datalist id="roster">')[1]
    assert datalist.startswith('<option value="Ann"><option value="Ben"><option value="Benjamin">')


def test_phone_x10_a_rename_with_a_no_break_space_keeps_the_roster_as_the_game(client, control,
                                                                             session):
    """X10: "Ann\u00a0Lee" is "Ann Lee" in the game; the roster kept the no-break space, so the
    history's totals (roster names) never matched the game's and left Ann Lee out."""
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    control("rename", {"seat": 0, "name": "Ann\u00a0Lee "})
    assert session.snapshot()["players"][0]["name"] == "Ann Lee"
    play_to_the_end(session)
    assert "Ann Lee" in session.store.roster() and "Ann\u00a0Lee" not in session.store.roster()
    page = client.get("/history").get_data(as_text=True)
    totals = page[page.index('id="totals"'):]
    assert "Ann Lee" in re.findall(r'<td class="who">([^<]+)</td>', totals)


def test_phone_x10_totals_count_a_game_started_with_spaces_in_a_name(client, control, session):
    """X10: a game started as "ann " or "Zoe\u00a0Lee" (the log keeps what was typed; the game
    shows "ann", "Zoe Lee") was left out of the history's totals: ann 2 games where she had
    played 3."""
    for players in (["Ann", "Ben"], ["ann ", "Zoe\u00a0Lee"], [" ANN", "Zoe Lee"]):
        control("new-game", {"game": "kat-en-muis", "players": players})
        play_to_the_end(session)
    page = client.get("/history").get_data(as_text=True)
    totals = page[page.index('id="totals"'):]
    rows = re.findall(r'<td class="who">([^<]+)</td>\s*<td[^>]*>(\d+)</td>', totals)
    assert dict(rows) == {"Ann": "3", "Ben": "1", "Zoe Lee": "2"}, rows


def test_phone_history_is_paginated_and_times_are_labelled(client, session):
    for n in range(PAGE + 2):
        session.new_game("kat-en-muis", [f"A{n}", f"B{n}"])
    first = client.get("/history").get_data(as_text=True)
    assert first.count('class="game-row') == PAGE and "A0" not in first
    assert "UTC</time>" in first
    older = re.search(r'href="([^"]*before=\d+)" rel="next">Older games', first).group(1)
    second = client.get(older.replace("&amp;", "&")).get_data(as_text=True)
    assert second.count('class="game-row') == 2 and "A0" in second and "Newest games" in second
    assert client.get("/history?page=2").get_data(as_text=True).count('class="game-row') == 2
    assert client.get("/history?page=x%00").status_code == 400


def test_phone_status_page_at_the_end_links_bg_stats_and_the_record(client, control, session):
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    end = play_to_the_end(session)
    page = client.get("/").get_data(as_text=True)
    link = re.search(r'id="bg-stats-link" href="([^"]+)"', page).group(1)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert f'href="/api/games/{end["game_id"]}/record"' in page
    record = client.get(f"/api/games/{end['game_id']}/record").get_json()
    assert json.dumps(record["players"][0]["name"]) == '"Ann"'


def test_phone_signing_in_and_out_keeps_the_pairing(phone, pairings):
    client, token = phone
    pair(phone, pairings, button=2)
    signed_in = client.post("/control/login", data={"pin": PIN, "csrf": token})
    assert "Max-Age=" in signed_in.headers["Set-Cookie"]        # outlives the browser session
    assert client.get("/api/pair").get_json()["button"] == 2
    token = csrf_of(client.get("/").get_data(as_text=True))
    client.post("/control/logout", data={"csrf": token})
    page = client.get("/").get_data(as_text=True)
    assert 'id="login"' in page and client.get("/api/pair").get_json()["button"] == 2


def test_phone_paired_move_is_checked_and_made_with_the_table_held(paired_app, pairings,
                                                                   session):
    import threading

    from flask import session as cookie

    from web.access import seat
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    pairings.claim("phone-token", pairings.offer(session.snapshot()["turn"] + 1))
    others: list[bool] = []

    def probe(action, data):
        other = threading.Thread(target=lambda: others.append(
            session.locked().acquire(blocking=False)))
        other.start()
        other.join()
        return {"action": action}

    with paired_app.test_request_context("/"):
        cookie["phone"] = "phone-token"
        assert seat.run_paired("roll", {}, probe) == {"action": "roll"}
    assert others == [False]                  # nobody else could change the table meanwhile


def test_phone_paired_moves_its_own_fox_and_geese_pieces(phone, pairings, control, session):
    client, token = phone
    headers = {"X-Parlour-Csrf": token}
    state = control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"]}).get_json()
    geese, fox = state["turn"], 1 - state["turn"]                # the Geese move first
    pair(phone, pairings, button=fox + 1)
    path = state["board"]["moves"][0]
    assert client.post("/api/control/move", headers=headers, json={"path": path}).status_code \
        == 409                                                   # the Geese's turn, not its
    pair(phone, pairings, button=geese + 1)
    moved = client.post("/api/control/move", headers=headers, json={"path": path})
    assert moved.status_code == 200 and moved.get_json()["board"]["last_move"] == path
    page = client.get("/").get_data(as_text=True)
    assert '"paired": true' in page                              # the board takes taps


def test_phone_cannot_pair_with_the_pis_seat(session):
    state = session.new_game("fox-and-geese", ["Pi", "Ann"], buttons=[1, 3], pi=[0],
                             pi_level="easy")
    assert seat_of_button(state, 1) is None                       # the Pi's button is no one's
    assert seat_of_button(state, 3) == 1


def test_phone_a_throws_answer_tells_every_line_and_waits_for_the_dial(client, control,
                                                                       session):
    client.post("/control/login", data={"pin": PIN, "csrf": csrf_of(client.get("/").get_data(
        as_text=True))})
    token = csrf_of(client.get("/").get_data(as_text=True))
    session.spin_seconds = 1.9                    # as the box's dial spins for a phone's throw
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    seen = set()
    for _ in range(60):
        before = len(session.snapshot()["log"])
        answer = client.post("/control/roll", data={"csrf": token}, headers=JSON).get_json()
        added = session.snapshot()["log"][before:]
        assert answer["ok"] and answer["message"] == "; ".join(added)   # all, in order
        assert answer["after"] == session.snapshot()["spin"]["seconds"] > 0
        seen.add(len(added))
        if session.snapshot()["phase"] == "over" or max(seen) > 1:
            break
    assert max(seen) > 1                          # a throw that paid or moved said it all


def test_phone_chip_corrections_only_where_chips_are_played(client, control, session):
    client.post("/control/login", data={"pin": PIN, "csrf": csrf_of(client.get("/").get_data(
        as_text=True))})
    page = client.get("/").get_data(as_text=True)
    assert '<details id="transfer-box" hidden>' in page                  # no game
    control("new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
    assert '<details id="transfer-box" hidden>' in client.get("/").get_data(as_text=True)
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    page = client.get("/").get_data(as_text=True)
    assert '<details id="transfer-box">' in page and 'data-confirm="Move these chips?' in page
    assert game_moves()["kat-en-muis"]["chips"] and not game_moves()["fox-and-geese"]["chips"]


def test_phone_each_event_says_which_phone_made_it(paired_app, pairings, control, session):
    """Attack 13: a paired guest's action and a signed-in phone's were both `"by": "web"`."""
    control("new-game", {"game": "cats-and-mice", "players": ["Ann", "Ben"]})
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    turn = session.snapshot()["turn"]
    first, second = paired_app.test_client(), paired_app.test_client()
    for client in (first, second):
        token = csrf_of(client.get("/").get_data(as_text=True))
        assert client.post("/api/pair", headers={"X-Parlour-Csrf": token},
                           json={"code": pairings.offer(turn + 1)}).status_code == 200
    token = csrf_of(first.get("/").get_data(as_text=True))
    assert first.post("/api/control/roll", headers={"X-Parlour-Csrf": token}).status_code == 200
    signed_in = paired_app.test_client()
    signed_in.post("/control/login", data={"pin": PIN, "csrf": csrf_of(
        signed_in.get("/").get_data(as_text=True))})
    token = csrf_of(signed_in.get("/").get_data(as_text=True))
    assert signed_in.post("/api/control/undo",
                          headers={"X-Parlour-Csrf": token}).status_code == 200
    token = csrf_of(second.get("/").get_data(as_text=True))
    assert second.post("/api/control/roll", headers={"X-Parlour-Csrf": token}).status_code == 200
    by = [e.get("by") for e in session.store.events(session.game_id)]
    phone_a, pin, phone_b = by[-3:]
    assert phone_a.startswith("phone-") and phone_b.startswith("phone-") and phone_a != phone_b
    assert pin.startswith("pin-") and by[0] == "api"        # new-game: the PIN in a header


BOX_CONTROLS = re.compile(r"\bknob\b|\bflick|\byour button\b")


def test_phone_prompts_name_the_phones_controls_not_the_box(client, control):
    """Found at a table: a phone read "Ann - flick to spin" and "press the knob to pass",
    which only the box can do; its buttons are "Spin", "End turn", "Pass"... The log's lines
    a phone is answered with too ("... press again to confirm, the knob cancels")."""
    said = {client.get("/api/state").get_json()["prompt"]}     # no game yet: "Choose a game"
    for game in sorted(ALL_GAMES):
        for seed in range(6):
            for state, refusal in random_table(game, seed):
                said |= {state["prompt"], refusal or "", *(state.get("log") or [])[-3:]}
    for box, _ in PHONE_WORDS:                           # each phrase was met at least once
        assert any(box in words for words in said), box
    assert any(BOX_CONTROLS.search(words) for words in said)
    shown = {phone_words(words) for words in said}
    assert [words for words in shown if BOX_CONTROLS.search(words)] == []
    control("new-game", {"game": "lost-diamond", "players": ["Ann", "Ben"]})
    while control("roll").get_json()["phase"] == "lead":
        pass
    page = client.get("/").get_data(as_text=True)
    prompt = re.search(r'<p class="prompt" id="prompt">([^<]*)</p>', page).group(1)
    assert prompt.endswith(" - spin, or move in the Field"), prompt
    control("new-game", {"game": "cats-and-mice", "players": ["Ann", "Ben"]})
    while (now := control("roll").get_json())["phase"] == "lead":
        pass
    refused = control("next")                            # before the spin: the box would flick
    mover = now["players"][now["turn"]]["name"]
    assert (refused.status_code, refused.get_json()) == (
        409, {"error": f"{mover} has not spun yet: spin first"})


def test_phone_signed_in_and_paired_phones_tell_the_box_the_time_guests_do_not(
        make_app, pairings):
    """Away from any time server the box stamps games by the phones' clocks
    (firmware/stamps.py); only a phone the table trusts is heard."""
    from datetime import datetime, timezone
    heard: list[tuple[str, datetime]] = []
    app = make_app(pairings=pairings,
                   learn_time=lambda phone, at, address: heard.append((phone, at)))
    tonight = "1741462200000"                                # 2025-03-08 19:30 UTC, in ms
    guest = app.test_client()
    guest.get("/api/state", headers={"X-Parlour-Clock": tonight})
    assert heard == []                                       # no PIN, no pairing: not heard
    signed_in = app.test_client()
    token = csrf_of(signed_in.get("/").get_data(as_text=True))
    signed_in.post("/control/login", data={"pin": PIN, "csrf": token},
                   headers={"X-Parlour-Clock": tonight, **JSON})
    phone, at = heard[-1]
    assert phone.startswith("pin-") and at == datetime(2025, 3, 8, 19, 30, tzinfo=timezone.utc)
    for bad in ("soon", "-1", "1741462200000000", "٣٣", "946684799999"):   # ... 1999
        signed_in.get("/api/state", headers={"X-Parlour-Clock": bad})
    assert len(heard) == 1                                   # nothing it could not read
    paired = app.test_client()
    pair((paired, csrf_of(paired.get("/").get_data(as_text=True))), pairings, button=1)
    paired.get("/api/state", headers={"X-Parlour-Clock": tonight})
    assert heard[-1][0].startswith("phone-") and len(heard) == 2


def spun_in_the_lost_diamond(client, control, session) -> str:
    """A phone signed in, and a spin in play awaiting its turn's end: the form's CSRF token."""
    client.post("/control/login", data={"pin": PIN, "csrf": csrf_of(client.get("/").get_data(
        as_text=True))})
    token = csrf_of(client.get("/").get_data(as_text=True))
    control("new-game", {"game": "lost-diamond", "players": ["Red", "Blue"]})
    while session.snapshot()["phase"] == "lead":
        control("roll")
    control("roll")
    return token


def test_phone_x8_ending_a_turn_is_answered_as_the_turn_ending(client, control, session):
    """X8: End turn after a spin adds no line to the log, and the answer repeated the turn's
    last line ("Blue spins 1 and 5") as if the tap had spun; the box says "Blue's turn ends"."""
    token = spun_in_the_lost_diamond(client, control, session)
    snap = session.snapshot()
    assert snap["awaiting"] == "next"
    name = snap["players"][snap["turn"]]["name"]
    answer = client.post("/control/next", data={"csrf": token}, headers=JSON).get_json()
    assert session.snapshot()["log"] == snap["log"]                   # nothing was said
    assert answer["ok"] and answer["message"] == f"{name}'s turn ends"


def test_phone_x8_an_undone_turn_end_is_answered_with_whose_turn(client, control, session):
    """X8: the turn's end says nothing in the log, so its undo was answered a bare "Taken
    back"; it says whose turn came back, as the box does."""
    token = spun_in_the_lost_diamond(client, control, session)
    name = session.snapshot()["players"][session.snapshot()["turn"]]["name"]
    control("next")
    answer = client.post("/control/undo", data={"csrf": token}, headers=JSON).get_json()
    assert answer["message"] == f"Taken back: the end of {name}'s turn ({name} plays on)"


def test_web_phone_x12_the_start_form_gives_the_pi_no_paired_phones_button(
        paired_app, phone, pairings, session):
    """Ben's phone was paired with button 2, and the start form's Pi took button 2 (the lowest
    no player held): the phone took the Pi's turns for its own. The Pi's button is one no
    phone is paired with."""
    pair(phone, pairings, 2)
    host = paired_app.test_client()
    token = csrf_of(host.get("/").get_data(as_text=True))
    host.post("/control/login", data={"pin": PIN, "csrf": token})
    token = csrf_of(host.get("/").get_data(as_text=True))
    answer = host.post("/control/new-game", data={
        "csrf": token, "game": "fox-and-geese", "player": ["Ann", ""],
        "pi-fox-and-geese": "1", "pi-level-fox-and-geese": "easy"})
    assert answer.status_code == 303
    players = session.snapshot()["players"]
    assert [(p["name"], p["button"]) for p in players] == [("Ann", 1), ("Pi", 3)]


def test_web_phone_ld2_p2_a_claim_home_is_asked_in_the_phones_buttons_words():
    """LD2, P2: the phone's prompt said "press again to confirm you are home", a press of the
    box's; the phone's buttons are "Confirm: home with the diamond" and "End turn"."""
    assert phone_words("Ann: press your button again to confirm you are home; the knob "
                       "cancels") == "Ann: confirm you are home, or end the turn to withdraw it"


def test_phone_unpaired_at_the_box_every_stream_hears_it_and_a_tap_says_why(phone, pairings,
                                                                            control):
    """The box's unpairing changed nothing a page could see: the phone kept its seat's moves,
    and a tap was answered "Enter the table's PIN first." Every live stream now gets a
    `pairing` message when a phone is paired or unpaired, and the refusal names the seat."""
    client, token = phone
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    stream = client.application.extensions["parlour"].hub.open()      # a page's live stream
    try:
        assert next(stream).startswith(b"retry:") and b"event: state" in next(stream)
        code = pairings.offer(1)
        answer = client.post("/api/pair", headers={"X-Parlour-Csrf": token}, json={"code": code})
        assert answer.status_code == 200
        answer.close()              # told once the answer (and the cookie it sets) has gone
        assert next(stream) == b"event: pairing\ndata: {}\n\n"
    finally:
        stream.close()
    told, wired = [], pairings.on_changed
    pairings.on_changed = lambda: (told.append(1), wired())
    assert pairings.unpair_button(2) == 0 and told == []           # no phone of that seat
    assert pairings.unpair_button(1) == 1 and len(told) == 1       # Menu, "Phones", Red
    refused = client.post("/control/roll", data={"csrf": token}, headers=JSON)
    body = refused.get_json()
    assert refused.status_code == 403 and body["signed_out"] is True
    assert body["message"] == ("This phone no longer plays a seat: it was unpaired. Pair it "
                               "again at the box (Menu, \"Pair a phone\"), or enter the "
                               "table's PIN.")
    assert client.post("/api/pair/forget", headers={"X-Parlour-Csrf": token}).status_code == 200
    assert len(told) == 1                                          # nothing was paired
    pair(phone, pairings, button=1)
    client.post("/api/pair/forget", headers={"X-Parlour-Csrf": token})
    assert len(told) == 3                                          # paired, then unpaired
