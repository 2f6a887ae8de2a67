"""Board data: the shipped defaults, refusals of boards that cannot be played, and a user's
TOML file laid over the defaults."""

import pytest

from companion.boarddata import default_board, load_board_file
from companion.errors import BoardDataError, LogError
from companion.replay import replay


def start(game, board=None, players=("Ann", "Ben")):
    event = {"type": "new_game", "game": game, "players": list(players)}
    if board is not None:
        event["board"] = board
    return replay([event])


# -- shipped defaults -----------------------------------------------------------------------

def test_board_defaults_lifes_mishaps():
    assert default_board("lifes-mishaps") == {"picture_spaces": [3, 8, 13, 18, 24, 31, 38, 43]}
    assert start("lifes-mishaps").state.board == {
        "picture_spaces": [3, 8, 13, 18, 24, 31, 38, 43]}


def test_board_defaults_cats_and_dogs():
    arrows = {"7": 15, "12": 4, "19": 27, "26": 17, "30": 36, "35": 23}
    assert default_board("cats-and-dogs") == {"track_length": 40, "arrows": arrows}
    assert start("cats-and-dogs").state.board == {"track_length": 40, "arrows": arrows}


def test_board_defaults_game_without_board_data():
    assert default_board("kat-en-muis") == {}
    assert default_board("no-such-game") == {}


# -- refusals -------------------------------------------------------------------------------

@pytest.mark.parametrize("board, words", [
    ({}, "'picture_spaces' is missing"),
    ({"picture_spaces": 3}, "must be a list"),
    ({"picture_spaces": "3, 8"}, "must be a list"),
    ({"picture_spaces": [3, "8"]}, "must be a list"),
    ({"picture_spaces": [3, True]}, "must be a list"),
    ({"picture_spaces": [3, 2.5]}, "must be a list"),
    ({"picture_spaces": [0, 8]}, "square 0 is off the track (1 to 47)"),
    ({"picture_spaces": [3, 48]}, "square 48 is off the track"),
    ({"picture_spaces": [3, 8, 3]}, "names a square twice"),
])
def test_board_lifes_mishaps_bad_picture_spaces_refused(board, words):
    with pytest.raises(LogError) as caught:
        start("lifes-mishaps", board)
    assert "board data" in str(caught.value) and words in str(caught.value)


@pytest.mark.parametrize("board, words", [
    ({"arrows": {}}, "'track_length' is missing"),
    ({"track_length": 11, "arrows": {}}, "from 12 to 200"),
    ({"track_length": 201, "arrows": {}}, "from 12 to 200"),
    ({"track_length": "40", "arrows": {}}, "from 12 to 200"),
    ({"track_length": True, "arrows": {}}, "from 12 to 200"),
    ({"track_length": 40, "arrows": [[7, 15]]}, "'arrows' must map"),
    ({"track_length": 40, "arrows": {"seven": 15}}, "not a square number"),
    ({"track_length": 40, "arrows": {"7": "15"}}, "not a square number"),
    ({"track_length": 40, "arrows": {"7": 15.0}}, "not a square number"),
    ({"track_length": 40, "arrows": {"7": 7}}, "points into itself"),
    ({"track_length": 40, "arrows": {"7": 40}}, "square 40 is off the track (1 to 39)"),
    ({"track_length": 40, "arrows": {"7": 0}}, "square 0 is off the track"),
    ({"track_length": 40, "arrows": {"0": 5}}, "square 0 is off the track"),
    ({"track_length": 40, "arrows": {"41": 5}}, "square 41 is off the track"),
    ({"track_length": 20, "arrows": {"30": 5}}, "square 30 is off the track (1 to 19)"),
    ({"track_length": 40, "arrows": {"7": 15, "07": 20}}, "more than one arrow from 7"),
])
def test_board_cats_and_dogs_bad_board_refused(board, words):
    with pytest.raises(LogError) as caught:
        start("cats-and-dogs", board)
    assert "board data" in str(caught.value) and words in str(caught.value)


def test_board_cats_and_dogs_board_of_the_event_is_used():
    state = start("cats-and-dogs", {"track_length": 20, "arrows": {"5": 9}}).state
    assert state.board == {"track_length": 20, "arrows": {"5": 9}}


# -- a user's file --------------------------------------------------------------------------

def test_board_user_file_overrides_defaults(tmp_path):
    path = tmp_path / "my-board.toml"
    path.write_text("# my printing of the board\npicture_spaces = [2, 9, 14]\n")
    board = load_board_file(path, "lifes-mishaps")
    assert board == {"picture_spaces": [2, 9, 14]}
    # And it is what the game plays by: entering on 2 is a picture space now, 3 is not.
    events = [{"type": "new_game", "game": "lifes-mishaps", "players": ["Ann", "Ben"],
               "board": board}] + [{"type": "roll", "values": [v]} for v in (5, 2, 2, 3)]
    state = replay(events).to_json()
    assert [p["chips"] for p in state["players"]] == [14, 16]


def test_board_user_file_keeps_defaults_it_does_not_name(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text("track_length = 50\n")
    board = load_board_file(path, "cats-and-dogs")
    assert board["track_length"] == 50
    assert board["arrows"] == default_board("cats-and-dogs")["arrows"]


def test_board_user_file_arrows_replace_the_default_arrows(tmp_path):
    path = tmp_path / "arrows.toml"
    path.write_text("[arrows]\n5 = 2\n")
    board = load_board_file(path, "cats-and-dogs")
    assert board == {"track_length": 40, "arrows": {"5": 2}}
    assert start("cats-and-dogs", board).state.board["arrows"] == {"5": 2}


def test_board_user_file_not_toml_refused(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("picture_spaces = [3, 8\n")
    with pytest.raises(BoardDataError, match="not valid TOML"):
        load_board_file(path, "lifes-mishaps")


def test_board_user_file_missing_refused(tmp_path):
    with pytest.raises(BoardDataError, match="cannot read board file"):
        load_board_file(tmp_path / "nowhere.toml", "lifes-mishaps")


def test_board_user_file_with_an_unplayable_board_refused_with_its_line(tmp_path):
    path = tmp_path / "loop.toml"
    path.write_text("[arrows]\n7 = 7\n")
    with pytest.raises(BoardDataError) as caught:
        load_board_file(path, "cats-and-dogs")
    assert str(caught.value) == f"{path}, line 2: arrow 7 -> 7 points into itself"
    with pytest.raises(LogError, match="points into itself"):   # and from a log's board
        start("cats-and-dogs", {"track_length": 40, "arrows": {"7": 7}})


# -- the schema: each game's shipped board names the keys it takes -------------------------

@pytest.mark.parametrize("game, board, words", [
    ("lifes-mishaps", {"picture_spaces": [3], "pictur_spaces": [4]},
     "unknown key 'pictur_spaces' (did you mean 'picture_spaces'? Life's Mishaps's board data "
     "has picture_spaces)"),
    ("cats-and-dogs", {"track_length": 40, "arrows": {}, "colour": "red"},
     "unknown key 'colour' (Cats and Dogs's board data has track_length, arrows)"),
    ("kat-en-muis", {"track_length": 66}, "Kat en Muis has no board data, so it takes no "
     "'track_length'"),
    ("free-play", {"squares": 40}, "Free play has no board data, so it takes no 'squares'"),
    ("gantlope", {"goal": 6}, "Gantlope has no board data"),
])
def test_board_schema_unknown_keys_and_boards_for_games_without_one_refused(game, board, words):
    with pytest.raises(LogError) as caught:
        start(game, board)
    assert str(caught.value).startswith(f"line 1: board data: {words}")


def test_board_schema_empty_board_for_a_game_without_one_is_no_board():
    assert start("kat-en-muis", {}).state.board == {}


def test_board_file_misspelled_key_refused_with_file_line_and_suggestion(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("# my board\n\npicture_space = [2, 9, 14]\n")
    with pytest.raises(BoardDataError) as caught:
        load_board_file(path, "lifes-mishaps")
    assert str(caught.value) == (
        f"{path}, line 3: unknown key 'picture_space' (did you mean 'picture_spaces'? "
        f"Life's Mishaps's board data has picture_spaces)")


def test_board_file_for_a_game_without_board_data_refused(tmp_path):
    path = tmp_path / "free.toml"
    path.write_text("\n[squares]\nstart = 1\n")
    with pytest.raises(BoardDataError) as caught:
        load_board_file(path, "free-play")
    assert str(caught.value) == (f"{path}, line 2: Free play has no board data, so it takes "
                                 f"no 'squares'")
    empty = tmp_path / "empty.toml"
    empty.write_text("# nothing here\n")
    assert load_board_file(empty, "free-play") == {}


@pytest.mark.parametrize("text, line, words", [
    ("track_length = 40\n\n[arrows]\n5 = 9\n12 = 99\n", 5,
     "arrow 12 -> 99: square 99 is off the track (1 to 39)"),
    ("track_length = 40\narrows = { 5 = 9, 6 = 6 }\n", 2, "arrow 6 -> 6 points into itself"),
    ("arrows.7 = 7\n", 1, "arrow 7 -> 7 points into itself"),
    ("# short board\ntrack_length = 3\n", 2, "'track_length' must be a whole number from 12"),
    ('[arrows]\n"seven" = 3\n', 2, "arrow from 'seven': not a square number"),
    ("arrows = [7, 15]\n", 1, "'arrows' must map a picture square"),
])
def test_board_file_semantic_errors_name_the_line(tmp_path, text, line, words):
    path = tmp_path / "board.toml"
    path.write_text(text)
    with pytest.raises(BoardDataError) as caught:
        load_board_file(path, "cats-and-dogs")
    assert str(caught.value).startswith(f"{path}, line {line}: {words}")


def test_board_file_error_in_a_default_it_keeps_names_the_file(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text("track_length = 20\n")            # the default arrows go past 19
    with pytest.raises(BoardDataError) as caught:
        load_board_file(path, "cats-and-dogs")
    assert str(caught.value) == (f"{path}: arrow 19 -> 27: square 27 is off the track (1 to "
                                 f"19) (in the shipped 'arrows', which this file does not set)")


def test_board_file_domino_rex_error_names_the_line(tmp_path):
    path = tmp_path / "rex.toml"
    path.write_text("# tables\n\ndomino_squares = [1, 2, 7]\n")
    with pytest.raises(BoardDataError, match=r"rex\.toml, line 3: 'domino_squares' must be"):
        load_board_file(path, "domino-rex")


def test_board_file_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("track_length = 40\npicture = = 3\n")
    with pytest.raises(BoardDataError) as caught:
        load_board_file(path, "cats-and-dogs")
    assert str(caught.value).startswith(f"{path} is not valid TOML: ")
    assert "line 2" in str(caught.value)
