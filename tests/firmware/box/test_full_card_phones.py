"""Attack 11, a full card: a pairing, a sign-in and a sign-out change kept state, so each is
kept before it is answered, or refused with the full-card words and nothing changed (before,
they were answered as done and lost at the next restart: a signed-out cookie worked again)."""

from __future__ import annotations

import errno
import re

import pytest

from fakes import cookie_value, give_cookie
from firmware.datadir.phones import phone_options
from PIL import Image
from test_phones import ARTIFACTS, wired
from web import create_app
from web.access import keptfile

FULL = "The SD card is full"


@pytest.fixture
def card(monkeypatch):
    """`card.full = True` and every kept file's write fails as on a full SD card."""
    real = keptfile.write_private

    class Card:
        full = False

    def write(path, data):
        if Card.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(keptfile, "write_private", write)
    return Card


def _csrf(client) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', client.get("/").get_data(as_text=True))[1]


def _signed_in(client) -> bool:
    return 'id="logout"' in client.get("/").get_data(as_text=True)


def _app(session, tmp_path):
    return create_app(session, pin="2468", test_config={"TESTING": True},
                      **phone_options(tmp_path))


def test_full_card_refuses_a_sign_in_rather_than_lose_it(session, tmp_path, card):
    phone = _app(session, tmp_path).test_client()
    card.full = True
    answer = phone.post("/api/login", json={"pin": "2468"})
    assert answer.status_code == 507 and answer.get_json()["error"].startswith(
        f"{FULL}: this sign-in was not kept")
    assert not _signed_in(phone)                          # no half sign-in in the cookie
    form = phone.post("/control/login", data={"pin": "2468", "csrf": _csrf(phone)},
                      headers={"Accept": "application/json"})
    assert form.status_code == 507 and not _signed_in(phone)


def test_full_card_refuses_a_sign_out_and_the_phone_stays_signed_in(session, tmp_path, card):
    app = _app(session, tmp_path)
    phone = app.test_client()
    phone.post("/control/login", data={"pin": "2468", "csrf": _csrf(phone)})
    assert _signed_in(phone)
    cookie = cookie_value(phone, "parlour")
    card.full = True
    answer = phone.post("/api/logout", headers={"X-Parlour-Csrf": _csrf(phone)})
    assert answer.status_code == 507 and "this sign-out was not kept" in \
        answer.get_json()["error"]
    assert _signed_in(phone)                             # refused: nothing changed
    card.full = False
    restarted = _app(session, tmp_path).test_client()    # a restart: still the same answer
    give_cookie(restarted, "parlour", cookie)
    assert _signed_in(restarted)
    assert restarted.post("/api/logout", headers={"X-Parlour-Csrf": _csrf(restarted)}
                          ).status_code == 200
    copy = _app(session, tmp_path).test_client()
    give_cookie(copy, "parlour", cookie)
    assert not _signed_in(copy)                          # ended for every copy, kept


def test_full_card_refuses_a_pairing_and_says_so(session, tmp_path, card):
    app = _app(session, tmp_path)
    pairings = app.extensions["parlour"].pairings
    phone = app.test_client()
    card.full = True
    answer = phone.post("/api/pair", headers={"X-Parlour-Csrf": _csrf(phone)},
                        json={"code": pairings.offer(3)})
    assert answer.status_code == 507
    assert answer.get_json()["error"].startswith(f"{FULL}: this pairing was not kept")
    assert phone.get("/api/pair").get_json()["button"] is None
    card.full = False
    again = _app(session, tmp_path).extensions["parlour"].pairings
    assert again.paired() == {}                          # nothing half-kept either


def test_full_card_refuses_an_unpairing_and_the_phone_stays_paired(session, tmp_path, clock,
                                                                   card):
    c, app = wired(session, tmp_path, clock)
    pairings = app.extensions["parlour"].pairings
    pairings.claim("phone-token", pairings.offer(3))
    card.full = True
    with pytest.raises(Exception, match=f"{FULL}: this unpairing was not kept"):
        pairings.forget("phone-token")
    assert pairings.button("phone-token") == 3


def test_full_card_refuses_a_new_pin_and_the_old_one_stays(session, tmp_path, clock, card):
    """The menu's "New PIN" on a full card raised an OSError out of the box's loop (logged
    with a traceback), said nothing, and went back to play: the old PIN stayed, unexplained."""
    from firmware.datadir import keys
    from controller_support import press
    c, app = wired(session, tmp_path, clock)
    kept = keys.stored_pin(tmp_path)
    press(c, "hold")
    press(c, "turn", detents=c.menu_items.index("New PIN"))
    press(c, "press")
    card.full = True
    press(c, "turn", detents=1)
    press(c, "press")                                    # yes: a new PIN
    assert c.screen != "pin" and c.view()["flash"].startswith(FULL), c.view()
    assert "the new PIN was not kept" in c.view()["flash"]
    assert c.pin == "2468" and keys.stored_pin(tmp_path) == kept
    assert app.extensions["parlour"].guard.check("10.0.0.9", "2468")     # the PIN still works
    ARTIFACTS.mkdir(exist_ok=True)
    c.render().resize((512, 256), Image.NEAREST).save(ARTIFACTS / "oled-new-pin-card-full.png")
