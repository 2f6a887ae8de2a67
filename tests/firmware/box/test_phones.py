"""What the box keeps and does for the phones: the PIN and the sign-in secret in the data
directory, a seat press that pairs a waiting phone, "New PIN" in the menu, names from the roster
on the join screen, and the Wi-Fi code beside the address on the start screen."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from fakes import cookie_value, give_cookie
from PIL import Image

from companion.errors import ParlourError
from firmware import card
from firmware.oled import codes, lettering, screens

from firmware.datadir import keys
from firmware.config import WiFi
from firmware.controller import Controller
from controller_support import press
from firmware.datadir.phones import connect_phones, phone_options
from web import create_app

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def test_keys_pin_is_made_once_and_kept_private(tmp_path):
    pin = keys.stored_pin(tmp_path)
    assert pin.isdigit() and len(pin) == 6                        # a million, not 10,000
    assert keys.stored_pin(tmp_path) == pin                       # a restart: the same PIN
    assert os.stat(tmp_path / keys.PIN_FILE).st_mode & 0o777 == 0o600
    changed = keys.new_pin(tmp_path)
    assert keys.stored_pin(tmp_path) == changed


@pytest.mark.parametrize("kept", ["12ab", "123", "24681357901", "\u0661\u0662\u0663\u0664"])
def test_keys_a_kept_pin_file_without_a_pin_is_refused_not_replaced(tmp_path, kept):
    """A mangled `pin` file was replaced by a new PIN, silently: every phone was locked out
    and the journal said nothing. It is one line (the CLI's exit 2), the file left as it was."""
    (tmp_path / keys.PIN_FILE).write_text(kept)
    with pytest.raises(ParlourError, match="holds no PIN of 4 to 8 digits: put the table's "
                                           "PIN there, or move the file aside"):
        keys.stored_pin(tmp_path)
    assert (tmp_path / keys.PIN_FILE).read_text() == kept


def test_keys_a_kept_file_that_cannot_be_read_is_refused_not_made_anew(tmp_path, monkeypatch):
    """A restore done as root left `pin` (and `table-id`) unreadable to the service's user:
    the table made a new PIN and a new id, locking every phone out and turning the box into
    another table for the club."""
    keys.stored_pin(tmp_path)
    first = keys.table_id(tmp_path)
    real = Path.read_text

    def denied(path, *args, **kwargs):
        if path.name in (keys.PIN_FILE, keys.TABLE_ID_FILE):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(Path, "read_text", denied)
    for read in (keys.stored_pin, keys.table_id):
        with pytest.raises(ParlourError, match=r"cannot read the (table's PIN|table id) there "
                                               r"\(Permission denied\): let the user"):
            read(tmp_path)
    monkeypatch.undo()
    assert keys.table_id(tmp_path) == first


def test_keys_table_id_is_made_once_and_differs_between_tables(tmp_path):
    first = keys.table_id(tmp_path / "a")
    assert len(first) == 16 and int(first, 16) >= 0
    assert keys.table_id(tmp_path / "a") == first                 # a restart: the same table
    assert keys.table_id(tmp_path / "b") != first                 # another box: another id
    assert (tmp_path / "a" / keys.TABLE_ID_FILE).stat().st_mode & 0o777 == 0o600
    (tmp_path / "a" / keys.TABLE_ID_FILE).write_text("not an id")
    assert keys.table_id(tmp_path / "a") not in (first, "not an id")


def test_keys_session_secret_survives_restarts_with_0600(tmp_path):
    secret = keys.session_secret(tmp_path)
    assert len(secret) == 32 and keys.session_secret(tmp_path) == secret
    os.chmod(tmp_path / keys.SECRET_FILE, 0o644)
    assert keys.session_secret(tmp_path) == secret
    assert os.stat(tmp_path / keys.SECRET_FILE).st_mode & 0o777 == 0o600


def wired(session, tmp_path, clock, *, pin_kept=True, wifi=WiFi()):
    app = create_app(session, pin="2468", test_config={"TESTING": True},
                     **phone_options(tmp_path))
    c = Controller(session, seats=4, url="http://10.0.0.2:8080/", pin="2468", clock=clock)
    connect_phones(c, app, tmp_path, pin_kept=pin_kept, wifi=wifi)
    return c, app


def _menu(c, item: str) -> None:
    press(c, "hold")
    press(c, "turn", detents=c.menu_items.index(item))
    press(c, "press")


def test_phones_pairing_is_a_code_offered_at_the_box_for_one_seat(session, tmp_path, clock):
    """Attack 6: a press alone never pairs; the box's menu offers a code for the seat button
    pressed next, and only the phone that types it is paired, with that button."""
    c, app = wired(session, tmp_path, clock)
    pairings = app.extensions["parlour"].pairings
    press(c, "press")                               # to the games screen
    press(c, "press")                               # to join
    press(c, "seat", seat=2)
    assert c.joined[2] and pairings.offered() is None  # a seat press is the game's
    _menu(c, "Pair a phone")
    assert c.screen == "pair_pick"
    press(c, "seat", seat=1)                        # the phone's player: button 2
    assert c.screen == "pair_code"
    button, code, _ = pairings.offered()
    assert button == 2 and len(code) == 6
    c.render()
    ARTIFACTS.mkdir(exist_ok=True)
    c.render().resize((512, 256), Image.NEAREST).save(ARTIFACTS / "oled-pairing.png")
    assert pairings.claim("phone-token", code) == 2
    c.update()
    assert c.view()["flash"] == "Phone paired with Blue (2)" and c.screen != "pair_code"
    _menu(c, "Phones")
    assert c.screen == "phones"
    press(c, "press")                               # Blue (2): 1 phone
    assert c.screen == "confirm"
    press(c, "turn", detents=1)
    press(c, "press")
    assert pairings.button("phone-token") is None and c.view()["flash"] == "Unpaired 1 phone"


@pytest.mark.parametrize("way", ["code left", "paired", "phones", "unpaired"])
def test_phones_pairing_from_the_menu_over_the_pis_move_goes_back_to_it(
        session, tmp_path, clock, way):
    """The Pi's goose waited to be copied when a player paired a phone (Menu, "Pair a phone")
    or looked at the phones: leaving went to the Fox's turn, and no one was asked for the
    goose again. Each way out goes back to the move, the game unchanged."""
    c, app = wired(session, tmp_path, clock)
    pairings = app.extensions["parlour"].pairings
    c.attach()                                      # the session's changes drawn
    c.pi.detach()                                   # the Pi's move made here
    press(c, "press")                               # to the games screen
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy", buttons=[1, 2])
    c.update()
    session.submit({"type": "move", "path": session.snapshot()["board"]["moves"][0]}, by="pi")
    c.update()
    c.render()
    assert c.screen == "pi_moved"
    shown = c.view()["text"]
    if way in ("code left", "paired"):
        _menu(c, "Pair a phone")
        press(c, "seat", seat=0)
        assert c.screen == "pair_code"
        if way == "paired":
            assert pairings.claim("phone-token", pairings.offered()[1]) == 1
            c.update()
        else:
            press(c, "menu")
    else:
        pairings.offer(1)
        pairings.claim("phone-token", pairings.offered()[1])
        c.update()
        _menu(c, "Phones")
        assert c.screen == "phones"
        if way == "phones":
            press(c, "menu")
        else:
            press(c, "press")                       # Red (1): 1 phone
            press(c, "turn", detents=1)
            press(c, "press")                       # Yes
            assert pairings.button("phone-token") is None
    c.render()
    assert c.screen == "pi_moved" and c.view()["text"] == shown
    c.close()


def test_phones_leaving_the_code_voids_it(session, tmp_path, clock):
    c, app = wired(session, tmp_path, clock)
    pairings = app.extensions["parlour"].pairings
    _menu(c, "Pair a phone")
    press(c, "seat", seat=0)
    code = pairings.offered()[1]
    press(c, "press")                               # the knob: back, the code void
    assert pairings.offered() is None and c.screen != "pair_code"
    with pytest.raises(Exception, match="no pairing code now"):
        pairings.claim("phone-token", code)


def test_phones_a_code_that_runs_out_is_said(session, tmp_path, clock):
    c, app = wired(session, tmp_path, clock)
    pairings = app.extensions["parlour"].pairings
    pairings._clock = clock
    _menu(c, "Pair a phone")
    press(c, "seat", seat=0)
    clock.advance(121)
    c.update()
    assert c.screen != "pair_code" and "The pairing code ran out" in c.view()["flash"]


def _types_code(app, address: str, code: str) -> int:
    """A phone at `address` opens the page and types `code`: the answer's status."""
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = address
    token = re.search(r'data-csrf="([^"]+)"', phone.get("/").get_data(as_text=True)).group(1)
    return phone.post("/api/pair", headers={"X-Parlour-Csrf": token},
                      json={"code": code}).status_code


def test_phones_lock_out_newcomers_wrong_codes_leave_the_code_on_the_box(session, tmp_path,
                                                                          clock):
    """A guest typing wrong codes in a loop, from one address and then from many, voided each
    code the box showed ("Wrong codes were typed too often"), so its player typed a void one.
    The box keeps showing the code, and the player who types it is paired."""
    c, app = wired(session, tmp_path, clock)
    pairings = app.extensions["parlour"].pairings
    pairings._clock = clock
    _menu(c, "Pair a phone")
    press(c, "seat", seat=0)
    assert c.screen == "pair_code"
    code = pairings.offered()[1]
    wrong = f"{(int(code) + 1) % 10 ** len(code):0{len(code)}d}"
    said = {_types_code(app, "10.0.0.66", wrong) for _ in range(100)}     # one guest's loop
    for n in range(60):                                        # then many addresses, twice
        said |= {_types_code(app, f"10.0.1.{n}", wrong) for _ in range(2)}
    c.update()
    assert c.screen == "pair_code" and pairings.offered()[1] == code
    assert not c.view().get("flash")                           # nothing to say
    clock.advance(60)                                          # the player reads and types
    c.update()
    assert c.screen == "pair_code"
    assert _types_code(app, "10.0.0.7", code) == 200
    c.update()
    assert c.screen != "pair_code" and c.view()["flash"] == "Phone paired with Red (1)"
    assert said == {403, 429}                                  # the guests: refused, then 429
    _menu(c, "Pair a phone")                                   # a new code: time again
    press(c, "seat", seat=0)
    clock.advance(121)
    c.update()
    assert "The pairing code ran out" in c.view()["flash"]


def test_phones_new_pin_from_the_menu_signs_phones_out(session, tmp_path, clock):
    c, app = wired(session, tmp_path, clock)
    press(c, "hold")
    assert "New PIN" in c.menu_items
    press(c, "turn", detents=c.menu_items.index("New PIN"))
    press(c, "press")
    assert c.screen == "confirm"
    press(c, "turn", detents=1)
    press(c, "press")
    assert c.screen == "pin" and c.pin != "2468"
    assert keys.stored_pin(tmp_path) == c.pin
    guard = app.extensions["parlour"].guard
    assert guard.check("10.0.0.9", c.pin) and not guard.check("10.0.0.9", "2468")
    image = c.render().resize((512, 256), Image.NEAREST)
    ARTIFACTS.mkdir(exist_ok=True)
    image.save(ARTIFACTS / "oled-new-pin.png")


def test_phones_a_configured_pin_is_not_changed_from_the_menu(session, tmp_path, clock):
    c, _ = wired(session, tmp_path, clock, pin_kept=False)
    press(c, "hold")
    assert "New PIN" not in c.menu_items


def test_phones_join_screen_takes_roster_names_by_the_knob(session, tmp_path, clock):
    session.store.remember_names(["Ann", "Ben"])
    c, _ = wired(session, tmp_path, clock)
    press(c, "press")
    press(c, "press")                               # Kat en Muis, the first game: join
    press(c, "turn", detents=2)                     # "", Ann, Ben -> Ben
    press(c, "seat", seat=0)
    from drawn_words import shows                   # said over the seats, not hiding them
    assert c.seat_named == "Seat 1 is Ben" and c.notice.text == ""
    assert shows(c.render(), "Seat 1 is Ben", lettering.MEDIUM, bold=True)
    press(c, "turn", detents=-1)                    # -> Ann, seen at once
    assert c.seat_named == "" and shows(c.render(), "Ann", lettering.MEDIUM, bold=True)
    ARTIFACTS.mkdir(exist_ok=True)
    c.render().resize((512, 256), Image.NEAREST).save(ARTIFACTS / "oled-join-roster.png")
    press(c, "seat", seat=3)
    assert c.seat_named == "Seat 4 is Ann"
    press(c, "seat", seat=1)                        # a seat's own colour: nothing to say
    assert c.seat_named == ""
    press(c, "seat", seat=1)
    press(c, "press")
    assert [p["name"] for p in session.snapshot()["players"]] == ["Ben", "Ann"]


def test_phones_join_screen_never_promises_a_name_already_taken(session, tmp_path, clock):
    """A name once taken is skipped by the knob and leaves the screen; a long one is shown
    whole (two roster names cut to the same "Alexan…" could not be told apart)."""
    session.store.remember_names(["Alexandra Smith", "Alexandra Jones", "Ann"])
    c, _ = wired(session, tmp_path, clock)
    press(c, "press")
    press(c, "press")                               # Kat en Muis: join
    frames = {}
    for _ in range(4):
        press(c, "turn", detents=1)
        frames[c._roster_name()] = c.render().tobytes()
    assert frames["Alexandra Smith"] != frames["Alexandra Jones"]
    while c._roster_name() != "Ann":
        press(c, "turn", detents=1)
    press(c, "seat", seat=0)
    assert c._roster_name() == ""                   # the next seat is its own colour
    assert c.render().tobytes() != frames["Ann"]
    seen = set()
    for detents in (1, 1, 1, 1, -1, -1, -1, -1):
        press(c, "turn", detents=detents)
        seen.add(c._roster_name())
    assert "Ann" not in seen and {"", "Alexandra Smith", "Alexandra Jones"} <= seen
    press(c, "seat", seat=1)                        # not "Ann" again, whatever the knob showed
    press(c, "press")
    names = [p["name"] for p in session.snapshot()["players"]]
    assert names[0] == "Ann" and names.count("Ann") == 1


def test_phones_start_screen_alternates_both_codes_and_the_words(session, tmp_path, clock):
    wifi = WiFi(ssid="Parlour Guest", password="chips and dice")
    c, _ = wired(session, tmp_path, clock, wifi=wifi)
    frames = []
    for _ in range(2):
        c.update()
        frames.append(c.render())
        clock.advance(card.PAGE_SECONDS)
    both = card.two_codes("http://10.0.0.2:8080/", wifi)
    assert both.getbbox() is not None and both.size == (128, 64)
    left, right = both.crop((0, 0, 64, 64)), both.crop((64, 0, 128, 64))
    assert left.tobytes() != right.tobytes()        # two different codes
    pages = card.start_pages("http://10.0.0.2:8080/", wifi, lambda: Image.new("1", (128, 64)))
    assert len(pages) == 3 and pages[0].tobytes() == both.tobytes()
    # the network's name whole, on a page of its own (a note beside the address cut it short)
    assert pages[2].tobytes() == screens.message("Join the Wi-Fi", "Parlour Guest",
                                                 "codes: left the Wi-Fi, right the table"
                                                 ).tobytes()   # the codes' page has no room
    assert len(card.start_pages("http://x/", WiFi(), lambda: both)) == 1
    # a long name and password: a code of one pixel a module is too fine to scan, so the
    # start screen leaves it to the join card and says so
    long = WiFi(ssid="Vodafone-Home-5G-Guest-Network", password="x" * 45)
    assert not codes.qr_fits(card.wifi_text(long), 64) and codes.qr_fits(
        card.wifi_text(wifi), 64)
    pages = card.start_pages("http://10.0.0.2:8080/", long, lambda: both)
    assert len(pages) == 2 and pages[1].tobytes() == screens.message(
        "Join the Wi-Fi", long.ssid, "its code: parlour card").tobytes()
    ARTIFACTS.mkdir(exist_ok=True)
    for n, frame in enumerate(frames):
        frame.resize((512, 256), Image.NEAREST).save(ARTIFACTS / f"oled-start-{n}.png")
    assert frames[0].tobytes() != frames[1].tobytes()


def test_phones_runner_hands_the_web_the_kept_secret_and_the_box_its_hooks(tmp_path,
                                                                          mock_factory):
    from firmware import runner
    from firmware.config import Config
    pin = keys.stored_pin(tmp_path)
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin=pin, pin_kept=True)
    try:
        app = table.web.app
        assert app.secret_key == keys.session_secret(tmp_path)        # the same after a restart
        pairings = app.extensions["parlour"].pairings
        assert table.controller.pairings is pairings
        assert pairings.on_paired == table.controller.notice_paired
        assert pairings.path == tmp_path / "phones.json"
        assert table.controller.new_pin is not None
    finally:
        table.close()


@pytest.mark.slow
def test_phones_parlour_run_keeps_its_made_pin_across_restarts(tmp_path):
    import json
    import urllib.request

    from simulated_table import SimulatedTable

    def new_game(url: str, pin: str) -> int:
        request = urllib.request.Request(
            url + "/api/control/new-game", method="POST",
            data=json.dumps({"game": "kat-en-muis", "players": ["Ann", "Ben"]}).encode(),
            headers={"Content-Type": "application/json", "X-Parlour-Pin": pin})
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status

    pins = []
    for _ in range(2):
        with SimulatedTable(tmp_path / "data", tmp_path, pin=None) as table:
            pins.append((tmp_path / "data" / keys.PIN_FILE).read_text())
            assert new_game(table.url, pins[-1]) == 200
    assert pins[0] == pins[1] and len(pins[0]) == 6


def _signed_in(client) -> bool:
    return 'id="logout"' in client.get("/").get_data(as_text=True)


def _csrf(client) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', client.get("/").get_data(as_text=True))[1]


def _sign_in(client, pin: str) -> None:
    client.post("/control/login", data={"pin": pin, "csrf": _csrf(client)})


def test_phones_sign_ins_survive_a_restart_and_a_logout_still_ends_them(session, tmp_path):
    app = create_app(session, pin="2468", test_config={"TESTING": True},
                     **phone_options(tmp_path))
    phone, copy = app.test_client(), app.test_client()
    _sign_in(phone, "2468")
    cookie = cookie_value(phone, "parlour")
    assert _signed_in(phone)
    kept = (tmp_path / "logins.json")
    assert os.stat(kept).st_mode & 0o777 == 0o600 and cookie not in kept.read_text()
    again = create_app(session, pin="2468", test_config={"TESTING": True},   # a restart
                       **phone_options(tmp_path))
    phone, copy = again.test_client(), again.test_client()
    give_cookie(phone, "parlour", cookie)
    give_cookie(copy, "parlour", cookie)                      # the same cookie, copied
    assert _signed_in(phone) and _signed_in(copy)
    phone.post("/control/logout", data={"csrf": _csrf(phone)})
    assert not _signed_in(copy)                              # logging out ended it everywhere
    later = create_app(session, pin="2468", test_config={"TESTING": True},
                       **phone_options(tmp_path))
    stale = later.test_client()
    give_cookie(stale, "parlour", cookie)
    assert not _signed_in(stale)                             # and across the next restart


def test_phones_pairing_in_a_game_names_the_seats_player_or_no_one(session, tmp_path, clock):
    """Paired with button 3 during a game for two, the box said "Phone paired with Green (3)"
    as if it played, while the phone said the seat had no player in this game. A player
    named for the colour is not said twice ("Red (1): Red"). The code's screen names the
    seat's player too ("type it on Ann's phone"), not only the button."""
    from controller_support import start
    c, app = wired(session, tmp_path, clock)
    c.attach()                                      # hears the rename made elsewhere
    pairings = app.extensions["parlour"].pairings
    start(c, "kat-en-muis", seats=(0, 1))
    session.submit({"type": "rename", "seat": 1, "name": "Ann"})
    c.update()
    for button, said, whose in [(1, "Phone paired with Red (1)", "Red's phone"),
                                (2, "Phone paired with Blue (2): Ann", "Ann's phone"),
                                (3, "Phone paired with Green (3): no one plays it in this game",
                                 "that phone")]:
        _menu(c, "Pair a phone")
        press(c, "seat", seat=button - 1)
        assert c.view()["text"][-1].startswith(f"type it on {whose} (")   # whose phone, too
        assert pairings.claim(f"phone-{button}", pairings.offered()[1]) == button
        c.update()
        assert c.view()["flash"] == said


def test_phones_a_change_made_while_the_box_shows_a_code_waits_for_the_game_screen(
        session, tmp_path, clock):
    """A phone's throw took the pairing code off the box (the dial, then its result), and a
    change made under the menu was never shown: the code stays; back on the game's screen,
    what changed meanwhile shows as it would have."""
    from controller_support import settle_lead, start
    c, app = wired(session, tmp_path, clock)
    c.attach()
    pairings = app.extensions["parlour"].pairings
    start(c, "kat-en-muis", seats=(0, 1))
    settle_lead(c, clock)
    before = session.snapshot()
    _menu(c, "Pair a phone")
    press(c, "seat", seat=1)
    assert c.screen == "pair_code"
    session.roll(by="web")                          # a phone's throw meanwhile
    c.update()
    assert c.screen == "pair_code" and pairings.offered() is not None
    thrown_at = session.snapshot()
    assert session.publish_odds(thrown_at["state_version"],           # its chances, after it
                                {"win": [0.5] * len(thrown_at["players"])})
    c.update()
    press(c, "press")                               # the code put away: the game's screen
    thrown = session.snapshot()["log"][len(before["log"]):]
    assert c.screen == "result" and c.result.lines == thrown


def test_phones_x12_the_box_gives_the_pi_no_paired_phones_button(session, tmp_path, clock):
    """X12: Ann alone at button 1 against the Pi, Ben's phone paired with button 2: the Pi
    took button 2 and Ben's phone took the Pi's turns for its own ("Your turn, Pi"). The Pi's
    button is one no phone is paired with."""
    c, app = wired(session, tmp_path, clock)
    pairings = app.extensions["parlour"].pairings
    pairings.claim("ben-phone", pairings.offer(2))
    press(c, "press")                               # to the games screen
    press(c, "turn", detents=[g.id for g in c.games].index("fox-and-geese"))
    press(c, "press")
    press(c, "seat", seat=0)                        # Ann, button 1
    press(c, "press")
    assert c.screen == "pi_setup"
    press(c, "turn", detents=1)                     # a setup with the Pi
    press(c, "press")
    players = session.snapshot()["players"]
    assert [bool(p.get("pi")) for p in players].count(True) == 1, players
    assert sorted(p["button"] for p in players) == [1, 3]


@pytest.mark.parametrize("ending", ["paired", "ran out"])
def test_phones_after_the_code_the_turns_seat_button_is_lit_and_armed_again(
        session, tmp_path, clock, ending):
    """A phone paired (or its code ran out) while Ann was to throw: the box went back to her
    turn with every seat button dark and none armed, until someone pressed one."""
    from controller_support import FakeControls
    c, app = wired(session, tmp_path, clock)
    c.controls = controls = FakeControls()
    pairings = app.extensions["parlour"].pairings
    pairings._clock = clock
    press(c, "press")                                     # the games
    press(c, "turn", detents=[g.id for g in c.games].index("kat-en-muis"))
    press(c, "press")                                     # who joins
    press(c, "seat", seat=0)
    press(c, "seat", seat=1)
    press(c, "press")                                     # Red, then Blue, to throw
    turn = controls.armed
    assert turn == controls.lit and len(turn) == 1
    _menu(c, "Pair a phone")
    press(c, "seat", seat=1)                              # Ben's phone: button 2
    assert c.screen == "pair_code"
    if ending == "paired":
        pairings.claim("phone-token", pairings.offered()[1])
    else:
        clock.advance(121)
    c.update()
    assert c.screen != "pair_code"
    assert controls.armed == turn and controls.lit == turn
