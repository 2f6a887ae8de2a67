"""The Pi as a player: it picks a move for a seat it plays (`pi` in new_game), never applies it.

Fox and Geese: the bit-mask alpha-beta search of `companion.pi.fox_search`, at three levels;
"best" Geese also try to prove a win once the Fox is shut in (`companion.pi.geese_proof`) and,
with a `PiMemory` from the caller, play a proven plan to its end; not on board data where a goose
can step to and fro (two sideways points side by side), where the proof does not hold.
Domino Rex: which covered square to uncover, by the Hint's plan and the next player's replies.
Pure: the easy level's randomness is an injected generator (anything with `.random()`), so a
seeded one gives the same game every time; a deadline needs a clock callable from the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.chances.domino_rex import choices as domino_choices, plan_value
from companion.events import DEFAULT_PI_LEVEL, Choose
from companion.pi.fox_search import (ALL_POINTS, FoxSearch, Generator, Level, fox_room,
                                     geese_come_back)
from companion.pi.geese_proof import GeesePlan, GeeseProof
from companion.games.domino_rex import ADVANCE, CHECKERS, CROWNED, REX
from companion.games.fox_and_geese import name
from companion.replay import advance

LEVELS = {
    "easy": Level("easy", 1, 400, 0.05, 150.0),
    "good": Level("good", 3, 4_000, 0.5, 0.0),
    "best": Level("best", 12, 3_000, 1.8, 0.0, proof_nodes=40_000, proof_seconds=8.0),
}
SHUT_IN = 3              # the Fox's room (its point included) at which the Geese try a proof


@dataclass
class PiMemory:
    """What the Pi keeps between its moves at a table: the Geese's proven plan, if any. A plan
    is keyed by positions and proved for each, so it stays right after an undo or in another
    game on the same board data; only the newest is kept."""

    geese_plan: GeesePlan | None = None


def fox_and_geese_move(rulebook, state, level: str = DEFAULT_PI_LEVEL, *,
                       rng: Generator | None = None,
                       clock: Callable[[], float] | None = None,
                       memory: PiMemory | None = None) -> list[str]:
    """The path the Pi plays for the side to move in a Fox and Geese state."""
    position = rulebook.position(state)
    to_pen = state.board["geese_to_pen"]
    path = None
    if not position.fox_to_move and LEVELS[level].proof_nodes:
        path = proven_geese_move(position, to_pen, LEVELS[level], clock=clock, memory=memory)
    if path is None:
        search = FoxSearch(position.board, to_pen, level=LEVELS[level], rng=rng, clock=clock)
        path = search.choose(position).path
    return [name(p) for p in path]


def proven_geese_move(position, to_pen: int, level: Level, *,
                      clock: Callable[[], float] | None = None,
                      memory: PiMemory | None = None) -> tuple[int, ...] | None:
    """The Geese's move from a proven plan: the one in memory if it covers this position,
    else a new proof when the Fox is shut in (its room at most `SHUT_IN` points), within the
    level's proof budget. None: no proof (the search decides), always on a board where a
    goose can come back to a point (`geese_come_back`): the proof assumes it never does."""
    if geese_come_back(position.board):
        return None
    fox, geese = position.fox, position.geese
    plan = memory.geese_plan if memory is not None else None
    if plan is not None and plan.fits(position.board, to_pen):
        path = plan.move_for(fox, geese)
        if path is not None:
            return path
    if fox_room(fox, ALL_POINTS & ~geese & ~(1 << fox)).bit_count() > SHUT_IN:
        return None
    proof = GeeseProof(position.board, to_pen, nodes=level.proof_nodes, clock=clock,
                       seconds=level.proof_seconds)
    if not proof.solve(fox, geese):
        return None
    plan = proof.plan(fox, geese)
    if memory is not None:
        memory.geese_plan = plan
    return plan.move_for(fox, geese)


# -- Domino Rex -------------------------------------------------------------------------------

STEP_VALUE = {REX: 3, "domino": 4}          # worth of one step of a checker from there (D2)


def _gain(checkers: dict[str, str], total: int) -> int:
    """What moving the sum's checker is worth to its owner: a step, more for a crown (its
    points count at the end)."""
    where = checkers.get(str(total)) if total in CHECKERS else None
    if where is None or where == CROWNED:
        return 0
    return STEP_VALUE[where] + (total if ADVANCE[where] == CROWNED else 0)


def domino_rex_choice(state, level: str = DEFAULT_PI_LEVEL, *,
                      rng: Generator | None = None, rulebook=None) -> int:
    """The spots the Pi uncovers for the seat to play (D2): "easy" picks at random, "good"
    takes the best gain now, "best" plans as the seed's HINTS TO PLAYERS do and looks at every
    reply of the next player (`domino_rex_best`)."""
    player = state.players[state.turn]
    covered = sorted(set(player.extra["covered"]))
    if level == "easy" and rng is not None:
        return covered[min(len(covered) - 1, int(rng.random() * len(covered)))]
    if level == "best" and rulebook is not None:
        return domino_rex_best(rulebook, state)
    last = state.data["last"]
    return max(covered, key=lambda v: (0 if last is None else
                                       _gain(player.extra["checkers"], v + last), -v))


RIVALS_WEIGHT = 0.25     # how much the strongest other Table counts against the Pi's own


def _rivals(rulebook, state, seat: int) -> float:
    """The worth of the strongest Table but `seat`'s, by its plan."""
    return max((plan_value(rulebook, state, s)[0] for s in range(len(state.players))
                if s != seat), default=0.0)


def domino_rex_best(rulebook, state) -> int:
    """Each square the Pi may uncover is valued as the Hint values it (its Table's progress
    and what its squares can still crown with its predecessor's: the seed's HINTS TO PLAYERS,
    "eleven can only be made with the five and six"), less a quarter of what the strongest other
    Table is worth after each reply the next player may make (as likely as any other): the
    seed's "block your opponent's game". Measured in `make bench` against random players."""
    seat = state.turn
    best: tuple | None = None
    for value in domino_choices(state):
        after = advance(rulebook, state, Choose(value))
        score, _ = plan_value(rulebook, after, seat)
        if not after.over:
            if after.awaiting == "choose":
                replies = [_rivals(rulebook, advance(rulebook, after, Choose(w)), seat)
                           for w in domino_choices(after)]
                score -= RIVALS_WEIGHT * sum(replies) / len(replies)
            else:
                score -= RIVALS_WEIGHT * _rivals(rulebook, after, seat)
        if best is None or (score, -value) > best[0]:
            best = ((score, -value), value)
    return best[1]


def pi_event(rulebook, state, level: str = DEFAULT_PI_LEVEL, *, rng: Generator | None = None,
             clock: Callable[[], float] | None = None,
             memory: PiMemory | None = None) -> dict[str, Any] | None:
    """The event the Pi makes now for the seat to play (None: nothing it can make; a throw
    is drawn by the session from the committed stream, so it is {"type": "roll"})."""
    if state.over:
        return None
    if state.awaiting == "roll":
        return {"type": "roll"}
    if state.awaiting == "move" and state.game == "fox-and-geese":
        return {"type": "move",
                "path": fox_and_geese_move(rulebook, state, level, rng=rng, clock=clock,
                                           memory=memory)}
    if state.awaiting == "choose" and state.game == "domino-rex":
        return {"type": "choose", "value": domino_rex_choice(state, level, rng=rng,
                                                             rulebook=rulebook)}
    return None


def fallback_event(rulebook, state, *, rng: Generator | None = None) -> dict[str, Any] | None:
    """A legal event with no search at all, for when the search itself has failed: the
    game goes on (a throw, a random legal path, a random covered square), or None."""
    def pick(options: list) -> Any:
        return options[int(rng.random() * len(options)) if rng is not None else 0]

    if state.over:
        return None
    if state.awaiting == "roll":
        return {"type": "roll"}
    if state.awaiting == "move" and state.game == "fox-and-geese":
        paths = rulebook.legal_paths(state)
        return {"type": "move", "path": pick(paths)} if paths else None
    if state.awaiting == "choose" and state.game == "domino-rex":
        covered = sorted(set(state.players[state.turn].extra["covered"]))
        return {"type": "choose", "value": pick(covered)} if covered else None
    return None

