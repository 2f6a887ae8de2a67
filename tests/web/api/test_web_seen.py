"""An action names the state it was asked on (`seen`, the state JSON's "<boot>:<state_version>")
and is done on that state only: a tap sent twice, an answer lost on the table's Wi-Fi and sent
again, or two phones acting on one turn act once; the others are told what the table shows."""

from __future__ import annotations

import re

import pytest

from web.moves import phone_words

from web_support import PIN

JSON = {"Accept": "application/json"}


def mark(state: dict) -> str:
    return f"{state['boot']}:{state['state_version']}"


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def signed_in(app):
    """A phone signed in with the PIN: its client and the page it was shown."""
    client = app.test_client()
    client.post("/control/login", data={"pin": PIN, "csrf": csrf_of(
        client.get("/").get_data(as_text=True))})
    return client, client.get("/").get_data(as_text=True)


def test_attack_a_throw_sent_twice_throws_once(control, kat, session):
    first = control("roll", {"seen": mark(kat)})
    assert first.status_code == 200
    thrown = first.get_json()
    again = control("roll", {"seen": mark(kat)})                 # the same tap, sent again
    assert again.status_code == 409
    assert again.get_json()["error"] == \
        f"Not done: the table had moved on. Now: {thrown['log'][-1]}"
    assert session.snapshot()["rolls"] == thrown["rolls"] == kat["rolls"] + 1


def test_attack_a_chip_correction_sent_again_pays_once(control, kat, session):
    body = {"from": 0, "to": 1, "amount": 3, "reason": "a spilled pot", "seen": mark(kat)}
    paid = control("transfer", body)
    assert paid.status_code == 200
    chips = [p["chips"] for p in paid.get_json()["players"]]
    assert control("transfer", body).status_code == 409
    assert control("undo", {"seen": mark(kat)}).status_code == 409     # nor an undo on it
    assert [p["chips"] for p in session.snapshot()["players"]] == chips
    assert [p["chips"] for p in kat["players"]] == [chips[0] + 3, chips[1] - 3]


def test_attack_two_phones_on_one_turn_act_once(make_app, control, kat, session):
    app = make_app()
    (ann, page_a), (ben, page_b) = signed_in(app), signed_in(app)
    for page in (page_a, page_b):                 # every control form names the state shown
        forms = re.findall(r'<form method="post" action="/control/([a-z-]+)"(.*?)</form>',
                           page, re.S)
        actions = [a for a, _ in forms if a not in ("login", "logout")]
        assert {"undo", "new-game", "transfer", "rename", "end", "roll"} <= set(actions)
        for action, form in forms:
            if action in ("login", "logout"):
                continue
            assert f'name="seen" value="{mark(kat)}"' in form, action
    throws = [phone.post("/control/roll", headers=JSON, data={
        "csrf": csrf_of(page), "seen": mark(kat)}) for phone, page in ((ann, page_a),
                                                                     (ben, page_b))]
    assert [t.status_code for t in throws] == [200, 409]
    now = session.snapshot()
    assert now["rolls"] == kat["rolls"] + 1
    assert throws[1].get_json()["error"] == \
        f"Not done: the table had moved on. Now: {now['log'][-1]}."
    assert now["log"][-1] in throws[0].get_json()["message"]


def test_attack_chances_coming_in_refuse_nothing(control, kat, session):
    assert session.publish_odds(kat["state_version"], {"win": [0.5, 0.5]})
    assert session.snapshot()["version"] > kat["version"]            # a new state to show ...
    assert control("roll", {"seen": mark(kat)}).status_code == 200   # ... the same game


def test_attack_a_state_of_an_earlier_run_is_refused(control, kat, session):
    """Refused, and said as it is: a tap from before a restart read "the table had moved on"
    though nothing had changed; the box restarted since the page heard from it."""
    other_boot = "0" * len(kat["boot"]) if kat["boot"] != "0" * len(kat["boot"]) else "1"
    answer = control("roll", {"seen": f"{other_boot}:{kat['state_version']}"})
    assert answer.status_code == 409 and answer.get_json()["error"] == (
        "Not done: the box has restarted since this page last heard from it. Now: "
        + phone_words(kat["log"][-1]))
    assert session.snapshot()["rolls"] == kat["rolls"]


@pytest.mark.parametrize("seen", ["x", 5, ["a:1"], "ab:1:2", "AB:1", "ab:-1", "a" * 17 + ":1",
                                  "ab:" + "1" * 13, "ab:1\n"])
def test_attack_a_malformed_seen_is_a_400_and_changes_nothing(control, kat, session, seen):
    answer = control("roll", {"seen": seen})
    assert answer.status_code == 400
    assert "'seen' must name the state" in answer.get_json()["error"]
    assert session.snapshot()["rolls"] == kat["rolls"]


def test_actions_without_seen_are_done_as_before(control, kat, session):
    """The API's callers that name no state (scripts written before `seen`) act on the newest."""
    assert control("roll").status_code == 200
    assert control("roll", {}).status_code == 200
    assert control("roll", {"seen": ""}).status_code == 200
    assert session.snapshot()["rolls"] == kat["rolls"] + 3


def test_a_new_game_form_sent_twice_starts_one_game(make_app, session):
    app = make_app()
    phone, page = signed_in(app)
    form = {"csrf": csrf_of(page), "seen": mark(session.snapshot()), "game": "kat-en-muis",
            "player": ["Ann", "Ben"]}
    assert phone.post("/control/new-game", headers=JSON, data=form).status_code == 200
    game = session.snapshot()["game_id"]
    second = phone.post("/control/new-game", headers=JSON, data=form)
    assert second.status_code == 409 and "Not done" in second.get_json()["error"]
    assert session.snapshot()["game_id"] == game               # the first is not set aside
    assert session.store.latest_unfinished().id == game


def test_attack_a_paired_phones_throw_sent_again_is_told_it_was_done(make_app, control, kat,
                                                                      session, tmp_path):
    from web.access.phones import Pairings
    pairings = Pairings(tmp_path / "phones.json", clock=lambda: 100.0)
    app = make_app(pairings=pairings)
    phone = app.test_client()
    token = csrf_of(phone.get("/").get_data(as_text=True))
    headers = {"X-Parlour-Csrf": token}
    code = pairings.offer(kat["turn"] + 1)                     # Ann's button, at the box
    assert phone.post("/api/pair", headers=headers, json={"code": code}).status_code == 200
    thrown = phone.post("/api/control/roll", headers=headers, json={"seen": mark(kat)})
    assert thrown.status_code == 200
    again = phone.post("/api/control/roll", headers=headers, json={"seen": mark(kat)})
    assert again.status_code == 409                   # not "It is Ben's turn, not yours."
    assert again.get_json()["error"] == \
        f"Not done: the table had moved on. Now: {thrown.get_json()['log'][-1]}"
    assert session.snapshot()["rolls"] == kat["rolls"] + 1


def test_attack_two_phones_ending_one_turn_are_told_whose_turn_it_is_now(control, session):
    """X8: two phones tapped End turn at once; the one refused read "Now: Cy spins 2 and 6"
    on Ann's turn, as ending a turn adds no line: it reads the prompt there."""
    control("new-game", {"game": "gantlope", "players": ["Ann", "Ben"]})
    while session.snapshot()["phase"] == "lead":
        control("roll")
    control("roll")
    spun = session.snapshot()
    assert control("next", {"seen": mark(spun)}).status_code == 200
    late = control("next", {"seen": mark(spun)})
    now = session.snapshot()
    assert late.status_code == 409 and now["log"] == spun["log"]
    assert late.get_json()["error"] == \
        f"Not done: the table had moved on. Now: {phone_words(now['prompt'])}"


def test_attack_a_tap_from_before_an_undo_says_what_it_took_back(control, kat, session):
    """A script's throw asked on a state an undo had since taken back was told "Now: Ann
    throws 4 and 1 (5) for the lead", the line the undo left last, as if just thrown; it is
    told what was taken back, as the box and the phone page say it."""
    first = control("roll", {"seen": mark(kat)}).get_json()
    second = control("roll", {"seen": mark(first)}).get_json()
    session.undo(by="knob")
    answer = control("roll", {"seen": mark(second)})
    assert answer.status_code == 409
    lines = second["log"][len(first["log"]):]          # Ben's throw, and a tie on it or not
    assert answer.get_json()["error"] == \
        f"Not done: the table had moved on. Now: taken back: {'; '.join(lines)}"
    assert session.snapshot()["rolls"] == first["rolls"]
    control("roll", {"seen": mark(session.snapshot())})
    assert control("roll", {"seen": mark(second)}).get_json()["error"] == \
        f"Not done: the table had moved on. Now: {session.snapshot()['log'][-1]}"
