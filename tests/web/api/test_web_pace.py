"""How fast one phone may change the game (web/access/pace.py): a paired phone, then a
signed-in one, held to a hand's pace on the app's clock (a fake one here), answered 429 with
the seconds to wait and nothing done; a script with the PIN is not held back (the box's own
controls against such a phone: tests/firmware/box/test_phone_pace.py)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest

from companion.session import MAX_GAME_EVENTS
from fakes import FakeClock
from web.access.phones import Pairings
from web_support import PIN, serving

PAIRED_BURST, PAIRED_EVERY = 6, 2.0          # the README's figures (web/access/pace.py)
SIGNED_IN_BURST, SIGNED_IN_EVERY = 12, 1.0


def csrf_of(page: str) -> str:
    return re.search(r'data-csrf="([^"]+)"', page).group(1)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def pairings(tmp_path, clock):
    return Pairings(tmp_path / "phones.json", clock=clock)


@pytest.fixture
def paced_app(make_app, pairings, clock):
    return make_app(pairings=pairings, test_config={"CLOCK": clock})


def free_play(control, session) -> None:
    """Free play between Ann and Ben, past its lead: seat buttons 1 and 2."""
    assert control("new-game", {"game": "free-play", "players": ["Ann", "Ben"]}).status_code \
        == 200
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")


def paired_phone(app, pairings, button: int = 2):
    """A phone's test client paired with `button` and its CSRF headers."""
    client = app.test_client()
    token = csrf_of(client.get("/").get_data(as_text=True))
    code = pairings.offer(button)
    assert client.post("/api/pair", headers={"X-Parlour-Csrf": token},
                       json={"code": code}).status_code == 200
    return client, {"X-Parlour-Csrf": token}


def test_pace_attack_1_a_paired_phone_pressing_its_seat_for_ever_is_answered_429(
        paced_app, pairings, clock, control, session):
    """Free play lets a paired phone press its own seat at any time: 200 presses a second,
    each an event and a whole state pushed to every page. Past a few at once it waits its
    turn: 429 in words with Retry-After, nothing stored, nothing pushed; over the table's own
    server, and from the page's form as from the API."""
    free_play(control, session)
    with serving(paced_app) as url:
        phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        token = csrf_of(phone.open(url + "/").read().decode())

        def post(path: str, body: dict) -> tuple[int, dict, str | None]:
            sent = urllib.request.Request(url + path, method="POST",
                                          data=json.dumps(body).encode(),
                                          headers={"Content-Type": "application/json",
                                                   "X-Parlour-Csrf": token})
            try:
                with phone.open(sent, timeout=10) as answer:
                    return answer.status, json.loads(answer.read()), None
            except urllib.error.HTTPError as err:
                return err.code, json.loads(err.read()), err.headers.get("Retry-After")

        assert post("/api/pair", {"code": pairings.offer(2)})[0] == 200

        def press() -> tuple[int, dict, str | None]:
            return post("/api/control/press", {"seat": 1})

        assert [press()[0] for _ in range(PAIRED_BURST)] == [200] * PAIRED_BURST
        events, version = len(session.store.events(session.game_id)), session.version
        for _ in range(50):                                  # as fast as it answers
            status, body, wait = press()
            assert status == 429 and wait == "2", (status, body)
            assert body == {"error": "Not done: this phone is sending moves faster than a hand "
                                     "plays them. Try again in 2 s (the box's buttons are "
                                     "never held back)."}
        assert (len(session.store.events(session.game_id)), session.version) == \
            (events, version)                                # nothing stored, nothing pushed
        clock.advance(PAIRED_EVERY)
        assert press()[0] == 200                             # its next point, in its time
        assert press()[0] == 429
        form = urllib.request.Request(url + "/control/press", method="POST",
                                      data=f"csrf={token}&seat=1".encode(),
                                      headers={"Accept": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            phone.open(form, timeout=10)                     # the page's form, as it sends it
        assert refused.value.code == 429 and refused.value.headers["Retry-After"] == "2"
        assert "Try again in 2 s" in json.loads(refused.value.read())["error"]
    assert session.snapshot()["players"][1]["score"] == PAIRED_BURST + 1


def test_pace_attack_1_free_play_is_not_driven_to_the_event_cap_in_minutes(
        paced_app, pairings, clock, control, session):
    """About 10,000 presses reached the game's cap in 4 minutes, after which every move was
    refused at the box too. Held to its pace, a phone pressing for five minutes (twice a
    second, faster than it may) makes some 150 points: the cap is hours away."""
    free_play(control, session)
    client, headers = paired_phone(paced_app, pairings)
    first = len(session.store.events(session.game_id))
    for _ in range(5 * 60 * 2):
        clock.advance(0.5)
        client.post("/api/control/press", headers=headers, json={"seat": 1})
    taken = len(session.store.events(session.game_id)) - first
    assert taken <= PAIRED_BURST + 5 * 60 / PAIRED_EVERY                        # 156
    assert (MAX_GAME_EVENTS - first) * PAIRED_EVERY / 3600 > 5      # hours to the cap, at best


def test_pace_attack_1_a_signed_in_phone_has_a_wider_pace_and_a_pin_script_none(
        paced_app, clock, control, session):
    """A signed-in phone may run the whole table (every seat, corrections), so it is held
    to a wider pace; a script with the PIN in a header is the owner's tool."""
    free_play(control, session)
    phone = paced_app.test_client()
    token = csrf_of(phone.get("/").get_data(as_text=True))
    assert phone.post("/control/login", data={"pin": PIN, "csrf": token}).status_code == 303
    token = csrf_of(phone.get("/").get_data(as_text=True))
    headers = {"X-Parlour-Csrf": token}
    answers = [phone.post("/api/control/press", headers=headers, json={"seat": 0}).status_code
               for _ in range(SIGNED_IN_BURST + 3)]
    assert answers == [200] * SIGNED_IN_BURST + [429] * 3
    clock.advance(SIGNED_IN_EVERY)
    assert phone.post("/api/control/press", headers=headers, json={"seat": 0}).status_code \
        == 200
    client = paced_app.test_client()
    assert all(control("press", {"seat": 0}).status_code == 200 for _ in range(30))
    assert client.post("/api/control/press", json={"seat": 0},
                       headers={"X-Parlour-Pin": PIN}).status_code == 200


def test_pace_a_move_refused_for_its_seat_by_the_game_or_moved_on_spends_nothing(
        paced_app, pairings, clock, control, session):
    """A paired phone's taps that change nothing (another seat's press, a point during the
    lead, which the game refuses, a state the table has moved on from: a tap that raced
    another phone's) leave its pace as it was."""
    assert control("new-game", {"game": "free-play", "players": ["Ann", "Ben"]}).status_code \
        == 200
    client, headers = paired_phone(paced_app, pairings)
    for _ in range(3 * PAIRED_BURST):
        assert client.post("/api/control/press", headers=headers,
                           json={"seat": 0}).status_code == 403          # not its seat
        refused = client.post("/api/control/press", headers=headers, json={"seat": 1})
        assert refused.status_code == 409 and "lead" in refused.get_json()["error"]
        assert client.post("/api/control/press", headers=headers,
                           json={"seat": 1, "seen": "0:0"}).status_code == 409
    while session.snapshot()["phase"] == "lead":
        session.roll(by="test")
    assert [client.post("/api/control/press", headers=headers, json={"seat": 1}).status_code
            for _ in range(PAIRED_BURST + 1)] == [200] * PAIRED_BURST + [429]


def test_pace_buckets_refill_to_their_burst_and_forget_the_longest_unused():
    from web.access.pace import Buckets, Pace
    clock = FakeClock()
    buckets = Buckets(Pace(burst=3, every=2.0), clock=clock, limit=2)

    def act(key: str) -> float:
        wait = buckets.wait(key)
        if not wait:
            buckets.spend(key)
        return wait

    assert [act("a") for _ in range(4)] == [0, 0, 0, 2.0]
    clock.advance(0.5)
    assert act("a") == 1.5                              # a try held back spends nothing
    clock.advance(1.5)
    assert act("a") == 0 and act("a") == 2.0
    clock.advance(3600)                                 # an hour idle: three at once, no more
    assert [act("a") for _ in range(4)] == [0, 0, 0, 2.0]
    act("b")
    act("c")                                            # "a" is forgotten: full again
    assert [act("a") for _ in range(3)] == [0, 0, 0]
