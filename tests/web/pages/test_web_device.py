"""The simulated device panel: /device, /device/screen.png, /device/screen, /device/input."""

import re

import pytest

from web_support import PIN, PNG, FakeDevice


def test_device_page_has_seats_knob_and_buttons(client, device):
    page = client.get("/device").get_data(as_text=True)
    assert 'id="screen"' in page and 'id="knob"' in page
    assert page.count('class="seat button-') == device.seats
    for label in ("Undo", "Menu", "Press", "Hold", "Flick"):
        assert f">{label}" in page
    assert "device.js" in page


def test_device_screen_png_is_the_frame_uncached(client, device):
    response = client.get("/device/screen.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data == PNG
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Screen-Version"] == str(device.version)


def test_device_screen_version_follows_the_device(client, device):
    assert client.get("/device/screen").get_json()["version"] == 1
    client.post("/device/input", json={"input": "undo"})
    assert client.get("/device/screen").get_json()["version"] == 2


@pytest.mark.parametrize("payload,passed", [
    ({"input": "seat", "seat": 2}, {"input": "seat", "seat": 2}),
    ({"input": "undo", "extra": 1}, {"input": "undo"}),
    ({"input": "knob", "action": "press"}, {"input": "knob", "action": "press"}),
    ({"input": "knob", "action": "hold"}, {"input": "knob", "action": "hold"}),
    ({"input": "knob", "action": "turn", "detents": -3},
     {"input": "knob", "action": "turn", "detents": -3}),
])
def test_device_input_reaches_the_device(client, device, payload, passed):
    response = client.post("/device/input", json=payload)
    assert response.status_code == 200
    assert response.get_json()["ok"] is True
    assert device.inputs == [passed]


@pytest.mark.parametrize("extra", [{"detents": 9}, {}])
def test_device_flick_rolls_through_the_device(client, device, kat, session, extra):
    response = client.post("/device/input", json={"input": "knob", "action": "flick", **extra})
    assert response.status_code == 200
    assert session.snapshot()["rolls"] == 1


@pytest.mark.parametrize("payload", [
    {}, {"input": "jump"}, {"input": "seat"}, {"input": "seat", "seat": "1"},
    {"input": "seat", "seat": -1}, {"input": "knob"}, {"input": "knob", "action": "spin"},
    {"input": "knob", "action": "turn", "detents": 0},
    {"input": "knob", "action": "flick", "detents": 1.5},
    {"input": "knob", "action": "flick", "detents": 10**9},
])
def test_device_input_bad_payload_is_400(client, device, payload):
    response = client.post("/device/input", json=payload)
    assert response.status_code == 400
    assert response.get_json()["error"]
    assert device.inputs == []


@pytest.mark.parametrize("seat", [63, 1000, -1, "six"])
def test_device_input_a_seat_out_of_range_is_said_one_way(client, device, seat):
    """Seat 63 read "must be a whole number from 0 to 5, not 63", seat 1000 or -1 "a seat
    input needs 'seat', a seat number from 0": one wording, naming this device's seats."""
    response = client.post("/device/input", json={"input": "seat", "seat": seat})
    shown = f'"{seat}"' if isinstance(seat, str) else str(seat)
    assert response.status_code == 400 and response.get_json()["error"] == (
        f"a seat input needs 'seat', a whole number from 0 to {device.seats - 1}, not {shown}")
    assert device.inputs == []


def test_device_input_a_press_or_hold_takes_no_detents(client, device):
    """A hold was refused for a "detents" it does not use: the press and hold ignore it."""
    for action in ("press", "hold"):
        response = client.post("/device/input", json={"input": "knob", "action": action,
                                                      "detents": "x"})
        assert response.status_code == 200
    assert device.inputs == [{"input": "knob", "action": "press"},
                             {"input": "knob", "action": "hold"}]


def test_device_input_value_error_is_400_with_its_message(make_app):
    from web_support import FakeDevice
    client = make_app(device=FakeDevice()).test_client()
    response = client.post("/device/input", json={"input": "menu"})
    assert response.status_code == 400
    assert response.get_json() == {"error": "the menu is not available now"}


def test_device_input_refused_roll_is_409(client):
    response = client.post("/device/input", json={"input": "knob", "action": "flick",
                                                  "detents": 3})
    assert response.status_code == 409
    assert "no game" in response.get_json()["error"]


def test_device_input_needs_json(client, device):
    response = client.post("/device/input", data="input=undo",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert device.inputs == []


def test_device_routes_without_a_device_are_404_json(make_app):
    client = make_app(device=None).test_client()
    for method, path in [("get", "/device"), ("get", "/device/screen.png"),
                         ("get", "/device/screen"), ("post", "/device/input")]:
        response = getattr(client, method)(path, json={"input": "undo"} if method == "post"
                                           else None)
        assert response.status_code == 404, path
        assert response.get_json() == {"error": "no simulated device on this table"}


def test_device_fake_satisfies_the_protocol(device):
    from web.device import DevicePanel
    assert isinstance(device, DevicePanel)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PAYLOADS = st.fixed_dictionaries({}, optional={
    "input": st.sampled_from(["seat", "knob", "undo", "menu", "x"]) | st.integers(),
    "seat": st.integers(-3, 10) | st.text(max_size=3) | st.none(),
    "action": st.sampled_from(["press", "hold", "turn", "flick", "spin"]) | st.booleans(),
    "detents": st.integers(-2000, 2000) | st.floats(allow_nan=False) | st.booleans()})


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=PAYLOADS)
def test_device_input_never_500_for_anything_sent(client, payload):
    response = client.post("/device/input", json=payload)
    assert response.status_code < 500 and response.is_json


def test_device_panel_state_says_which_seat_buttons_are_lit(make_app, session):
    class LitDevice(FakeDevice):
        lit = [2]

        def lit_seats(self):
            return list(self.lit)

    device = LitDevice(session)
    client = make_app(device=device).test_client()
    assert client.get("/device/screen").get_json() == {"version": 1, "lit": [2], "view": {}}
    device.lit = [0, 3]
    assert client.get("/device/screen").get_json()["lit"] == [0, 3]
    page = client.get("/device").get_data(as_text=True)
    assert page.count('data-seat="') == device.seats and 'class="led-word" hidden' in page
    plain = make_app(device=FakeDevice(session)).test_client()
    assert plain.get("/device/screen").get_json()["lit"] == []      # a panel without LEDs


def test_device_panel_is_linked_from_the_status_page_where_it_answers(make_app, session):
    """With a simulated box, `/` shows the way to its panel on this machine; a phone on the
    Wi-Fi (the panel closed to it) and a table with real hardware show none."""
    simulated = make_app(device=FakeDevice(session)).test_client()
    assert 'href="/device"' in simulated.get("/").get_data(as_text=True)
    away = simulated.get("/", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert 'href="/device"' not in away.get_data(as_text=True)
    real = make_app(device=None).test_client()
    assert 'href="/device"' not in real.get("/").get_data(as_text=True)


ELSEWHERE = {"REMOTE_ADDR": "192.0.2.20"}        # a phone on the table's Wi-Fi
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def test_device_open_panel_asks_a_browser_for_the_pin_and_comes_back(make_app):
    """With `--open-panel`, a phone following the header's "Box" link got a bare "401" page
    naming the X-Parlour-Pin header, with no way to give the PIN: now the page asks for it in
    a player's words, and the PIN given there leads back to the panel. A request for JSON
    keeps its 401 JSON error."""
    client = make_app(panel_open=True).test_client()
    asked = client.get("/device", headers=BROWSER, environ_base=ELSEWHERE)
    page = asked.get_data(as_text=True)
    assert asked.status_code == 401 and asked.mimetype == "text/html"
    assert "X-Parlour-Pin" not in page and "<h1>401" not in page
    assert "the table's PIN" in page and 'name="pin"' in page and 'id="screen"' not in page
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    wrong = client.post("/control/login", data={"csrf": csrf, "pin": "0000", "next": "device"},
                        headers=BROWSER, environ_base=ELSEWHERE)
    assert wrong.status_code == 303 and wrong.headers["Location"].endswith("/device")
    again = client.get("/device", headers=BROWSER, environ_base=ELSEWHERE)
    assert again.status_code == 401 and "Wrong PIN." in again.get_data(as_text=True)
    right = client.post("/control/login", data={"csrf": csrf, "pin": PIN, "next": "device"},
                        headers=BROWSER, environ_base=ELSEWHERE)
    assert right.status_code == 303 and right.headers["Location"].endswith("/device")
    panel = client.get("/device", headers=BROWSER, environ_base=ELSEWHERE)
    assert panel.status_code == 200 and 'id="screen"' in panel.get_data(as_text=True)
    api = make_app(panel_open=True).test_client()
    for path in ("/device", "/device/screen", "/device/screen.png"):
        answer = api.get(path, headers={"Accept": "application/json"}, environ_base=ELSEWHERE)
        assert answer.status_code == 401 and "X-Parlour-Pin" in answer.get_json()["error"]
    answer = api.get("/device/screen.png", headers=BROWSER, environ_base=ELSEWHERE)
    assert answer.status_code == 401 and answer.is_json          # the panel's own fetches


def test_device_form_sign_in_goes_back_only_to_pages_it_knows(client):
    """The sign-in form's `next` names a page of the table, never an address: anything else
    goes back to the table's page, as before."""
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/").get_data(as_text=True))
    for given in ("https://example.com/", "//example.com", "/history", ""):
        answer = client.post("/control/login", data={"csrf": csrf.group(1), "pin": PIN,
                                                      "next": given}, headers=BROWSER)
        assert answer.status_code == 303
        assert answer.headers["Location"].endswith("/#control"), given
