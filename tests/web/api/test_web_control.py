"""POST /api/login and /api/control/<action>: the PIN, its rate limit, every action, and the
rule that nothing a client sends ever gets a 500."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakes import FakeClock
from web_support import PIN

HEADER = {"X-Parlour-Pin": PIN}


# -- the PIN ----------------------------------------------------------------------------------

def test_control_without_pin_is_401(control, session):
    response = control("new-game", {"game": "kat-en-muis", "players": ["A", "B"]}, pin=None)
    assert response.status_code == 401
    assert "PIN" in response.get_json()["error"]
    assert session.snapshot()["phase"] == "idle"


def test_control_wrong_pin_is_403(control, session):
    response = control("new-game", {"game": "kat-en-muis", "players": ["A", "B"]}, pin="0000")
    assert response.status_code == 403
    assert response.get_json() == {"error": "wrong PIN"}
    assert session.snapshot()["phase"] == "idle"


def test_control_wrong_pins_are_rate_limited_per_address(make_app):
    clock = FakeClock()
    app = make_app(test_config={"CLOCK": clock})
    client = app.test_client()
    for _ in range(5):
        assert client.post("/api/control/undo", headers={"X-Parlour-Pin": "1"}).status_code == 403
    limited = client.post("/api/control/undo", headers=HEADER)      # even the right PIN now
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) > 0
    assert "too many wrong PINs" in limited.get_json()["error"]
    other = client.post("/api/control/undo", headers=HEADER,
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 409                                    # another phone is fine
    clock.now += 61
    assert client.post("/api/control/undo", headers=HEADER).status_code == 409


def test_control_login_sets_an_httponly_strict_cookie(client):
    """... that lasts by Max-Age as the form's does (the API's was a browser-session cookie)."""
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert 30 * 86_400 < int(re.search(r"Max-Age=(\d+)", cookie).group(1)) <= 31 * 86_400
    assert PIN not in cookie
    assert response.get_json()["csrf"]


def test_control_login_wrong_pin_is_403_and_limited(client):
    for _ in range(5):
        assert client.post("/api/login", json={"pin": "9"}).status_code == 403
    assert client.post("/api/login", json={"pin": PIN}).status_code == 429


def test_control_login_then_control_needs_the_csrf_header(client, session):
    token = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    body = {"game": "kat-en-muis", "players": ["Ann", "Ben"]}
    assert client.post("/api/control/new-game", json=body).status_code == 403
    assert client.post("/api/control/new-game", json=body,
                       headers={"X-Parlour-Csrf": "nope"}).status_code == 403
    response = client.post("/api/control/new-game", json=body, headers={"X-Parlour-Csrf": token})
    assert response.status_code == 200
    assert session.snapshot()["game"] == "kat-en-muis"


def test_control_logout_ends_the_login(client):
    token = client.post("/api/login", json={"pin": PIN}).get_json()["csrf"]
    assert client.post("/api/logout").status_code == 403          # without its token
    assert client.post("/api/control/undo", headers={"X-Parlour-Csrf": token}).status_code \
        != 401                                                    # still signed in
    assert client.post("/api/logout", headers={"X-Parlour-Csrf": token}).status_code == 200
    response = client.post("/api/control/undo", headers={"X-Parlour-Csrf": token})
    assert response.status_code == 401


def test_control_pin_never_logged(client, caplog):
    caplog.set_level("DEBUG")
    client.post("/api/control/undo", headers={"X-Parlour-Pin": "13579"})
    client.post("/api/login", json={"pin": "97531"})
    assert "13579" not in caplog.text and "97531" not in caplog.text


# -- the actions ------------------------------------------------------------------------------

def test_control_new_game_starts_at_once_in_seat_order(control):
    body = control("new-game", {"game": "lifes-mishaps", "players": ["Cy", "Di", "Ed"]}).get_json()
    assert body["game"] == "lifes-mishaps" and body["phase"] == "lead"
    assert [p["name"] for p in body["players"]] == ["Cy", "Di", "Ed"]
    assert [p["seat"] for p in body["players"]] == [0, 1, 2]
    assert body["awaiting"] == "roll" and body["turn"] == 0


def test_control_new_game_takes_options(control):
    body = control("new-game", {"game": "kat-en-muis", "players": ["A", "B"],
                                "options": {"purse": 30, "stake": 7}}).get_json()
    assert body["options"] == {"purse": 30, "stake": 7}
    assert [p["chips"] for p in body["players"]] == [23, 23] and body["pool"] == 14


def test_control_new_game_refused_by_the_rules_is_409(control):
    for body, words in [
            ({"game": "chess", "players": ["A", "B"]}, "unknown game"),
            ({"game": "kat-en-muis", "players": ["A", "B", "C"]}, "2 players"),
            ({"game": "kat-en-muis", "players": ["A", "a"]}, "same name"),
            ({"game": "kat-en-muis", "players": ["A", "B"], "options": {"stake": 99, "purse": 5}},
             "stake"),
            ({"game": "kat-en-muis", "players": ["A", "B"], "options": {"stake": "5"}},
             "whole number"),
            ({"game": "free-play", "players": ["A", "B"],                # was a 500
              "options": {"randomizer": {"kind": [1]}}}, "unknown randomizer kind")]:
        response = control("new-game", body)
        assert response.status_code == 409, body
        assert words in response.get_json()["error"]


def test_control_X12_a_person_plays_only_at_a_button_the_box_has(make_app, session):
    """A box wired with 4 seat buttons: a phone started Life's Mishaps for six, whose players 5
    and 6 held buttons 5 and 6 the box lacks. Refused, saying why; four people, or three and
    the Pi at a button no one presses, play."""
    from companion.buttons import DEFAULT_COLOURS
    client = make_app(buttons=DEFAULT_COLOURS[:4]).test_client()

    def new_game(body):
        return client.post("/api/control/new-game", json=body, headers=HEADER)

    six = new_game({"game": "lifes-mishaps", "players": list("ABCDEF")})
    assert six.status_code == 409
    assert six.get_json()["error"] == ("This box has 4 seat buttons: at most 4 people can play "
                                       "at it.")
    button_5 = new_game({"game": "lifes-mishaps", "players": ["A", "B"], "buttons": [1, 5]})
    assert button_5.status_code == 409
    assert button_5.get_json()["error"] == ("This box has seat buttons 1 to 4: there is no "
                                            "button 5.")
    assert session.snapshot()["phase"] == "idle"                   # nothing began
    four = new_game({"game": "lifes-mishaps", "players": list("ABCD")})
    assert four.status_code == 200
    assert [p["button"] for p in four.get_json()["players"]] == [1, 2, 3, 4]
    with_pi = new_game({"game": "domino-rex", "players": ["A", "B", "C", "Pi"], "pi": [3],
                        "buttons": [1, 2, 3, 5]})
    assert with_pi.status_code == 200, with_pi.get_json()


@pytest.mark.parametrize("body", [
    {"players": ["A", "B"]},
    {"game": 3, "players": ["A", "B"]},
    {"game": "kat-en-muis"},
    {"game": "kat-en-muis", "players": "Ann"},
    {"game": "kat-en-muis", "players": ["A", 2]},
    {"game": "kat-en-muis", "players": []},
    {"game": "kat-en-muis", "players": ["A", "B"], "options": [5]},
    {"game": "kat-en-muis", "players": ["A", "B"], "board": "big"},
])
def test_control_new_game_bad_fields_are_400(control, body):
    response = control("new-game", body)
    assert response.status_code == 400
    assert response.get_json()["error"]


def test_control_roll_draws_from_the_committed_stream(control, kat, session):
    body = control("roll").get_json()
    assert body["rolls"] == 1 and body["last_roll"]["seat"] == 0
    assert len(body["last_roll"]["values"]) == 2
    assert session.store.events(kat["game_id"])[-1]["by"] == "api"                   # the PIN in a header


def test_control_undo_takes_back_and_never_rerolls(control, kat):
    first = control("roll").get_json()["last_roll"]
    assert control("undo").get_json()["rolls"] == 0
    assert control("roll").get_json()["last_roll"] == first


def test_control_refused_is_409_with_the_reason(control, kat):
    for action, body in [("next", None), ("press", {"seat": 0}), ("choose", {"value": 3}),
                         ("declare", {"winners": [0]})]:
        response = control(action, body)
        assert response.status_code == 409, action
        assert response.get_json()["error"]


def test_control_declare_ends_a_game_and_reveals_the_seed(control, client):
    control("new-game", {"game": "free-play", "players": ["Ann", "Ben"],
                         "options": {"randomizer": {"kind": "none"}}})
    body = control("declare", {"winners": [1]}).get_json()
    assert body["phase"] == "over" and body["winners"] == [1]
    assert len(body["seed"]) == 64
    game = client.get("/api/games").get_json()["games"][0]
    assert game["status"] == "over" and game["winner_names"] == ["Ben"]


def test_control_before_any_game_is_409(control):
    assert "no game" in control("roll").get_json()["error"]
    assert control("undo").status_code == 409


def test_control_transfer_moves_chips_and_says_why(control, kat):
    for _ in range(2):
        control("roll")                           # settle the lead (ties throw again)
    body = control("transfer", {"from": 0, "to": "pool", "amount": 2,
                                "reason": "knocked the board"}).get_json()
    assert body["players"][0]["chips"] == 15 and body["pool"] == 8
    assert "knocked the board" in body["log"][-1]


@pytest.mark.parametrize("reason", ["\ud800", "line\u2028break", "next\u0085line",
                                    "tab\u000bbed", "\u202eevil", "bell\x07"])
def test_control_X10_a_corrections_reason_is_printable_as_a_name_is(control, kat, reason):
    """A correction's reason is read on the box, the phones and the log, as a name is: what
    cannot be shown there is refused with its reason and changes nothing."""
    for _ in range(2):
        control("roll")
    before = control("transfer", {"from": 0, "to": 1, "amount": 1}).get_json()
    response = control("transfer", {"from": 0, "to": "pool", "amount": 2, "reason": reason})
    assert 400 <= response.status_code < 500
    assert "a correction's reason must be printable characters" in response.get_json()["error"]
    after = control("transfer", {"from": 1, "to": 0, "amount": 1}).get_json()
    assert after["pool"] == before["pool"] and after["version"] == before["version"] + 1


def test_control_X10_a_corrections_reason_takes_any_space_as_a_plain_one(control, kat):
    for _ in range(2):
        control("roll")
    body = control("transfer", {"from": 0, "to": "pool", "amount": 2,
                                "reason": "\u00a0knocked\u3000the\u202fboard "}).get_json()
    assert body["log"][-1].endswith("(correction: knocked the board)")


@pytest.mark.parametrize("action,body", [
    ("transfer", {"from": 0, "to": "pool"}),
    ("transfer", {"from": 0, "to": "bank", "amount": 1}),
    ("transfer", {"from": 0, "to": 1, "amount": 0}),
    ("transfer", {"from": 0, "to": 1, "amount": 1.5}),
    ("transfer", {"from": True, "to": 1, "amount": 1}),
    ("transfer", {"from": 0, "to": 1, "amount": 1, "reason": 7}),
    ("press", {}),
    ("press", {"seat": "0"}),
    ("press", {"seat": -1}),
    ("choose", {"value": None}),
    ("declare", {"winners": 0}),
    ("declare", {"winners": ["0"]}),
])
def test_control_wrong_types_are_400(control, kat, action, body):
    response = control(action, body)
    assert response.status_code == 400
    assert response.get_json()["error"]


def test_control_unknown_action_is_404(control):
    response = control("teleport", {"seat": 0})
    assert response.status_code == 404
    assert "unknown action" in response.get_json()["error"]


@pytest.mark.parametrize("action, body, field", [
    ("roll", {"seat": 1}, "seat"), ("next", {"seat": 0}, "seat"),
    ("press", {"seat": 0, "points": 3}, "points"), ("undo", {"steps": 2}, "steps"),
    ("new-game", {"game": "kat-en-muis", "players": ["A", "B"], "player": ["C"]}, "player")])
def test_control_a_field_an_action_does_not_take_is_refused(control, session, action, body,
                                                            field):
    """`roll` with {"seat": 1} on seat 0's turn threw for seat 0, answered 200: a field an
    action does not take is a 400 naming it and the fields it takes, and nothing is done."""
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    before = session.snapshot()
    response = control(action, {**body, "seen": session.mark})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith(f"{action} takes no field {field!r}") and "seen" in error
    assert session.snapshot()["state_version"] == before["state_version"]
    assert control(action, {k: v for k, v in body.items() if k != field}).status_code != 400


@pytest.mark.parametrize("body, why", [
    ('{"seat": ' + "1" * 5000 + "}", "a number too long to be read"),
    ("[" * 3_000 + "]" * 3_000, "nested too deeply"),
    ('{"seat": 0', "not valid JSON"),
])
def test_control_a_body_that_cannot_be_read_says_why(client, session, body, why):
    """A 5,000-digit seat was answered "the body is not valid JSON": it is valid JSON, with a
    number Python will not read (the CLI said so already)."""
    before = session.snapshot()["state_version"]
    response = client.post("/api/control/press", data=body, content_type="application/json",
                           headers=HEADER)
    assert response.status_code == 400 and why in response.get_json()["error"]
    assert session.snapshot()["state_version"] == before


@pytest.mark.parametrize("data,content_type", [
    (b"{", "application/json"),
    (b"[1, 2]", "application/json"),
    (b'"seat"', "application/json"),
    (b"\xff\xfe", "application/json"),
    (b"[" * 5000, "application/json"),
    (b'{"seat": 0}', "text/plain"),
    (b"seat=0", "application/x-www-form-urlencoded"),
])
def test_control_bad_bodies_are_400(client, data, content_type):
    response = client.post("/api/control/press", data=data, content_type=content_type,
                           headers=HEADER)
    assert response.status_code == 400
    assert response.get_json()["error"]


@pytest.mark.parametrize("data", [b'{"seat": "\xff"}', b"\xc3\x28"])
def test_control_a_body_not_utf8_is_400_saying_so(client, data):
    """It was answered "the body holds a number too long to be read"."""
    response = client.post("/api/control/press", data=data, content_type="application/json",
                           headers=HEADER)
    assert response.status_code == 400
    assert response.get_json()["error"] == "the body is not UTF-8 text"


def test_control_body_too_large_is_413(client):
    body = json.dumps({"game": "kat-en-muis", "players": ["A", "B"], "pad": "x" * 20_000})
    response = client.post("/api/control/new-game", data=body, content_type="application/json",
                           headers=HEADER)
    assert response.status_code == 413
    assert response.get_json()["error"]


def test_control_internal_failure_is_a_logged_500_json(control, session, monkeypatch, caplog):
    def broken(by=None):
        raise RuntimeError("the disk fell off")
    monkeypatch.setattr(session, "roll", broken)
    response = control("roll")
    assert response.status_code == 500
    assert "the disk fell off" not in response.get_json()["error"]
    assert "the disk fell off" in caplog.text


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=20), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
FIELDS = st.dictionaries(st.sampled_from(["game", "players", "options", "board", "seat", "value",
                                          "winners", "from", "to", "amount", "reason", "pin"]),
                         JSON, max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.sampled_from(["new-game", "undo", "roll", "press", "next", "choose",
                               "declare", "transfer", "nope"]), body=FIELDS | JSON)
def test_control_never_500_for_anything_sent(client, action, body):
    response = client.post(f"/api/control/{action}", json=body, headers=HEADER)
    assert response.status_code < 500, (action, body, response.get_json())
    assert response.is_json


def test_control_rename_is_an_event_in_the_log(control, kat, session):
    body = control("rename", {"seat": 1, "name": "Bea"}).get_json()
    assert body["players"][1]["name"] == "Bea"
    log = session.export_log(session.game_id)
    assert log[-1]["type"] == "rename" and log[-1]["by"] == "api"
    assert control("rename", {"seat": 1, "name": body["players"][0]["name"]}).status_code == 409
    assert control("rename", {"seat": 1}).status_code == 400


def test_control_x10_a_rename_to_the_name_already_held_is_refused(control, kat, session):
    """Ben renamed "Ben" (or " Ben\u00a0", the same name under X10) was an event: "Button 2,
    Ben, is now called Ben" in the log, the box interrupted under "From a phone", an undo
    spent on it. Nothing changes, so it is refused, saying so; a change of case is a rename."""
    events = len(session.export_log(session.game_id))
    for same in ("Ben", " Ben\u00a0"):
        answer = control("rename", {"seat": 1, "name": same})
        assert answer.status_code == 409 and "already" in answer.get_json()["error"], same
    assert len(session.export_log(session.game_id)) == events
    assert control("rename", {"seat": 1, "name": "BEN"}).get_json()["players"][1]["name"] == \
        "BEN"


def test_control_end_sets_the_game_aside(control, kat, session):
    game_id = session.game_id
    body = control("end").get_json()
    assert body["phase"] == "idle"
    assert session.store.game(game_id).status == "abandoned"
    assert control("end").status_code == 409


@pytest.mark.parametrize("action", ["rename", "new-game"])
def test_control_a_card_too_full_for_the_roster_answers_what_was_done(control, kat, session,
                                                                      monkeypatch, action):
    """The roster is written after the event: on a nearly full card a rename or a new game was
    stored and answered 507, "that was not done" (a phone that tried again began another)."""
    from companion.errors import StoreFull
    from companion.record.store import FULL_WORDS

    def full(*args, **kwargs):
        raise StoreFull(FULL_WORDS["write"])
    monkeypatch.setattr(session.store, "remember_names", full)
    body = {"seat": 1, "name": "Bea"} if action == "rename" else \
        {"game": "cats-and-dogs", "players": ["Cy", "Dee"]}
    response = control(action, body)
    assert response.status_code == 200, response.get_json()
    names = [p["name"] for p in session.snapshot()["players"]]
    assert names == (["Ann", "Bea"] if action == "rename" else ["Cy", "Dee"])
