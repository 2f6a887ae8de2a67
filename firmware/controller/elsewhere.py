"""Changes made elsewhere (a phone, the API, the Pi) as the box shows them (a mixin of
Controller): each new snapshot applied on the main loop, the dial going on or starting again,
the change's log lines under who made it ("Ann uncovers", "Pi, then Ann", "From a phone"), the
Pi's board move to copy, an undo said (with those before it whose notice was still being
read), the last move again after a restart (and the newest game's end before one), a game
begun elsewhere saying what became of the one shown (its end, unseen, or set aside); and the
Pi's reply held until the result up has been read, so the box is at most one result behind.
Controller provides snap, session, screen, result, held_change, missed, the spin's and
result's methods, home(), show_read, _beep, _for_box and _sync_controls."""

from __future__ import annotations

import re

from typing import Any

from companion.events import BY_SCRIPT, CORRECTIONS
from companion.words import TURN_ENDS, is_undo
from firmware.controller.drawing import state_mark
from firmware.controller.parts.missed import MissedChanges
from firmware.controller.pairing import PAIR_SCREENS
from firmware.controller.play_inputs import PI_THINKING, UNDO_BY
from firmware.controller.parts.result import HeldChange
from firmware.controller.parts.undos import UNSHOWN, UndoSaid, said_together
from firmware.controller.spin import UNCOVER_IF_NOT_YET, UNCOVER_PIS, asks_to_uncover
from firmware.oled.animation import REMOTE_STRENGTH
from firmware.oled.names import names_for_the_box
from firmware.oled.views import (box_words, choice_meaning, final_points, later_mover,
                                  names_in, player_name, squares_uncovered,
                                  turn_view, undos_notice, winners_text)
from firmware.workers.pi_worker import BY as PI_BY, pi_level


JOINED_HERE = "begun instead of the game joined here."  # a phone's game over a join at the box


def _begins(log: list[str], start: list[str]) -> bool:
    """Whether `log` goes on from `start` (holds it whole, first)."""
    return log[:len(start)] == start


def _same_undos(these: list[dict[str, Any]], those: list[dict[str, Any]]) -> bool:
    """Whether two runs of undos are the same ones: by where each took its lines back (their
    words are as the box draws names, which a rename between them changes)."""
    return len(these) == len(those) and all(a.get("at") == b.get("at")
                                            for a, b in zip(these, those))


def _never_shown(undo: dict[str, Any], drawn: dict[str, Any]) -> bool:
    """Whether an undo (an entry of the state's `undos`) took back only what came after the
    game as `drawn` has it: moves the OLED never showed. Its lines were at `at`; an ended
    turn has none, and came after `drawn` only if lines did (at `at`, it may be the one
    drawn)."""
    at, drawn_at = undo.get("at"), len(drawn.get("log") or [])
    if at is None:
        return False
    return at > drawn_at if TURN_ENDS.match((undo.get("undone") or [""])[0]) else at >= drawn_at


def _mover(before: dict[str, Any], after: dict[str, Any]) -> int | None:
    """The seat whose move took `before` to `after`: the player to move, or, for a seat's
    button pressed (a point, a capture, a man home, any seat's), the player its first line
    names; None where no one moved (no line, or a correction: a rename is no one's move)."""
    lines = (after.get("log") or [])[len(before.get("log") or []):]
    if not lines or after.get("last_type") in CORRECTIONS:
        return None
    if after.get("last_type") == "press":
        names = [(len(p.get("name") or ""), seat) for seat, p in
                 enumerate(after.get("players") or []) if names_in(lines[0], p.get("name"))]
        if names:
            return max(names)[1]            # the longest name a line holds ("Pi 2", not "Pi")
    return before.get("turn")


def end_line(state: dict[str, Any]) -> str:
    """A game's end in a line, as its end screen says it ("Ann wins, 15 points", "Pi wins, Ben
    resigned", "Ann & Ben share the win")."""
    if not state.get("winners"):
        return "no winner"
    who, verb = winners_text(state)
    return f"{who} {final_points(state) or verb.rstrip('!')}"


def whence(by: str | None) -> str:
    """Where a change made elsewhere than the box came from (its `by`), as its heading says
    it."""
    return "From a script" if by == BY_SCRIPT else "From a phone"


# screens a change from elsewhere replaces (the Pi moving just after a restart among them)
SHOWS_CHANGES = ("play", "result", "over", "pi_moved", "resumed")
IDLE = ("start", "games", "join", "dice", "menu", "pin", "wifi",
        *PAIR_SCREENS)                                 # screens needing no game


def pi_requests(old: dict[str, Any], snap: dict[str, Any]) -> list[str]:
    """Domino Rex: the squares the Pi's seats uncovered between two states, each asked of the
    players by number ("Uncover Pi 2's 5 on the board, then press the knob.")."""
    return [UNCOVER_PIS.format(who=name, value=value)
            for name, value, pi in squares_uncovered(old, snap) if pi]


def pi_moved_in(words: list[str], snap: dict[str, Any]) -> str:
    """The Pi's seat that moved in these lines ("Pi uncovers 4 ...", "6 + 1 = 7: Pi's seventh
    checker ...", "Pi's Fox: d4 to c5"), if one did; "" otherwise (a line that only names it,
    "Pi wins" after a resignation, is no move of its)."""
    for p in snap.get("players") or []:
        moved = re.compile(rf"^(\d+ \+ \d+ = \d+: )?{re.escape(p.get('name') or '')}"
                           r"('s | uncovers )")
        if p.get("pi") and any(moved.match(line) for line in words):
            return p["name"]
    return ""


def pi_move_words(snap: dict[str, Any]) -> str:
    """The Pi's board move that ends the log of `snap` ("Pi's goose a3 to a4"), to ask for it
    again if a change comes over it before it was copied; "" if none."""
    lines: list[str] = []
    for line in reversed(snap.get("log") or []):
        if not pi_moved_in([line], snap):
            break
        lines.insert(0, box_words(line).replace(": ", " ", 1))
    return "; ".join(lines)


UNCOVER_ASKED = re.compile(re.escape(UNCOVER_PIS).replace(r"\{who\}", r"(?P<who>.+)")
                           .replace(r"\{value\}", r"(?P<value>\d+)") + "$")   # its own words


def asked_again(line: str) -> str:
    """A request for the Pi's uncover that a change came over before the press said it was
    done, asked again: it may be done on the board already ("If Pi's 6 is still covered,
    uncover it on the board; then press the knob.")."""
    found = UNCOVER_ASKED.match(line)
    return UNCOVER_IF_NOT_YET.format(**found.groupdict()) if found else line


def _one_uncover(old: dict[str, Any], snap: dict[str, Any]) -> bool:
    """The change is one Domino Rex uncover: one square, by the player whose turn it was."""
    seat, players = old.get("turn"), snap.get("players") or []
    if snap.get("last_type") != "choose" or old.get("awaiting") != "choose" or \
            not isinstance(seat, int) or not 0 <= seat < len(players) or \
            len(players) != len(old.get("players") or []):
        return False
    gone = [len(a.get("covered") or []) - len(b.get("covered") or [])
            for a, b in zip(old["players"], players)]
    return gone[seat] == 1 and sum(gone) == 1


class ChangesFromElsewhere:
    """The box's answer to a change it did not make."""

    held_change: HeldChange                                       # all set by Controller.__init__
    missed: MissedChanges                                         # changes under another screen
    _last_end_told: bool                        # the newest game's end after a restart, said

    def _apply(self, snap: dict[str, Any]) -> None:
        old = self.snap
        if snap.get("version", 0) <= old.get("version", 0) and \
                snap.get("game_id") == old.get("game_id"):
            return
        self.snap = snap = self._for_box(snap)
        if snap.get("state_version") == old.get("state_version") and \
                snap.get("game_id") == old.get("game_id"):   # only the chances are new
            self.dirty = self.dirty or self.screen in ("scores", "hint")
            return
        self.dirty = True
        drawn = old         # the game as the OLED shows it: before a change held back unshown
        if self.held_change.waiting and snap.get("game_id") == old.get("game_id"):
            drawn = self.held_change.drawn
        unseen = None       # an undo of moves held back unshown only: the state drawn
        if len(snap.get("log") or []) < len(old.get("log") or []) or \
                snap.get("game_id") != old.get("game_id"):
            if drawn is not old and _begins(snap.get("log") or [], drawn.get("log") or []):
                unseen = drawn
            self.held_change.drop()                # an undo: the moves waiting may be gone
        if snap.get("game_id") != old.get("game_id"):
            self.animation = None
            if self.notice.undo:                   # the last game's undo: not said again
                self._clear_notice()               # under the next game's first move
            overtook = (self.joining or any(JOINED_HERE in line for line in self.result.lead_in)) \
                and snap.get("game_id") is not None
            if overtook:                           # the seats joined here are not in it
                self.joining = False
            left = self._game_left(old, snap)      # the game shown: set aside, or its end unseen
            if snap.get("game_id") is not None or self.screen not in IDLE:
                self.screen = self.home()          # set aside by the phone: "Choose a game"
            # said first by the next result (a notice over it hid it); an older game's: gone
            self.result.lead_in = [f"{whence(self._begun_by(snap))}: {snap.get('title')} "
                                   f"{JOINED_HERE}"] if overtook else [left] if left else []
            if snap.get("last_by") == PI_BY:       # the Pi's first move came with the game
                self._show_change({"log": []}, snap)
            elif snap.get("game_id") is not None:  # begun from a phone: the chips to put in
                self._show_setup()
            if self.screen not in ("result", "spin") and not pi_level(snap):
                self._say_lead_in()                # no result to come: said now
        elif self.screen not in SHOWS_CHANGES and self.screen != "spin":
            # a menu, pairing or scores screen is up: shown when the game's screen is back
            # (a phone's throw took the pairing code off the box; a win came unannounced)
            self.missed.record(drawn, snap, self.between)
        elif (snap.get("rolls") or 0) > (old.get("rolls") or 0) and self.screen != "spin":
            self._animate(old, snap, strength=REMOTE_STRENGTH)
        elif self.screen == "spin" and (snap.get("rolls") or 0) > (old.get("rolls") or 0) \
                and snap.get("last_by") != PI_BY:
            # another throw (a phone's) while the dial spins: the dial shows the newest, its
            # result every line since the first
            self._animate(self.result.throw.before, snap, strength=REMOTE_STRENGTH,
                          ended=self.result.throw.ended)
        elif self.screen == "spin" and snap.get("rolls") == old.get("rolls") and (
                self.held_change.waiting or (snap.get("last_by") != PI_BY and len(
                    snap.get("log") or []) > len(old.get("log") or []))):
            # a person's move after the throw (a phone's uncover), and what came after it:
            # its own result, once the dial's has been read
            self._offer(old, snap)
        elif self.screen == "spin" and snap.get("rolls", 0) >= old.get("rolls", 0):
            # the dial goes on with the throw it shows (the Pi's throw just after a person's
            # too); its result lists the lines since, as the log now has them
            self.held_change.drop()
            self.result.outcome = self._spin_outcome(snap)
        elif unseen is not None:                   # what it took back was never on the OLED
            self._show_unseen_undo(unseen, snap)
        elif self.screen == "spin" or (self.screen in SHOWS_CHANGES and
                                       len(snap.get("log") or []) < len(old.get("log") or [])):
            self.animation = None                  # an undo of the throw, or any undo: now
            self._show_change(drawn, snap)
        elif self.screen in SHOWS_CHANGES:
            self._offer(old, snap)
        self.follow_menu()
        self._sync_controls()

    def _game_left(self, old: dict[str, Any], snap: dict[str, Any]) -> str:
        """What a game begun or put away elsewhere (`snap`) says of the game the box showed
        (`old`): that it was set aside unfinished, or its end when the box has not shown it
        ("From a phone: Fox and Geese begun. Last game: Ann wins, 15 points"); "" if neither."""
        ended, title = self._unshown_end(old), old.get("title") or "the game"
        who, begun = whence(self._begun_by(snap)), snap.get("title")
        if ended:
            return f"{who}: {begun} begun. Last game: {end_line(ended)}" if begun else \
                f"{who}: {title} put away. Last game: {end_line(ended)}"
        if old.get("game_id") is None or old.get("phase") == "over":
            return ""
        return f"{who}: {title} set aside; {begun} begun" if begun else f"{who}: {title} set aside"

    def _unshown_end(self, old: dict[str, Any]) -> dict[str, Any] | None:
        """The end of the game the box showed (`old`; the state it ended on, for the box) if
        the box has not shown it: it ended while its last move was read, under a menu, or in
        the change that began the next; none shown yet after a restart, the newest game's."""
        if old.get("game_id") is None:
            ended = self._last_end_untold()
        elif old.get("phase") == "over" and not self.missed.waiting and \
                self.screen not in ("result", "pi_moved", "spin"):
            return None                    # its end screen was up, or a screen left from it
        else:
            ended = self.session.ending(old["game_id"])
        return None if ended is None else self._for_box(ended["state"])

    def _last_end_untold(self) -> dict[str, Any] | None:
        """The newest game's end after a restart (`Session.last_ended`), once: none after."""
        ended = None if self._last_end_told else self.session.last_ended
        self._last_end_told = True
        return ended

    def _begun_by(self, snap: dict[str, Any]) -> str | None:
        """Who began the game `snap` shows (its `new_game`'s `by`): the Pi's first move or a
        phone's may have come with it."""
        if snap.get("last_type") == "new_game" or snap.get("game_id") is None:
            return snap.get("last_by")
        first = self.session.store.events(snap["game_id"])[:1]
        return first[0].get("by") if first else snap.get("last_by")

    def _say_lead_in(self) -> None:
        """What the next result was to say first (its `lead_in`), said now as a notice."""
        said = self.result.take_lead_in()
        if said:
            self.show_read(" ".join(said))
            # over the Pi's move to copy (its first, with the game a phone began): a press reads
            # the words away and the move is seen; it took both, the move never copied
            self.notice.covers_change = self.screen == "pi_moved"

    def _show_unseen_undo(self, drawn: dict[str, Any], snap: dict[str, Any]) -> None:
        """An undo that took back only moves the box held back, unshown (the Pi's reply while
        a phone's move was read): what is left of them is shown as any change; with none, the
        notice (`_undos_said`) says they went."""
        if len(snap.get("log") or []) > len(drawn.get("log") or []):
            self._show_change(drawn, snap)
            return
        self.screen = self.home()
        self._say_undo(drawn, snap, self.notice.unread_undos(self.clock()))

    @staticmethod
    def _undos_said(drawn: dict[str, Any], snap: dict[str, Any]) -> UndoSaid:
        """What the undos since the game as the OLED drew it took back (the state's `undos`
        that `drawn` had not: two at once were said as the last one alone), each's lines and
        what to set back, in order; of moves never shown (the Pi's reply held back while a
        result was read), what to set back if it was done (`maybe_back`): the box never asked
        for them, but the phones showed them."""
        said = drawn.get("undos") or [] if drawn.get("taken_back") and \
            drawn.get("game_id") == snap.get("game_id") else []
        run = snap.get("undos") or [{"undone": snap.get("undone") or [],
                                     "put_back": snap.get("put_back") or []}]
        new = run[len(said):] if _same_undos(run[:len(said)], said) else run
        by = "" if snap.get("undone_by") == UNDO_BY else whence(snap.get("undone_by")).lower()
        shown, unshown = [], []          # unshown: the Pi's reply held back (the phones showed it)
        for u in new:
            (unshown if _never_shown(u, drawn) else shown).append(u)
        maybe = [words for u in unshown for words in u.get("put_back") or []]
        if not shown:
            return UndoSaid([line for u in new for line in u.get("undone") or []], [],
                            f"{by} {UNSHOWN}".strip(), maybe)
        return UndoSaid([line for u in shown for line in u.get("undone") or []],
                        [words for u in shown for words in u.get("put_back") or []], by, maybe)

    def _say_undo(self, drawn: dict[str, Any], snap: dict[str, Any],
                  earlier: list[UndoSaid]) -> None:
        """An undo's notice (`_undos_said`), after the undos of the notice it replaces while
        that was still being read (`earlier`: two undos a second apart), in one notice."""
        undos = [*earlier, self._undos_said(drawn, snap)]
        self.show_undo(said_together(undos), undos)

    def _show_the_last_end(self) -> None:
        """Once, leaving the start screen with no game in play: the newest game's end
        (`Session.last_ended`), as the power may have gone while it was up, unread (the box
        came up on the start screen; the phones said "Ben won")."""
        ended = self._last_end_untold()
        if ended is None or self._active():
            return
        players = ended["state"].get("players") or []
        lines = [box_words(names_for_the_box(line, players, self._stand_in))
                 for line in ended["lines"]]
        self.result.outcome = ("Last game", "", lines)       # as the phones say
        self._show_result()

    def _show_the_last_move(self) -> None:
        """After "Resumed": the game's last move, as no one can tell whether it was seen (made
        just before the power went, or as the box came back; or it was read before the
        restart). The Pi's, to copy if it is not yet; an undo, what to set back; any other
        move, its lines (a throw 0.5 s into its dial: "Ben throws 2 and 6", never said)."""
        snap = self.snap
        if snap.get("phase") == "over" or not snap.get("log"):
            return
        if snap.get("last_by") != PI_BY:
            lines = self.session.resumed_lines              # none after an undo
            if lines and snap.get("last_type") != "new_game":   # names as the box draws them
                self.result.outcome = ("Last move", "", [box_words(self._words_for_box(line))
                                                         for line in lines] + self._offered())
                self._show_result()
            elif snap.get("taken_back"):      # a recap, not a second undo ("Last move: ...")
                by = snap.get("undone_by")       # of every undo of the last run
                words = undos_notice(snap, "" if by == UNDO_BY else whence(by).lower())
                self.show_undo(f"Last move: {words[:1].lower()}{words[1:]}")
            return
        if (snap.get("board") or {}).get("last_move"):
            self._put_up_pi_move()
        elif snap.get("last_uncovered") is not None and snap.get("last_type") == "choose":
            pi = later_mover(snap["log"][-1:], snap, "", pi_only=True) or "Pi"
            self.result.outcome = (f"{pi}'s last move", "",        # it may be copied already
                                   [box_words(snap["log"][-1]), UNCOVER_IF_NOT_YET.format(
                                       who=pi, value=snap["last_uncovered"])])
            self._show_result()
        elif snap.get("last_type") == "roll" and self._resumed_lines_last(snap):
            self.result.outcome = ("Last move", "", [     # D1: the Pi's throw for the lead,
                box_words(self._words_for_box(line))     # nothing to copy: said as a person's
                for line in self.session.resumed_lines])
            self._show_result()

    def _offered(self) -> list[str]:
        """What the turn's player's button does now, as the turn screen says it, where it
        records something (M3, G3, LD2, free play's point): "Last move" is the screen a
        press on "Resumed" leads to, and a press there records it ("Ben spins 4 and 1" alone
        took a mouse). A claim home's own line says it already (LD2, P2)."""
        if not self._press_records() or self.snap.get("home_claim") is not None:
            return []
        view = turn_view(self.snap)
        return [f"{view.name}: {view.action}"] if "button" in view.action else []

    def _resumed_lines_last(self, snap: dict[str, Any]) -> bool:
        """The lines the newest event wrote before the restart still end the log."""
        lines = self.session.resumed_lines
        return bool(lines) and (snap.get("log") or [])[-len(lines):] == lines

    def _show_missed(self) -> None:
        """Back on the game's screen: what changed elsewhere while another screen was up, as
        it would have been shown then, undos first (`MissedChanges.take`: nothing if the box's
        own action has moved on since)."""
        if self.screen not in SHOWS_CHANGES:
            return
        passed = self.missed.passed             # each mover among them named in turn
        uncovered = self.missed.take(self.snap)
        if uncovered is None:
            return
        old, snap, runs = uncovered
        undos = [self._undos_said(before, after) for before, after in runs]
        moved = len(snap.get("log") or []) > len(old.get("log") or [])
        if moved:                                                  # said first by its result
            self.result.lead_in = [*self.result.lead_in, *(u.words for u in undos)]
        self._show_change_through(old, snap, passed)
        if undos and not moved:
            self.show_undo(" ".join(u.words for u in undos), undos)

    @staticmethod
    def _change_words(old: dict[str, Any], snap: dict[str, Any]) -> list[str]:
        """The log's lines a change added, and what the players do for the Pi's uncover: its
        square by number, so the request reads alone on the page it ends ("Uncover Pi's 4 on
        the board, then press the knob.")."""
        words = [box_words(w) for w in (snap.get("log") or [])[len(old.get("log") or []):]]
        if not words or snap.get("last_uncovered") is None or snap.get("phase") == "over":
            return words
        return words + pi_requests(old, snap)

    def _show_change(self, old: dict[str, Any], snap: dict[str, Any]) -> None:
        """A change made elsewhere (a phone, the API, the Pi) while the OLED shows the game:
        the Pi's board move drawn to copy (its press then shows the end, if the move won);
        any other change that added to the log, its lines under who made it, the game's last
        move too (then the end, as after the box's own: the last mouse's 3 points were never
        shown when a phone took it); else the turn screen (said to be taken back when the log
        lost lines, as the box's own Undo says)."""
        self.changes_put_up += 1
        earlier = self.notice.unread_undos(self.clock()) \
            if snap.get("game_id") == old.get("game_id") else []    # an undo's notice, read
        words = self._change_words(old, snap)
        by_pi = snap.get("last_by") == PI_BY
        if by_pi and self.notice.text == PI_THINKING:
            self.notice.clear()                    # it has thought: its move says the rest
        elif self.notice.text and self.notice.text != PI_THINKING and \
                snap.get("state_version") != old.get("state_version"):
            self.notice.clear()     # an earlier change's notice ("Taken back ...") is the past
        ended = snap.get("phase") == "over" and old.get("phase") != "over"
        newest = state_mark(snap) == state_mark(self.snap)    # chances coming in: the same
        if not newest and snap.get("last_by") == PI_BY:    # shown late: a move made since
            asked = pi_requests(old, snap)                   # has answered the Pi's
            words = [w for w in words if w not in asked]
        if words and earlier:                      # said first by what takes its place
            self.result.lead_in = [*self.result.lead_in, said_together(earlier)]
        self.move_index = 0
        uncopied = self._still_to_copy(old)        # the Pi's move before, never pressed away
        if words and by_pi and (snap.get("board") or {}).get("last_move") and newest:
            if uncopied:                           # a person's move and this came under a menu
                self.result.lead_in = [*self.result.lead_in,
                                       f"First, if not yet on the board: {uncopied}"]
            self._put_up_pi_move()
            self._say_lead_in()                    # no result to say it first: over the move
            if ended:
                self._beep("win")
        elif not words:
            self.screen = self.home()
            if ended:
                self._beep("win")
            elif is_undo(old, snap):                          # of an ended turn too
                self._say_undo(old, snap, earlier)
        else:
            mover = player_name(old, old.get("turn")) if old.get("turn") is not None else ""
            moved_for_pi = bool(pi_level(old))
            corrected = snap.get("last_type") in CORRECTIONS     # no one's move
            pi_name = (mover if moved_for_pi else later_mover(words, snap, mover, pi_only=True)) \
                or "Pi"                                            # "Pi 2", of two Pi seats
            actor = (pi_name if moved_for_pi or not mover else f"{mover}, then {pi_name}") \
                if by_pi else mover if names_in(words[0], mover) and not corrected \
                else whence(snap.get("last_by"))
            one, later = _one_uncover(old, snap), later_mover(words, snap, mover)
            if snap.get("last_type") == "declare" and not by_pi and (
                    moved_for_pi or words[0] != f"{mover} resigns"):  # a person's resigning
                actor = "Game ended"        # no one's move, as the box's own declaration
            elif moved_for_pi and not by_pi and not pi_moved_in(words, snap):
                actor = whence(snap.get("last_by"))   # a person's rename on the Pi's turn
            elif later and moved_for_pi and not by_pi and not one:   # the Pi's move, and a
                actor = f"{mover}, then {later}"                       # phone's answer to it
            elif actor == mover and not by_pi and not one:         # a person's moves around
                between = pi_moved_in(words, snap)                     # the Pi's reply
                actor = f"{mover}, then {between}" if between else \
                    self._movers(old, snap) or actor
            heading, values = actor, ""         # "then Pi": one change held two moves
            if actor in (mover, pi_name) and one:  # as the box's own knob says it
                heading = f"{actor} uncovers"
                values = choice_meaning(old, snap["last_uncovered"], snap)
            elif actor == mover and not later and snap.get("last_type") == "move" and \
                    old.get("awaiting") == "move":
                heading = f"{mover} moves"      # a board move, as the knob's is headed
            also = [f"Also, if not yet on the board: {uncopied}"] if uncopied and not by_pi \
                else []
            self.result.outcome = (heading, values, self._asking_still(
                [*words, *also]))
            if also and snap.get("last_type") in CORRECTIONS:     # no move: asked again by
                self.to_copy = (state_mark(snap), uncopied)       # the next change over it
            self._show_result()
            if not by_pi:                   # a person's move, just up (the Pi's replies
                self.result.change_put_up()                        # have their own holds)
            if ended:
                self._beep("win")

    def _asking_still(self, lines: list[str]) -> list[str]:
        """A result's `lines` with the Pi's uncovers that the result up asked for and no press
        has said are done asked again ("If Pi's 6 is still covered, ..."), before what the
        new lines ask for themselves (a square asked for in both: once)."""
        if not self._waits_for_press:
            return lines
        new = [line for line in lines if asks_to_uncover(line)]
        keys = {asked_again(line) for line in new}
        again = list(dict.fromkeys(asked_again(line) for line in self.result.lines
                                   if asks_to_uncover(line) and asked_again(line) not in keys))
        first = len(lines) - len(new) if lines[len(lines) - len(new):] == new else len(lines)
        return [*lines[:first], *again, *lines[first:]]

    def _put_up_pi_move(self) -> None:
        """The Pi's board move up to copy: a change over it before a press said it was copied
        asks for it again (`_still_to_copy`)."""
        self.move_index, self.screen = 0, "pi_moved"
        self.to_copy = (state_mark(self.snap), pi_move_words(self.snap))

    def _still_to_copy(self, old: dict[str, Any]) -> str:
        """The Pi's board move that the state `old` shows up to copy, or shows after "Resumed"
        (no one may have seen it), if no press has said it was copied; "" otherwise. Asked
        once: the change that asks for it leaves it behind (a correction passes it on)."""
        to_copy, self.to_copy = self.to_copy, None
        if to_copy is not None and to_copy[0] == state_mark(old):
            return to_copy[1]
        if self.screen == "resumed" and old.get("last_by") == PI_BY and \
                (old.get("board") or {}).get("last_move"):
            return pi_move_words(old)
        return ""

    def _movers(self, old: dict[str, Any], snap: dict[str, Any]) -> str:
        """People's moves that came within one frame (two phones, a script's calls), each
        mover in turn ("Ben, then Ann"): under the first mover's name alone, Ann's taking of
        the diamond read as Ben's; each once where they took turns ("Ben and Ann"). "" for one
        mover."""
        chain = [old, *[s for s in self.between if s.get("game_id") == old.get("game_id")
                        and old.get("state_version", 0) < s.get("state_version", 0)
                        < snap.get("state_version", 0)], snap]
        movers: list[str] = []
        now = self._for_box(snap)           # each named as the box names them now (a rename)
        for before, after in zip(chain, chain[1:]):
            seat = _mover(before, after)
            if seat is not None:
                name = player_name(now, seat)
                movers += [] if movers[-1:] == [name] else [name]
        if len(movers) < 2:
            return ""
        people = list(dict.fromkeys(movers))
        if len(people) < len(movers):      # turns about: "Ben and Ann", not "Ben, Ann, Ben,
            return f"{', '.join(people[:-1])} and {people[-1]}"    # then Ann" over two lines
        return f"{', '.join(movers[:-1])}, then {movers[-1]}"

    def _offer(self, old: dict[str, Any], snap: dict[str, Any]) -> None:
        """Show a change made elsewhere now, or, for the Pi's reply to the result up or any
        change while the dial spins, once that has been read. A change that comes meanwhile
        joins the one waiting; a person's shows it all at once (they have moved on)."""
        by_pi = snap.get("last_by") == PI_BY
        if self.held_change.waiting:
            self.held_change.hold(old, snap, self.between)   # from the game drawn before the first
            if not by_pi:
                self._show_waiting()
        elif self.screen == "spin" or (by_pi and self._holding(self.clock())):
            self.held_change.hold(old, snap, self.between)
        else:
            self._show_change(old, snap)

    def _show_waiting(self, now: float | None = None) -> bool:
        """The waiting change, once nothing holds the screen (a menu opened meanwhile keeps it
        waiting), or now; True if it was shown."""
        if not self.held_change.waiting or self.screen not in (
                "play", "result", "over", "pi_moved", "resumed") or \
                (now is not None and self._holding(now)):
            return False
        passed = self.held_change.passed        # each mover among them named in turn
        old, snap = self.held_change.take()
        self._show_change_through(old, snap, passed)
        return True

    def _show_change_through(self, old: dict[str, Any], snap: dict[str, Any],
                             passed: list[dict[str, Any]]) -> None:
        """A change kept back (held, or missed under another screen) shown now, with the
        states it went through (`passed`) standing for the frame's, so each mover is named."""
        between, self.between = self.between, passed
        try:
            self._show_change(old, snap)
        finally:
            self.between = between

