"""The box's Wi-Fi from a phone: its status and "add a home network" need the PIN; the page's
Wi-Fi card is for signed-in phones where the box manages its Wi-Fi, and nowhere else."""

from __future__ import annotations

import re

import pytest

from web_support import PIN

HOTSPOT = {"mode": "hotspot", "network": "Parlour-ab12", "message": "", "version": 3,
           "url": "http://10.42.0.1:8080/",
           "hotspot": {"ssid": "Parlour-ab12", "password": "k7mp-2xqa-rj9c"}}


class FakeNetwork:
    def __init__(self):
        self.added: list[tuple[str, str]] = []

    def status(self):
        return dict(HOTSPOT)

    def add_home(self, ssid, password):
        if len(password) < 8 and password:
            raise ValueError("A WPA password is 8 to 63 printable ASCII characters.")
        self.added.append((ssid, password))
        return f"Joining {ssid}."


@pytest.fixture
def network():
    return FakeNetwork()


@pytest.fixture
def wifi_client(make_app, network):
    return make_app(network=network).test_client()


def _csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def _sign_in(client) -> str:
    client.post("/control/login", data={"pin": PIN, "csrf": _csrf(client.get("/").get_data(
        as_text=True))})
    return _csrf(client.get("/").get_data(as_text=True))


def test_network_api_needs_the_pin(wifi_client, network):
    assert wifi_client.get("/api/network").status_code == 401
    response = wifi_client.post("/api/network/wifi", json={"ssid": "Our House",
                                                           "password": "correct horse"})
    assert response.status_code == 401 and network.added == []
    assert wifi_client.post("/api/network/wifi", json={"ssid": "x", "password": "y" * 8},
                            headers={"X-Parlour-Pin": "0000"}).status_code == 403
    assert network.added == []


def test_network_api_tells_the_status_and_joins_with_the_pin(wifi_client, network):
    headers = {"X-Parlour-Pin": PIN}
    assert wifi_client.get("/api/network", headers=headers).get_json() == HOTSPOT
    response = wifi_client.post("/api/network/wifi", headers=headers,
                                json={"ssid": "Our House", "password": "correct horse"})
    assert response.status_code == 202
    assert response.get_json() == {"ok": True, "message": "Joining Our House."}
    assert network.added == [("Our House", "correct horse")]
    open_one = wifi_client.post("/api/network/wifi", headers=headers, json={"ssid": "Café"})
    assert open_one.status_code == 202 and network.added[-1] == ("Café", "")


@pytest.mark.parametrize("body, words", [
    ({"ssid": "Our House", "password": "short"}, "8 to 63 printable ASCII"),
    ({"password": "correct horse"}, "'ssid' is missing"),
    ({"ssid": 7}, "'ssid' must be text"),
    ({"ssid": "x" * 65}, "longer than 64"),
])
def test_network_api_refuses_what_cannot_be_a_network(wifi_client, network, body, words):
    response = wifi_client.post("/api/network/wifi", headers={"X-Parlour-Pin": PIN}, json=body)
    assert response.status_code == 400 and words in response.get_json()["error"]
    assert network.added == []


def test_network_api_without_a_managed_network_says_so(client):
    response = client.get("/api/network", headers={"X-Parlour-Pin": PIN})
    assert response.status_code == 404 and "does not manage its Wi-Fi" in \
        response.get_json()["error"]
    assert "wifi-box" not in client.get("/").get_data(as_text=True)


def test_network_card_only_for_signed_in_phones(wifi_client, network):
    assert "wifi-box" not in wifi_client.get("/").get_data(as_text=True)      # watching
    token = _sign_in(wifi_client)
    page = wifi_client.get("/").get_data(as_text=True)
    assert 'id="wifi-box" open' in page
    assert "The box runs its own Wi-Fi, Parlour-ab12." in page
    answer = wifi_client.post("/control/wifi", data={"csrf": token, "ssid": "Our House",
                                                     "password": "correct horse"},
                              headers={"Accept": "application/json"})
    assert answer.status_code == 202 and answer.get_json()["message"] == "Joining Our House."
    refused = wifi_client.post("/control/wifi", data={"csrf": token, "ssid": "Our House",
                                                      "password": "short"},
                               headers={"Accept": "application/json"})
    assert refused.status_code == 400 and "8 to 63" in refused.get_json()["message"]
    assert network.added == [("Our House", "correct horse")]


def test_network_form_needs_a_sign_in_not_just_the_page(make_app, network):
    client = make_app(network=network).test_client()
    token = _csrf(client.get("/").get_data(as_text=True))
    answer = client.post("/control/wifi", data={"csrf": token, "ssid": "Evil",
                                                "password": "password1"},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 401 and network.added == []
