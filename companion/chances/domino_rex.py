"""Domino Rex: chances under hap-hazard play, exact end-games, and the hint.

Domino Rex has no dice in play: only the players' choices decide it. The companion cannot know
how well each player chooses, so chances assume every player uncovers one of their covered
spot values at random, equally likely: the seed's own "game of chance ... making the moves at
hap-hazard, without study". It favours no one; a greedy policy would make every playout the
same game and show 0% or 100% where a slip changes everything.

Exact: when the game tree left under that policy is small (EXACT_LEAVES), it is walked in full
by the real rules (memoized by position), else playouts (companion.chances.odds).

The hint searches the mover's choices one ply by the real rules, then plans the rest of the
mover's game exhaustively (memoized): which of the rarest four uncrowned checkers can still be
crowned by pairing the mover's covered squares with squares the player before them still has
covered, a crown worth its number and a checker in Domino a tenth of it (the seed's
HINTS: "consider well whether ... all the remaining checkers can be crowned by the combinations
that you can effect with the remaining squares"; rare sums such as 11 first).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.events import Choose
from companion.games.domino_rex import CHECKERS, CROWNED, DOMINO
from companion.replay import advance
from companion.rulebook import Rulebook
from companion.state import Lines, State
from companion.words import listing

EXACT_LEAVES = 3_000         # at most this many ways left to play: walk them all
PLAN_CHECKERS = 4            # the hint plans the rarest four uncrowned checkers (7 is easy)
DOMINO_WORTH = 0.1           # a checker in Domino is worth this share of its crown (progress)


def choices(state: State) -> list[int]:
    """The distinct spot values the awaited player can uncover, lowest first."""
    return sorted(set(state.players[state.turn].extra["covered"]))


def random_choice(state: State, rng) -> int:
    """The playout policy: one of the distinct covered values, equally likely."""
    options = choices(state)
    return options[rng.randrange(len(options))]


def _leaves(state: State) -> int:
    """An upper bound on the ways the rest of the game can go under the policy."""
    total = 1
    for player in state.players:
        covered = player.extra["covered"]
        distinct = len(set(covered))
        for left in range(len(covered), 0, -1):
            total *= min(distinct, left)
            if total > EXACT_LEAVES:
                return total
    return total


def _key(state: State) -> tuple:
    return (state.turn, state.data["last"], tuple(
        (tuple(sorted(p.extra["covered"])), tuple(sorted(p.extra["checkers"].items())),
         p.score) for p in state.players))


def domino_odds(rulebook: Rulebook, state: State) -> dict[str, Any] | None:
    """Exact chances under the policy when few ways are left; None otherwise (playouts)."""
    if state.phase != "play" or state.awaiting != "choose" or _leaves(state) > EXACT_LEAVES:
        return None
    return {"win": list(_walk(rulebook, state, {})), "exact": True, "margin": 0.0}


def _walk(rulebook: Rulebook, state: State, memo: dict) -> tuple[float, ...]:
    if state.over:
        share = 1 / len(state.winners)
        return tuple(share if p.seat in state.winners else 0.0 for p in state.players)
    key = _key(state)
    if key not in memo:
        options = choices(state)
        total = [0.0] * len(state.players)
        for value in options:
            after = advance(rulebook, state, Choose(value))
            after.log = Lines()
            for seat, p in enumerate(_walk(rulebook, after, memo)):
                total[seat] += p / len(options)
        memo[key] = tuple(total)
    return memo[key]


# -- the hint --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    value: int           # the spots to uncover
    text: str            # "uncover a 6: it keeps your checker 11 crownable"
    worth: float         # the plan's value (crowns reachable, in checker numbers)


def _progress(checkers: dict[str, str]) -> float:
    return sum(n * (1.0 if checkers[str(n)] == CROWNED else DOMINO_WORTH
                    if checkers[str(n)] == DOMINO else 0.0) for n in CHECKERS)


def _counts(squares: list[int]) -> tuple[int, ...]:
    return tuple(squares.count(v) for v in range(1, 7))


# Plans remembered across calls: 16,384 hold ~12 MiB in all. One game with the Pi at "best"
# filled 100,000 (67 MiB in the program and as much again in the chances worker, for good, on
# a Pi of 512 MB), and that many were no faster: a game's plans repeat within a choice.
PLAN_MEMO = 16_384


@lru_cache(maxsize=PLAN_MEMO)
def _plan(needs: tuple[tuple[int, int], ...], mine: tuple[int, ...],
          theirs: tuple[int, ...]) -> tuple[float, frozenset]:
    """The most a player can still make of `needs` ((checker, steps left), rarest first) by
    pairing their covered squares `mine` with squares the player before them still has,
    `theirs` (both counts of spots 1..6); and which checkers that best plan crowns."""
    if not needs:
        return 0.0, frozenset()
    (n, steps), rest = needs[0], needs[1:]
    best = _plan(rest, mine, theirs)
    gain = n * (DOMINO_WORTH if steps == 2 else 1.0 - DOMINO_WORTH)
    for x in range(max(1, n - 6), 7):
        y = n - x
        if mine[x - 1] and theirs[y - 1]:
            m = mine[:x - 1] + (mine[x - 1] - 1,) + mine[x:]
            t = theirs[:y - 1] + (theirs[y - 1] - 1,) + theirs[y:]
            later, crowned = _plan(((n, 1),) + rest if steps == 2 else rest, m, t)
            if gain + later > best[0] + 1e-9:
                best = (gain + later, crowned | {n} if steps == 1 else crowned)
    return best


def _needs(checkers: dict[str, str]) -> tuple[tuple[int, int], ...]:
    """Uncrowned checkers with the steps each still needs, rarest sum (11) first."""
    steps = {CROWNED: 0, DOMINO: 1}
    return tuple((n, steps.get(checkers[str(n)], 2)) for n in sorted(CHECKERS, key=_ways)
                 if checkers[str(n)] != CROWNED)[:PLAN_CHECKERS]


def _ways(n: int) -> tuple[int, int]:
    """How many ways two squares make n (11: two; 7: six), fewest first, then highest."""
    return (sum(1 for x in range(1, 7) if 1 <= n - x <= 6), -n)


def _before(rulebook: Rulebook, state: State, seat: int) -> int:
    """The seat that will uncover just before `seat` plays again (D3: empty Tables skip)."""
    order = state.order
    i = order.index(seat)
    for step in range(1, len(order) + 1):
        other = order[(i - step) % len(order)]
        if other == seat or not rulebook.skips(state, other):
            return other
    return seat


WON = 1e6


def plan_value(rulebook: Rulebook, state: State, seat: int) -> tuple[float, frozenset]:
    """What `seat`'s Table is worth in `state`: its progress (crowns, checkers in Domino) plus
    the most its covered squares can still crown with those of the player before it (the
    seed's HINTS TO PLAYERS); and the checkers that plan crowns. A game over is won or lost."""
    if state.over:                                  # a win shared (X6) is worth its share
        return (WON / len(state.winners) if seat in state.winners else -WON), frozenset()
    me = state.players[seat]
    pred = state.players[_before(rulebook, state, seat)].extra["covered"]
    planned, crowned = _plan(_needs(me.extra["checkers"]), _counts(me.extra["covered"]),
                             _counts(pred))
    return _progress(me.extra["checkers"]) + planned, crowned


def hint(rulebook: Rulebook, state: State) -> Hint | None:
    """The best square for the awaited player to uncover, with the reason in a few words;
    None when no choice is awaited."""
    if state.game != "domino-rex" or state.phase != "play" or state.awaiting != "choose":
        return None
    seat = state.turn
    last = state.data["last"]
    ranked = []
    for value in choices(state):
        after = advance(rulebook, state, Choose(value))
        worth, crowned = plan_value(rulebook, after, seat)
        ranked.append((worth, -value, value, after, crowned))
    ranked.sort(key=lambda r: r[:2], reverse=True)
    worth, _, value, after, crowned = ranked[0]
    return Hint(value, f"uncover a {value}: " + _reason(state, seat, value, last, after,
                                                      crowned, ranked[1:]), worth)


def _reason(state: State, seat: int, value: int, last: int | None, after: State,
            crowned: frozenset, others: list) -> str:
    """Why: the game's end (won, shared or lost: D4, X6), a crown now, else a checker this
    choice keeps a way to crown and another would not."""
    moved = _moved(state, after, seat)
    if after.over:
        return _ending(after, seat)
    kept = sorted((n for n in crowned if any(n not in c for *_, c in others)), reverse=True)
    if moved is not None and after.players[seat].extra["checkers"][str(moved)] == CROWNED:
        return f"{value} + {last} = {moved} crowns your checker {moved}. Rex!"
    if kept:
        return f"it keeps a way to crown your checker {kept[0]}"
    if moved is not None:
        return f"{value} + {last} = {moved} moves your checker {moved} into Domino"
    if last is None:
        return "it opens the game and keeps your best squares"
    if any(_moved(state, other[3], seat) is not None for other in others):
        return "it keeps your best squares for the crowns still to make"   # a move would spend one
    return "no square moves a checker now; it keeps your best squares"


def _moved(state: State, after: State, seat: int) -> int | None:
    """The checker of `seat` that a choice moved (into Domino or crowned), if any."""
    before = state.players[seat].extra["checkers"]
    now = after.players[seat].extra["checkers"]
    return next((n for n in CHECKERS if before[str(n)] != now[str(n)]), None)


def _ending(after: State, seat: int) -> str:
    """A choice that ends the game: won, shared (X6) or lost, as the rules decide it (D4;
    a lost one is the hint only as the player's last square: any other choice is worth more)."""
    if after.winners == [seat]:
        return "it wins the game"
    names = listing([after.players[w].name for w in after.winners if w != seat])
    if seat in after.winners:
        return f"it ends the game in a win shared with {names}"
    return f"it ends the game: {names} win{'s' if len(after.winners) == 1 else ''}"
