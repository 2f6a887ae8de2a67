"""The club's league from records alone: counted once, in the order games ended, names
matched without regard to case, Elo as the module says; hostile records refused by reason."""

from __future__ import annotations

import random

import pytest

from companion.league import RecordRefused, check_record, expected, league

T = "0123456789abcdef"


def payload(number, winners, names=("Ann", "Ben"), ended="2026-11-25T09:00:00Z", **record):
    return {"v": 1, "table": T, "name": "Front room", "uid": f"{T}-{number}",
            "record": {"game": "fox-and-geese", "title": "Fox and Geese", "status": "over",
                       "ended": ended, "scored_by": "score",
                       "players": [{"name": n, "winner": i in winners, "score": 10 * i}
                                   for i, n in enumerate(names)], **record}}


def checked(number, winners, **kw):
    return check_record(payload(number, winners, **kw), T, f"{T}-{number}")


def test_league_counts_played_won_and_points_per_name_and_game():
    out = league([checked(1, [0]), checked(2, [1], names=("ann", "Cy")),
                  checked(3, [0, 1], names=("Ben", "Cy"))])          # a shared win
    rows = {r["name"]: (r["played"], r["won"], r["points"]) for r in out["standings"]}
    assert rows == {"Ann": (2, 1, 0), "Ben": (2, 1, 10), "Cy": (2, 2, 20)}
    assert out["games"] == 3


def test_league_elo_is_the_formula_in_the_order_games_ended():
    first = checked(1, [0], ended="2026-11-25T09:00:00Z")            # Ann beats Ben
    second = checked(2, [1], ended="2026-11-25T10:00:00Z")           # Ben beats Ann
    ann = 1500 + 16
    ann -= 32 * expected(ann, 1500 - 16)
    for order in ([first, second], [second, first], [second, first, second, first]):
        rated = {p["name"]: p["rating"] for p in league(order)["ratings"][0]["players"]}
        assert rated["Ann"] == pytest.approx(round(ann, 1))
        assert rated["Ann"] + rated["Ben"] == pytest.approx(3000)     # Elo moves points only
    assert expected(1600, 1200) == pytest.approx(1 / (1 + 10 ** (-1)))


def test_league_is_the_same_whatever_order_records_arrive_in():
    rng = random.Random(3)
    records = [checked(n, [rng.randrange(2)], names=rng.sample(["Ann", "Ben", "Cy", "Dee"], 2),
                       ended=f"2026-11-25T{n:02d}:00:00Z") for n in range(1, 20)]
    want = league(records)
    for _ in range(5):
        rng.shuffle(records)
        assert league(records + records[:4]) == want                 # repeats too


def test_league_games_of_more_than_two_are_not_rated():
    out = league([checked(1, [2], names=("Ann", "Ben", "Cy"))])
    assert out["ratings"] == [] and len(out["standings"]) == 3


@pytest.mark.parametrize("change, why", [
    (lambda p: {**p, "v": 2}, "version 1"),
    (lambda p: {**p, "table": "f" * 16}, "names table"),
    (lambda p: {**p, "uid": f"{T}-99"}, "names game"),
    (lambda p: {**p, "record": {**p["record"], "status": "playing"}}, "finished"),
    (lambda p: {**p, "record": {**p["record"], "game": "../etc"}}, "game's id"),
    (lambda p: {**p, "record": {**p["record"], "players": []}}, "1-8 players"),
    (lambda p: {**p, "record": {**p["record"], "players": [{"name": "A\\nB", "winner": True}]}},
     None),
    (lambda p: {**p, "record": {**p["record"], "players": [{"name": "A\nB", "winner": True}]}},
     "name must be text"),
    (lambda p: {**p, "record": {**p["record"], "players": [{"name": "Ann", "winner": "yes"}]}},
     "whether they won"),
    (lambda p: {**p, "record": {**p["record"], "players": [
        {"name": "Ann", "winner": True, "score": float("nan")}]}}, "score must be a number"),
    (lambda p: [p], "version 1"),
])
def test_league_refuses_records_it_cannot_count(change, why):
    bad = change(payload(1, [0]))
    if why is None:                                  # a backslash is an ordinary character
        assert check_record(bad, T, f"{T}-1")["players"][0]["name"] == "A\\nB"
        return
    with pytest.raises(RecordRefused, match=why):
        check_record(bad, T, f"{T}-1")
