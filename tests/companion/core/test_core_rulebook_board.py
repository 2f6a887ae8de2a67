"""The Rulebook base (options, moves a game lacks, prompts) and board data files."""

import pytest

from companion import boarddata
from companion.errors import BoardDataError, Refused
from companion.events import Choose, Declare, Next, Press, Roll
from companion.games import GAMES, get_rulebook
from companion.randomness.randomizers import spinner
from companion.replay import advance
from companion.rulebook import Option, Rulebook


class Tally(Rulebook):
    """A toy game without a lead: spin, press your seat to score, press the knob to pass."""

    id = "tally"
    title = "Tally"
    randomizer = spinner(4)
    lead = None

    def on_roll(self, state, values):
        state.awaiting = "press"

    def on_press(self, state, seat):
        state.players[seat].score += 1
        self.pass_turn(state)
        state.awaiting = "roll"


# -- options ----------------------------------------------------------------------------------

def test_rulebook_option_checks_range_and_type():
    option = Option(5, 0, 10)
    assert option.check("stake", 10) == 10
    for bad, words in [(11, "from 0 to 10, not 11"), (-1, "not -1"), (2.5, "whole number"),
                       (False, "whole number"), (None, "whole number")]:
        with pytest.raises(Refused, match=words):
            option.check("stake", bad)


def test_rulebook_options_filled_with_defaults():
    rulebook = get_rulebook("kat-en-muis")
    assert rulebook.check_options({}) == {"purse": 20, "stake": 5}
    assert rulebook.check_options({"stake": 1}) == {"purse": 20, "stake": 1}


def test_rulebook_game_without_options_refuses_any():
    with pytest.raises(Refused, match=r"Cats and Dogs has no option 'speed' \(options: none\)"):
        get_rulebook("cats-and-dogs").check_options({"speed": 2})


def test_rulebook_unknown_game_lists_the_known():
    with pytest.raises(Refused, match="unknown game 'ludo'.*kat-en-muis"):
        get_rulebook("ludo")


# -- what every game says about itself --------------------------------------------------------

@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_rulebook_describe_is_a_games_line(game_id):
    line = GAMES[game_id].describe()
    assert line["id"] == game_id
    assert set(line) == {"id", "title", "players", "randomizer", "refereeing", "source",
                         "options"}
    low, high = line["players"]
    assert 1 <= low <= high <= 6


def test_rulebook_describe_values():
    assert get_rulebook("kat-en-muis").describe()["options"] == {"purse": 20, "stake": 5}
    assert get_rulebook("lifes-mishaps").describe()["randomizer"] == "a die"
    assert get_rulebook("cats-and-dogs").describe()["randomizer"] == "a spinner of 6"


@pytest.mark.parametrize("game, lead, prompt", [
    ("kat-en-muis", [], "Ann - throw the dice for the lead"),
    ("lifes-mishaps", [], "Ann - throw the die for the lead"),
    ("lifes-mishaps", [(2,)], "Ben - throw the die for the lead"),
    ("lifes-mishaps", [(2,), (5,)], "Ben - throw the die"),
    ("cats-and-dogs", [(4,), (1,)], "Ann - flick to spin"),
])
def test_rulebook_prompt_says_who_does_what(start, game, lead, prompt):
    assert start(game, lead=lead).to_json()["prompt"] == prompt


@pytest.mark.parametrize("event, words", [
    (Press(seat=0), "no seat-button action"),
    (Choose(value=3), "no choices"),
    (Next(), "passes by itself"),
    (Declare(winners=(0,)), "not by declaration"),
])
def test_rulebook_full_referee_games_refuse_moves_they_lack(kat, event, words):
    with pytest.raises(Refused, match=words):
        kat.attempt(event)


# -- the base mechanics, on a toy game --------------------------------------------------------

def test_rulebook_without_lead_begins_in_seat_order():
    state = Tally().new_state("tally", ("Ann", "Ben", "Cy"), {}, {})
    assert (state.phase, state.turn, state.order, state.awaiting) == ("play", 0, [0, 1, 2],
                                                                       "roll")
    assert state.lead is None


def test_rulebook_pass_turn_and_finish_on_a_toy_game():
    tally = Tally()
    state = tally.new_state("tally", ("Ann", "Ben"), {}, {})
    tally.on_roll(state, (2,))
    tally.on_press(state, 0)
    assert (state.turn, state.players[0].score) == (1, 1)
    tally.finish(state, [1, 0])
    assert (state.phase, state.turn, state.awaiting, state.winners) == ("over", None, None,
                                                                         [0, 1])
    assert state.log[-1] == "Ann and Ben share the win"
    assert tally.prompt(state) == "Game over"


def test_rulebook_roll_during_a_press_is_refused(start):
    table = start("cats-and-dogs", lead=[(4,), (1,)])
    state = table.state.copy()
    state.awaiting = "press"
    with pytest.raises(Refused, match="no throw is asked for now"):
        advance(table.rulebook, state, Roll(values=(3,)))


# -- board data -------------------------------------------------------------------------------

def test_boarddata_shipped_defaults():
    assert boarddata.default_board("lifes-mishaps")["picture_spaces"][0] == 3
    assert boarddata.default_board("cats-and-dogs")["track_length"] == 40
    assert boarddata.default_board("kat-en-muis") == {}


def test_boarddata_user_file_is_laid_over_the_defaults(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("track_length = 44\n", encoding="utf-8")
    board = boarddata.load_board_file(path, "cats-and-dogs")
    assert board["track_length"] == 44
    assert board["arrows"] == boarddata.default_board("cats-and-dogs")["arrows"]


def test_boarddata_user_file_that_cannot_be_read(tmp_path):
    with pytest.raises(BoardDataError, match="cannot read board file"):
        boarddata.load_board_file(tmp_path / "missing.toml", "cats-and-dogs")
    bad = tmp_path / "bad.toml"
    bad.write_text("track_length = = 4\n", encoding="utf-8")
    with pytest.raises(BoardDataError, match="not valid TOML"):
        boarddata.load_board_file(bad, "cats-and-dogs")


def test_boarddata_int_list_sorts_and_checks():
    assert boarddata.int_list({"s": [8, 3]}, "s", 1, 47) == [3, 8]
    for value in ([0], [True], "3", None, [3, 3]):
        with pytest.raises(BoardDataError, match="'s'"):
            boarddata.int_list({"s": value}, "s", 1, 47)


def test_boarddata_whole_checks_range():
    assert boarddata.whole({"n": 12}, "n", 12, 200) == 12
    for value in (11, 201, 40.0, True, None):
        with pytest.raises(BoardDataError, match="'n' must be a whole number from 12 to 200"):
            boarddata.whole({"n": value}, "n", 12, 200)
