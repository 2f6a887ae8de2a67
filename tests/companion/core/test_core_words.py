"""The log's lines said in one go, as a phone's answer and an undo's notice say them."""

from __future__ import annotations

from companion.words import joined, taken_back


def test_core_words_lines_said_in_one_go_end_no_sentence_with_a_semicolon():
    """A Domino Rex end read "... goes home and is crowned. Rex!; Every domino square is
    uncovered ..." on the phone: after a line that ends a sentence, a space alone."""
    assert joined(["Ann uncovers 4", "Ann's checker is crowned. Rex!",
                   "Every domino square is uncovered: Ann 30, Ben 0",
                   "Ann wins"]) == ("Ann uncovers 4; Ann's checker is crowned. Rex! Every domino "
                                    "square is uncovered: Ann 30, Ben 0; Ann wins")
    assert joined([]) == "" and joined(["Ann throws 3"]) == "Ann throws 3"
    assert taken_back(["Ann's checker is crowned. Rex!", "Ann wins"]) == \
        "Taken back: Ann's checker is crowned. Rex! Ann wins"


def test_core_words_m3_a_capture_taken_back_leaves_out_the_count_it_left():
    """"(9 left)" was the count after the capture; taken back, 10 are left."""
    assert taken_back(["Squeak! Ann's cat takes a mouse (9 left)"]) == \
        "Taken back: Squeak! Ann's cat takes a mouse"
    assert taken_back(["Ann's Fox jumps d4 - d6, taking 1 goose (16 left)"]) == \
        "Taken back: Ann's Fox jumps d4 - d6, taking 1 goose"
