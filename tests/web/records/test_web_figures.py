"""Per-game figures kept in the store, paginated /history, /fairness and /api/games, and
concurrent requests sharing one computation."""

from __future__ import annotations

import importlib
import threading
import time

import pytest

from companion.session import export_events
from companion.randomness.stats import face_counts
from web import start_background
from web.records.figures import KEPT, LIVE_KEPT, PAGE, Figures, SharedWork

# Every module of the pages that folds a game's log: through `replay`, or `effective_rolls`
FOLDERS = ("web.records.figures", "web.records.chances", "web.records.record",
           "web.records.summaries")


def finished_games(session, count: int, rolls: int = 3) -> None:
    """`count` free-play games with one die: the lead, `rolls` turns, then Ann declared."""
    for _ in range(count):
        session.new_game("free-play", ["Ann", "Ben"], {"randomizer": {"kind": "dice",
                                                                      "count": 1}})
        session.roll()
        session.roll()
        for _ in range(rolls):
            session.roll()
            session.submit({"type": "next"})
        session.submit({"type": "declare", "winners": [0]})


def many_games(session, store, count: int) -> None:
    """One real game, then `count - 1` copies of its first event set aside (fast to make)."""
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    first = store.events(1)[0]
    for _ in range(count - 1):
        game_id = store.create_game(first, seed="00" * 32, commitment=first.get("commitment"),
                                    created_at=None)
        store.abandon(game_id, None)


def test_figures_api_games_pages_with_next_links(client, session, store):
    many_games(session, store, 2 * PAGE + 20)
    seen, url = [], "/api/games"
    while url:
        body = client.get(url).get_json()
        assert len(body["games"]) <= PAGE
        seen += [g["id"] for g in body["games"]]
        url = body["next"]
    assert seen == list(range(2 * PAGE + 20, 0, -1))
    second = client.get(f"/api/games?before={2 * PAGE + 20 - PAGE + 1}").get_json()["games"]
    assert second == client.get("/api/games?page=2").get_json()["games"]
    for bad in ("page=0", "page=abc", "before=1_0", "before=-1", "page=" + "9" * 20):
        response = client.get(f"/api/games?{bad}")
        assert response.status_code == 400 and response.get_json()["error"], bad
    too_big = client.get("/api/games?page=" + "9" * 20).get_json()["error"]
    assert "too large" in too_big and "digits 0-9" not in too_big       # they are digits 0-9


@pytest.mark.parametrize("path", ["/history", "/fairness"])
def test_figures_pages_show_one_page_and_link_the_next(client, session, store, path):
    many_games(session, store, PAGE + 5)
    page = client.get(path).get_data(as_text=True)
    assert f'href="{path}?before=6"' in page and "Older games" in page
    assert path == "/history" or ("#6 " in page and "#5 " not in page)
    older = client.get(f"{path}?before=6").get_data(as_text=True)
    assert "Newest games" in older and "Older games" not in older


def test_figures_kept_as_games_end_and_totals_match_every_replay(app, client, session, store):
    start_background(app)
    finished_games(session, 3)
    session.new_game("free-play", ["Cy", "Di"], {"randomizer": {"kind": "dice", "count": 1}})
    session.roll()                                  # a game still being played counts too
    figures = app.extensions["parlour"].figures
    deadline = time.monotonic() + 10
    while store.count_without_figures() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert store.count_without_figures() == 0
    kept = store.figures([1, 2, 3, 4])
    assert sorted(kept) == [1, 2, 3]                 # the game in play is not kept
    assert kept[1]["names"] == ["Ann", "Ben"] and kept[1]["checked"]["ok"]
    assert kept[1]["rolls"] == 5
    every_log = [export_events(store, g) for g in (1, 2, 3, 4)]
    assert figures.face_totals() == (face_counts(every_log), 0)
    page = client.get("/fairness").get_data(as_text=True)
    assert "match the committed seed" in page
    figures.stop()


def test_figures_an_older_store_is_filled_once(session, store):
    finished_games(session, 4)
    assert store.count_without_figures() == 4        # nothing kept them: an older store
    figures = Figures(store)
    assert figures.fill(limit=100) == 4
    assert store.count_without_figures() == 0 and figures.fill() == 0
    every_log = [export_events(store, g) for g in (1, 2, 3, 4)]
    assert figures.face_totals() == (face_counts(every_log), 0)


def test_figures_concurrent_callers_share_one_computation():
    shared = SharedWork()
    release = threading.Event()
    answers = []

    def slow() -> object:
        release.wait(5)
        return object()

    threads = [threading.Thread(target=lambda: answers.append(shared.get("k", slow)))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(0.1)
    release.set()
    for thread in threads:
        thread.join(5)
    assert shared.computed["k"] == 1 and len(answers) == 8 and len({id(a) for a in answers}) == 1


def test_figures_concurrent_fairness_pages_compute_the_totals_once(app, session, store):
    finished_games(session, 3)
    figures = app.extensions["parlour"].figures
    figures.fill()
    before = figures.shared.computed.copy()
    statuses = []
    clients = [app.test_client() for _ in range(8)]
    threads = [threading.Thread(target=lambda c=c: statuses.append(c.get("/fairness").status_code))
               for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert statuses == [200] * 8
    ran = figures.shared.computed - before
    assert ("faces", store.version) in ran and set(ran.values()) == {1}   # each thing once


def test_figures_kept_replays_are_bounded(client, app, session, store):
    many_games(session, store, KEPT + 8)
    for game_id in range(1, KEPT + 9):
        assert client.get(f"/history/{game_id}").status_code == 200
    figures = app.extensions["parlour"].figures
    assert len(figures._replays) <= KEPT and len(figures.shared._done) <= KEPT


def test_figures_worker_looks_again_only_when_a_game_ends_or_changes(store):
    figures = Figures(store)
    looks = []
    for state in ({"game_id": 1, "phase": "lead"}, {"game_id": 1, "phase": "play"},
                  {"game_id": 1, "phase": "play"}, {"game_id": 1, "phase": "over"},
                  {"game_id": 2, "phase": "lead"}, {"game_id": None, "phase": "idle"}):
        figures._wake.clear()
        figures.wake(state)
        looks.append(figures._wake.is_set())
    assert looks == [True, False, False, True, True, True]


@pytest.fixture
def folds(monkeypatch) -> list[int]:
    """Each fold of a game's log the pages make (a replay, or a walk for its rolls), counted."""
    made: list[int] = []
    for name in FOLDERS:
        module = importlib.import_module(name)
        for what in ("replay", "effective_rolls"):
            real = getattr(module, what, None)
            if real is not None:
                def spy(events, real=real):
                    made.append(1)
                    return real(events)
                monkeypatch.setattr(module, what, spy)
    return made


def play_on(session) -> None:
    """One step of free play with a die: the throw asked for, or the turn's end."""
    if session.snapshot()["awaiting"] == "roll":
        session.roll()
    else:
        session.submit({"type": "next"})


def test_figures_a_game_in_play_is_replayed_once_a_version(client, session, folds):
    """A game in play was replayed at every request of /history, /fairness (twice), its chart,
    its record and its page: now once for each of its versions, the next event's or undo's
    version replayed anew, and /fairness asks for the figures /history made."""
    session.new_game("free-play", ["Ann", "Ben"], {"randomizer": {"kind": "dice", "count": 1}})
    for _ in range(5):
        play_on(session)
    game = session.game_id
    pages = ("/history", "/fairness", f"/api/games/{game}/chart", f"/api/games/{game}/record",
             f"/history/{game}")
    assert [client.get(path).status_code for path in pages] == [200] * 5
    assert len(folds) == 4                     # its figures, chart, record and words: once each
    assert [client.get(path).status_code for path in pages] == [200] * 5
    assert len(folds) == 4                     # the same version: nothing replayed again
    play_on(session)
    assert client.get("/fairness").status_code == 200 and len(folds) == 5
    assert client.get("/history").status_code == 200 and len(folds) == 5
    record = client.get(f"/api/games/{game}/record").get_json()
    assert len(folds) == 6 and record["log"] == session.snapshot()["log"]
    session.undo()                             # a version of its own, its line taken back
    record = client.get(f"/api/games/{game}/record").get_json()
    assert len(folds) == 7 and record["log"] == session.snapshot()["log"]
    chart = client.get(f"/api/games/{game}/chart").get_json()
    assert chart["names"] == ["Ann", "Ben"] and len(folds) == 8


def test_figures_a_game_in_play_keeps_only_its_newest_version(app, client, session):
    session.new_game("free-play", ["Ann", "Ben"], {"randomizer": {"kind": "dice", "count": 1}})
    figures, game = app.extensions["parlour"].figures, session.game_id
    for _ in range(12):
        play_on(session)
        for path in ("/history", f"/api/games/{game}/chart", f"/api/games/{game}/record",
                     f"/history/{game}"):
            assert client.get(path).status_code == 200
        assert len(figures.live._done) == 4 <= LIVE_KEPT     # one of each kind: the newest
    assert all(key[2] == len(session.store.events(game)) for key in figures.live._done)
