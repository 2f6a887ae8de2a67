"""Roll statistics and roll verification: is the table's randomness fair, and was it honest?

Two questions, two tools. `goodness_of_fit` asks whether the faces seen so far look like a fair
die (Pearson's chi-square test, p-value from the regularized upper incomplete gamma function,
pure Python). `verify_rolls` asks whether every roll in a finished game's log is the one the
committed seed gives (companion.randomness.rollstream), which proves the rolls were not chosen.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import Refused
from companion.events import Event, NewGame, Roll, Undo, parse_event
from companion.randomness.randomizers import Randomizer
from companion.replay import Table
from companion.randomness.rollstream import commitment as commit_to
from companion.randomness.rollstream import draw

# Below this many expected throws per face the chi-square approximation is poor: say so.
MIN_EXPECTED = 5
_EPS = 1e-15
_TINY = 1e-300
_MAX_STEPS = 10_000


# -- the math ---------------------------------------------------------------------------------

def gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Gamma(a, x) / Gamma(a): the regularized upper incomplete gamma function.

    A power series for P = 1 - Q when x < a + 1, Lentz's continued fraction for Q otherwise
    (each converges fast on its side).
    """
    if a <= 0:
        raise ValueError(f"gamma_q needs a > 0, not {a}")
    if x < 0:
        raise ValueError(f"gamma_q needs x >= 0, not {x}")
    if x == 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(_MAX_STEPS):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_STEPS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPS:
            break
    return min(1.0, math.exp(log_front) * h)


def chi_square(observed: list[int], expected: list[float] | None = None) -> tuple[float, int]:
    """Pearson's statistic and its degrees of freedom; `expected` defaults to equal faces."""
    if len(observed) < 2:
        raise ValueError("a chi-square test needs at least two faces")
    total = sum(observed)
    if expected is None:
        expected = [total / len(observed)] * len(observed)
    if len(expected) != len(observed):
        raise ValueError("observed and expected counts differ in length")
    if total == 0:
        return 0.0, len(observed) - 1
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected) if e > 0)
    return statistic, len(observed) - 1


def chi_square_p(statistic: float, dof: int) -> float:
    """The chance that a fair randomizer gives a statistic this large or larger."""
    if dof < 1:
        raise ValueError("degrees of freedom must be at least 1")
    return gamma_q(dof / 2, statistic / 2)


@dataclass(frozen=True)
class Fit:
    """A goodness-of-fit test of face counts against a fair randomizer, with its verdict."""

    counts: list[int]
    total: int
    statistic: float
    dof: int
    p_value: float | None          # None: too few throws to test
    verdict: str                   # "too-few" | "fair" | "unusual" | "very-unusual"
    words: str


def goodness_of_fit(counts: list[int]) -> Fit:
    """Test face counts (index 0 is face 1) against equally likely faces, said in words."""
    faces, total = len(counts), sum(counts)
    statistic, dof = chi_square(counts)
    if total < MIN_EXPECTED * faces:
        need = MIN_EXPECTED * faces
        return Fit(list(counts), total, statistic, dof, None, "too-few",
                   f"Too few throws to judge yet: {total} so far; a fair test needs about "
                   f"{need} ({MIN_EXPECTED} for each of the {faces} faces).")
    p = chi_square_p(statistic, dof)
    percent = _percent(p)
    if p >= 0.01:
        verdict = "fair"
        words = (f"Nothing unusual. A perfectly fair randomizer would give counts at least "
                 f"this uneven {percent} of the time.")
    elif p >= 0.001:
        verdict = "unusual"
        words = (f"Somewhat uneven: a perfectly fair randomizer would give counts this uneven "
                 f"only {percent} of the time. Over many tables this happens now and then; "
                 f"the seed checks below show whether any roll was chosen.")
    else:
        verdict = "very-unusual"
        words = (f"Very uneven: a perfectly fair randomizer would give counts this uneven "
                 f"less than {percent} of the time. Check the seed verification below.")
    return Fit(list(counts), total, statistic, dof, p, verdict, words)


def _percent(p: float) -> str:
    if p >= 0.995:
        return "almost 100%"
    if p >= 0.1:
        return f"{p * 100:.0f}%"
    if p >= 0.001:
        return f"{p * 100:.1f}%"
    return "0.1%"


# -- walking a log ----------------------------------------------------------------------------

def _numbered(events: Iterable[Any]) -> list[tuple[int, Any]]:
    """(line, event) pairs from events, dicts, or pairs as read_log gives them."""
    out = []
    for index, item in enumerate(events, start=1):
        out.append(item if isinstance(item, tuple) else (index, item))
    return out


def _parse(item: Event | dict) -> Event:
    return item if isinstance(item, Event) else parse_event(item)


def randomizer_key(randomizer: Randomizer) -> str:
    """What a histogram groups by: the kind of thing thrown and its faces, not the count."""
    if randomizer.kind == "spinner":
        return f"spinner-{randomizer.faces}"
    if randomizer.kind == "dice":
        return f"dice-d{randomizer.faces}"
    return randomizer.kind


def randomizer_title(key: str) -> str:
    if key.startswith("spinner-"):
        return f"Spinner of {key.split('-', 1)[1]}"
    if key.startswith("dice-d"):
        faces = key.removeprefix("dice-d")
        return "Dice" if faces == "6" else f"Dice of {faces} faces"
    if key == "indicator":
        return "The Indicator (each arrow)"
    return key


def effective_rolls(events: Iterable[Any]) -> list[tuple[Randomizer, tuple[int, ...]]]:
    """The rolls still in effect at the end of a log, each with the randomizer that made it.

    An undone roll is left out: the same roll comes again (undo never re-rolls), so counting
    both would count one draw twice. Stops quietly at the first event the game refuses.
    """
    table = Table()
    stack: list[tuple[Randomizer, tuple[int, ...]] | None] = []
    for _, item in _numbered(events):
        try:
            event = _parse(item)
            rolled = None
            if isinstance(event, Roll) and table.started:
                dice = table.rulebook.randomizer_now(table.state)
                rolled = None if dice is None else (dice, event.values)
            table.apply(event)
        except Refused:
            break
        if isinstance(event, Undo):
            stack.pop()
        elif not isinstance(event, NewGame):
            stack.append(rolled)
    return [r for r in stack if r is not None]


def table_rolls(table: Table) -> list[tuple[Randomizer, tuple[int, ...]]]:
    """`effective_rolls` of a log already replayed into `table`, without replaying it again:
    each roll in effect, with the randomizer of the state it was thrown in."""
    states, out = table.states, []
    for step, event in enumerate(table.effective):
        if step and isinstance(event, Roll):
            dice = table.rulebook.randomizer_now(states[step - 1])
            if dice is not None:
                out.append((dice, event.values))
    return out


def face_counts(logs: Iterable[Iterable[Any]]) -> dict[str, list[int]]:
    """Every face shown in these logs, per randomizer key: counts[key][face - 1]."""
    counts: dict[str, list[int]] = {}
    for events in logs:
        for dice, values in effective_rolls(events):
            row = counts.setdefault(randomizer_key(dice), [0] * dice.faces)
            for value in values:
                if 1 <= value <= len(row):
                    row[value - 1] += 1
    return counts


# -- verifying rolls against the revealed seed -------------------------------------------------

@dataclass(frozen=True)
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class Verification:
    """The outcome of checking a log's rolls against its committed seed.

    status: "verified" (every roll matches), "mismatch" (some roll or the seed does not match),
    "unrevealed" (committed, seed still secret), "uncommitted" (no commitment: rolls entered by
    hand), "invalid" (the log cannot be replayed), "cut" (the rolls match, but the log reveals
    its seed and stops before the game's end: lines are missing from its end).
    """

    ok: bool
    status: str
    checked: int
    problems: list[Problem] = field(default_factory=list)
    message: str = ""


def _say_values(values: Iterable[int]) -> str:
    values = list(values)
    if not values:
        return "no number"
    return str(values[0]) if len(values) == 1 else \
        ", ".join(map(str, values[:-1])) + " and " + str(values[-1])


def verify_rolls(events: Iterable[Any], seed: str | None = None) -> Verification:
    """Check every roll of a log (undone ones too) against the committed seed.

    Events are dicts (a JSONL log or `Session.export_log`), Event objects, or (line, event)
    pairs from `replay.read_log`. The seed is the one revealed in the new_game event unless
    given. Roll n's values must equal draw(seed, n, randomizer now), where n is the number of
    rolls in effect when it was made (so after an undo the same n comes again).
    """
    numbered = _numbered(events)
    if not numbered:
        return Verification(False, "invalid", 0, [Problem(1, "the log is empty")],
                            "The log is empty: there is nothing to verify.")
    table = Table()
    problems: list[Problem] = []
    checked = 0
    key: bytes | None = None
    revealed = False                     # the log itself carries the seed: a finished game's
    for line, item in numbered:
        try:
            event = _parse(item)
        except Refused as err:
            problems.append(Problem(line, str(err)))
            return _broken(checked, problems)
        if isinstance(event, NewGame) and not table.started:
            outcome = _check_seed(event, seed, line)
            if isinstance(outcome, Verification):
                return outcome
            if isinstance(outcome, Problem):
                return Verification(False, "mismatch", 0, [outcome],
                                    f"{outcome}. The rolls cannot be trusted.")
            key, revealed = outcome, event.seed is not None
        if isinstance(event, Roll) and table.started and key is not None:
            dice = table.rulebook.randomizer_now(table.state)
            if dice is not None:
                index = table.state.rolls
                expected = draw(key, index, dice)
                checked += 1
                if tuple(event.values) != expected:
                    problems.append(Problem(line, (
                        f"roll {index + 1} shows {_say_values(event.values)}, but the committed "
                        f"seed gives {_say_values(expected)}")))
        try:
            table.apply(event)
        except Refused as err:
            problems.append(Problem(line, str(err)))
            return _broken(checked, problems)
    if problems:
        count = len(problems)
        lines = ", ".join([str(p.line) for p in problems[:10]] + ["..."] * (count > 10))
        return Verification(False, "mismatch", checked, problems,
                            f"{count} of {checked} roll{'s' * (checked != 1)} do not match the "
                            f"committed seed (line{'s' * (count > 1)} {lines}).")
    back = checked - table.state.rolls if table.started else 0     # undone rolls, checked too
    if revealed and table.started and not table.state.over:
        end = numbered[-1][0]
        return Verification(False, "cut", checked, [Problem(end, "the game is not over here")],
                            (f"The {checked} rolls match the committed seed, " if checked > 1
                             else "Its one roll matches the committed seed, " if checked else
                             "No roll was made, ")
                            + f"but the log stops at line {end} before the game is over, and it "
                            "reveals the seed, which only a finished game's log does: lines "
                            "are missing from its end.")
    return Verification(True, "verified", checked, [],
                        f"All {checked} roll{'s' * (checked != 1)} match the committed seed"
                        + (f" ({back} taken back, {checked - back} in play)." if back > 0 else
                           ".") if checked else
                        "The seed matches its commitment; no rolls were made.")


def _check_seed(event: NewGame, given: str | None, line: int) -> bytes | Verification | Problem:
    """The seed to check rolls with, or why there is none."""
    if event.commitment is None:
        return Verification(False, "uncommitted", 0, [],
                            "This game has no committed seed (no dice, or rolls entered by hand), "
                            "so there is nothing to verify.")
    texts = [t for t in (event.seed, given) if t is not None]
    if not texts:
        return Verification(False, "unrevealed", 0, [],
                            "The seed is still secret: the new_game line carries it once the "
                            "game is over (a game set aside keeps it secret; a finished game's "
                            "log without it cannot be checked).")
    for text in texts:
        try:
            key = bytes.fromhex(text)
        except ValueError:
            return Problem(line, "the revealed seed is not hex")
        if not key or commit_to(key) != event.commitment:
            return Problem(line, "the revealed seed does not match the commitment")
    return bytes.fromhex(texts[0])


def _broken(checked: int, problems: list[Problem]) -> Verification:
    """The log breaks the rules at its last problem; a roll that did not match the seed before
    it is named first (a line copied or cut makes the game go wrong later: the roll that does
    not match is where the log was changed)."""
    last = problems[-1]
    mismatched = [p for p in problems[:-1] if p.line != last.line]
    if mismatched:
        return Verification(False, "mismatch", checked, problems,
                            f"{mismatched[0]}: the log was changed there (it then cannot be "
                            f"replayed past {last}).")
    return Verification(False, "invalid", checked, problems,
                        f"The log cannot be replayed past {last}.")
