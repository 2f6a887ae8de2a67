"""Hostile input a guest can send: other Host/Origin names (DNS rebinding), a copied cookie
after logout, numbers that int() takes but no form sends, a lone-surrogate PIN, a 4,301-digit
seat, board files that are not board files, and the /device panel from another machine."""

from __future__ import annotations

import io
import re

import pytest

from firmware import runner
from fakes import cookie_value, give_cookie
from web_support import PIN

NUMBERS_NO_FORM_SENDS = ["1_0", "\u0661", " 10", "+5", "10\n"]


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


@pytest.fixture
def logged_in(client):
    token = csrf(client.get("/").get_data(as_text=True))
    assert client.post("/control/login", data={"pin": PIN, "csrf": token}).status_code == 303
    return csrf(client.get("/").get_data(as_text=True))


# -- Host and Origin ------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["rebind.example", "rebind.example:8080", "127.0.0.1.nip.io",
                                  "localhost.rebind.example", "parlour.local", "192.0.2.1",
                                  "0.0.0.0", "[::]:8080"])
def test_guard_other_host_names_get_403(client, host):
    response = client.get("/api/state", headers={"Host": host})
    assert response.status_code == 403
    assert "does not answer to the name" in response.get_json()["error"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8080", "[::1]:8080", "LOCALHOST.",
                                  "127.0.0.2:8080"])
def test_guard_own_host_names_pass(client, host):
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


def test_guard_configured_names_pass(make_app):
    client = make_app(allowed_hosts=("parlour.local", "192.168.1.20")).test_client()
    for host in ("parlour.local:8080", "192.168.1.20", "Parlour.Local"):
        assert client.get("/", headers={"Host": host}).status_code == 200
    assert client.get("/", headers={"Host": "other.local"}).status_code == 403


def test_guard_foreign_origin_refused_and_own_form_origin_null_accepted(client, kat, session):
    response = client.post("/api/control/roll", json={}, headers={
        "X-Parlour-Pin": PIN, "Origin": "http://rebind.example"})
    assert response.status_code == 403 and "rebind.example" in response.get_json()["error"]
    assert session.snapshot()["rolls"] == 0
    for origin in ("http://localhost", "null"):
        response = client.post("/api/control/roll", json={}, headers={
            "X-Parlour-Pin": PIN, "Origin": origin})
        assert response.status_code == 200, origin


# -- logout ends the login on the server ------------------------------------------------------

def test_guard_logout_revokes_a_copied_cookie(app):
    phone, thief = app.test_client(), app.test_client()
    token = phone.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    cookie = cookie_value(phone, "parlour")
    give_cookie(thief, "parlour", cookie)
    headers = {"X-Parlour-Csrf": token}
    assert thief.post("/api/control/undo", json={}, headers=headers).status_code != 401
    assert phone.post("/api/logout", headers=headers).status_code == 200
    give_cookie(thief, "parlour", cookie)                     # the copy, as it was
    response = thief.post("/api/control/undo", json={}, headers=headers)
    assert response.status_code == 401


def test_guard_signing_in_again_ends_the_login_before_for_every_copy(app):
    """A phone that signed in again kept its first login alive: a copy of its earlier cookie
    stayed signed in after the phone signed out (and each sign-in added one to the file)."""
    phone, thief = app.test_client(), app.test_client()
    first = phone.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    give_cookie(thief, "parlour", cookie_value(phone, "parlour"))     # the first, copied
    logins = app.extensions["parlour"].logins
    kept = len(logins._ids)
    again = phone.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    assert len(logins._ids) == kept                           # in the first one's place
    response = thief.post("/api/control/undo", json={}, headers={"X-Parlour-Csrf": first})
    assert response.status_code == 401
    assert phone.post("/api/control/undo", json={},
                      headers={"X-Parlour-Csrf": again}).status_code != 401


def test_guard_form_logout_revokes_too(app, client, logged_in):
    cookie = cookie_value(client, "parlour")
    client.post("/control/logout", data={"csrf": logged_in})
    thief = app.test_client()
    give_cookie(thief, "parlour", cookie)
    page = thief.post("/control/roll", data={"csrf": logged_in},
                      follow_redirects=True).get_data(as_text=True)
    assert "Enter the table" in page


# -- numbers in forms -------------------------------------------------------------------------

@pytest.mark.parametrize("text", NUMBERS_NO_FORM_SENDS)
def test_guard_form_numbers_are_plain_ascii_digits(client, logged_in, kat, session, text):
    before = session.snapshot()
    response = client.post("/control/transfer", data={"csrf": logged_in, "from": "pool",
                                                      "to": "0", "amount": text})
    assert response.status_code == 400
    assert "digits 0-9" in response.get_json()["error"]
    assert session.snapshot() == before


def test_guard_form_number_too_long_is_said_to_be_too_large(client, logged_in, kat, session):
    """Ten nines are digits 0-9: the refusal says what is wrong with them."""
    before = session.snapshot()
    response = client.post("/control/transfer", data={"csrf": logged_in, "from": "pool",
                                                      "to": "0", "amount": "9" * 10})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "too large" in error and "digits 0-9" not in error
    assert session.snapshot() == before


def test_guard_form_plain_digits_still_work(client, logged_in, kat, session):
    client.post("/control/transfer", data={"csrf": logged_in, "from": "0", "to": "pool",
                                           "amount": "2", "reason": "spilled"})
    assert session.snapshot()["players"][0]["chips"] == kat["players"][0]["chips"] - 2


def test_guard_4301_digit_winner_is_a_400(client, logged_in, control, session):
    control("new-game", {"game": "free-play", "players": ["Ann", "Ben"],
                         "options": {"randomizer": {"kind": "none"}}})
    huge = "9" * 4301
    response = client.post("/control/declare", data={"csrf": logged_in, "winners": [huge]})
    assert response.status_code == 400
    response = client.post("/api/control/declare", data=b'{"winners": [' + huge.encode() + b"]}",
                           headers={"X-Parlour-Pin": PIN, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert session.snapshot()["phase"] != "over"


def test_guard_lone_surrogate_pin_is_a_wrong_pin(client):
    response = client.post("/api/login", data=b'{"pin": "\\ud800"}',
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 403 and response.get_json()["error"] == "wrong PIN"


BAD_BOARDS = [b"\xff\xfe", b"a = [" + b"[" * 5000 + b"]" * 5000 + b"]",
              b"squares = [{to = " + b"9" * 5000 + b"}]", b"x = " + b"9" * 5000, b"[[[["]


@pytest.mark.parametrize("board", BAD_BOARDS)
@pytest.mark.parametrize("game", ["domino-rex", "kat-en-muis"])
def test_guard_malformed_board_uploads_are_4xx_or_told(client, logged_in, session, game, board):
    response = client.post("/control/new-game", content_type="multipart/form-data", data={
        "csrf": logged_in, "game": game, "player": ["Ann", "Ben"],
        "board": (io.BytesIO(board), "board.toml")})
    assert response.status_code in (303, 400)
    if response.status_code == 400:
        assert response.get_json()["error"]
    assert session.snapshot()["phase"] == "idle"


# -- the /device panel --------------------------------------------------------------------------

ELSEWHERE = {"REMOTE_ADDR": "192.168.1.20"}


def test_guard_device_panel_answers_only_this_machine(client):
    assert client.get("/device").status_code == 200                      # 127.0.0.1
    assert client.get("/device", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200
    own = runner.lan_address("0.0.0.0")               # this machine's LAN address, if any
    assert client.get("/device", environ_base={"REMOTE_ADDR": own}).status_code == 200
    for path in ("/device", "/device/screen.png", "/device/screen"):
        response = client.get(path, environ_base=ELSEWHERE)
        assert response.status_code == 403 and "--open-panel" in response.get_json()["error"]
    response = client.post("/device/input", json={"input": "undo"}, environ_base=ELSEWHERE)
    assert response.status_code == 403


def test_guard_open_device_panel_needs_the_pin(make_app):
    client = make_app(panel_open=True).test_client()
    assert client.get("/device", environ_base=ELSEWHERE).status_code == 401
    assert client.post("/device/input", json={"input": "undo"},
                       environ_base=ELSEWHERE).status_code == 401
    token = client.post("/api/login", json={"pin": PIN},
                        environ_base=ELSEWHERE).get_json()["csrf"]
    page = client.get("/device", environ_base=ELSEWHERE)
    assert page.status_code == 200
    assert client.post("/device/input", json={"input": "undo"},
                       environ_base=ELSEWHERE).status_code == 403          # no CSRF header
    page_token = re.search(r'name="parlour-csrf" content="([^"]+)"', page.get_data(as_text=True))
    assert page_token.group(1) == token
    response = client.post("/device/input", json={"input": "undo"}, environ_base=ELSEWHERE,
                           headers={"X-Parlour-Csrf": token})
    assert response.status_code == 200


@pytest.mark.parametrize("token", ["é", "トークン", "\u00ff" * 43])
def test_guards_non_ascii_csrf_token_is_a_4xx_not_a_traceback(client, logged_in, token):
    """A forged CSRF token with characters outside ASCII (a form field or the header) is
    refused like any wrong token: 403 with a JSON error, never a 500."""
    form = client.post("/control/undo", data={"csrf": token},
                       headers={"Accept": "application/json"})
    assert form.status_code == 403 and form.get_json()["ok"] is False
    assert form.get_json()["error"] == form.get_json()["message"]    # as every JSON refusal
    header = client.post("/api/control/undo", json={},
                         headers={"X-Parlour-Csrf": token.encode().decode("latin-1")})
    assert 400 <= header.status_code < 500 and "error" in header.get_json()


# -- sign-ins end by themselves ----------------------------------------------------------------

def test_guard_sign_ins_expire_on_the_server_and_across_restarts(tmp_path):
    from fakes import FakeClock
    from web.access.auth import LOGIN_DAYS, Logins
    clock = FakeClock(1_700_000_000.0)
    kept = tmp_path / "logins.json"
    logins = Logins(kept, clock=clock, monotonic=clock)
    old = logins.start()
    clock.advance(LOGIN_DAYS * 86_400 - 60)
    young = logins.start()
    assert logins.alive(old) and logins.alive(young)
    clock.advance(120)                                   # the first is now 30 days and a minute old
    assert not logins.alive(old) and logins.alive(young)
    again = Logins(kept, clock=clock, monotonic=clock)                    # a restart keeps the start times
    assert not again.alive(old) and again.alive(young)
    clock.advance(LOGIN_DAYS * 86_400)
    assert not again.alive(young)


def test_guard_sign_ins_kept_by_an_older_parlour_start_their_days_now(tmp_path):
    import json
    from fakes import FakeClock
    from web.access.auth import LOGIN_DAYS, Logins
    from web.access.keptfile import token_digest
    kept = tmp_path / "logins.json"
    kept.write_text(json.dumps([token_digest("an-old-login")]))    # ids only, no times
    clock = FakeClock(1_700_000_000.0)
    logins = Logins(kept, clock=clock, monotonic=clock)
    assert logins.alive("an-old-login")
    clock.advance(LOGIN_DAYS * 86_400 + 1)
    assert not logins.alive("an-old-login")
    assert not Logins(kept, clock=clock, monotonic=clock).alive(
        "an-old-login")                                                  # from the first start


def test_guard_sign_ins_made_before_ntp_set_the_clock_keep_their_days(tmp_path):
    """A Pi boots with its last shutdown's time (40 days behind for a box used monthly) and
    NTP sets it a little later: a phone signed in meanwhile had to sign in again, its sign-in
    then 40 days old, and that sign-in made every earlier one (seemingly begun in the future)
    forgotten. Sign-ins of earlier runs keep the times their run gave them."""
    from fakes import FakeClock
    from web.access.auth import LOGIN_DAYS, Logins
    wall, mono = FakeClock(1_700_000_000.0), FakeClock(50.0)
    kept = tmp_path / "logins.json"
    earlier = Logins(kept, clock=wall, monotonic=mono).start()      # a month ago, right clock
    wall.advance(LOGIN_DAYS * 86_400 - 3_600)
    booted = FakeClock(wall.now - 40 * 86_400)                     # the box boots 40 days behind
    logins = Logins(kept, clock=booted, monotonic=mono)
    phone = logins.start()                                           # nor is it forgotten here
    mono.advance(30)
    booted.now = wall.now + 30                                       # NTP
    assert logins.alive(phone) and logins.alive(earlier)
    assert Logins(kept, clock=booted, monotonic=mono).alive(phone)   # and after a restart
    booted.advance(3_600)                                            # the month is up
    mono.advance(3_600)
    assert logins.alive(phone) and not logins.alive(earlier)
    booted.advance(LOGIN_DAYS * 86_400)
    mono.advance(LOGIN_DAYS * 86_400)
    assert not logins.alive(phone)


def test_guard_a_phone_stays_signed_in_whatever_the_boxs_clock_says(make_app, tmp_path,
                                                                    monkeypatch):
    """Found on a box away from home: the cookie's Expires was a date from the Pi's clock (1970
    on a fresh card, a month behind after a month in a drawer), which a phone with the right
    time throws away at once: the PIN was taken and nothing stayed signed in. And a cookie
    signed before NTP moved the clock 40 days on was refused as too old, signing the phone out
    (and unpairing it). The cookie now lasts by Max-Age alone and only its signature is
    checked; the sign-in's own 30 days decide (auth.Logins)."""
    import time
    from fakes import FakeClock
    from web.access.auth import Logins
    now = time.time()
    behind = now - 40 * 86_400
    wall, mono = FakeClock(behind), FakeClock(50.0)
    client = make_app(logins=Logins(tmp_path / "logins.json", clock=wall,
                                    monotonic=mono)).test_client()
    monkeypatch.setattr(time, "time", lambda: behind)       # the box's clock signs the cookie
    token = csrf(client.get("/").get_data(as_text=True))
    answer = client.post("/control/login", data={"pin": PIN, "csrf": token})
    cookie = answer.headers["Set-Cookie"]
    assert answer.status_code == 303 and "expires" not in cookie.lower(), cookie
    assert 30 * 86_400 < int(re.search(r"Max-Age=(\d+)", cookie).group(1)) <= 31 * 86_400
    monkeypatch.setattr(time, "time", lambda: now)          # NTP sets it right
    wall.now = now
    mono.advance(30)
    page = client.get("/").get_data(as_text=True)
    assert 'id="logout"' in page and 'id="login"' not in page
    client.post("/control/logout", data={"csrf": csrf(page)})
    assert 'id="login"' in client.get("/").get_data(as_text=True)


# -- the PIN against a LAN of guests -----------------------------------------------------------

def test_guard_pin_many_addresses_share_one_table_wide_limit():
    """Attack 8: 644 addresses each under their own limit found a 4-digit PIN in 2.9 s. Now
    20 wrong PINs from all addresses within a minute lock every PIN (the right one too) for a
    minute, then 2, 4 ... 60 minutes, stepping back down when guessing stops."""
    from fakes import FakeClock
    from web.access.auth import LOCKOUT_SECONDS, PinGuard
    from web.errors import ApiError
    clock = FakeClock()
    guard = PinGuard("482913", clock=clock)
    for n in range(19):
        assert not guard.check(f"10.0.{n}.1", "000000")
    assert guard.check("10.9.9.9", "482913")              # 19: still under the table's limit
    assert not guard.check("10.0.19.1", "000000")         # the 20th: locked
    with pytest.raises(ApiError) as refused:
        guard.check("10.9.9.9", "482913")
    assert refused.value.status == 429 and "every PIN waits 61 s" in refused.value.message
    assert "signed-in phones and the box carry on" in refused.value.message
    clock.advance(61)
    assert guard.check("10.9.9.9", "482913")
    for n in range(20):                                    # a second round: twice as long
        guard.check(f"10.1.{n}.1", "000000")
    clock.advance(LOCKOUT_SECONDS[0] + 1)
    with pytest.raises(ApiError):
        guard.check("10.9.9.9", "482913")
    clock.advance(LOCKOUT_SECONDS[1])
    assert guard.check("10.9.9.9", "482913")
    clock.advance(LOCKOUT_SECONDS[1] + LOCKOUT_SECONDS[0] + 1)   # quiet: back to the start
    for n in range(20):
        guard.check(f"10.2.{n}.1", "000000")
    clock.advance(LOCKOUT_SECONDS[0] + 1)
    assert guard.check("10.9.9.9", "482913")


def test_guard_pin_table_limit_over_http_from_many_addresses(make_app):
    client = make_app().test_client()
    codes = [client.post("/api/login", json={"pin": f"{n:04d}"},
                         environ_base={"REMOTE_ADDR": f"192.168.7.{n + 1}"}).status_code
             for n in range(25) if f"{n:04d}" != PIN]
    assert codes[:20] == [403] * 20 and set(codes[20:]) == {429}
    right = client.post("/api/login", json={"pin": PIN},
                        environ_base={"REMOTE_ADDR": "192.168.7.200"})
    assert right.status_code == 429 and "every PIN waits" in right.get_json()["error"]


def test_guard_a_new_pin_sends_an_open_page_back_to_the_pin_form(app, client, logged_in):
    """After "New PIN" at the box an open phone still offered Undo, Rename, Set aside; a tap
    answered "Enter the table's PIN first." with no field to enter it. The answer now says the
    sign-in is gone (the script reloads) and the page it reloads asks for the PIN."""
    app.extensions["parlour"].session.new_game("kat-en-muis", ["Ann", "Ben"])
    fetched = {"Accept": "application/json"}
    rename = {"csrf": logged_in, "seat": "1", "name": "Zed"}
    assert client.post("/control/rename", data=rename,
                       headers=fetched).status_code == 200            # signed in: it works
    app.extensions["parlour"].guard.set_pin("97531")                   # "New PIN" at the box
    answer = client.post("/control/rename", data={**rename, "name": "Ned"}, headers=fetched)
    body = answer.get_json()
    assert answer.status_code == 403 and body["signed_out"] is True
    assert body["error"] == body["message"]                 # as every JSON refusal
    assert body["message"] == ("The table's PIN has changed, or this phone was signed out: "
                               "enter the PIN.")
    page = client.get("/").get_data(as_text=True)
    assert 'id="login"' in page and 'id="logout"' not in page
    assert "The table&#39;s PIN has changed" in page                    # said once more there
    wrong = client.post("/control/undo", data={"csrf": "nonsense"}, headers=fetched)
    assert "signed_out" not in (wrong.get_json() or {})                # an expired form is not
