"""Random Fox and Geese games (F2, F3): every move the generator offers replays, nothing else
is accepted, and the game always ends over or with a move to make."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import Refused
from companion.events import parse_event
from companion.games.fox_and_geese import POINTS, name
from companion.replay import replay

POINT_NAMES = [name(p) for p in POINTS]
MAX_MOVES = 100


def start(options):
    return replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Ann", "Ben"],
                    "options": options}])


def accepted(table, path) -> bool:
    try:
        table.attempt(parse_event({"type": "move", "path": list(path)}))
    except Refused:
        return False
    return True


def near_misses(path: list[str]) -> list[list[str]]:
    """Paths one change away from a legal one: cut short, reversed, run on, a point swapped."""
    out = [path[:-1], path[::-1], path + [path[-1]], path + [path[0]]]
    if len(path) > 2:
        out.append(path[:-1])
    return [p for p in out if len(p) >= 2]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([0, 1]))
def test_fox_and_geese_f2_generated_moves_replay_and_nothing_else(data, fox_seat):
    table = start({"fox_seat": fox_seat})
    for _ in range(MAX_MOVES):
        state = table.state
        if state.over:
            assert table.to_json()["board"]["moves"] == []
            break
        legal = table.to_json()["board"]["moves"]
        assert legal, "a game that is not over always has a move (F3 ends it otherwise)"
        offered = {tuple(m) for m in legal}
        for path in legal:
            assert accepted(table, path), path
        strangers = data.draw(st.lists(st.lists(st.sampled_from(POINT_NAMES), min_size=2,
                                                max_size=4), max_size=6))
        for path in strangers + [p for m in legal for p in near_misses(m)]:
            assert accepted(table, path) == (tuple(path) in offered), path
        choice = data.draw(st.sampled_from(legal))
        before = table.to_json()
        table.apply(parse_event({"type": "move", "path": choice}))
        after = table.to_json()
        assert after["board"]["fox"] == choice[-1] or before["board"]["fox"] == after["board"]["fox"]
        assert after["geese_left"] <= before["geese_left"]
        assert after["geese_left"] + sum(p["score"] for p in after["players"]) == 17
