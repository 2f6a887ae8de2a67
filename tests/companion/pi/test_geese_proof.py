"""The Geese's proof search and the plan it proves: a proof is checked move by move against
every reply the referee allows the Fox, and the Pi plays a kept plan without searching again."""

from __future__ import annotations

import pytest

from companion.events import parse_event
from companion.games.fox_and_geese import moves_after, parse_point
from companion.pi import player
from companion.pi.fox_search import FoxSearch
from companion.pi.geese_proof import GeeseProof, key, near_masks
from companion.pi.player import LEVELS, PiMemory, fox_and_geese_move, pi_event
from companion.replay import replay

TO_PEN = 6
# From a game of the "best" Geese against "easy": the Fox shut in on the right, its room 3
# points. The Geese have a forced win here; the search alone stepped d6-e7 and lost.
SHUT_IN_FOX = "g4"
SHUT_IN_GEESE = ["b3", "d3", "e3", "f3", "g3", "b4", "d4", "e4", "f4", "a5", "d5", "e5",
                 "c6", "d6", "c7", "d7"]


def mask(points) -> int:
    return sum(1 << parse_point(p) for p in points)


def shut_in_table():
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Ann", "Ben"]}])
    state = table.state
    state.data["fox"], state.data["geese"] = SHUT_IN_FOX, sorted(SHUT_IN_GEESE)
    return table


def board():
    table = shut_in_table()
    return table.rulebook.position(table.state).board


def wins_against_every_reply(board, plan, fox: int, geese: int) -> int:
    """Play the plan against every Fox reply (the referee's moves); the positions checked.
    Fails unless every line ends with the Fox unable to move and enough geese left."""
    seen, waiting = set(), [(fox, geese)]
    while waiting:
        fox, geese = waiting.pop()
        if (fox, geese) in seen:
            continue
        seen.add((fox, geese))
        assert geese.bit_count() >= TO_PEN
        path = plan.move_for(fox, geese)
        after = {m[0]: m for m in moves_after(board, fox, geese, False)}
        assert path in after, "the plan has a legal move at each of its positions"
        _, fox_after, geese_after = after[path]
        for _, f, g in moves_after(board, fox_after, geese_after, True):
            assert g.bit_count() >= TO_PEN
            waiting.append((f, g))
    return len(seen)


def test_geese_proof_finds_a_one_move_pen():
    fox, geese = parse_point("d7"), mask(["c7", "d6", "d5", "e6", "a3", "b3"])
    proof = GeeseProof(board(), TO_PEN, nodes=10_000)
    assert proof.solve(fox, geese) is True
    assert proof.winning_move(fox, geese) == (parse_point("e6"), parse_point("e7"))
    assert len(proof.plan(fox, geese).moves) == 1


def test_geese_proof_geese_that_cannot_move_have_lost():
    fox, geese = parse_point("d1"), mask(["c6", "d6", "e6", "c7", "d7", "e7"])
    assert GeeseProof(board(), TO_PEN, nodes=10_000).solve(fox, geese) is False


def test_geese_proof_plan_wins_against_every_reply_of_the_fox():
    fox, geese = parse_point(SHUT_IN_FOX), mask(SHUT_IN_GEESE)
    proof = GeeseProof(board(), TO_PEN, nodes=100_000)
    assert proof.solve(fox, geese) is True
    plan = proof.plan(fox, geese)
    assert wins_against_every_reply(board(), plan, fox, geese) == len(plan.moves) > 1


def test_geese_proof_stops_at_its_node_budget_and_deadline():
    fox, geese = parse_point(SHUT_IN_FOX), mask(SHUT_IN_GEESE)
    small = GeeseProof(board(), TO_PEN, nodes=50)
    # the near proof stops after half the budget, the proof over every move after all of it
    assert small.solve(fox, geese) is None and small.nodes == (50 // 2 + 1) + (50 + 1)
    alone = GeeseProof(board(), TO_PEN, nodes=50, near_first=False)
    assert alone.solve(fox, geese) is None and alone.nodes == 51
    start = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["F", "G"]}])
    position = start.rulebook.position(start.state)
    ticks = iter(range(10**6))                 # a second a look at the clock (each 1,024)
    timed = GeeseProof(board(), TO_PEN, nodes=10**9, clock=lambda: next(ticks) * 1.0,
                       seconds=2.5)
    # the clock read at the start (0 s); the near proof's third of the time ends at the first
    # look (1 s), the whole proof's 2.5 s at the third (3 s)
    assert timed.solve(position.fox, position.geese) is None and timed.nodes == 3 * 1024
    ticks = iter(range(10**6))
    alone = GeeseProof(board(), TO_PEN, nodes=10**9, clock=lambda: next(ticks) * 1.0,
                       seconds=0.5, near_first=False)
    assert alone.solve(position.fox, position.geese) is None and alone.nodes == 1024


# From the bench's game 79 of the "best" Geese against "easy", Fox shut in at f5 (room 3):
# lost there while the proof over every move needed 231,720 positions and the budget was 40,000.
GAME_79_FOX = "f5"
GAME_79_GEESE = ["d2", "e2", "a3", "b3", "c3", "e3", "f3", "g3", "b4", "c4", "e4", "f4", "a5",
                 "d5", "e5", "e7"]


def test_geese_proof_near_the_fox_first_wins_where_every_move_runs_out():
    fox, geese = parse_point(GAME_79_FOX), mask(GAME_79_GEESE)
    assert GeeseProof(board(), TO_PEN, nodes=40_000, near_first=False).solve(fox, geese) \
        is None
    proof = GeeseProof(board(), TO_PEN, nodes=40_000)
    assert proof.solve(fox, geese) is True and proof.nodes <= 40_000 // 2
    plan = proof.plan(fox, geese)
    assert wins_against_every_reply(board(), plan, fox, geese) == len(plan.moves)


def test_geese_proof_near_first_still_finds_a_win_that_needs_a_far_goose():
    """The shut-in position's win moves a goose far from the Fox: the near proof finds none
    (and says so), the search over every move then proves it."""
    fox, geese = parse_point(SHUT_IN_FOX), mask(SHUT_IN_GEESE)
    assert GeeseProof(board(), TO_PEN, nodes=100_000).solve_near(fox, geese) is False
    proof = GeeseProof(board(), TO_PEN, nodes=100_000)
    assert proof.solve(fox, geese) is True
    assert wins_against_every_reply(board(), proof.plan(fox, geese), fox, geese) > 1


def test_geese_proof_near_masks_reach_two_steps_along_the_lines():
    """d5 has no diagonal lines of its own (as printed); its neighbours c5, e5, d4 and d6
    have."""
    near = near_masks(board())[parse_point("d5")]
    assert all(near >> parse_point(p) & 1
               for p in ["d5", "d3", "b5", "f5", "d7", "b4", "c7", "e3"])
    assert not any(near >> parse_point(p) & 1 for p in ["b3", "f3", "a5", "g5", "d2"])


def test_geese_proof_no_pen_without_offering_a_goose_from_the_start():
    """Exact, over the rules: from F1's set-up the Geese cannot pen a Fox that never gets a
    goose to take (the reason the search must know when to offer one)."""
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["F", "G"]}])
    position = table.rulebook.position(table.state)
    proof = GeeseProof(position.board, TO_PEN, strict=True, nodes=2_000_000, near_first=False)
    assert proof.solve(position.fox, position.geese) is False


def test_pi_player_best_geese_play_the_proof_when_the_fox_is_shut_in():
    table = shut_in_table()
    memory = PiMemory()
    path = fox_and_geese_move(table.rulebook, table.state, "best", memory=memory)
    fox, geese = parse_point(SHUT_IN_FOX), mask(SHUT_IN_GEESE)
    assert memory.geese_plan is not None
    assert tuple(parse_point(p) for p in path) == memory.geese_plan.move_for(fox, geese)
    # the search alone makes the losing step here: the proof is what changed
    position = table.rulebook.position(table.state)
    alone = FoxSearch(position.board, TO_PEN, level=LEVELS["best"]).choose(position).path
    assert alone == (parse_point("d6"), parse_point("e7")) and path != ["d6", "e7"]


def test_pi_player_kept_plan_is_played_without_proving_again(monkeypatch):
    table = shut_in_table()
    memory = PiMemory()
    event = pi_event(table.rulebook, table.state, "best", memory=memory)
    table.apply(parse_event(event))
    fox_reply = table.to_json()["board"]["moves"][0]
    table.apply(parse_event({"type": "move", "path": fox_reply}))

    def no_new_proof(*args, **kwargs):
        raise AssertionError("a kept plan needs no new proof")
    monkeypatch.setattr(player, "GeeseProof", no_new_proof)
    position = table.rulebook.position(table.state)
    path = fox_and_geese_move(table.rulebook, table.state, "best", memory=memory)
    assert tuple(parse_point(p) for p in path) == \
        memory.geese_plan.moves[key(position.fox, position.geese, False)]


def test_pi_player_geese_try_no_proof_while_the_fox_roams(monkeypatch):
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Ann", "Ben"]}])

    def no_proof(*args, **kwargs):
        raise AssertionError("no proof is tried while the Fox has room")
    monkeypatch.setattr(player, "GeeseProof", no_proof)
    path = fox_and_geese_move(table.rulebook, table.state, "best", memory=PiMemory())
    assert path in table.to_json()["board"]["moves"]


@pytest.mark.parametrize("level", ["easy", "good"])
def test_pi_player_only_best_tries_a_proof(level):
    assert LEVELS[level].proof_nodes == 0 and LEVELS["best"].proof_nodes > 0


def test_pi_player_kept_plan_is_not_played_in_a_game_with_other_board_data(monkeypatch):
    table = shut_in_table()
    memory = PiMemory()
    fox_and_geese_move(table.rulebook, table.state, "best", memory=memory)
    table.state.board["geese_to_pen"] = 10          # the same pieces, other board data
    proofs = []

    class Counting(GeeseProof):
        def solve(self, fox, geese):
            proofs.append(self.to_pen)
            return super().solve(fox, geese)
    monkeypatch.setattr(player, "GeeseProof", Counting)
    fox_and_geese_move(table.rulebook, table.state, "best", memory=memory)
    assert proofs == [10]                   # proved again for these rules, not read from the plan


def side_by_side_shut_in_table():
    """The shut-in position on board data with c3 and d3 sideways: a goose steps to and fro."""
    table = shut_in_table()
    table.state.board["sideways"] = ["c3", "d3"]
    return table


def test_geese_proof_settles_nothing_on_a_board_where_geese_step_to_and_fro():
    table = side_by_side_shut_in_table()
    position = table.rulebook.position(table.state)
    proof = GeeseProof(position.board, TO_PEN, nodes=20_000)
    assert proof.solve(position.fox, position.geese) is None
    assert proof.solve_near(position.fox, position.geese) is None
    assert proof.nodes == 0 and not proof.known


def test_pi_player_best_geese_leave_it_to_the_search_on_a_board_where_geese_step_to_and_fro(
        monkeypatch):
    """The proof assumes no position comes twice: with two sideways points side by side the
    "best" Geese play the search's move for a shut-in Fox, without trying a proof."""
    table = side_by_side_shut_in_table()

    def no_proof(*args, **kwargs):
        raise AssertionError("no proof is tried where a goose can come back")
    monkeypatch.setattr(player, "GeeseProof", no_proof)
    memory = PiMemory()
    path = fox_and_geese_move(table.rulebook, table.state, "best", memory=memory)
    position = table.rulebook.position(table.state)
    alone = FoxSearch(position.board, TO_PEN, level=LEVELS["best"]).choose(position).path
    assert path in table.to_json()["board"]["moves"] and memory.geese_plan is None
    assert tuple(parse_point(p) for p in path) == alone
