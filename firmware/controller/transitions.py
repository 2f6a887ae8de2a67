"""The box's input table: (screen, input kind) to the name of the Controller's handler
(`on_<name>`), the pairing screens' among them; "resumed" and "result" fall back to "play"
for kinds they do not name. An input a screen does not name does nothing there."""

from __future__ import annotations

from firmware.controller.pairing import PAIR_TRANSITIONS

TRANSITIONS: dict[tuple[str, str], str] = {
    ("start", "press"): "leave_start", ("start", "turn"): "leave_start",
    ("start", "hold"): "open_menu", ("start", "menu"): "open_menu",
    ("resumed", "press"): "to_home",
    ("games", "turn"): "move_game", ("games", "press"): "pick_game",
    ("games", "hold"): "open_menu", ("games", "menu"): "open_menu",
    ("join", "seat"): "join_seat", ("join", "press"): "start_game",
    ("join", "turn"): "move_roster",
    ("join", "hold"): "open_menu", ("join", "menu"): "open_menu", ("join", "undo"): "to_games",
    ("dice", "turn"): "move_dice", ("dice", "press"): "start_with_dice",
    ("dice", "undo"): "back_to_join", ("dice", "hold"): "back_to_join",
    ("dice", "menu"): "back_to_join",
    ("play", "flick"): "spin", ("play", "seat"): "press_seat", ("play", "ignored"): "not_yours",
    ("play", "press"): "knob_press", ("play", "turn"): "knob_turn", ("play", "undo"): "undo",
    ("play", "hold"): "open_menu", ("play", "menu"): "open_menu",
    ("spin", "press"): "skip", ("spin", "flick"): "skip",
    ("spin", "seat"): "skip", ("spin", "ignored"): "skip",   # the throw is read before a press
    ("spin", "hold"): "skip", ("spin", "menu"): "skip",      # and before the menu
    ("result", "press"): "result_press", ("result", "turn"): "turn_page",
    ("result", "flick"): "result_flick",
    ("over", "press"): "to_games", ("over", "turn"): "show_scores", ("over", "undo"): "undo",
    ("over", "hold"): "open_menu", ("over", "menu"): "open_menu",
    ("over", "seat"): "seat_when_over", ("over", "ignored"): "seat_when_over",
    ("confirm", "seat"): "seat_on_a_question", ("confirm", "ignored"): "seat_on_a_question",
    ("declare", "seat"): "seat_on_a_question", ("declare", "ignored"): "seat_on_a_question",
    ("menu", "turn"): "move_menu", ("menu", "press"): "pick_menu", ("menu", "undo"): "undo",
    ("menu", "hold"): "to_home", ("menu", "menu"): "to_home",
    ("scores", "turn"): "scroll_scores", ("scores", "press"): "to_home",
    ("scores", "hold"): "to_home", ("scores", "menu"): "to_home", ("scores", "undo"): "to_home",
    ("pin", "press"): "to_home", ("pin", "hold"): "to_home", ("pin", "menu"): "to_home",
    ("pin", "undo"): "to_home",
    ("wifi", "press"): "to_home", ("wifi", "hold"): "to_home", ("wifi", "menu"): "to_home",
    ("wifi", "undo"): "to_home",
    ("hint", "press"): "to_home", ("hint", "hold"): "to_home", ("hint", "menu"): "to_home",
    ("confirm", "turn"): "move_confirm", ("confirm", "press"): "pick_confirm",
    ("confirm", "hold"): "to_home", ("confirm", "menu"): "to_home", ("confirm", "undo"): "to_home",
    ("declare", "turn"): "move_declare", ("declare", "press"): "pick_declare",
    ("declare", "hold"): "to_home", ("declare", "menu"): "to_home", ("declare", "undo"): "to_home",
    ("pi_setup", "turn"): "move_pi_setup", ("pi_setup", "press"): "start_game",
    ("pi_setup", "hold"): "back_to_join", ("pi_setup", "menu"): "back_to_join",
    ("pi_setup", "undo"): "back_to_join",
    ("pi_moved", "press"): "to_home", ("pi_moved", "undo"): "undo",
    ("pi_moved", "hold"): "open_menu", ("pi_moved", "menu"): "open_menu",
    ("pi_moved", "seat"): "copy_first", ("pi_moved", "ignored"): "copy_first",
}
TRANSITIONS.update(PAIR_TRANSITIONS)
FALLBACK = {"resumed": "play", "result": "play"}
TURN_CLEARS = ("play", "over", "join", "games")   # a knob turn takes a notice away: its pick seen


def handler_name(screen: str, kind: str) -> str | None:
    """The handler's name for an input of `kind` on `screen` (its own, else its fallback
    screen's); None if it does nothing there."""
    name = TRANSITIONS.get((screen, kind))
    if name is None and screen in FALLBACK:
        name = TRANSITIONS.get((FALLBACK[screen], kind))
    return name
