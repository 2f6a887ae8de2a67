"""Views: what a screen shows, read from the state JSON (a session snapshot).

A view is plain data; the screens draw it and the tests read it, so "the screen changed" can be
checked in words as well as in pixels.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any

from companion.errors import ParlourError
from companion.games import GAMES
from companion.rulebook import Rulebook
from companion.state import row_order
from companion.words import END_OF_TURN, counted, geese
from companion.words import undo_notice as undo_words

Snapshot = dict[str, Any]


@dataclass(frozen=True)
class TurnView:
    """The play screen: `name` big, `action` beneath, `detail` in small type at the foot."""

    heading: str
    corner: str
    name: str
    action: str
    detail: str = ""
    button: int | None = None     # the seat button the awaited player presses (X12)


@dataclass(frozen=True)
class Row:
    """One line of the scores: a name and its standing, `marked` for the awaited player."""

    name: str
    figure: str
    marked: bool = False


@dataclass(frozen=True)
class SpinFrame:
    """One frame of a spin. Angles are radians clockwise from the top (dials) or tumble phase
    (dice); `faces_up` the values showing now; `shown` the final labels once settled."""

    kind: str
    faces: int
    name: str
    angles: tuple[float, ...]
    faces_up: tuple[int, ...]
    shown: tuple[str, ...]
    settled: bool
    labels: tuple[str, ...] = field(default=())


def split_prompt(prompt: str, names: Sequence[str] = ()) -> tuple[str, str]:
    """"Ann (Cat) - throw the dice" -> ("Ann (Cat)", "throw the dice"); "Ann: Move ..." too.
    A prompt that begins with a player's name (of `names`) and its role splits after them
    however long ("Margaretha van der Berg (Mouse)" was taken for no name: the turn screen
    drew a seat box alone); other prompts at a name of 30 characters at most."""
    for name in sorted(filter(None, names), key=len, reverse=True):
        found = re.match(rf"({re.escape(name)}(?: \([^()]*\))?)(?: - |: )(.*)$", prompt)
        if found:
            return found[1], found[2]
    for sep in (" - ", ": "):
        name, found, action = prompt.partition(sep)
        if found and len(name) <= 30:
            return name, action
    return "", prompt


def label(randomizer: dict[str, Any] | None, value: int) -> str:
    labels = (randomizer or {}).get("labels") or []
    return str(labels[value - 1]) if 0 < value <= len(labels) else str(value)


def roll_text(snap: Snapshot, randomizer: dict[str, Any] | None = None) -> str:
    """The last roll as the dial shows it: "3 · 5", "4", "double 3"."""
    roll = snap.get("last_roll") or {}
    values = roll.get("values") or []
    return " · ".join(label(randomizer or snap.get("randomizer"), v) for v in values)


SPIN_WORDS = {"throws", "spins", "and", ","}


def restates(line: str, name: str, values: str) -> bool:
    """True if a log line only restates a spin ("Ann throws 3 and 5") that the result's
    heading and big values already show; a line that says more ("... and moves to 7", "...
    for the lead") is kept whole."""
    if not name or not line.startswith(name):
        return False
    rest = line[len(name):].replace(",", " , ").split()
    shown = set(values.replace("·", " ").split())
    return all(w in SPIN_WORDS or w in shown for w in rest)


def player_names(snap: Snapshot) -> list[str]:
    return [p.get("name") or "" for p in snap.get("players") or []]


def player_name(snap: Snapshot, seat: int | None) -> str:
    players = snap.get("players") or []
    return players[seat]["name"] if seat is not None and 0 <= seat < len(players) else ""


def squares_uncovered(old: Snapshot, new: Snapshot) -> list[tuple[str, int, bool]]:
    """Domino Rex: the squares uncovered between two states of one game, each as (the
    player's name, the square, whether the Pi plays that seat); swapped, those covered again
    (an undo)."""
    out = []
    for before, after in zip(old.get("players") or [], new.get("players") or []):
        gone = Counter(before.get("covered") or []) - Counter(after.get("covered") or [])
        out += [(after.get("name") or "", value, bool(after.get("pi")))
                for value in sorted(gone.elements())]
    return out


def undo_notice(snap: Snapshot, whence: str = "") -> str:
    """An undo's notice as the state says it ("Taken back from a phone: ..." with `whence`):
    what it took back and what the table sets back by hand (`put_back`)."""
    return undo_words(snap.get("undone") or [], snap.get("put_back") or [], whence)


def undos_notice(snap: Snapshot, whence: str = "") -> str:
    """The notice of every undo of the state's last run (`undos`, one after another since the
    game last moved), as one: what each took back and what the table sets back, in order."""
    run = snap.get("undos") or [{"undone": snap.get("undone") or [],
                                 "put_back": snap.get("put_back") or []}]
    return undo_words([line for u in run for line in u.get("undone") or []],
                      [words for u in run for words in u.get("put_back") or []], whence)


def later_mover(words: list[str], snap: dict[str, Any], first: str, *,
                 pi_only: bool = False) -> str:
    """The player the change's last lines name, other than the one who moved first (of the
    Pi's seats only, with `pi_only`); the longest name a line holds ("Pi 2", not "Pi")."""
    names = [p.get("name") or "" for p in snap.get("players") or []
             if not pi_only or p.get("pi")]
    for line in reversed(words):
        named = [name for name in names if name != first and names_in(line, name)]
        if named:
            return max(named, key=len)
    return ""


def names_in(line: str, name: str) -> bool:
    """The log line names `name` as a word ("Ann moves", "7: Ann's checker"): the mover's
    change is headed with their name, where a phone's point for another is not."""
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line) is not None


LEAD_TIE = re.compile(r" tie on (\d+) and (?:throw|spin) again$")


def lead_tie(snap: Snapshot) -> str:
    """After a tie for the lead, why the throws start again: "tie on 7: spin again" (X2)."""
    found = LEAD_TIE.search(((snap.get("log") or [""])[-1:] or [""])[0])
    if not found:
        return ""
    dice = (snap.get("randomizer") or {}).get("kind") == "dice"
    return f"tie on {found.group(1)}: {'throw' if dice else 'spin'} again"


def turn_view(snap: Snapshot) -> TurnView:
    """The lead spin-off or a turn: whose it is and what to do, from the prompt."""
    name, action = split_prompt(snap.get("prompt") or "", player_names(snap))
    title = snap.get("title") or snap.get("game") or ""
    if snap.get("phase") == "lead":
        action = box_words(action.replace(" for the lead", ""))
        throws = (snap.get("lead") or {}).get("throws") or {}
        spun = (snap.get("randomizer") or {}).get("kind") in ("spinner", "indicator")
        # "threw: Red 12", not "Red 12" alone, read as a score or a square
        detail = ("spun: " if spun else "threw: ") + "  ".join(
            f"{player_name(snap, int(s))} {t}" for s, t in throws.items()) if throws else ""
        if len(detail) > FOOTER_CHARS and throws:    # cut off, it hid the throw to beat
            best = max(throws.values())             # ("best: Grandmother Wi…" hid it too)
            detail = f"best {best}: " + ", ".join(    # not "6 to beat": a tie throws again
                player_name(snap, int(s)) for s, t in throws.items() if t == best)
            detail = detail if len(detail) <= FOOTER_CHARS else f"best so far {best}"
        heading = f"{title}: lead"                # not "The Lost Diamond   Lead", one name
        heading = heading if len(heading) <= FOOTER_CHARS else "The lead"
        return TurnView(heading, "", name, action, detail or lead_tie(snap) or "who leads?",
                        button_of(snap, snap.get("turn")))
    if snap.get("awaiting") == "choose":
        action = "turn, then press"
    action = with_box_controls(snap, box_words(action))
    scores = any(p.get("score") for p in snap.get("players") or [])   # 0 said once one scored
    detail, elsewhere = spelled_out(standing(snap, snap.get("turn"), scores)), carrier(snap)
    if detail.startswith("has the diamond"):   # a sentence of its own under the action, not
        detail = f"{name} {detail}"           # "... end the turn / has the diamond" (LD2)
    if elsewhere:                  # "Bartholomew has the diamond. Ann: sq 3", never "sq 3 · B..."
        detail = f"{elsewhere}. {name}: {detail}" if detail else elsewhere
    return TurnView(title, corner_text(snap), name, action, detail,
                    button_of(snap, snap.get("turn")))


def carrier(snap: Snapshot) -> str:
    """Who has the diamond when it is not the player to move (The Lost Diamond, LD2): every
    turn says where it is, as the phone's table does beside the carrier."""
    seat, players = snap.get("diamond"), snap.get("players") or []
    if type(seat) is not int or not 0 <= seat < len(players) or seat == snap.get("turn"):
        return ""                            # on its square, or the player to move has it
    return f"{players[seat]['name']} has the diamond"


# What a seat press records after an assisted game's spin, as the box says it (the phone has
# a button of its own for it, web/moves.py's PRESS_WORDS).
BOX_PRESSES = {"gantlope": "Press your button for each man that enters its Goal.",    # G3
               "cats-and-mice": "Press your button for each mouse your cat takes.",    # M3
               "india": "Press your button if a man is home, and again to win."}   # P2
# (each fits the three lines of a turn screen's later page: a sentence split across pages,
# "... man 6. / Press your button if" over "a man reaches home, ...", read as two)


FOOTER_CHARS = 21               # small type's line: Terminus 12 is 6 px a character, 126 px


def box_words(action: str) -> str:
    """The rules' prompt as the box does it: "throw the dice" is a flick of the knob, as
    "flick to spin" says (the box has no dice); a claim home withdrawn by the knob also ends
    the turn (LD2, P2), as the phone says too, and what a confirmation does (the first man
    home wins: "Confirm: a man is home and wins" on the phone): a sentence of its own, so a
    page never starts with "withdraws it" under the player's name, read as done."""
    action = re.sub(r"\bthrow the (dice|die)\b", "flick to throw", action)
    action = action.replace("; your button if that reaches the diamond",    # LD2: a sentence
                            ". Or press your button for a Field move that reaches the diamond.")
    action = re.sub(r"again to confirm( you are home)?(?=[;,] the knob cancels)",
                    "again to win", action)   # what the confirmation does, as the phone's says
    return re.sub(r"[;,] the knob cancels", ". The knob withdraws the claim and ends the turn.",
                  action)


PAYS_IN = re.compile(r"^(?P<who>.+?) pays (?P<what>\d+ chips? into the pool.*)$")


def setup_words(snap: Snapshot) -> list[str]:
    """What a new game asks of the players before its lead, said once it begins: the chips
    each puts in and the counters shared out (Kat en Muis' stakes, K1; Life's Mishaps', L1),
    the same payment by every player said once ("Each player pays 5 chips into the pool
    (stake into the pot)"); [] where it asks nothing (the lead is the turn screen's)."""
    lines = [re.sub(r"\b(\d+) counters\b", r"\1 chips", line)     # Life's Mishaps' counters
             for line in (snap.get("log") or [])[1:]               # are the chips every other
             if not line.startswith("Lead:")]                      # screen counts
    if not any("chip" in line for line in lines):
        return []
    paid = [found for found in map(PAYS_IN.match, lines) if found]
    players = snap.get("players") or []
    if len(paid) == len(players) > 1 and len({found["what"] for found in paid}) == 1 and \
            [found["who"] for found in paid] == [p.get("name") for p in players]:
        first = lines.index(paid[0].group(0))
        lines = [line for line in lines if not PAYS_IN.match(line)]
        lines.insert(first, f"Each player pays {paid[0]['what']}")
    return lines


FREE_PLAY_PRESS = "A seat button gives its player a point."    # as the phone's "A point for Ann"


def with_box_controls(snap: Snapshot, instruction: str) -> str:
    """An assisted game's instruction after its spin, with how the box takes the rest of
    the turn (X8): the seat button for what the game records, then the knob to end it. Free
    play's turn says what every seat button does (nothing on the box said it)."""
    if snap.get("game") == "free-play" and snap.get("phase") == "play" and instruction:
        if instruction == END_OF_TURN:
            return f"{FREE_PLAY_PRESS} Then {END_OF_TURN}."
        return f"{instruction}. {FREE_PLAY_PRESS}"
    if snap.get("awaiting") != "next" or not snap.get("instruction") or "knob" in instruction:
        return instruction
    press = BOX_PRESSES.get(snap.get("game") or "")
    said = [press] if press and snap.get("presses_left") != 0 else []   # G3, M3: none left
    return " ".join([instruction, *said, *diamond_words(snap),
                     "Then press the knob to end the turn."])


def diamond_words(snap: Snapshot) -> list[str]:
    """The Lost Diamond after a spin (LD2): what the mover's button does now, as the phone's
    "Home with the diamond" and "Capture the diamond" say (none while the diamond is on its
    square, which a spin cannot reach)."""
    if snap.get("game") != "lost-diamond" or not snap.get("instruction"):
        return []
    turn, carrier = snap.get("turn"), snap.get("diamond")
    if carrier == turn:
        return ["Press your button if that brings you home with the diamond."]
    if isinstance(carrier, int):
        return [f"Press your button if you land on {player_name(snap, carrier)}: "
                "you capture the diamond."]
    return []


def button_of(snap: Snapshot, seat: int | None) -> int | None:
    """The seat button of a player (X12); None for the Pi's seat or no seat."""
    players = snap.get("players") or []
    if seat is None or not 0 <= seat < len(players) or players[seat].get("pi"):
        return None
    button = players[seat].get("button")
    return button if isinstance(button, int) else seat + 1


def corner_text(snap: Snapshot) -> str:
    """What the table holds besides the players: the pool's chips under the game's own word
    for it ("pots 10 chips" in Kat en Muis, whose Scores say "Both pots"; "pots 10" named no
    unit), Cats and Mice's mice."""
    if snap.get("pool"):
        rulebook = GAMES.get(snap.get("game") or "")
        word = rulebook.pool_label.split()[-1].lower() if rulebook else "pool"
        return f"{word} {counted(snap['pool'], 'chip')}"
    mice = snap.get("mice_left")
    return f"{counted_mice(mice)} left" if isinstance(mice, int) else ""


def counted_mice(n: int) -> str:
    return counted(n, "mouse", "mice")


def standing(snap: Snapshot, seat: int | None, scores: bool = False) -> str:
    """A player's square, chips and score in a few characters: "sq 22 · 17 chips", "red 22"
    where the role counts in a colour of the board's two numberings (Kat en Muis), "0 chips"
    in a game of chips (the phone's column says 0 too); with
    `scores` (someone has points), a score of 0 is said too, as the phone's column does."""
    players = snap.get("players") or []
    if seat is None or not 0 <= seat < len(players):
        return ""
    p = players[seat]
    bits = []
    rulebook = GAMES.get(snap.get("game") or "")
    if p.get("position") == 0:
        bits.append("at Start")                           # Cats and Dogs' square 0
    elif p.get("position") is not None:
        colour = rulebook.square_colours.get(p.get("role") or "") if rulebook else None
        bits.append(f"{colour or 'sq'} {p['position']}")
    in_play = any(q.get("chips") for q in players) or snap.get("pool")  # (free play deals none)
    if p.get("chips") or (rulebook and rulebook.uses_chips and p.get("chips") == 0 and in_play):
        bits.append(counted(p["chips"], "chip"))          # none left matters: X3 forgives
    if snap.get("game") == "fox-and-geese":                # F3: no points; each side's
        left = len((snap.get("board") or {}).get("geese") or [])    # own count (the Scores
        if p.get("role") == "geese" and snap.get("board"):          # screen said "Pi -")
            bits.append(f"Geese · {left} left")
        elif p.get("role") == "fox":
            bits.append(f"Fox · {geese(p.get('score') or 0)} taken")
    elif p.get("score") or (scores and p.get("score") == 0):
        bits.append(counted(p["score"], "pt"))
    if p.get("in_goal") is not None and snap.get("game") == "gantlope":
        bits.append(f"{p['in_goal']} in Goal")            # Gantlope's men home, 0 too
    if p.get("diamond"):
        bits.append("has the diamond")                    # The Lost Diamond (LD2)
    if p.get("lost_turns"):
        bits.append("loses a turn")
    return " · ".join(bits)


def spelled_out(standing: str) -> str:
    """A turn's standing with "square" in full where the line holds it ("square 3 · 12
    chips"; "sq 3" read as a code); the Scores screen keeps "sq" beside each chance."""
    whole = re.sub(r"\bsq (\d+)", r"square \1", standing)
    return whole if len(whole) <= FOOTER_CHARS else standing


def chance(snap: Snapshot, seat: int) -> str:
    """A seat's chance to win, "51%", when the chances are known ("" otherwise); once the
    game is over, "won" for a winner (not "100%") and nothing for the others."""
    if snap.get("phase") == "over":
        return "won" if seat in (snap.get("winners") or []) else ""
    win = (snap.get("odds") or {}).get("win") or []
    if not 0 <= seat < len(win):
        return ""
    p = win[seat]
    return "<1%" if 0 < p < 0.005 else ">99%" if 0.995 < p < 1 else f"{round(p * 100)}%"


def to_win(figure: str) -> str:
    """A chance as the Scores screen says it: "61% win" (a bare "61%" under a name read as a
    score; "61% to win" took each player a line more, a page each); "won" as it is."""
    return f"{figure} win" if figure.endswith("%") else figure


def score_rows(snap: Snapshot) -> list[Row]:
    players = snap.get("players") or []
    scores = any(p.get("score") for p in players)
    rows = [Row(players[i]["name"], " · ".join(b for b in (to_win(chance(snap, i)),
                                                           standing(snap, i, scores)) if b)
                or "-", i == snap.get("turn"))
            for i in row_order(snap)]
    if snap.get("pool"):
        rulebook = GAMES.get(snap.get("game") or "")
        rows.append(Row(rulebook.pool_label if rulebook else "Pool", counted(snap["pool"], "chip")))
    if isinstance(snap.get("mice_left"), int):
        rows.append(Row("Board", f"{counted_mice(snap['mice_left'])} left"))
    return rows


def winners_text(snap: Snapshot) -> tuple[str, str]:
    winners = [player_name(snap, s) for s in snap.get("winners") or []]
    if not winners:
        return "No winner", "the game has ended"
    if len(winners) == 1:
        return winners[0], "wins!"
    return " & ".join(winners), "share the win"


def choices(snap: Snapshot) -> list[int]:
    """The values the awaited player may choose with the knob (Domino Rex: covered spots)."""
    players = snap.get("players") or []
    turn = snap.get("turn")
    if turn is not None and 0 <= turn < len(players):
        for key in ("choices", "covered", "covered_squares", "dominoes"):
            values = players[turn].get(key)
            if isinstance(values, list) and values and all(isinstance(v, int) for v in values):
                return sorted(set(values))
    for key in ("choices", "options_now"):
        values = snap.get(key)
        if isinstance(values, list) and values and all(isinstance(v, int) for v in values):
            return sorted(set(values))
    return list(range(1, 7))


# Free play's randomizers as the device offers them (the order of the knob's list).
RANDOMIZERS: list[tuple[str, dict[str, Any]]] = [
    ("One die", {"kind": "dice", "count": 1}),
    ("Two dice", {"kind": "dice", "count": 2}),
    ("Three dice", {"kind": "dice", "count": 3}),
    ("The Indicator", {"kind": "indicator"}),
    *((f"Spinner of {n}", {"kind": "spinner", "faces": n}) for n in range(2, 13)),
    ("No dice", {"kind": "none"}),
]

# Refusals as players say them: the rules' words for the phone's log, the table's for the box.
DEVICE_WORDS = {
    "the game is over and its seed may be revealed: it cannot be taken back":
        "The game is over: it cannot be taken back",
}


def refusal_text(text: str) -> str:
    """A refusal as a whole sentence: capital first, full stop last, no talk of seeds."""
    text = DEVICE_WORDS.get(text, text).strip()
    if not text:
        return "Not now."
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def span_at_box(rulebook: Any, seats: int, between: str = "-") -> str:
    """How many play at this box: the game's span, up to its seat buttons ("2-4" for Life's
    Mishaps' 2 to 6 on a box of 4 buttons, which said "2-6" beside four seat squares)."""
    low, high = rulebook.min_players, min(rulebook.max_players, seats)
    return str(low) if low >= high else f"{low}{between}{high}"


def game_detail(rulebook: Any, chooses_randomizer: bool, seats: int = 6) -> str:
    """The game list's line under a title: "2-6 players · a spinner of 6"."""
    span = span_at_box(rulebook, seats)
    if chooses_randomizer:
        dice = "you choose the dice"
    elif rulebook.randomizer is not None:
        dice = rulebook.randomizer.name
    else:
        dice = "no dice"                  # "no dice / in play" read as a game in play
    return f"{span} player{'s' * (span != '1')} · {dice}"


def choice_meaning(snap: Snapshot, value: int, after: Snapshot | None = None) -> str:
    """What a knob choice means (Domino Rex): "uncover a 4: 4 + 3 = 7", or for the answer
    after it, the sum that moved a checker ("4 + 3 = 7") and "Rex!" when one was crowned."""
    if "last_uncovered" not in snap:
        return "" if after is not None else "press to choose"
    last = snap.get("last_uncovered")
    if after is not None:
        words = " ".join((after.get("log") or [])[len(snap.get("log") or []):])
        if "Rex!" in words:
            return "Rex!"
        return f"{value} + {last} = {value + last}" if last else str(value)
    if not last:
        return f"uncover a {value} to open"
    return f"uncover a {value}: {value}+{last}={value + last}"


RESIGNED_NAME = 6   # "wins, Yellow resigned" fills the line (21 letters): a longer name, the side


def final_points(snap: Snapshot) -> str:
    """The winner's points under their name ("wins, 27 points"; winners tied on points
    "share the win, 19 pts"), or in a game won on chips their chips ("wins, 27 chips"), or ""
    in a game without either or none kept ("Blue wins, 0 chips" of free play without chips;
    the scores screen has everyone's), or where a player holds more than the winners (free
    play's declared winner: "Red wins, 0 points" beside Blue's 2 read as a scoring error).
    Fox and Geese counts
    no points: the geese the Fox took, or the geese left ("wins, 16 geese left"), or the
    other side's resignation ("wins, Red resigned", as the result said it: "Blue / wins, Fox
    resigned" read as Blue the Fox; the side for a name too long for the line)."""
    players = snap.get("players") or []
    winners = snap.get("winners") or []
    if snap.get("game") == "fox-and-geese":
        if len(winners) != 1:
            return ""
        if any(line.endswith(" resigns") for line in (snap.get("log") or [])[-2:]):   # F3
            loser = players[1 - winners[0]].get("name") or ""        # as the result said it
            side = "Geese" if players[winners[0]].get("role") == "fox" else "Fox"
            return f"wins, {loser if len(loser) <= RESIGNED_NAME else side} resigned"
        if players[winners[0]].get("role") == "fox":
            return f"wins, {geese(players[winners[0]].get('score') or 0)} taken"
        return f"wins, {geese(len((snap.get('board') or {}).get('geese') or []))} left"
    rulebook = GAMES.get(snap.get("game") or "")
    if any(p.get("score") for p in players):      # "share the win, 19 pts", "wins, 19 points"
        key, shared, alone = "score", "pt", "point"
    elif rulebook and rulebook.uses_chips and any(p.get("chips") for p in players):
        # won on chips (K8, L7): "wins, 27 chips"; free play with no chips kept says none
        key, shared, alone = "chips", "chip", "chip"
    else:
        return ""
    figures = {players[w].get(key) or 0 for w in winners}
    if len(figures) != 1:                         # no one winner's figure (or no winner)
        return ""
    n = figures.pop()
    if any((p.get(key) or 0) > n for p in players):   # declared over a higher figure (free
        return ""                                     # play): "Red wins, 0 points" beside 2
    return f"share the win, {counted(n, shared)}" if len(winners) > 1 else \
        f"wins, {counted(n, alone)}"


def takes(rulebook: Rulebook | None, move: str) -> bool:
    """True if the game overrides the move (`on_press`, `on_declare`, ...)."""
    return rulebook is not None and getattr(type(rulebook), move) is not getattr(Rulebook, move)


def chooses_randomizer(rulebook: Rulebook) -> bool:
    """True if the game takes its randomizer as an option (free play)."""
    try:
        rulebook.check_options({"randomizer": RANDOMIZERS[0][1]})
    except ParlourError:
        return False
    return rulebook.randomizer is None
