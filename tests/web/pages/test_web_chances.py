"""Chances on the phone: the status page's chances card, the live state's odds and chart, and
a stored game's chart for history (GET /api/games/<id>/chart)."""

from __future__ import annotations

import pytest

from web import shutdown


def play_kat_to_the_end(session):
    while not session.state.over:
        session.roll()


def test_web_chances_status_page_shows_each_players_chance(client, session, kat):
    while session.state.phase == "lead":
        session.roll()
    assert session.publish_odds(session.state_version, {"win": [0.613, 0.387],
                                                        "exact": True, "margin": 0.0})
    page = client.get("/").get_data(as_text=True)
    assert 'id="chances"' in page and "chances.js" in page and "chances.css" in page
    assert "Ann <strong>61%</strong>" in page and "Ben <strong>39%</strong>" in page
    state = client.get("/api/state").get_json()
    assert state["odds"]["win"] == [0.613, 0.387]
    assert len(state["chart"]["win"]) == len(session.table.states)
    assert state["chart"]["chips"][0] == [17, 17]              # purse 20, stake 3 (K1)


def test_web_chances_card_is_hidden_without_chances(client):
    page = client.get("/").get_data(as_text=True)
    assert '<section class="card chances" id="chances" data-chart-url="" hidden>' in page


def test_web_chances_history_chart_of_a_finished_kat_game_is_exact_and_kept(
        app, client, session, kat):
    play_kat_to_the_end(session)
    game_id = session.game_id
    page = client.get(f"/history/{game_id}").get_data(as_text=True)
    assert f'data-chart-url="/api/games/{game_id}/chart"' in page
    chart = client.get(f"/api/games/{game_id}/chart").get_json()
    steps = len(session.table.states)
    assert chart["exact"] and chart["names"] == ["Ann", "Ben"] and len(chart["win"]) == steps
    winner = session.state.winners[0]
    assert chart["win"][-1][winner] == 1.0
    assert all(w is not None and sum(w) == pytest.approx(1.0) for w in chart["win"])
    assert app.extensions["parlour"].session.store.chances(game_id) is not None   # kept for next time
    shutdown(app)


def test_web_chances_chart_of_an_unknown_game_is_a_json_404(client):
    for game_id in (999, 2**63):
        response = client.get(f"/api/games/{game_id}/chart")
        assert response.status_code == 404 and "error" in response.get_json()


def test_web_chances_chart_without_chances_has_chips_only(app, client, session):
    session.new_game("lifes-mishaps", ["Ann", "Ben"])
    for _ in range(5):
        session.roll()
    chart = client.get(f"/api/games/{session.game_id}/chart").get_json()
    assert chart["win"] == [None] * 6 and len(chart["chips"]) == 6
    shutdown(app)


def test_web_chances_a_finished_games_chart_shows_its_chances_once_kept(app, client, session):
    """A finished game's chart is worked out in memory once, then shared: its chances, kept by
    the chances worker after the game (the next one begun at once), never showed on it."""
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    while not session.state.over:
        session.roll()
    game_id, steps = session.game_id, len(session.table.states)
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    first = client.get(f"/api/games/{game_id}/chart").get_json()
    assert first["win"] == [None] * steps                      # none kept yet
    session.store.keep_chances(game_id, [[0.5, 0.5]] * steps)  # as the worker keeps them
    assert client.get(f"/api/games/{game_id}/chart").get_json()["win"] == [[0.5, 0.5]] * steps
    shutdown(app)
