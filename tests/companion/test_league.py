"""The club's league from records alone: counted once, in the order games ended, names
matched without regard to case, Elo as the module says; hostile records refused by reason."""

from __future__ import annotations

import random

import pytest

from companion.record.league import (RecordRefused, check_record, expected, in_order, league,
                                     same_game_differs)

T = "0123456789abcdef"


def payload(number, winners, names=("Ann", "Ben"), ended="2026-11-25T09:00:00Z", table=T,
            table_name="Front room", pi=(), **record):
    return {"v": 1, "table": table, "name": table_name, "uid": f"{table}-{number}",
            "record": {"id": number, "game": "domino-rex", "title": "Domino Rex",
                       "status": "over", "ended": ended, "scored_by": "score",
                       "players": [{"name": n, "winner": i in winners, "score": 10 * i,
                                    "button": i + 1, "pi": pi[i] if i < len(pi) else None}
                                   for i, n in enumerate(names)], **record}}


def checked(number, winners, table=T, received=None, **kw):
    return check_record(payload(number, winners, table=table, **kw), table, f"{table}-{number}",
                        received=received)


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


def test_league_games_that_ended_in_one_second_are_taken_in_their_tables_number_order():
    """Games 9 and 10 of a table that ended in one second (a club rebuilt from the broker:
    records capped at the same second) were taken 10 first, their uids sorted as text, and
    the rebuilt club had another leader than the live one."""
    ninth = checked(9, [0], ended="2026-11-25T09:00:00Z")            # Ann beats Ben
    tenth = checked(10, [1], ended="2026-11-25T09:00:00Z")           # then Ben beats Ann
    ann = 1500 + 16
    ann -= 32 * expected(ann, 1500 - 16)
    outs = [league(order) for order in ([ninth, tenth], [tenth, ninth])]
    assert outs[0] == outs[1]
    rated = {p["name"]: p["rating"] for p in outs[0]["ratings"][0]["players"]}
    assert rated == {"Ann": pytest.approx(round(ann, 1)),
                     "Ben": pytest.approx(round(3000 - ann, 1))}
    for order in ([ninth, tenth], [tenth, ninth]):
        assert [r["uid"] for r in in_order(order)] == [f"{T}-9", f"{T}-10"]
    with_commitments = [check_record({**payload(n, [0], commitment=c * 8),
                                      "uid": f"{T}-{n}-{c}"}, T, f"{T}-{n}-{c}")
                        for n, c in ((10, "00000000"), (9, "ffffffff"))]
    assert [r["uid"] for r in in_order(with_commitments)] == [f"{T}-9-ffffffff",
                                                              f"{T}-10-00000000"]


def test_league_games_of_more_than_two_are_not_rated():
    out = league([checked(1, [2], names=("Ann", "Ben", "Cy"))])
    assert out["ratings"] == [] and len(out["standings"]) == 3


def test_league_names_match_as_players_match_them_case_and_spaces_aside():
    """X10: "Mary Lee", "mary  lee" and "MaryLee" are one player at the table, so in the
    league too; the first spelling seen is shown."""
    out = league([checked(1, [0], names=("Mary Lee", "Ben"), ended="2026-11-25T09:00:00Z"),
                  checked(2, [0], names=("mary  lee", "Ben"), ended="2026-11-25T10:00:00Z"),
                  checked(3, [1], names=("Ben", "MaryLee"), ended="2026-11-25T11:00:00Z")])
    rows = {r["name"]: (r["played"], r["won"]) for r in out["standings"]}
    assert rows == {"Mary Lee": (3, 3), "Ben": (3, 0)}
    assert [p["name"] for p in out["ratings"][0]["players"]] == ["Mary Lee", "Ben"]


def test_league_a_player_nobody_named_is_someone_at_their_table_only():
    """A table calls a player nobody named by their seat button's colour: "Red" at two tables
    is two people, and neither is the person called Red who typed their name at a third."""
    front, back = "0123456789abcdef", "fedcba9876543210"
    out = league([checked(1, [0], names=("Red", "Ann"), table=front),
                  checked(1, [0], names=("Red", "Ann"), table=back, table_name="Back room"),
                  checked(2, [0], names=("Red", "Ann"), table=back, table_name="Back room")])
    rows = {r["name"]: (r["played"], r["won"]) for r in out["standings"]}
    assert rows == {"Red (Front room)": (1, 1), "Red (Back room)": (2, 2), "Ann": (3, 0)}
    # "Red" at button 2 is not button 2's colour (Blue): someone called Red, in every table
    typed = league([checked(1, [1], names=("Ann", "Red"), table=front),
                    checked(1, [1], names=("Ann", "red"), table=back)])
    assert {r["name"]: r["played"] for r in typed["standings"]} == {"Red": 2, "Ann": 2}


def test_league_unnamed_players_of_two_tables_of_one_name_are_told_apart():
    """Two boxes left at their host name ("parlour"): "Red (parlour)" twice in the league."""
    front, back = "0123456789abcdef", "fedcba9876543210"
    out = league([checked(1, [0], names=("Red", "Ann"), table=front, table_name="parlour"),
                  checked(1, [1], names=("Red", "Ann"), table=back, table_name="parlour")])
    assert {r["name"] for r in out["standings"]} == {"Red (parlour · 0123)",
                                                     "Red (parlour · fedc)", "Ann"}
    one_red = league([checked(1, [0], names=("Red", "Ann"), table=front, table_name="parlour"),
                      checked(1, [1], names=("Ann", "Blue"), table=back, table_name="parlour")])
    assert {r["name"] for r in one_red["standings"]} == {"Red (parlour · 0123)",   # which one
                                                         "Blue (parlour · fedc)", "Ann"}


def test_league_a_tables_own_colours_name_its_unnamed_players():
    """A box whose buttons are Teal and Plum sends their names: its "Teal" is unnamed."""
    bare = payload(1, [0], names=("Teal", "Plum"))
    assert {r["name"] for r in league([check_record(bare, T, f"{T}-1")])["standings"]} == {
        "Teal", "Plum"}                                  # not the box's default colours
    told = {**bare, "buttons": ["Teal", "Plum", "Red"]}
    assert {r["name"] for r in league([check_record(told, T, f"{T}-1")])["standings"]} == {
        "Teal (Front room)", "Plum (Front room)"}


def test_league_the_pi_is_one_player_per_level_at_every_table():
    front, back = "0123456789abcdef", "fedcba9876543210"
    out = league([checked(1, [1], names=("Ann", "Pi"), pi=(None, "best"), table=front),
                  checked(1, [1], names=("Ben", "Pi"), pi=(None, "best"), table=back),
                  checked(2, [0], names=("Ben", "Pi"), pi=(None, "easy"), table=back)])
    rows = {r["name"]: (r["played"], r["won"]) for r in out["standings"]}
    assert rows == {"Pi (best)": (2, 2), "Pi (easy)": (1, 0), "Ann": (1, 0), "Ben": (2, 1)}


def test_league_points_only_for_games_that_count_them():
    out = league([checked(1, [0]), checked(2, [0], game="gantlope", scored_by=None)])
    points = {(r["game"], r["name"]): r["points"] for r in out["standings"]}
    assert points[("domino-rex", "Ben")] == 10 and points[("gantlope", "Ben")] is None


def test_league_f3_fox_and_geese_counts_no_points():
    """F3: Fox and Geese has no points (its `score` is the geese the Fox took). The table
    shows "4 geese taken" and "13 geese left" and sends no points to BG Stats, but the club's
    league had a Points column for it (the Fox's geese as points, the Geese's 0), also for a
    record kept before, whose copy sent again must not read as a different game."""
    record = checked(1, [1], game="fox-and-geese", title="Fox and Geese")
    assert record["scored_by"] is None
    kept_before = {**record, "scored_by": "score"}             # as a club kept it before
    out = league([kept_before, checked(2, [0], game="fox-and-geese", names=("Cy", "Dee"))])
    assert {r["name"]: r["points"] for r in out["standings"]} == {
        "Ann": None, "Ben": None, "Cy": None, "Dee": None}
    assert {r["name"]: r["won"] for r in out["standings"]} == {"Ann": 0, "Ben": 1, "Cy": 1,
                                                                 "Dee": 0}
    assert same_game_differs(kept_before, record) is None
    assert same_game_differs(checked(3, [0]), {**checked(3, [0]), "scored_by": None}) == \
        "scored_by"                                 # a game that counts points still differs


def test_league_a_known_game_keeps_its_own_title():
    """A record cannot rename a game the club knows (the table's title is only for others)."""
    out = check_record(payload(1, [0], title="Chess"), T, f"{T}-1")
    assert out["title"] == "Domino Rex"
    other = check_record(payload(1, [0], game="newer-game", title="Newer Game"), T, f"{T}-1")
    assert other["title"] == "Newer Game"


def test_league_games_end_in_utc_and_never_after_they_arrived():
    """Times with other zones sort as times; a game cannot end after the club received it."""
    east = checked(1, [0], ended="2026-11-25T10:30:00+02:00")          # 08:30 UTC
    west = checked(2, [1], ended="2026-11-25T09:00:00Z")
    assert (east["ended"], west["ended"]) == ("2026-11-25T08:30:00Z", "2026-11-25T09:00:00Z")
    ahead = checked(3, [0], ended="2099-01-01T00:00:00Z", received="2026-11-25T12:00:00.250Z")
    assert ahead["ended"] == "2026-11-25T12:00:00Z"


@pytest.mark.parametrize("change, why", [
    (lambda p: {**p, "v": 2}, "version 1"),
    (lambda p: {**p, "v": True}, "version 1"),
    (lambda p: {**p, "v": 1.0}, "version 1"),
    (lambda p: {**p, "record": {**p["record"], "ended": "yesterday"}}, "'ended' must be a time"),
    (lambda p: {**p, "record": {**p["record"], "ended": "2026-11-25T09:00:00"}},
     "with its zone"),
    (lambda p: {**p, "record": {k: v for k, v in p["record"].items() if k != "ended"}},
     "'ended' must be a time"),             # kept, it sorted as the league's first game
    (lambda p: {**p, "table": "f" * 16}, "names table"),
    (lambda p: {**p, "uid": f"{T}-99"}, "names game"),
    (lambda p: {**p, "record": {**p["record"], "status": "playing"}}, "finished"),
    (lambda p: {**p, "record": {**p["record"], "game": "../etc"}}, "game's id"),
    (lambda p: {**p, "record": {**p["record"], "players": []}}, "1-8 players"),
    (lambda p: {**p, "record": {**p["record"], "players": [{"name": "A\\nB", "winner": True}]}},
     None),
    (lambda p: {**p, "record": {**p["record"], "players": [{"name": "A\nB", "winner": True}]}},
     "name holds a character that cannot be shown"),       # not "must be text of 1-24"
    (lambda p: {**p, "record": {**p["record"], "players": [{"name": "Ann\u202e", "winner": True}]}},
     "name holds a character that cannot be shown"),
    (lambda p: {**p, "record": {**p["record"], "players": [{"name": "A" * 25, "winner": True}]}},
     "name must be text of 1-24 characters"),
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


def test_league_a_renamed_table_and_a_person_named_as_the_pi_are_never_shown_alike():
    """A table renamed after its games ("Window" to "Lounge") kept "Red (Window)" in the league
    while another table took the name "Window": two rows "Red (Window)". And a person who
    typed "Pi (best)" was shown as the Pi. Every entrant now has its own name and `id` (the
    page matches Elo by it)."""
    window, other = "0123456789abcdef", "fedcba9876543210"
    out = league([checked(1, [0], names=("Red", "Ann"), table=window, table_name="Window"),
                  checked(2, [1], names=("Red", "Ann"), table=window, table_name="Lounge",
                          ended="2026-11-25T10:00:00Z"),
                  checked(1, [0], names=("Red", "Ann"), table=other, table_name="Window",
                          ended="2026-11-25T11:00:00Z")])
    rows = {r["name"]: (r["played"], r["won"]) for r in out["standings"]}
    assert rows == {"Red (Lounge)": (2, 1), "Red (Window)": (1, 1), "Ann": (3, 1)}
    pi = league([checked(1, [1], names=("Ann", "Pi"), pi=(None, "best")),
                 checked(2, [0], names=("Pi (best)", "Ben"), ended="2026-11-25T10:00:00Z")])
    names = {r["name"] for r in pi["standings"]}
    assert names == {"Pi (best)", "Pi (best), a player", "Ann", "Ben"}
    ids = [(r["id"], r["name"]) for r in pi["standings"]]
    assert len({i for i, _ in ids}) == len(ids)
    rated = {p["id"]: p["name"] for p in pi["ratings"][0]["players"]}
    assert rated["pi:best"] == "Pi (best)" and rated["name:pi(best)"] == "Pi (best), a player"


def test_league_a_table_named_by_a_long_host_name_still_counts_its_games():
    """A box left at its host name (64 characters at most) sent it whole and the club refused
    every game it played ("the table's name must be text of 1-40 characters"), for good: the
    name is a label, cut to 40; none at all is the table's id."""
    host = "parlour-table-in-the-long-gallery-upstairs-north"
    assert checked(1, [0], table_name=host)["table_name"] == host[:40]
    assert checked(2, [0], table_name="  Front room  ")["table_name"] == "Front room"
    assert checked(3, [0], table_name="")["table_name"] == T
    with pytest.raises(RecordRefused, match="cannot be shown"):
        checked(4, [0], table_name="Front\nroom")


def test_league_a_table_name_with_brackets_is_shown_whole():
    out = league([checked(1, [0], names=("Red", "Ann"), table_name="Front (main) room")])
    assert {r["name"] for r in out["standings"]} == {"Red (Front (main) room)", "Ann"}


def test_league_a_uid_that_names_a_commitment_needs_the_records_own_number_and_commitment():
    """A real game's record copied under another uid with its commitment or its number left
    out was counted again (the checks ran only on the fields present)."""
    c = "ab12cd34" * 8
    real = payload(1, [0], commitment=c)
    assert check_record({**real, "uid": f"{T}-1-ab12cd34"}, T, f"{T}-1-ab12cd34")
    no_commitment = {**real, "uid": f"{T}-1-00000000",
                     "record": {k: v for k, v in real["record"].items() if k != "commitment"}}
    with pytest.raises(RecordRefused, match="first 8 hex digits of the record's commitment"):
        check_record(no_commitment, T, f"{T}-1-00000000")
    no_number = {**real, "uid": f"{T}-99",
                 "record": {k: v for k, v in real["record"].items() if k != "id"}}
    with pytest.raises(RecordRefused, match="names game 99 but the record is game None"):
        check_record(no_number, T, f"{T}-99")
    older = check_record({**real, "uid": f"{T}-1"}, T, f"{T}-1")     # a table that sent the
    assert older["commitment"] == c                                   # number alone still reads


def test_league_the_pi_on_two_seats_plays_the_game_once():
    """Domino Rex with the Pi on two seats at one level: the league said the Pi played 2 and
    added its two seats' points. It played one game: won if either seat won, its best seat's
    points; and a game of two seats of the one entrant rates nobody."""
    three = checked(1, [2], names=("Ann", "Pi", "Pi 2"), pi=(None, "easy", "easy"))
    rows = {r["name"]: (r["played"], r["won"], r["points"])
            for r in league([three])["standings"]}
    assert rows == {"Ann": (1, 0, 0), "Pi (easy)": (1, 1, 20)}
    alone = league([checked(2, [0], names=("Pi", "Pi 2"), pi=("easy", "easy"))])
    assert alone["ratings"] == []
    assert [(r["name"], r["played"], r["won"]) for r in alone["standings"]] == [
        ("Pi (easy)", 1, 1)]


def test_league_no_two_rows_alike_when_a_person_typed_what_the_league_adds():
    """A person named "Pi (best), a player" beside one named "Pi (best)" and the Pi itself:
    two rows read "Pi (best), a player"."""
    out = league([checked(1, [1], names=("Ann", "Pi"), pi=(None, "best")),
                  checked(2, [0], names=("Pi (best)", "Pi (best), a player"),
                          ended="2026-11-25T10:00:00Z")])
    shown = {r["id"]: r["name"] for r in out["standings"]}
    assert shown == {"name:ann": "Ann", "pi:best": "Pi (best)",
                     "name:pi(best)": "Pi (best), a player",
                     "name:pi(best),aplayer": "Pi (best), a player #2"}
