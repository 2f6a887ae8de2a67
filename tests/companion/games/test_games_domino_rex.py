"""Domino Rex (D1-D4): expectations worked out by hand from RULINGS.md."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.errors import LogError, Refused
from companion.events import parse_event
from companion.replay import replay, replay_lines
from game_support import act, refusal, start_game

GAME = "domino-rex"


def start(players=("Ann", "Ben"), leads=None, board=None):
    """A game whose lead is settled: `leads` are the lead throws in seat order."""
    return start_game(GAME, players, leads or (), **({"board": board} if board else {}))


def uncover(table, *spots):
    for value in spots:
        act(table, type="choose", value=value)
    return table.state


def checkers(state, seat):
    return state.players[seat].extra["checkers"]


def test_domino_rex_d1_lead_one_die_then_no_dice():
    table = start()
    assert table.state.phase == "lead"
    assert "a die shows one number, not 2" in refusal(table, type="roll", values=[3, 4])
    with pytest.raises(Refused):
        table.attempt(parse_event({"type": "roll", "values": [7]}))      # off the die
    act(table, type="roll", values=[2])
    act(table, type="roll", values=[5])
    state = table.state
    assert (state.phase, state.turn, state.awaiting, state.order) == ("play", 1, "choose", [1, 0])
    assert "no throw is asked" in refusal(table, type="roll", values=[4])


def test_domino_rex_d1_lead_tie_throws_again():
    table = start(("Ann", "Ben", "Cy"), leads=[4, 4, 1])
    assert table.state.phase == "lead"
    assert table.state.turn == 0                       # Ann and Ben throw again, in seat order
    act(table, type="roll", values=[2])
    act(table, type="roll", values=[3])
    assert (table.state.turn, table.state.order) == (1, [1, 2, 0])


def test_domino_rex_d2_first_uncover_moves_nothing():
    table = start(leads=[6, 1])
    state = uncover(table, 6)
    assert all(v == "rex" for seat in (0, 1) for v in checkers(state, seat).values())
    assert state.players[0].extra["covered"] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]
    assert state.turn == 1 and state.awaiting == "choose"


def test_domino_rex_d2_sum_moves_checker():
    table = start(leads=[1, 5])                        # Ben leads
    uncover(table, 3)                                  # Ben opens with 3
    state = uncover(table, 6)                          # Ann: 6 + 3 = 9
    assert checkers(state, 0)["9"] == "domino"
    assert [k for k, v in checkers(state, 0).items() if v != "rex"] == ["9"]
    assert all(v == "rex" for v in checkers(state, 1).values())
    assert "6 + 3 = 9: Ann's ninth checker goes into Domino" in state.log
    assert state.players[0].score == 0


def test_domino_rex_d2_second_move_crowns_rex():
    table = start(leads=[1, 5])
    uncover(table, 3, 6)                               # Ben 3; Ann 6 + 3: ninth into Domino
    state = uncover(table, 4)                          # Ben 4 + 6 = 10: Ben's tenth
    assert checkers(state, 1)["10"] == "domino"
    state = uncover(table, 5)                          # Ann 5 + 4 = 9: back home, crowned
    assert checkers(state, 0)["9"] == "crowned"
    assert state.players[0].score == 9
    assert any("Rex!" in line and "ninth" in line for line in state.log)


def test_domino_rex_d2_an_undo_says_which_square_to_cover_and_which_checker_to_move_back():
    """The undone line names sums ("5 + 4 = 9: Ann's ninth checker goes home and is crowned"),
    not the square to cover again nor the crown to leave: the state's `put_back` says both,
    for the box and every phone alike."""
    table = start(leads=[1, 5])
    uncover(table, 3, 6, 4, 5)                         # Ann 5 + 4 = 9: crowned
    table.apply(parse_event({"type": "undo"}))
    assert table.put_back == ["Cover Ann's 5 again.", "Ann's ninth checker back into Domino."]
    # Each undo says its own (Ann's 5 said again would have her cover her other 5 too)
    table.apply(parse_event({"type": "undo"}))         # Ben's 4 + 6 = 10, into Domino
    assert table.put_back == ["Cover Ben's 4 again.", "Ben's tenth checker back to the Rex row."]
    table.apply(parse_event({"type": "undo"}))
    table.apply(parse_event({"type": "undo"}))         # Ben's opening 3
    assert table.put_back == ["Cover Ben's 3 again."]
    assert table.to_json()["phase"] == "play"
    assert [u["put_back"] for u in table.undos] == [    # each since the game last moved,
        ["Cover Ann's 5 again.", "Ann's ninth checker back into Domino."],   # for a page
        ["Cover Ben's 4 again.", "Ben's tenth checker back to the Rex row."],   # loaded now
        ["Cover Ann's 6 again.", "Ann's ninth checker back to the Rex row."],
        ["Cover Ben's 3 again."]]
    act(table, type="rename", seat=0, name="Ada")      # a correction: the run goes on
    assert len(table.undos) == 4
    uncover(table, 3)                                  # the game moves: a new run
    table.apply(parse_event({"type": "undo"}))
    assert table.undos == [{"undone": table.undone, "put_back": ["Cover Ben's 3 again."],
                            "at": len(table.state.log)}]


def test_domino_rex_d2_crowned_checker_never_moves():
    table = start(leads=[1, 5])
    uncover(table, 3, 6, 4, 5)                         # Ann's ninth is crowned (above)
    uncover(table, 4)                                  # Ben 4 + 5 = 9: Ben's ninth into Domino
    state = uncover(table, 5)                          # Ann 5 + 4 = 9 again: crowned, stays
    assert checkers(state, 0)["9"] == "crowned"
    assert state.players[0].score == 9
    assert sum(v != "rex" for v in checkers(state, 0).values()) == 1


def test_domino_rex_d2_sum_off_the_rex_row_moves_nothing():
    table = start(leads=[6, 1])
    uncover(table, 1)                                  # Ann opens with 1
    state = uncover(table, 2)                          # Ben 2 + 1 = 3: no checker 3
    assert all(v == "rex" for v in checkers(state, 1).values())
    state = uncover(table, 6)                          # Ann 6 + 2 = 8 (Ben's square, not her 1)
    assert checkers(state, 0)["8"] == "domino"
    assert checkers(state, 0)["7"] == "rex"


def test_domino_rex_d2_only_covered_spots_accepted():
    table = start(leads=[6, 1])
    uncover(table, 6, 1)
    uncover(table, 6)                                  # Ann's second 6
    uncover(table, 1)                                  # Ben's second 1
    message = refusal(table, type="choose", value=6)
    assert "Ann has no covered square of 6" in message
    assert "covered: 1, 1, 2, 2, 3, 3, 4, 4, 5, 5" in message
    assert "no covered square of 0" in refusal(table, type="choose", value=0)


def test_domino_rex_d2_choices_wait_for_the_lead():
    table = start()
    assert "lead" in refusal(table, type="choose", value=3)
    table = start(leads=[6, 1])
    for event in ({"type": "next"}, {"type": "press", "seat": 0},
                  {"type": "declare", "winners": [0]}):
        with pytest.raises(Refused):
            table.attempt(parse_event(event))


def test_domino_rex_d3_player_without_covered_squares_is_skipped():
    board = {"domino_squares": [[3], [4, 4], [4, 4]]}
    table = start(("Ann", "Ben", "Cy"), leads=[6, 1, 1], board=board)
    uncover(table, 3)                                  # Ann opens and has nothing left
    uncover(table, 4)                                  # Ben 4 + 3 = 7
    state = uncover(table, 4)                          # Cy 4 + 4 = 8
    assert state.turn == 1                             # Ann is passed over
    state = uncover(table, 4)                          # Ben 4 + 4 = 8
    assert state.turn == 2
    assert (checkers(state, 1)["7"], checkers(state, 1)["8"]) == ("domino", "domino")


def test_domino_rex_d4_all_uncovered_highest_crowned_sum_wins():
    board = {"domino_squares": [[3], [4, 4], [4, 4]]}
    table = start(("Ann", "Ben", "Cy"), leads=[6, 1, 1], board=board)
    state = uncover(table, 3, 4, 4, 4, 4)              # Cy's last 4 + Ben's 4 = 8: crowned
    assert checkers(state, 2)["8"] == "crowned"
    assert [p.score for p in state.players] == [0, 0, 8]
    assert (state.phase, state.winners, state.turn) == ("over", [2], None)


def test_domino_rex_d4_x6_tie_when_all_uncovered_shares_the_win():
    table = start(leads=[6, 1], board={"domino_squares": [1, 1]})
    state = uncover(table, 1, 1, 1)
    assert state.phase == "play"
    state = uncover(table, 1)                          # every sum was 2: no one crowned
    assert (state.phase, state.winners) == ("over", [0, 1])


def test_domino_rex_d4_first_to_crown_all_five_wins_at_once():
    board = {"domino_squares": [[1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6], [5] * 11]}
    table = start(leads=[6, 1], board=board)
    uncover(table, 1, 5)                               # Ann opens; Ben 5 + 1 = 6
    for spots in (2, 3, 4, 5):                         # sums 7, 8, 9, 10 for both, twice
        uncover(table, spots, 5, spots, 5)
    state = uncover(table, 6, 5)                       # Ann 11 into Domino; Ben 11 too
    assert state.phase == "play"
    assert state.players[1].score == 7 + 8 + 9 + 10
    state = uncover(table, 6)                          # Ann 6 + 5 = 11: crowned, all five
    assert (state.phase, state.winners) == ("over", [0])
    assert state.players[0].score == 45
    assert state.players[1].extra["covered"] == [5]    # the game ended before all uncovered


def test_domino_rex_board_data_is_checked():
    for bad in ({"domino_squares": []}, {"domino_squares": [0, 7]},
                {"domino_squares": "1,2"}, {"domino_squares": [[1]] * 5}):
        with pytest.raises(LogError, match="board data"):
            replay([{"type": "new_game", "game": GAME, "players": ["Ann", "Ben"],
                     "board": bad}])
    with pytest.raises(LogError, match="Tables"):
        replay([{"type": "new_game", "game": GAME, "players": ["Ann", "Ben", "Cy"],
                 "board": {"domino_squares": [[1], [2]]}}])


def test_domino_rex_state_json_shows_checkers_and_covered():
    table = start(leads=[1, 5])
    uncover(table, 3, 6)
    out = table.to_json()
    ann = out["players"][0]
    assert ann["checkers"]["9"] == "domino" and 6 in ann["covered"]
    assert out["last_uncovered"] == 6 and out["awaiting"] == "choose"
    assert "Ben" in out["prompt"] and "last uncovered: 6" in out["prompt"]


# -- random legal games against a model written from D2-D4 -------------------------------------

def model(tables, order, picks):
    """RULINGS D2-D4 by hand: returns (checkers, scores, winners or None, moves made)."""
    n = len(tables)
    covered = [sorted(t) for t in tables]
    stage = [{c: 0 for c in range(7, 12)} for _ in range(n)]   # 0 rex, 1 domino, 2 crowned
    last, i, made = None, 0, 0
    for pick in picks:
        seat = order[i % n]
        while not covered[seat]:                               # D3
            i += 1
            seat = order[i % n]
        spots = covered[seat][pick % len(covered[seat])]
        covered[seat].remove(spots)
        made += 1
        if last is not None and 7 <= spots + last <= 11 and stage[seat][spots + last] < 2:
            stage[seat][spots + last] += 1
        last = spots
        scores = [sum(c for c, s in st_.items() if s == 2) for st_ in stage]
        if all(s == 2 for s in stage[seat].values()):
            return stage, scores, [seat], made
        if not any(covered):
            return stage, scores, [s for s in range(n) if scores[s] == max(scores)], made
        i += 1
    return stage, [sum(c for c, s in st_.items() if s == 2) for st_ in stage], None, made


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_domino_rex_random_games_match_the_rulings(data):
    n = data.draw(st.integers(2, 4), label="players")
    leader = data.draw(st.integers(0, n - 1), label="leader")
    tables = data.draw(st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=12),
                                min_size=n, max_size=n), label="tables")
    names = ["Ann", "Ben", "Cy", "Dot"][:n]
    log = [{"type": "new_game", "game": GAME, "players": names,
            "board": {"domino_squares": tables}}]
    log += [{"type": "roll", "values": [6 if s == leader else 1]} for s in range(n)]
    table = replay(log)
    order = [(leader + k) % n for k in range(n)]
    picks = []
    while not table.state.over:
        state = table.state
        covered = state.players[state.turn].extra["covered"]
        assert covered                                           # D3: never asked when empty
        pick = data.draw(st.integers(0, 11), label="pick")
        spots = sorted(covered)[pick % len(covered)]
        picks.append(pick)
        before = sum(len(p.extra["covered"]) for p in state.players)
        event = {"type": "choose", "value": spots}
        log.append(event)
        after = table.apply(parse_event(event))
        assert sum(len(p.extra["covered"]) for p in after.players) == before - 1
        for p, q in zip(state.players, after.players):           # checkers only go forward
            rank = {"rex": 0, "domino": 1, "crowned": 2}
            assert all(rank[q.extra["checkers"][c]] >= rank[v]
                       for c, v in p.extra["checkers"].items())
            assert q.score == sum(int(c) for c, v in q.extra["checkers"].items()
                                  if v == "crowned")
    stage, scores, winners, made = model(tables, order, picks)
    state = table.state
    assert made == len(picks) and winners == state.winners
    assert [p.score for p in state.players] == scores
    names_of = {0: "rex", 1: "domino", 2: "crowned"}
    assert [{str(c): names_of[s] for c, s in t.items()} for t in stage] == \
        [p.extra["checkers"] for p in state.players]
    again = replay_lines(json.dumps(e) for e in log)
    assert again.to_json() == table.to_json()
