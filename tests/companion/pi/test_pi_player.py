"""The Pi's choices: legal, deterministic for a seeded generator, finding what a player would
find (a pen, the winning jump chain, a crown in Domino Rex), and "best" beating "easy"."""

from __future__ import annotations

import random

import pytest

from companion.events import parse_event
from companion.games import get_rulebook
from companion.games.fox_and_geese import board_for
from companion.pi.fox_search import WIN, FoxSearch, Level
from companion.pi.player import LEVELS, domino_rex_choice, fox_and_geese_move, pi_event
from companion.replay import replay

FOX = "fox-and-geese"


def fox_game(**extra):
    return replay([{"type": "new_game", "game": FOX, "players": ["Ann", "Ben"], **extra}])


def set_up(table, fox, geese):
    state = table.state
    state.data["fox"], state.data["geese"] = fox, sorted(geese)
    return table


def test_pi_player_levels_are_the_event_levels():
    from companion.events import PI_LEVELS
    assert tuple(LEVELS) == PI_LEVELS


@pytest.mark.parametrize("level", ["easy", "good", "best"])
def test_pi_player_moves_are_legal_and_repeatable_with_a_seeded_generator(level):
    table = fox_game()
    paths = []
    for _ in range(6):
        state = table.state
        path = fox_and_geese_move(table.rulebook, state, level, rng=random.Random(7))
        again = fox_and_geese_move(table.rulebook, state, level, rng=random.Random(7))
        assert path == again and path in table.to_json()["board"]["moves"]
        table.apply(parse_event({"type": "move", "path": path}))
        paths.append(path)
    assert len(paths) == 6


def test_pi_player_geese_close_the_pen():
    table = set_up(fox_game(), "d7", ["c7", "e7", "d5", "c5", "a3", "g3", "c1"])
    assert fox_and_geese_move(table.rulebook, table.state, "good") == ["c5", "d6"]


def test_pi_player_fox_takes_the_chain_that_leaves_too_few_geese():
    table = fox_game()
    table.apply(parse_event({"type": "move", "path": ["c4", "c5"]}))      # the Fox to move
    set_up(table, "d3", ["d4", "e5", "f4", "c5", "c1", "d1", "e1", "e2"])
    assert sorted(table.to_json()["board"]["moves"]) == [["d3", "d5", "b5"],
                                                         ["d3", "d5", "f5", "f3"]]
    # three geese taken leave 5, fewer than 6: the Fox wins at once (F3)
    assert fox_and_geese_move(table.rulebook, table.state, "good") == ["d3", "d5", "f5", "f3"]


@pytest.mark.parametrize("level", ["good", "best"])
def test_pi_player_geese_do_not_offer_a_jump_when_they_need_not(level):
    table = set_up(fox_game(), "d7", ["d5", "d4", "c4", "e4", "c1", "d1", "e1"])
    # only d5-d6 would stand a goose by the Fox with an empty point behind it
    path = fox_and_geese_move(table.rulebook, table.state, level)
    assert path in table.to_json()["board"]["moves"] and path != ["d5", "d6"]


def test_pi_player_search_stops_at_its_node_budget_and_deadline():
    table = fox_game()
    position = table.rulebook.position(table.state)
    level = LEVELS["best"]
    search = FoxSearch(board_for(frozenset()), 6, level=level)
    result = search.choose(position)
    assert result.nodes <= level.nodes + 1 and result.depth >= 3
    ticks = iter(range(10**6))
    timed = FoxSearch(board_for(frozenset()), 6, level=level, clock=lambda: next(ticks) * 1.0)
    assert timed.choose(position).nodes < level.nodes      # a second a tick: time runs out


def domino(covered, last, checkers=None, other=None):
    table = replay([{"type": "new_game", "game": "domino-rex", "players": ["Ann", "Pi"],
                     "pi": [1]}, {"type": "roll", "values": [2]},
                    {"type": "roll", "values": [5]}])
    state = table.state
    state.turn = 1
    state.players[1].extra["covered"] = covered
    state.data["last"] = last
    if checkers:
        state.players[1].extra["checkers"].update(checkers)
    if other is not None:
        state.players[0].extra["covered"] = other
    return state


def test_pi_player_domino_rex_good_takes_the_crown():
    state = domino([1, 2, 6], 5, {"11": "domino"})
    assert domino_rex_choice(state, "good") == 6                             # 6 + 5 crowns 11


DOMINO = get_rulebook("domino-rex")


def best(state) -> int:
    return domino_rex_choice(state, "best", rulebook=DOMINO)


# HINTS TO PLAYERS (seed 002), one test each: the Pi's "best" plays as the rulebook advises.

def test_pi_player_domino_rex_hint_do_not_waste_any_moves():
    """"Do not waste any moves": 3 + 4 crowns the 7 now; the 1 would move nothing, and Ann
    has no 4 left to offer again."""
    state = domino([1, 3], 4, {"7": "domino", "8": "crowned", "9": "crowned",
                               "10": "crowned"}, other=[2, 2, 5])
    assert best(state) == 3                                       # 3 + 4 = 7: Rex!


def test_pi_player_domino_rex_hint_consider_whether_the_rest_can_be_crowned():
    """The seed's EXAMPLE: the opponent uncovers a one, you have two sixes and your eleventh
    checker unmoved: do not uncover a six to move the seventh (7 comes in six ways, 11 only
    as 5 and 6)."""
    state = domino([2, 6, 6], 1, {"8": "crowned", "9": "crowned", "10": "crowned"},
                   other=[5, 5, 1, 3])
    assert best(state) != 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pi_player_domino_rex_hint_no_six_after_an_opening_one_on_full_tables(players):
    """The same advice at the start: after an opening 1, every Table full, a 6 would spend
    one of the two squares that can make 11."""
    names = ["Ann", "Ben", "Cy", "Pi"][-players:]
    table = replay([{"type": "new_game", "game": "domino-rex", "players": names,
                     "pi": [players - 1]},
                    *({"type": "roll", "values": [v]} for v in [6] + [1] * (players - 1))])
    table.apply(parse_event({"type": "choose", "value": 1}))     # the lead opens with a 1
    while table.state.turn != players - 1:
        table.apply(parse_event({"type": "choose", "value": 1}))
    assert table.state.data["last"] == 1 and best(table.state) != 6


def test_pi_player_domino_rex_hint_block_your_opponent():
    """"Endeavor to block your opponent's game": nothing moves for the Pi either way; a 3
    would hand Ann 6 + 3 = 9, a crown, a 2 hands her 8, one step."""
    state = domino([2, 3], None, other=[6])
    state.players[0].extra["checkers"]["9"] = "domino"
    assert best(state) == 2
    assert domino_rex_choice(state, "easy", rng=random.Random(1)) in (2, 3)


def test_pi_player_domino_rex_hint_take_the_move_he_will_not_offer_again():
    """"If he uncovers the only square by which you can make a particular move, make that move
    in preference to all others": no fives of its own, Ann's last five is uncovered now, the
    Pi's 11 is in Domino: play the 6 and crown it, not the 2 that would move the 7."""
    state = domino([1, 2, 6], 5, {"8": "crowned", "9": "crowned", "10": "crowned",
                                  "11": "domino"}, other=[1, 2, 3])
    assert best(state) == 6


def test_pi_player_event_for_the_lead_is_a_throw():
    table = replay([{"type": "new_game", "game": "domino-rex", "players": ["Pi", "Ann"],
                     "pi": [0]}])
    assert pi_event(table.rulebook, table.state, "best") == {"type": "roll"}


def match(fox_level, geese_level, seed, max_moves=400):
    table = fox_game()
    rng = random.Random(seed)
    for _ in range(max_moves):
        state = table.state
        if state.over:
            return state.winners
        level = fox_level if state.turn == 0 else geese_level
        path = fox_and_geese_move(table.rulebook, state, level, rng=rng)
        table.apply(parse_event({"type": "move", "path": path}))
    raise AssertionError("no end")


@pytest.mark.slow
def test_pi_player_best_beats_easy_from_either_side():
    """One game a side here; the bench (tests/bench/bench_pi.py) plays the full 100 a side."""
    assert match("best", "easy", seed=0) == [0]
    assert match("easy", "best", seed=0) == [1]


def plain_negamax(search, fox, geese, fox_to_move, depth, ply):
    """Every move to the depth, no pruning, no table: what the search must agree with."""
    if geese.bit_count() < search.to_pen:
        return WIN - ply if fox_to_move else -(WIN - ply)
    moves = search.moves(fox, geese, fox_to_move)
    if not moves:
        return -(WIN - ply)
    if depth <= 0 and not (fox_to_move and moves[0][2] != geese):
        value = search.evaluate(fox, geese)
        return value if fox_to_move else -value
    return max(-plain_negamax(search, nf, ng, not fox_to_move, depth - 1, ply + 1)
               for _, nf, ng in moves)


def test_pi_player_pruning_and_tables_leave_the_score_unchanged():
    """Windows, the transposition table, killers and history only save work: at depths 1-4
    the best move's score is the plain negamax score of the same position."""
    rng = random.Random(4)
    checked = 0
    while checked < 12:
        table = random_position(rng)
        if table is None:
            continue
        position = table.rulebook.position(table.state)
        for depth in (1, 2, 3, 4):
            search = FoxSearch(position.board, 6, level=Level("x", depth, 10**9, 9.0, 0.0))
            result = search.choose(position)
            if result.depth != depth:          # a single move, or a forced result found early
                continue
            want = max(-plain_negamax(search, nf, ng, not position.fox_to_move, depth - 1, 1)
                       for _, nf, ng in search.moves(position.fox, position.geese,
                                                     position.fox_to_move))
            assert result.score == want
        checked += 1


def random_position(rng):
    table = fox_game()
    for _ in range(rng.randrange(0, 30)):
        if table.state.over:
            return None
        table.apply(parse_event({"type": "move", "path": rng.choice(
            table.rulebook.legal_paths(table.state))}))
    return None if table.state.over else table


def test_pi_player_moves_are_the_rulebooks_moves():
    """The search's own move tables give exactly the referee's legal moves (F2), with the
    position each leads to."""
    rng = random.Random(9)
    for _ in range(200):
        table = random_position(rng)
        if table is None:
            continue
        position = table.rulebook.position(table.state)
        search = FoxSearch(position.board, 6, level=LEVELS["best"])
        found = search.moves(position.fox, position.geese, position.fox_to_move)
        assert sorted(path for path, _, _ in found) == sorted(position.moves())
        for path, fox, geese in found:
            after = position.play(path)
            assert (fox, geese) == (after.fox, after.geese)
