"""Domino Rex on the phone (D2): each square named by the sum it makes and the checker it
moves, each player's checkers in words, the hint only where this phone may uncover."""

from __future__ import annotations

from web.domino import checkers_words, covered_words, hint_text, uncover_meaning, uncovered_text


def table(last, places, name="Ann"):
    return {"phase": "play", "turn": 0, "last_uncovered": last,
            "players": [{"name": name, "covered": [1, 4, 6], "checkers": places}]}


REX_ROW = {str(n): "rex" for n in range(7, 12)}


def test_domino_d2_the_first_uncover_moves_nothing():
    assert uncover_meaning(table(None, REX_ROW), 4) == (
        "opens the game", "Uncover a 4: it opens the game; nothing moves")


def test_domino_d2_a_sum_moves_its_checker_one_step():
    places = {**REX_ROW, "7": "domino", "10": "crowned"}
    assert uncover_meaning(table(3, places), 5) == (
        "5+3=8: into Domino", "Uncover a 5: 5 + 3 = 8: Ann's eighth checker goes into Domino")
    assert uncover_meaning(table(3, places), 4) == (
        "4+3=7: home, Rex!",
        "Uncover a 4: 4 + 3 = 7: Ann's seventh checker goes home and is crowned. Rex!")
    assert uncover_meaning(table(4, places), 6) == (
        "6+4=10: crowned already",
        "Uncover a 6: 6 + 4 = 10: Ann's tenth checker is crowned already; nothing moves")


def test_domino_d2_a_sum_outside_7_to_11_moves_no_checker():
    assert uncover_meaning(table(1, REX_ROW), 4) == (
        "4+1=5: no checker", "Uncover a 4: 4 + 1 = 5, no checker moves")
    assert uncover_meaning(table(6, REX_ROW), 6)[0] == "6+6=12: no checker"


def test_domino_checkers_and_covered_squares_in_words():
    player = {"checkers": {**REX_ROW, "7": "crowned", "11": "crowned", "8": "domino"},
              "covered": [6, 1, 4, 1]}
    assert checkers_words(player) == \
        "Checkers: 7 and 11 crowned; 8 in Domino; 9 and 10 in the Rex row"
    assert covered_words(player) == "Covered: 1 1 4 6"
    assert covered_words({"covered": []}) == "Every square uncovered"
    assert checkers_words({"name": "Ann"}) == ""                 # another game: no checkers


def test_domino_the_square_uncovered_last_replaces_the_leads_die_in_play():
    assert uncovered_text(table(4, REX_ROW)) == "Last uncovered: 4"
    assert uncovered_text(table(None, REX_ROW)) == ""           # the lead's throw still shows
    assert uncovered_text({**table(4, REX_ROW), "phase": "over"}) == "Last uncovered: 4"   # the end
    assert uncovered_text({**table(4, REX_ROW), "phase": "lead"}) == ""


def test_domino_the_hint_shows_where_this_phone_may_uncover():
    state = {**table(3, REX_ROW), "odds": {"hint": {"text": "uncover a 4: it crowns", "value": 4}}}
    choose = [{"action": "choose", "value": 4}]
    assert hint_text(state, choose) == "Uncover a 4: it crowns"
    assert hint_text(state, []) == ""                           # watching, or not this seat
    assert hint_text({**state, "odds": {}}, choose) == ""       # no hint worked out yet
