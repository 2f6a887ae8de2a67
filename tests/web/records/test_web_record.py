"""A game's record and its BG Stats push link (GET /api/games/<id>/record)."""

import json
import re
from urllib.parse import unquote

import pytest

from simulated_table import ROOT
from web.records.record import (BG_STATS_FIELDS, BG_STATS_GAME_FIELDS, BG_STATS_PLAYER_FIELDS,
                        BG_STATS_URL, _ranks)
from web_support import play_to_the_end


def _payload(link: str) -> dict:
    assert link.startswith(BG_STATS_URL)
    data = link[len(BG_STATS_URL):]
    assert " " not in data and "{" not in data          # url-encoded, as documented
    return json.loads(unquote(data))


def test_record_bg_stats_link_carries_only_documented_fields(client, kat, session):
    over = play_to_the_end(session)
    body = client.get(f"/api/games/{kat['game_id']}/record").get_json()
    play = _payload(body["bg_stats"])
    assert set(play) <= BG_STATS_FIELDS
    assert set(play["game"]) <= BG_STATS_GAME_FIELDS
    assert all(set(p) <= BG_STATS_PLAYER_FIELDS for p in play["players"])
    assert play["sourceName"] == "Parlour"
    assert play["game"]["name"] == "Kat en Muis" and play["game"]["noPoints"] is False
    assert [p["name"] for p in play["players"]] == ["Ann", "Ben"]
    winner = over["winners"][0]
    assert [p["winner"] for p in play["players"]] == [s == winner for s in (0, 1)]
    assert [p["score"] for p in play["players"]] == [p["chips"] for p in over["players"]]
    assert play["players"][winner]["rank"] == 1 and play["players"][1 - winner]["rank"] == 2
    assert [p["startPlayer"] for p in play["players"]].count(True) == 1
    assert play["players"][over["order"][0]]["startPlayer"] is True
    assert play["playDate"] == "2024-05-01 19:00:00"          # the first event's time
    assert isinstance(play["durationMin"], int) and play["durationMin"] >= 0


def test_record_of_a_game_being_played_has_no_link_and_no_ranks(client, kat):
    body = client.get(f"/api/games/{kat['game_id']}/record").get_json()
    assert body["status"] == "playing" and "bg_stats" not in body
    assert [p["rank"] for p in body["players"]] == [None, None]
    assert [p["name"] for p in body["players"]] == ["Ann", "Ben"]


def test_record_of_a_race_game_has_no_points(client, control, session):
    game = control("new-game", {"game": "cats-and-dogs", "players": ["Ann", "Ben"]}).get_json()
    for _ in range(3000):
        if session.snapshot()["phase"] == "over":
            break
        session.roll(by="test")
    play = _payload(client.get(f"/api/games/{game['game_id']}/record").get_json()["bg_stats"])
    assert play["game"]["noPoints"] is True
    assert all("score" not in p for p in play["players"])
    assert sorted(p["rank"] for p in play["players"]) == [1, 2]


def test_record_of_gantlope_has_no_points_and_ranks_by_men_home(client, session):
    """Gantlope is won by men in the Goal, not points: its record said "score: 0" for all."""
    game = session.new_game("gantlope", ["Ann", "Ben", "Cy"])
    presses = {0: 2, 1: 1, 2: 0}                    # men home a turn: Ann 2, Ben 1, Cy none
    while session.snapshot()["phase"] != "over":
        snap = session.snapshot()
        if snap["awaiting"] == "roll":
            session.roll(by="test")
            continue
        for _ in range(presses[snap["turn"]]):
            session.submit({"type": "press", "seat": snap["turn"]}, by="test")
        if session.snapshot()["phase"] != "over":
            session.submit({"type": "next"}, by="test")
    record = client.get(f"/api/games/{game['game_id']}/record").get_json()
    home = [p["in_goal"] for p in session.snapshot()["players"]]
    assert home[0] == 4 and home[0] > home[1] > home[2] == 0
    assert [p["score"] for p in record["players"]] == [None, None, None]
    assert [p["rank"] for p in record["players"]] == [1, 2, 3]
    play = _payload(record["bg_stats"])
    assert play["game"]["noPoints"] is True and all("score" not in p for p in play["players"])
    from web.history import result_rows
    assert [row["figure"] for row in result_rows(record)] == \
        [f"{n} in Goal" for n in home]                               # what places go by


def test_record_of_cats_and_dogs_places_the_others_by_the_square_reached(client, session):
    """C5: the first on Finish wins; the history listed everyone else as 2nd ("2. Ann square
    31", "2. Ben square 32"). The others are placed by how far they got, ties sharing."""
    game = session.new_game("cats-and-dogs", ["Ann", "Ben", "Cy"])
    while session.snapshot()["phase"] != "over":
        session.roll(by="test")
        if session.snapshot()["awaiting"] == "next":
            session.submit({"type": "next"}, by="test")
    record = client.get(f"/api/games/{game['game_id']}/record").get_json()
    squares = {p["seat"]: p["position"] for p in record["players"]}
    winner, = record["winners"]
    others = sorted((s for s in squares if s != winner), key=lambda s: -squares[s])
    ranks = {p["seat"]: p["rank"] for p in record["players"]}
    assert ranks[winner] == 1
    assert ranks[others[0]] == 2
    assert ranks[others[1]] == (2 if squares[others[1]] == squares[others[0]] else 3)


def test_record_history_says_the_geese_taken_in_fox_and_geese(client, session):
    """F3: Fox and Geese has no points; its history said "1 pt" where the live page's column
    says "Geese taken", and then "0 geese taken" beside the Geese (read as their score): the
    Fox's geese taken, the Geese's geese left. Its BG Stats play says no points (it said
    "highestWins" with the winning Geese's 0 under the Fox's 4)."""
    from web.history import result_rows
    from web.records.record import bg_stats_play
    game = session.new_game("fox-and-geese", ["Ann", "Ben"])
    session.submit({"type": "declare", "winners": [1]}, by="test")
    record = client.get(f"/api/games/{game['game_id']}/record").get_json()
    assert [p["role"] for p in record["players"]] == ["fox", "geese"]
    record["players"][0]["score"] = 1                        # as if the Fox had taken one
    assert [row["figure"] for row in result_rows(record)] == ["16 geese left",
                                                              "1 goose taken"]
    play = bg_stats_play(record)
    assert play["game"]["noPoints"] is True and all("score" not in p for p in play["players"])


def test_record_history_counts_one_chip_and_one_event_in_the_singular(client, session):
    """History said "Cy 1 chips" and a game page "1 events"."""
    from web.history import _figure
    assert _figure("chips", {"chips": 1}) == "1 chip"
    assert _figure("score", {"score": 1, "chips": 1}, chips_too=True) == "1 pt · 1 chip"
    game = session.new_game("kat-en-muis", ["Ann", "Ben"])
    page = client.get(f"/history/{game['game_id']}").get_data(as_text=True)
    assert " · 1 event ·" in page


def test_record_unknown_game_is_a_404_json(client):
    for path in ("/api/games/99/record", f"/api/games/{2**64}/record"):
        response = client.get(path)
        assert response.status_code == 404 and "error" in response.get_json()


@pytest.mark.parametrize("values, winners, ranks", [
    ([5, 9, 9, 1], [1, 2], [3, 1, 1, 4]),
    ([10, 3, 7], [0], [1, 3, 2]),
    ([4, 4, 4], [0], [1, 2, 2]),
])
def test_record_ranks_put_winners_first_and_ties_share(values, winners, ranks):
    assert _ranks(values, winners) == ranks


def test_record_history_page_offers_the_record_and_bg_stats_once_over(client, kat, session):
    page = client.get(f"/history/{kat['game_id']}").get_data(as_text=True)
    assert "Download the record (JSON)" in page and "Send to BG Stats" not in page
    play_to_the_end(session)
    page = client.get(f"/history/{kat['game_id']}").get_data(as_text=True)
    assert 'id="bg-stats" href="https://app.bgstatsapp.com/createPlay.html?data=' in page


def test_record_bg_stats_ids_carry_the_table_so_two_boxes_never_collide(make_app, session):
    """Every play id names its table (a second box's first game is not the first box's), and a
    player id is the same for a roster name (any case) on one table, different on another."""
    def one_game(names):
        session.new_game("kat-en-muis", names)
        return play_to_the_end(session)["game_id"]

    first, second = one_game(["Ann", "Ben"]), one_game(["ann", "Cy"])
    plays = {}
    for table in ("1f2e3d4c5b6a7980", "0a1b2c3d4e5f6a7b"):
        client = make_app(table_id=table).test_client()
        for game in (first, second):
            body = client.get(f"/api/games/{game}/record").get_json()
            plays[table, game] = _payload(body["bg_stats"])
    ids = [p["sourcePlayId"] for p in plays.values()]
    assert len(set(ids)) == 4 and all(isinstance(i, str) for i in ids)
    assert plays["1f2e3d4c5b6a7980", first]["sourcePlayId"] == f"parlour-1f2e3d4c5b6a7980-{first}"
    here = {table: {p["name"]: p["sourcePlayerId"] for g in (first, second)
                    for p in plays[table, g]["players"]} for table in ("1f2e3d4c5b6a7980",
                                                                     "0a1b2c3d4e5f6a7b")}
    for table, players in here.items():
        assert players["Ann"] == players["ann"]               # one person on one table
        assert len({players["Ann"], players["Ben"], players["Cy"]}) == 3
        assert all(table in pid for pid in players.values())
    assert not set(here["1f2e3d4c5b6a7980"].values()) & set(here["0a1b2c3d4e5f6a7b"].values())


def test_record_page_of_a_game_with_the_pi_gives_it_no_seat_button(client, session):
    """The Pi holds no button (X12): its game's page showed it as "1 Red Pi"."""
    game = session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy",
                            buttons=[2, 1])
    session.submit({"type": "declare", "winners": [0]}, by="test")
    page = client.get(f"/history/{game['game_id']}").get_data(as_text=True)
    players = page.split("Players:", 1)[1].split("</p>", 1)[0]
    assert "button-2" in players and "Ann" in players            # Ann's own button, Blue
    assert "button-1" not in players and '<span class="marker">Pi</span>' in players



def test_record_chart_of_a_game_with_the_pi_draws_it_in_its_own_colour(client, session):
    """X12: the Pi holds no button, so its chart line and swatch are not the colour of the
    button the game lent it (a red "Pi" beside the players' own buttons)."""
    game = session.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="easy",
                            buttons=[2, 1])
    chart = client.get(f"/api/games/{game['game_id']}/chart").get_json()
    assert chart["names"] == ["Ann", "Pi"] and chart["buttons"] == [2, "pi"]
    css = (ROOT / "web" / "static" / "parlour.css").read_text()
    assert ".button-pi { --button: var(--accent)" in css           # the Pi marker's colour


def test_record_game_page_names_each_pi_seat(client, session):
    """A game page's players line read "Blue Dee, Pi, Pi" where history and the record said
    "Pi 2": each Pi seat under its own name."""
    game = session.new_game("domino-rex", ["Ann", "Pi", "Pi 2"], pi=[1, 2], pi_level="easy")
    page = client.get(f"/history/{game['game_id']}").get_data(as_text=True)
    assert '<span class="marker">Pi</span>' in page and '<span class="marker">Pi 2</span>' in page


def test_record_a_person_who_typed_pi_is_not_the_pi(client, control, session):
    """Mum's friend typed "Pi" in a game without the Pi: the history's totals then counted
    the Pi's four games as hers ("Pi 5 games 4 wins"), and her BG Stats id was the Pi's."""
    def won_by(seat: int) -> None:
        while session.snapshot()["phase"] == "lead":
            session.roll(by="test")
        session.submit({"type": "declare", "winners": [seat]}, by="test")

    played = session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="best")
    won_by(1)                                                       # the Pi won
    assert control("new-game", {"game": "free-play", "players": ["Pi", "Mum"]}).status_code \
        == 200                                                      # a person called Pi
    person = session.snapshot()["game_id"]
    won_by(1)                                                       # Mum won
    page = client.get("/history").get_data(as_text=True)
    totals = page[page.index('id="totals"'):]
    rows = re.findall(r'<td class="who">([^<]+)</td><td>(\d+)', totals)
    assert ("Pi", "1") in rows and ("Pi", "2") not in rows, rows          # her one game
    ids = {}
    for game in (played["game_id"], person):
        body = client.get(f"/api/games/{game}/record").get_json()
        ids[game] = {p["name"]: p["sourcePlayerId"] for p in _payload(body["bg_stats"])["players"]}
    assert ids[played["game_id"]]["Pi"] != ids[person]["Pi"]
    assert ids[played["game_id"]]["Pi"].endswith("-pi-best")
