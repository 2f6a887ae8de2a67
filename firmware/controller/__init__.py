"""The screen state machine: input events in, session calls out, a frame to draw.

    start ──press──> games ──press──> join ──press──> (dice) ──press──> play <────────┐
      ^                ^                    free play chooses its randomizer   │ flick  │ press
      │ menu: phone    │ over: press                                           v        │ / pages
    menu <──hold/Menu── play, result, over, ...                 spin ──done/press──> result
      │ press: undo, scores, new game, PIN, declare winner, set game aside
      v
    scores, pin, declare ──press──> confirm ──yes──> the action; no: back

`TRANSITIONS` (transitions.py) maps (screen, input kind) to a handler; "resumed" and "result"
fall back to "play" for kinds they do not name. Refusals from the session flash on screen,
never crash. Every accepted input is answered at once: a spin animates; a seat press, a choice,
the end of a turn or a declaration shows what the log recorded (the result screen, paged: the
knob turns the pages and they advance by themselves), with a beep where a buzzer is fitted.
Changes made elsewhere (the web) arrive through `session.subscribe` and are applied by `update`
on the main loop's thread.
`Controller` (core.py) owns the state, runs the input table and the timers; seven parts of
the state are its own classes, in parts/: `NoticeBoard` (notices.py) the notice over the
screen (an undo's in parts, `UndoSaid` in undos.py, said again with the next undo while it is
read), `Pager` (pager.py) the page of the screen's text up, `ResultScreen` (result.py) what the
result up says, when it went up and whether its instructions were read, `HeldChange`
(result.py) a change from elsewhere held back while it is read, `MissedChanges`
(missed.py) the changes made elsewhere while another screen was up, to show when the game's
screen is back, `LateInputs` (late.py) the inputs a moment late, meant for the screen just
before, and `StartCodes` (start_codes.py) the start screen's address and Wi-Fi code as the
network has them. Its mixins hold the rest:
`ChangesFromElsewhere` (elsewhere.py) a change made elsewhere as the box shows it,
`PlayInputs` (play_inputs.py) a seat button, the knob and Undo during a game and why a press
did nothing, `NewGameScreens` (new_game.py) starting a game, `SpinScreens` (spin.py) the spin,
its result and paging, `MenuScreens` (menu.py) the menu, confirm, declare and scores,
`PhoneScreens` (pairing.py) pairing phones, `Notices` (parts/notices.py) a notice put up and the
inputs that only read it, `Holds` (holds.py) a double press or a bounce taken as one press,
and `BoxDrawing` (drawing.py) draws each screen.
"""

from firmware.controller.core import RESUMED_SECONDS, Controller
from firmware.controller.parts.notices import (READ_START_SECONDS, READ_WORD_SECONDS,
                                              reading_seconds)
from firmware.controller.parts.pager import PAGE_SECONDS
from firmware.controller.parts.result import RESULT_SECONDS
from firmware.controller.transitions import TRANSITIONS

__all__ = ["Controller", "TRANSITIONS", "reading_seconds", "READ_START_SECONDS",
           "READ_WORD_SECONDS", "RESULT_SECONDS", "PAGE_SECONDS", "RESUMED_SECONDS"]
