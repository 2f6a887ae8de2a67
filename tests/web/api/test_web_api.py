"""GET /api/state, /api/games, /api/games/<id>/log and the app factory."""

import json

import pytest

from web_support import PIN, play_to_the_end
from web import create_app


def test_factory_needs_a_pin(session):
    with pytest.raises(ValueError):
        create_app(session, pin="")


def test_factory_takes_test_config(make_app):
    assert make_app(test_config={"SSE_KEEPALIVE": 7}).config["SSE_KEEPALIVE"] == 7
    assert make_app().config["MAX_CONTENT_LENGTH"] == 16 * 1024


def test_factory_secret_key_is_random_per_app(session):
    one, two = create_app(session, pin=PIN), create_app(session, pin=PIN)
    assert one.secret_key and one.secret_key != two.secret_key


def test_api_state_idle_before_any_game(client):
    response = client.get("/api/state")
    assert response.status_code == 200
    assert response.get_json()["phase"] == "idle"
    assert response.headers["Cache-Control"] == "no-store"


def test_api_state_is_the_session_snapshot(client, kat, session):
    body = client.get("/api/state").get_json()
    assert body == session.snapshot()
    assert body["game"] == "kat-en-muis"
    assert [p["name"] for p in body["players"]] == ["Ann", "Ben"]
    assert body["version"] == kat["version"] and body["game_id"] == kat["game_id"]


def test_api_games_lists_stored_games_newest_first(client, control, session):
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    play_to_the_end(session)
    control("new-game", {"game": "lifes-mishaps", "players": ["Cy", "Di", "Ed"]})
    games = client.get("/api/games").get_json()["games"]
    assert [g["game"] for g in games] == ["lifes-mishaps", "kat-en-muis"]
    over, playing = games[1], games[0]
    assert over["status"] == "over" and over["title"] == "Kat en Muis"
    assert over["players"] == ["Ann", "Ben"] and len(over["winners"]) == 1
    assert over["winner_names"] == [over["players"][over["winners"][0]]]
    assert over["created"] and over["ended"] and over["events"] > 3
    assert playing["status"] == "playing" and playing["ended"] is None
    assert playing["winners"] == [] and playing["events"] == 1


def test_api_game_log_is_a_jsonl_download(client, kat, control):
    control("roll")
    response = client.get(f"/api/games/{kat['game_id']}/log")
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    assert "attachment" in response.headers["Content-Disposition"]
    assert "kat-en-muis.jsonl" in response.headers["Content-Disposition"]
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert [e["type"] for e in lines] == ["new_game", "roll"]
    assert lines[0]["players"] == ["Ann", "Ben"] and "seed" not in lines[0]


def test_api_game_log_reveals_the_seed_once_over(client, control, session):
    game_id = control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]}) \
        .get_json()["game_id"]
    play_to_the_end(session)
    first = json.loads(client.get(f"/api/games/{game_id}/log").get_data(as_text=True)
                       .splitlines()[0])
    assert len(first["seed"]) == 64


def test_api_game_log_missing_game_is_404_json(client):
    for path in ("/api/games/99/log", f"/api/games/{2**70}/log", "/api/games/x/log"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "error" in response.get_json()


def test_api_unknown_path_and_method_are_json_errors(client):
    assert client.get("/api/nothing").get_json()["error"]
    response = client.post("/api/state")
    assert response.status_code == 405 and "error" in response.get_json()
    assert "GET" in response.headers["Allow"]


def test_api_pages_send_security_headers(client):
    response = client.get("/api/state")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_api_games_x12_each_game_lists_its_players_buttons(client, control):
    control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"], "buttons": [5, 2]})
    control("new-game", {"game": "lifes-mishaps", "players": ["Cy", "Di", "Ed"]})
    games = client.get("/api/games").get_json()["games"]
    assert [g["buttons"] for g in games] == [[1, 2, 3], [5, 2]]
