"""Screens drawn on luma's dummy device and compared with reference PNGs.

Regenerate the references after a deliberate change with
    PARLOUR_REGEN_SCREENS=1 .venv/bin/python -m pytest tests/firmware/screens/test_screens.py
and look at every PNG in tests/firmware/screens/reference/ before committing them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware.oled import codes, lettering, screens, word_pages
from firmware.oled.animation import Animation
from firmware.oled.views import Row, TurnView

REFERENCE = Path(__file__).parent / "reference"
REGENERATE = os.environ.get("PARLOUR_REGEN_SCREENS") == "1"

TURN = TurnView("Kat en Muis", "pots 10", "Ann (Cat)", "flick to throw", "red 22 · 17 chips", 2)
LONG_OUTCOME = ["Ann moves to 16", "Ben pays Ann 1 chip (jumping over Ben)",
                "Ann has 66 chips and wins"]


def settled_indicator() -> Image.Image:
    spin = Animation({"kind": "indicator", "count": 2, "faces": 6}, [3, 5], strength=0.6,
                     name="Ann", clock=lambda: 0.0)
    spin.skip()
    return screens.spin(spin.frame())


KEY_SCREENS = {
    "startup": lambda: screens.startup("http://192.168.1.23:8080/", "4821"),
    "game_menu": lambda: screens.game_menu(["Kat en Muis", "Life's Mishaps", "Cats and Dogs"],
                                           1, "2-6 players · a die"),
    "joining": lambda: screens.joining("Cats and Mice", [True, False, True, False],
                                       "press knob to start"),
    "turn": lambda: screens.turn(TURN),
    "spin_indicator": settled_indicator,
    "result": lambda: screens.result("Ann throws", "3 · 5", ["Ann to 30", "Ben pays Ann 1"]),
    "not_your_turn": lambda: screens.flash(screens.turn(TURN), "Not your turn"),
    "scores": lambda: screens.scores("Kat en Muis", [Row("Ann", "red 30 · 18 chips", True),
                                                     Row("Ben", "black 12 · 12 chips"),
                                                     Row("Both pots", "10 chips")]),
    "result_page_2": lambda: screens.result("Ann throws", "3 · 5", LONG_OUTCOME, page=1),
    "seat_press": lambda: screens.result("Ann pressed", "", [
        "Squeak! Ann's cat takes a mouse (3 left)"]),
    "refusal": lambda: screens.flash(screens.turn(TURN), "It is Ben's turn, not Ann's."),
    "confirm_declare": lambda: screens.confirm(
        "Ann wins: end the game now? It cannot be taken back.", False),
    "domino_choose": lambda: screens.choose(TurnView("Domino Rex", "", "Ann", "turn, then press"),
                                            "4", "uncover a 4: 4+3=7"),
    "domino_rex": lambda: screens.result("Ann uncovers 4", "Rex!", [
        "4 + 7 = 11: Ann's eleventh checker goes home and is crowned. Rex!"]),
    "game_over_points": lambda: screens.game_over("Ann", "wins, 27 points", "turn: all scores"),
    "free_play_dice": lambda: screens.choice_list("Free play: dice",
                                                  ["Two dice", "Three dice", "The Indicator"],
                                                  1),
    "result_three_lines": lambda: screens.result("Ann spins", "1 · 3", [
        "Move forward 1, then 3 on the road or lane.", "Press your seat button for the "
        "diamond."]),
    "turn_paged": lambda: screens.turn(TurnView(
        "Cats and Mice", "", "Ann", "Move your cat 4, then 6. Then one mouse 10, or two mice 4 "
        "and 6. Press your seat button for each mouse taken."), 1),
    "turn_paged_first": lambda: screens.turn(TurnView(
        "Cats and Mice", "", "Benedict", "Move your cat 4, then 6. Then one mouse 10, or two "
        "mice 4 and 6. Press your seat button for each mouse taken.", button=5), 0),
}


@pytest.mark.parametrize("name", sorted(KEY_SCREENS))
def test_screens_match_reference(name, dummy_device, tmp_path):
    dummy_device.display(KEY_SCREENS[name]())
    shown = dummy_device.image.convert("1")
    path = REFERENCE / f"{name}.png"
    if REGENERATE:
        shown.save(path)
    assert path.exists(), f"no reference {path.name}: run with PARLOUR_REGEN_SCREENS=1"
    reference = Image.open(path).convert("1")
    diff = ImageChops.difference(shown.convert("L"), reference.convert("L"))
    if diff.getbbox() is not None:
        shown.save(tmp_path / f"{name}.png")
        changed = sum(diff.histogram()[1:])
        pytest.fail(f"{name}: {changed} pixels differ from {path} (see {tmp_path})")


@pytest.mark.parametrize("name", sorted(KEY_SCREENS))
def test_screens_are_one_bit_128x64(name):
    image = KEY_SCREENS[name]()
    assert (image.mode, image.size) == ("1", (128, 64))
    assert image.getbbox() is not None


def test_screens_wrap_keeps_lines_inside_the_screen():
    words = "Move your cat 4, then 6. Then one mouse 10, or two mice 4 and 6."
    lines = lettering.wrap(words, lettering.SMALL)
    assert len(lines) > 1
    assert " ".join(lines) == words
    assert all(lettering.width(line, lettering.SMALL) <= lettering.W - 2 for line in lines)


def test_screens_clip_adds_an_ellipsis_only_when_needed():
    assert lettering.clip("Ann", lettering.MEDIUM, 100) == "Ann"
    clipped = lettering.clip("A very long player name indeed", lettering.MEDIUM, 60)
    assert clipped.endswith("…") and lettering.width(clipped, lettering.MEDIUM) <= 60


def test_screens_key_line_is_big_type():
    image = screens.turn(TURN)
    name_band = image.crop((0, 14, 128, 38)).getbbox()
    assert name_band is not None and name_band[3] - name_band[1] >= 14   # letters >= 14 px tall


def test_screens_long_outcome_pages_keep_every_word():
    pages = screens.result_pages("3 · 5", LONG_OUTCOME)
    assert len(pages) == 2 and all(len(page) <= 4 for page in pages) and len(pages[0]) <= 2
    assert " ".join(w for page in pages for w in page) == " ".join(LONG_OUTCOME)
    assert pages[0] == ["Ann moves to 16"]        # the two-line sentence is not split
    assert " ".join(pages[1]).startswith("Ben pays Ann 1 chip")
    assert screens.result("Ann throws", "3 · 5", LONG_OUTCOME, 0).tobytes() != \
        screens.result("Ann throws", "3 · 5", LONG_OUTCOME, 1).tobytes()


def test_screens_an_outcome_that_fits_one_page_is_not_paged():
    """Kat en Muis at table speed: "Red moves to 4" on page 1/2 and "Red pays Blue 1 chip
    (square 4) / Blue loses this turn" on page 2, which the next player's flick 2 s later took
    away (Red then threw again with no reason given). Where the whole outcome fits one page
    with the values smaller, or in the top line, it is one page."""
    lines = ["Red moves to 4", "Red pays Blue 1 chip (square 4)", "Blue loses this turn"]
    assert len(screens.result_pages("1 · 3", lines)) == 2             # big values: two pages
    assert screens.result_layout("Red throws", "1 · 3", lines) == (
        "Red throws 1 · 3", "", [["Red moves to 4", "Red pays Blue 1 chip", "(square 4)",
                                  "Blue loses this turn"]])
    three = ["Blue moves to 5", "Blue pays 1 chip"]       # fits under the values (2 lines)
    assert screens.result_layout("Blue throws", "4 · 1", three) == (
        "Blue throws", "4 · 1", [three])
    medium = ["Blue moves to 5", "Blue will lose the next turn (square 5)"]
    assert screens.result_layout("Blue throws", "4 · 1", medium) == (
        "Blue throws", "4 · 1",
        [["Blue moves to 5", "Blue will lose the", "next turn (square 5)"]])
    mishap = ["Red throws 6 and moves to 13", "Red pays 2 chips into the pool (picture space 13)"]
    assert screens.result_layout("Red throws", "6", mishap) == (     # the throw said once
        "Red throws 6", "", [["Red moves to 13", "Red pays 2 chips into", "the pool (picture",
                              "space 13)"]])
    rex = ["4 + 7 = 11: Ann's eleventh checker goes home and is crowned. Rex!"]
    assert screens.result_layout("Ann uncovers 4", "Rex!", rex)[1] == "Rex!"   # stays big
    for several in ("Red, then Blue", "Red and Blue"):   # two movers: the values not beside
        assert screens.result_layout(several, "1 · 3", lines)[:2] == (several, "1 · 3")  # both
    assert screens.result_layout("Ann throws", "3 · 5", LONG_OUTCOME)[2] == \
        screens.result_pages("3 · 5", LONG_OUTCOME)                  # too long: paged


def test_screens_L6_a_bump_and_its_fine_are_read_on_one_page():
    """Life's Mishaps (L6): "Blue is bumped to picture space 3" and "Blue pays 1 chip into
    the pool (bumped)" took a page 2 of their own, which the next player's flick took away:
    the bumped player never learnt why they were back at space 3 and a chip down. Said as
    one sentence, the throw's whole outcome is one page; the same fine for someone else, or
    for another reason, is not joined."""
    bump = ["Red throws 6 and moves to 7", "Blue is bumped to picture space 3",
            "Blue pays 1 chip into the pool (bumped)"]
    assert len(screens.result_pages("6", bump)) == 2
    assert screens.result_layout("Red throws", "6", bump) == (
        "Red throws 6", "", [["Red moves to 7", "Blue is bumped to", "picture space 3 and",
                              "pays the pool 1 chip"]])
    others = ["Blue is bumped to picture space 3", "Red pays 1 chip into the pool (bumped)",
              "Red is bumped to picture space 5", "Red pays 2 chips into the pool (square 9)"]
    pages = screens.result_layout("Cy throws", "6", others)[2]
    assert " ".join(w for page in pages for w in page) == " ".join(others)


def test_screens_ld2_two_lines_about_one_player_are_one_sentence_where_that_is_one_page():
    """LD2: a seat press's Field move that took the diamond was "Blue moves in the Field" on
    page 1/2 (half the screen empty) and "Blue takes the Lost Diamond from its square" on
    page 2, which the turn-ending press skipped. Two lines about the same player are one
    sentence where that makes one page; never across a full stop, a semicolon or another
    "and", and a throw's own "and" is not the rest of the outcome."""
    lines = ["Blue moves in the Field", "Blue takes the Lost Diamond from its square"]
    assert len(screens.result_pages("", lines)) == 2
    assert screens.result_layout("Blue pressed", "", lines) == ("Blue pressed", "", [[
        "Blue moves in the", "Field and takes the", "Lost Diamond from its", "square"]])
    assert screens.result_layout("Zoe Lee pressed", "", [
        "Zoe Lee moves in the Field", "Zoe Lee takes the Lost Diamond from its square"])[2] \
        == [["Zoe Lee moves in the", "Field and takes the", "Lost Diamond from its", "square"]]
    kept = ["Blue throws 5 and 3 (8) for the lead", "Blue is Cat and throws first; Red is "
            "Mouse", "Red loses this turn.", "Red wins"]
    assert screens._subjects_joined(kept) == kept
    two = ["Zoe Lee moves in the Field", "Zoe Kim takes the Lost Diamond from its square"]
    assert screens._subjects_joined(two) == two                   # two players, one first name
    ann = ["Ann moves to 39", "Ann Marie is bumped to picture space 3 and pays the pool 1 chip"]
    assert screens._subjects_joined(ann) == ann                   # not "... and Marie is"
    lead = ["Red throws 4 for the lead", "Pi throws 5 for the lead"]
    assert screens.result_layout("Red, then Pi", "4", lead)[0] == "Red, then Pi"  # not "Pi 4"
    lead = screens.result_layout("Blue throws", "5 · 3", kept[:2])
    assert "Blue 3 (8)" not in " ".join(w for page in lead[2] for w in page)


def test_screens_d2_the_sum_and_rex_are_said_once_where_that_is_one_page():
    """D2: under the big "5 + 4 = 9" the result read "5 + 4 = 9: Blue's ninth checker is" on
    page 1/2 and "already crowned; nothing moves" on page 2; a crown's page 2/2 said only
    "Rex!", which the big values say already. Said once, each is one page."""
    crowned = ["5 + 4 = 9: Blue's ninth checker is already crowned; nothing moves"]
    assert len(screens.result_pages("5 + 4 = 9", crowned)) == 2
    assert screens.result_layout("Blue uncovers", "5 + 4 = 9", crowned) == (
        "Blue uncovers", "5 + 4 = 9", [["Blue's ninth checker", "is already crowned"]])
    rex = ["4 + 7 = 11: Ann's eleventh checker goes home and is crowned. Rex!"]
    assert len(screens.result_pages("Rex!", rex)) == 2
    assert screens.result_layout("Ann uncovers 4", "Rex!", rex) == (
        "Ann uncovers 4", "Rex!", [["4 + 7 = 11: Ann's", "eleventh checker goes",
                                    "home and is crowned."]])
    for name in ("Blue", "Purple", "Pi 2"):                        # "nothing moves" goes too
        said = f"6 + 1 = 7: {name}'s seventh checker is already crowned; nothing moves"
        pages = screens.result_layout(f"{name} uncovers", "6 + 1 = 7", [said])[2]
        assert len(pages) == 1 and " ".join(pages[0]).endswith("already crowned"), pages
    short = ["Ann uncovers 4: 4 + 1 = 5, no checker moves"]      # fits whole: kept whole
    assert screens.result_layout("Ann uncovers", "4 + 1 = 5", short)[2] == [
        ["Ann uncovers 4:", "4 + 1 = 5, no checker", "moves"]]


def test_screens_d2_a_long_name_keeps_who_uncovered():
    """With a name too long for the top line the heading went into the words, and the sum
    said once took the name with it: "No checker moves" under "2 + 3 = 5", nobody's, at a
    table of four where the Pi moves in between. The line keeps the name."""
    name = "Wilhelmina Oosterhout"
    said = [f"{name} uncovers 2: 2 + 3 = 5, no checker moves"]
    heading, values, pages = screens.result_layout(f"{name} uncovers", "2 + 3 = 5", said)
    words = " ".join(w for page in pages for w in page)
    assert heading == "" and values == "2 + 3 = 5" and name in words, pages
    assert "no checker moves" in words


def test_screens_an_outcome_of_several_pages_takes_as_few_as_it_can():
    """Life's Mishaps: a throw to square 47 that bumped Red took three pages under the big
    "2" ("Blue throws 2 and moves to 47", the bump, the pool's third), two of them lost to
    the next flick. With the throw in the top line it takes two."""
    lines = ["Blue throws 2 and moves to 47", "Red is bumped to picture space 3",
             "Red pays 1 chip into the pool (bumped)",
             "Blue takes 2 chips from the pool (a third of the pool, square 47)"]
    assert len(screens.result_pages("2", lines)) == 3
    heading, values, pages = screens.result_layout("Blue throws", "2", lines)
    assert (heading, values, len(pages)) == ("Blue throws 2", "", 2)
    assert pages[0][0] == "Blue moves to 47" and pages[1][0] == "Blue takes 2 chips"
    assert screens.result_layout("Ann throws", "3 · 5", LONG_OUTCOME)[2] == \
        screens.result_pages("3 · 5", LONG_OUTCOME)            # as many pages either way


def test_screens_sentences_of_one_line_are_paged_whole():
    """An instruction and how the box takes it come as one line of three sentences: page 2
    began "lane. Press your", the end of the first sentence under another's start."""
    said = ("Move forward 2, then 4 on the road or lane. Press your button if that brings you "
            "home with the diamond. Then press the knob to end the turn.")
    pages = screens.result_pages("2 · 4", [said])
    assert [" ".join(page) for page in pages] == [
        "Move forward 2, then 4 on the road or lane.",
        "Press your button if that brings you home with the diamond.",
        "Then press the knob to end the turn."]


def test_screens_a_sentence_longer_than_a_page_is_parted_where_a_clause_begins():
    """Life's Mishaps with long names: page 2 ended "... and pays the pool 1" and page 3 said
    "chip"; the Lost Diamond's turn page ended "press the knob to". A sentence longer than a
    page is parted where a clause begins, a number keeps its "chip", and no page ends a
    sentence with one word alone."""
    bumped = ["Wilhelmina Oosterhout throws 1 and enters on 1",
              "Christopher Wellington is bumped to picture space 8 and pays the pool 1 chip"]
    _, _, pages = screens.result_layout("Wilhelmina Oosterhout throws", "1", bumped)
    said = [" ".join(page) for page in pages]
    assert said[1:] == ["Christopher Wellington is bumped to picture space 8",
                        "and pays the pool 1 chip"], pages
    assert all(len(page.split()) > 1 for page in said)
    turn = word_pages.sentence_pages(["flick to spin, or press the knob to move in the Field."], 2)
    assert [" ".join(page) for page in turn] == ["flick to spin,",
                                                 "or press the knob to move in the Field."]
    lost_diamond = TurnView("The Lost Diamond", "", "Anne-Marie Vandenbroucke",
                            "flick to spin, or press the knob to move in the Field.",
                            "Or press your button for a Field move that reaches the diamond.", 1)
    said = [" ".join(page) for page in screens.turn_pages(lost_diamond)]   # its pages go
    assert said[:2] == ["flick to spin,", "or press the knob to move in the Field."]   # round
    for text in ("Ann pays the pool 1 chip", "Ann pays the pool 12 chips",
                 "Wilhelmina Oosterhout pays Christopher 1 chip", "Move your cat 6, then 1."):
        lines = lettering.wrap(text, lettering.SMALL)
        assert not any(line.split()[-1].isdigit() for line in lines[:-1]), lines
        assert not any(re.fullmatch(r"\d+\.|chips?", line) for line in lines), lines
    long = ("Wilhelmina Oosterhout goes back to the very first picture space of the long "
            "winding board")                          # no clause to part it: lines, no orphan
    assert len(lettering.wrap(long, lettering.SMALL)) == 5
    assert [len(page) for page in word_pages.sentence_pages([long], 4)] == [3, 2]


@pytest.mark.parametrize("heading, values, lines, pages", [
    ("Bartholomew Fitzgerald uncovers", "1 + 6 = 7",      # "Domino" was a page of its own
     ["Bartholomew Fitzgerald uncovers 1: 1 + 6 = 7: Bartholomew Fitzgerald's seventh checker "
      "goes into Domino"], 3),
    ("Bartholomew Fitzgerald uncovers", "6 + 3 = 9",      # a page of "6 + 3 = 9:" alone, and
     ["6 + 3 = 9: Bartholomew Fitzgerald's ninth checker is already crowned; nothing moves"],
     3),                                                  # one of "nothing moves": 4 pages
    ("W" * 24 + " uncovers", "Rex!",                      # 4 pages, the last "Rex!" alone
     ["5 + 2 = 7: " + "W" * 24 + "'s seventh checker goes home and is crowned. Rex!"], 3),
    ("Maximiliane Vandenberghe throws", "5 · 6",          # a page of "(jumping over ...)"
     ["Maximiliane Vandenberghe pays Margaretha 1 chip (jumping over Margaretha)",
      "Maximiliane Vandenberghe moves to 49",
      "Maximiliane Vandenberghe pays Margaretha 1 chip (square 49)"], 4),
])
def test_screens_parting_at_a_clause_never_costs_a_page_nor_leaves_a_sum_alone(
        heading, values, lines, pages):
    """Parted at a clause, some outcomes took a page more than parted at a line, or left a
    page that said only the sum the big values show, or two words: the parting with the
    fewest pages is kept, and a sum is never a clause's whole."""
    shown = screens.result_layout(heading, values, lines)[2]
    said = [" ".join(page) for page in shown]
    assert len(shown) == pages, shown
    assert not any(word_pages.ONLY_A_SUM.fullmatch(page) for page in said), shown
    assert all(len(page.split()) > 2 or page.endswith("Rex!") for page in said[1:]), shown


def test_screens_a_name_with_no_space_is_one_small_line_rather_than_cut():
    """The Wi-Fi to join, "HomeNetworkExtender5G", was drawn "HomeNetworkExte" / "nder5G" in
    medium type: a name to type, and the cut read as a space. One small line holds it whole;
    words with spaces still go over two medium lines."""
    assert screens.message_lines("HomeNetworkExtender5G", "or scan the left-hand code")[0] == \
        ["HomeNetworkExtender5G"]
    assert screens.message_lines("Our Lovely Home Network", "")[0] == \
        ["Our Lovely Home", "Network"]


def test_screens_long_refusal_is_read_whole_in_pages():
    words = ("Ben has no covered square of 4 (covered: 1, 2, 3, 5, 6): turn the knob to a "
             "value he still has, then press it to uncover that square.")
    pages = screens.flash_pages(words)
    assert len(pages) > 1
    assert " ".join(w for _, page in pages for w in page) == words


def test_screens_address_breaks_after_a_dot_never_inside_a_number():
    assert codes.break_address("192.168.1.23:8080", 67) == ["192.168.1.", "23:8080"]
    # an IPv6 address lost a colon of its "::" ("[fe80:1]")
    assert "".join(codes.break_address("[fe80::1]:8080", 67)) == "[fe80::1]:8080"


@pytest.mark.parametrize("host", ["192.168.178.123", "192.168.100.200", "10.42.0.1"])
def test_screens_start_screen_never_drops_the_port(host):
    """A Fritz!Box's 192.168.178.x broke into three lines ("192.168." "178.123" ":8080") and
    the start screen drew two: the port was gone. The words beside the code differ with the
    port, and the address's lines are all there."""
    def words(port: int) -> bytes:
        return screens.startup(f"http://{host}:{port}/", "156283").crop((61, 0, 128, 64)).tobytes()
    assert words(8080) != words(9090)
    lines = codes.break_address(f"{host}:8080", 67)
    assert "".join(lines) == f"{host}:8080" and len(lines) <= 3


def test_screens_long_instruction_is_paged_in_small_type_a_sentence_a_page():
    view = TurnView("Cats and Mice", "", "Ann", "Move your cat 4, then 6. Then one mouse "
                    "10, or two mice 4 and 6. Press your seat button for each mouse taken.")
    assert [" ".join(page) for page in screens.turn_pages(view)] == [
        "Move your cat 4, then 6.", "Then one mouse 10, or two mice 4 and 6.",
        "Press your seat button for each mouse taken."]     # "then" / "6. Then ..." no more
    image = screens.turn(view)
    rows_lit = [y for y in range(31, 64) if image.crop((0, y, 128, y + 1)).getbbox()]
    assert rows_lit and 10 < rows_lit[-1] - rows_lit[0] < 22      # two lines of small type


def test_screens_flash_draws_over_the_screen_without_changing_it():
    base = screens.turn(TURN)
    before = base.tobytes()
    flashed = screens.flash(base, "Not your turn")
    assert base.tobytes() == before
    assert flashed.tobytes() != before


def test_screens_qr_code_is_drawn_dark_on_light():
    image = screens.startup("http://10.0.0.2:8080/", "1234")
    qr = image.crop((0, 0, 60, 64))
    lit = sum(qr.histogram()[1:])
    assert 0.3 * 58 * 58 < lit < 0.9 * 58 * 58


def test_screens_dice_show_their_faces():
    spin = Animation({"kind": "dice", "count": 2, "faces": 6}, [6, 1], strength=0.5,
                     clock=lambda: 0.0)
    spin.skip()
    six_one = screens.spin(spin.frame())
    spin = Animation({"kind": "dice", "count": 2, "faces": 6}, [1, 6], strength=0.5,
                     clock=lambda: 0.0)
    spin.skip()
    assert screens.spin(spin.frame()).tobytes() != six_one.tobytes()


def test_screens_wrap_keeps_a_short_bracket_on_one_line():
    lines = lettering.wrap("Squeak! Player 1's cat takes a mouse (7 left)", lettering.SMALL)
    assert "(7 left)" in " | ".join(lines) and "(7" not in [line[-2:] for line in lines]


def test_screens_wrap_keeps_a_sum_on_one_line():
    """"Pi uncovers 1: 1 + 1" / "= 2, no checker moves" read as two sums: a sum is one word."""
    lines = lettering.wrap("Pi uncovers 1: 1 + 1 = 2, no checker moves", lettering.SMALL)
    assert any("1 + 1 = 2," in line for line in lines), lines
    assert " ".join(lines) == "Pi uncovers 1: 1 + 1 = 2, no checker moves"


def test_screens_header_keeps_the_space_in_pool_3():
    """The header reads "pool 3", never "pool3": the word gap is wider than any letter gap."""
    image, draw = lettering.canvas()
    screens.header(draw, "Kat en Muis", "pool 3")
    right = image.crop((128 - int(lettering.width("pool 3", lettering.SMALL)) - 1, 0, 128, 12))
    lit = [right.crop((x, 0, x + 1, 12)).getbbox() is not None for x in range(right.width)]
    gaps, run = [], 0
    for on in lit[lit.index(True):]:
        if on:
            if run:
                gaps.append(run)
            run = 0
        else:
            run += 1
    assert max(gaps) >= 4 and sorted(gaps)[-2] <= 2


def test_screens_scores_page_and_never_cut_names_or_figures():
    """The Scores screen exists for its numbers: every name and every figure is shown whole on
    some page (a long one wraps, a player's lines stay together), none wider than the OLED."""
    from firmware.oled.views import Row
    rows = [Row("Blue", "56% · sq 10 · 12 chips", False),
            Row("Bartholomeus van Dijk", "44% · sq 3 · 8 chips · misses 1", True),
            Row("Ann & Bob", "0% · 15 points", False), Row("Hélène", "12% · sq 40", False),
            Row("Pool", "10 chips", False)]
    pages = screens.score_pages(rows)
    lines = [line for page in pages for line in page]
    assert all(len(page) <= 4 for page in pages)
    assert all(lettering.width(words, lettering.SMALL) <= lettering.W - 2 for words, _, _ in lines)
    names = " ".join(words for words, _, right in lines if not right)
    figures = " · ".join(words for words, _, right in lines if right)
    for row in rows:
        assert row.name in names
        assert all(part in figures.split(" · ") for part in row.figure.split(" · ")), row
    marked = [words for words, mark, _ in lines if mark]
    assert marked == ["Bartholomeus van Dijk", "44% · sq 3", "8 chips · misses 1"]
    for page in range(len(pages)):
        assert screens.scores("Kat en Muis", rows, page).size == (128, 64)


@pytest.mark.parametrize("name", ["Bartholomeus van Dijk", "Hélène", "Ann & Bob",
                                  "Maximiliaan Wilhelmina Vanderbilt-Oppenheimer"])
@pytest.mark.parametrize("action", ["flick to spin", "Move your cat 4, then 6. Then one mouse "
                                    "10, or two mice 4 and 6. Press your seat button for each "
                                    "mouse taken."])
def test_screens_turn_shows_a_long_name_whole_and_pages_the_rest(name, action):
    view = TurnView("Cats and Mice", "pool 10", name, action, "sq 22 · 17 chips", button=3)
    names = screens.name_lines(view)
    assert " ".join(names).replace("- ", "-") == name                 # whole, in pieces
    room = lettering.W - 2 - screens.BADGE - 4
    size = lettering.SMALL if len(names) > 1 else lettering.MEDIUM
    assert all(lettering.width(line, size) <= room
               for line in names)
    paged = screens.turn_pages(view)
    if paged:
        first = 14 + (14 if len(names) == 1 else len(names) * lettering.LINE)
        assert first + len(paged[0]) * lettering.LINE <= 64              # no line cut at the foot
        later = len(screens.later_name_lines(view))                       # the name, 1 or 2 lines
        assert later <= 2 and all(14 + (later + len(page)) * lettering.LINE <= 64
                                  for page in paged[1:])
        shown = " ".join(" ".join(page) for page in paged)
        assert shown.split() == f"{action} {view.detail}".split()
    for page in range(max(1, len(paged))):
        assert screens.turn(view, page).size == (128, 64)


def test_screens_never_cut_a_long_name(monkeypatch):
    """The screens that name a player (a result's heading, the Domino Rex choice, the winner
    list, the game's end, a refusal) show a 24-character name whole: nothing is clipped."""
    cut = []
    clip = lettering.clip

    def watching(text, size, room):
        out = clip(text, size, room)
        if out != text:
            cut.append(text)
        return out

    monkeypatch.setattr(screens, "clip", watching)
    name = "Bartholomeus van Dijk Jr"                       # X10's longest: 24 characters
    heading, words = screens.result_heading(f"{name} throws", [f"{name} moves to 22"])
    screens.result(heading, "3 · 5", words, 0)
    assert heading == "" and words[0] == f"{name} throws"
    screens.choose(TurnView("Domino Rex", "", name, "turn, then press", "", 2), "4", "4+3=7")
    screens.choice_list("Who won?", ["Hélène", name, "Nobody"], 1)
    screens.flash(lettering.canvas()[0], f"It is Hélène's turn, not {name}'s.")
    screens.confirm(f"{name} wins: end the game now?", False)
    screens.game_over(name, "wins!", "press: new game")
    screens.game_over(f"{name} & Hélène", "share the win", "press: new game")
    screens.game_over(f"{name} & {name[::-1]}", "share the win", "press: new game")
    assert cut == []


def badge_rows(image: Image.Image) -> list[int]:
    """The rows of the seat button's filled box: those lit across 12 columns or more in a row."""
    rows = []
    for y in range(image.height):
        run = best = 0
        for x in range(image.width):
            run = run + 1 if image.getpixel((x, y)) else 0
            best = max(best, run)
        if best >= 12:
            rows.append(y)
    return rows


@pytest.mark.parametrize("action", [
    "throw the dice (or press the knob to pass)",
    "flick to spin, or press the knob to move in the Field; your button if that reaches the "
    "diamond",
])
def test_screens_turn_the_seat_box_leaves_the_words_beneath_it_whole(action):
    """The seat button's box ran two rows into the first line of a long instruction."""
    view = TurnView("Free play", "pool 5", "Ben", action, "", 2)
    assert screens.turn_pages(view)                        # the small, paged layout
    image = screens.turn(view, 0)
    box = [y for y in badge_rows(image) if y > 12]          # below the header's rule
    assert box and max(box) <= 26                           # the words start at row 28


@pytest.mark.parametrize("name", ["Ann", "Maximiliana Featherstone", "Bartholomeus van Dijk Jr"])
def test_screens_domino_rex_choice_shows_the_seat_box_beside_the_name(name):
    """X12: every turn screen shows the player's seat button in a box beside the name, as the
    join screen and Domino Rex's own lead did; its square choice, the game's turn screen, left
    it off. The box ends above the value's, and the name stays whole."""
    from drawn_words import shows
    view = TurnView("Domino Rex", "", name, "turn, then press", "", 2)
    image = screens.choose(view, "4", "uncover a 4: 4+3=7")
    rows = badge_rows(image)
    value_top = 28 if 28 in rows else 37                    # the value's box, big or smaller
    box = [y for y in rows if 12 < y < value_top]           # below the header's rule
    assert box and max(box) < value_top - 1, rows           # a row apart from the value's
    lines = [name] if shows(image, name, lettering.MEDIUM, bold=True) else \
        lettering.wrap(name, lettering.SMALL, lettering.W - 2 - screens.BADGE - 4)
    assert all(shows(image, line, lettering.MEDIUM if line == name else lettering.SMALL,
                     bold=True) for line in lines), lines


def test_screens_turn_sets_the_page_apart_from_a_count():
    assert screens.corner_and_page("pool 5", "1/2") == "pool 5 · 1/2"   # not "pool 5 1/2"
    assert screens.corner_and_page("", "1/2") == "1/2"
    assert screens.corner_and_page("11 mice left", "") == "11 mice left"


def test_k1_kat_en_muis_turn_corner_calls_the_stakes_pots_as_its_scores_do():
    """K1, K8: each player stakes into a pot and the winner takes both: the turn screen's
    corner says "pots", as the Scores screen and the phone say "Both pots"; other games'
    chips in the middle stay the "pool"."""
    from firmware.oled.views import corner_text
    assert corner_text({"game": "kat-en-muis", "pool": 10}) == "pots 10 chips"   # a unit
    assert corner_text({"game": "lifes-mishaps", "pool": 1}) == "pool 1 chip"
    assert corner_text({"game": "kat-en-muis", "pool": 0}) == ""


@pytest.mark.parametrize("prompt, action", [
    ("Ann - throw the dice", "flick to throw"), ("Ann - throw the die", "flick to throw"),
    ("Ann - throw the dice for the lead", "flick to throw"), ("Ann - flick to spin", "flick to spin")])
def test_screens_the_box_asks_for_a_throw_the_way_it_takes_one(prompt, action):
    """The box has no dice: the rules' "throw the dice" reads "flick to throw" there, as its
    refusal ("Flick the knob to throw") and "flick to spin" say."""
    from firmware.oled.views import turn_view
    for phase in ("lead",) if "lead" in prompt else ("lead", "play"):
        snap = {"prompt": prompt, "phase": phase, "awaiting": "roll", "turn": 0,
                "players": [{"name": "Ann", "button": 1}], "game": "kat-en-muis"}
        assert turn_view(snap).action == action


def test_ld2_every_turn_says_who_has_the_diamond():
    """LD2: the box's turn screen says who carries the diamond on every turn, not only on the
    carrier's (the phone shows it beside them all along)."""
    from firmware.oled.views import turn_view
    players = [{"name": "Ann", "button": 1, "position": 3},
               {"name": "Bartholomew", "button": 2, "position": 9, "diamond": True}]
    snap = {"game": "lost-diamond", "prompt": "Ann - flick to spin", "phase": "play",
            "awaiting": "roll", "players": players, "diamond": 1}
    assert turn_view({**snap, "turn": 0}).detail == "Bartholomew has the diamond. Ann: square 3"
    carrier = turn_view({**snap, "turn": 1, "prompt": "Bartholomew - flick to spin"}).detail
    assert "has the diamond" in carrier and "Bartholomew has" not in carrier
    assert "has the diamond" not in turn_view({**snap, "turn": 0, "diamond": "square"}).detail


def test_ld2_p2_the_box_says_the_knob_withdraws_a_claim_and_ends_the_turn():
    """LD2, P2: the knob's press after a claim home withdraws it and ends the turn (the log:
    "Ann's turn ends / Ann is not home yet"); the box says both, as the phone does, in a
    sentence of its own: paged mid-sentence, "withdraws it and ends the turn" under the
    player's name read as done."""
    from firmware.oled.views import turn_view
    snap = {"game": "india", "phase": "play", "awaiting": "next", "turn": 0,
            "players": [{"name": "Ann", "button": 1}],
            "prompt": "Ann: press your button again to confirm you are home; the knob cancels"}
    view = turn_view(snap)
    assert view.action == ("press your button again to win. The knob "       # as the claim's
                           "withdraws the claim and ends the turn.")         # result says it
    from firmware.oled import screens           # a page never starts mid-sentence, read alone
    first, *rest = screens.turn_pages(view)     # as "withdraws it" under the name
    assert all(page[0][0].isupper() for page in rest) and rest, rest


@pytest.mark.parametrize("name", ["Ann", "Blue", "Green", "Yellow", "Bartholomew Fitz"])
@pytest.mark.parametrize("values", ["1 · 2", "6 · 6", "double 3"])
def test_screens_a_result_says_who_spun_and_what_on_its_first_page(name, values):
    """Cats and Mice under "Yellow spins 1 · 2" on two pages: the top line was laid out for
    the whole width, then dropped whole beside the page's "1/2" (a name needs no cutting), and
    the page said neither who spun nor what; "Blue spins 1 · 2" was short enough to stay."""
    lines = ["Move your cat 1, then 2. Then one mouse 3, or two mice 1 and 2.",
             "Press your button for each mouse your cat takes, then press the knob to end "
             "the turn."]
    shown, small, paged = screens.result_layout(f"{name} spins", values, lines)
    told = " ".join([small] + paged[0])
    if shown:                          # the top line, drawn: not the page's mark alone
        mark = word_pages.page_mark(0, len(paged))
        assert screens.header_strip(shown, mark) != screens.header_strip("", mark), shown
        told = f"{shown} {told}"
    assert name in told and values in told, (shown, small, paged[0])


def test_screens_a_long_heading_is_not_said_twice_when_the_first_line_begins_with_it():
    """A lead spin's line ("... spins 6 and 6 (12) for the lead") is kept under the big
    values; a heading too long for the top line went into the words before it, so page 1 read
    "Bartholomew Fitzwilliam spins" and page 2 the same name and verb again."""
    name = "Bartholomew Fitzwilliam"
    line = f"{name} spins 6 and 6 (12) for the lead"
    assert screens.result_heading(f"{name} spins", [line]) == ("", [line])
    assert screens.result_heading(f"{name} spins", [f"{name} moves to 22"]) == (
        "", [f"{name} spins", f"{name} moves to 22"])
    assert screens.result_heading("Ann spins", [line]) == ("Ann spins", [line])


def test_screens_p2_a_long_name_s_claim_home_says_press_again_on_page_1():
    """P2, LD2: a seat press's heading too long for the top line ("Bartholomew Fitzgerald-O
    pressed") went into the words and was page 1 alone; "... says a man is home: press again
    to win." came on page 2. With no values to tell of, a heading whose player begins the
    first line is left out, and page 1 asks for the confirming press."""
    name = "Bartholomew Fitzgerald-O"
    claim = f"{name} says a man is home: press again to win."
    heading, values, pages = screens.result_layout(
        f"{name} pressed", "", [claim, "The knob withdraws the claim and ends the turn."])
    assert heading == "" and "press again to win." in " ".join(pages[0]), pages
    name = "Ana-María Fernández-Ruiz"
    heading, _, pages = screens.result_layout(
        f"{name} pressed", "", [f"{name} moves in the Field",
                                f"{name} takes the Lost Diamond from its square"])
    assert heading == "" and not any(line == name for page in pages for line in page), pages
    assert screens.result_heading(f"{name} pressed", ["Ben moves"], values=False) == (
        "", [f"{name} pressed", "Ben moves"])              # another player's line: kept


def test_screens_scores_say_a_zero_score_when_others_have_points():
    """The box's Scores said "-" for a player on 0 points beside others' points, where the
    phone says 0; a game where nobody scores still shows no points at all."""
    from firmware.oled.views import score_rows
    snap = {"game": "free-play", "turn": 0, "players": [
        {"name": "Red", "score": 1}, {"name": "Green", "score": 0}, {"name": "Black", "score": 2}]}
    assert [r.figure for r in score_rows(snap)] == ["1 pt", "0 pts", "2 pts"]
    nobody = {"game": "free-play", "turn": 0, "players": [{"name": "Red", "score": 0}]}
    assert [r.figure for r in score_rows(nobody)] == ["-"]


def test_screens_scores_after_the_end_say_who_won_not_100_percent():
    from firmware.oled.views import score_rows
    snap = {"game": "cats-and-dogs", "phase": "over", "winners": [1], "turn": None,
            "odds": {"win": [0.0, 1.0], "exact": True},
            "players": [{"name": "Ann", "position": 31}, {"name": "Ben", "position": 40}]}
    assert [r.figure for r in score_rows(snap)] == ["sq 31", "won · sq 40"]


def test_screens_every_domino_rex_hint_is_read_whole_on_the_hint_screen():
    """The Hint screen wrapped its reason to two lines: "it opens the game and keeps your best"
    lost "squares". Every hint of 40 random games, at 2 to 4 players, is drawn word for word."""
    import random

    from companion.chances.domino_rex import choices, hint
    from companion.events import Choose, Roll
    from companion.replay import advance, replay

    rng, texts = random.Random(7), set()
    for game in range(40):
        table = replay([{"type": "new_game", "game": "domino-rex",
                         "players": ["Ann", "Ben", "Cy", "Di"][:2 + game % 3]}])
        rulebook, state = table.rulebook, table.state
        while state.phase in ("lead", "play"):
            if state.awaiting == "choose":
                texts.add(hint(rulebook, state).text)
                state = advance(rulebook, state, Choose(rng.choice(choices(state))))
            else:
                state = advance(rulebook, state, Roll((rng.randint(1, 6),)))
    assert len({text.split(": ", 1)[1].split()[0] for text in texts}) >= 4   # kinds of reason
    for advice in texts:
        action, _, why = advice.partition(": ")
        big, small = screens.message_lines(action.capitalize(), why)
        assert " ".join(big + small).split() == f"{action.capitalize()} {why}".split(), advice
        assert screens.message("Hint", action.capitalize(), why).getbbox() is not None


def test_screens_every_page_of_a_long_instruction_names_whose_turn_it_is():
    """Page 2 of The Lost Diamond's "flick to spin, or press the knob to move in the Field;
    your button if that reaches the diamond" read "your button if that reaches the diamond"
    with no name: whose button? Every page after the first names the player above its three
    lines (above two where the name takes two)."""
    view = TurnView("The Lost Diamond", "", "Ben", "flick to spin, or press the knob to move "
                    "in the Field; your button if that reaches the diamond", button=2)
    paged = screens.turn_pages(view)
    assert len(paged) == 2 and all(len(lines) <= 3 for lines in paged[1:])
    assert screens.later_name_lines(view) == ["Ben"]
    second = screens.turn(view, 1)
    assert second.crop((0, 14, 128, 14 + lettering.LINE)).getbbox() is not None   # the name row


def test_screens_a_notice_covers_the_screen_so_nothing_behind_it_is_cut():
    """The notice's box sat across the lines behind it: the header's "pots 10" read "nots 10",
    the board's "Fox" "Fnx". Over a screen lit all over, only the box and its words show."""
    lit = Image.new("1", (lettering.W, lettering.H), 1)
    for words in ("Not your turn", "It is Ben's turn, not Ann's.",
                  "Taken back: Ann's Fox jumps from d4 over c4 and b4 to a4, taking 2 geese "
                  "(15 left)"):
        shown = screens.flash(lit, words)
        assert shown.tobytes() == screens.flash(lettering.canvas()[0], words).tobytes()


def test_screens_a_long_notice_pages_at_its_clauses_with_a_page_mark():
    """"(15 left)" was a page of its own, unmarked: five small lines fit one page; past that,
    pages part where a clause ends and say which page is up."""
    jump = "Taken back: Ann's Fox jumps from d4 over c4 and b4 to a4, taking 2 geese (15 left)"
    assert len(screens.flash_pages(jump)) == 1
    undo = ("Taken back: Ann throws 5 and 5; Ann moves to 10 and pays Ben 2 chips; Ann throws "
            "again (square 10); Ann throws 6 and 1; Ann moves to 17")
    pages = screens.flash_pages(undo)
    assert len(pages) == 2 and all(len(lines) <= 4 for _, lines in pages)
    assert " ".join(pages[1][1]).startswith("Ann throws again (square 10);")   # whole clauses
    first, second = (screens.flash(lettering.canvas()[0], undo, page) for page in (0, 1))
    assert first.crop((96, 50, 126, 62)).getbbox() and first.tobytes() != second.tobytes()


def test_screens_ld2_a_turn_s_pages_end_where_a_sentence_does():
    """LD2: page 2 of the turn began "your button if that reaches the diamond", its verb on
    page 1; the box says it as a sentence of its own, and a turn's pages end with sentences."""
    from firmware.oled.views import box_words
    said = box_words("flick to spin, or press the knob to move in the Field; your button if "
                     "that reaches the diamond")
    assert said.endswith("Field. Or press your button for a Field move that reaches the "
                         "diamond.")          # what "that" meant, on a page of its own
    paged = screens.turn_pages(TurnView("The Lost Diamond", "", "Bartholomeus", said))
    assert len(paged) == 2 and paged[1][0].startswith("Or press your button")
    assert all(page[-1].endswith(".") for page in paged)


def test_screens_x8_what_a_seat_button_records_is_never_split_across_pages():
    """X8, P2: India's turn screen, page 1/3, ended "Double 3: move one man 6. / Press your
    button if" and went on on page 2. What each game's seat button records fits the three
    lines of a later page, so it is read whole."""
    from firmware.oled.views import BOX_PRESSES
    for game, said in BOX_PRESSES.items():
        assert len(lettering.wrap(said, lettering.SMALL)) <= 3, game
        action = f"Double 3: move one man 6. {said} Then press the knob to end the turn."
        paged = screens.turn_pages(TurnView(game, "", "Bartholomeus", action))
        assert any(" ".join(page) == said for page in paged), (game, paged)


@pytest.mark.parametrize("left, right", [("Choose a game", "2/3"), ("Ann pressed", ""),
                                         ("Free play: dice", "2/3"), ("Jørgen's turn", "pg 1")])
def test_screens_header_descenders_stand_clear_of_the_rule(left, right):
    """A "g" or "p" in the header never touches the rule beneath it (it read as a blot); the
    rule is broken a pixel either side of it and whole elsewhere."""
    image, draw = lettering.canvas()
    screens.header(draw, left, right)
    px, y = image.load(), screens.RULE_Y
    descenders = [x for x in range(lettering.W) if px[x, y - 1]]
    assert descenders, "the case has a descender on the rule's row"
    touching = [x for x in range(lettering.W) for dx in (-1, 0, 1)
                if px[x, y - 1] and 0 <= x + dx < lettering.W and px[x + dx, y]]
    assert touching == []
    near = {x + dx for x in descenders for dx in (-1, 0, 1)}
    assert all(px[x, y] for x in range(lettering.W) if x not in near)


def test_screens_a_tie_on_points_shows_the_points_shared():
    """Domino Rex's "Pi & Ann share the win" said no points, where one winner's end says
    "wins, 19 points": winners tied on points share them in words."""
    from firmware.oled.views import final_points
    players = [{"name": "Cy", "score": 7}, {"name": "Pi", "score": 19},
               {"name": "Ann", "score": 19}]
    snap = {"game": "domino-rex", "phase": "over", "players": players}
    assert final_points({**snap, "winners": [1, 2]}) == "share the win, 19 pts"
    assert final_points({**snap, "winners": [2]}) == "wins, 19 points"
    assert final_points({**snap, "winners": [0, 1]}) == ""          # not a tie: no one figure
    assert final_points({**snap, "winners": [0]}) == ""     # declared over more: no figure
    assert final_points({"game": "free-play", "phase": "over", "winners": [0],   # Red over
                         "players": [{"name": "Red", "score": 0},               # Blue's 2
                                     {"name": "Blue", "score": 2}]}) == ""
    assert lettering.width("share the win, 77 pts", lettering.SMALL) <= lettering.W - 2   # 2+...+12


def test_screens_x2_a_tie_for_the_lead_says_why_the_throws_start_again():
    """After Red and Green tied on 7 the turn screen said "who leads?", as at the start: it
    says the tie, and that they throw again (X2)."""
    from companion.replay import replay
    from firmware.oled.views import turn_view
    table = replay([{"type": "new_game", "game": "cats-and-mice",
                     "players": ["Red", "Green", "White"]},
                    {"type": "roll", "values": [3, 4]}, {"type": "roll", "values": [2, 5]},
                    {"type": "roll", "values": [1, 1]}])
    assert turn_view(table.to_json()).detail == "tie on 7: spin again"
    start = replay([{"type": "new_game", "game": "cats-and-mice",
                     "players": ["Red", "Green", "White"]}])
    assert turn_view(start.to_json()).detail == "who leads?"


def test_screens_a_four_line_question_keeps_clear_of_its_answers():
    """The "y" of "history." (the fourth line of "Start a new game? ...") touched the Yes
    box: a blank row is kept between the words and the boxes."""
    from firmware.oled import screens
    question = "Start a new game? This one stops here, unfinished, and stays in the history."
    assert len(screens.confirm_pages(question)[0]) == 4
    image = screens.confirm(question, yes=False)
    box_top = min(y for y in range(64)                                  # the No box's edge
                  if all(image.getpixel((x, y)) for x in range(4, 60)))
    assert not any(image.getpixel((x, box_top - 1)) for x in range(128))


def test_screens_a_turn_says_square_in_full_where_it_fits():
    """Cats and Dogs' turn screen read "sq 3" under "flick to spin": a code to a new player.
    The turn says "square 3" (with chips too where the line holds it); the Scores screen,
    with a chance beside each, keeps "sq"."""
    from firmware.oled.views import FOOTER_CHARS, score_rows, turn_view
    ann = {"name": "Ann", "button": 1, "position": 3}
    snap = {"game": "cats-and-dogs", "prompt": "Ann - flick to spin", "phase": "play",
            "awaiting": "roll", "turn": 0, "players": [ann, {**ann, "name": "Ben"}]}
    assert turn_view(snap).detail == "square 3"
    assert score_rows(snap)[0].figure == "sq 3"
    rich = {**snap, "game": "kat-en-muis", "players": [{**ann, "position": 22, "chips": 17}]}
    assert turn_view(rich).detail == "square 22 · 17 chips"
    crowded = {**rich, "players": [{**ann, "position": 22, "chips": 17, "lost_turns": 1}]}
    assert turn_view(crowded).detail.startswith("sq 22")       # too long for one line in full
    assert len(turn_view(crowded).detail.replace("sq", "square")) > FOOTER_CHARS


def test_screens_a_game_won_on_chips_says_the_winners_chips():
    """K8, L7: Kat en Muis' end read "Red / wins! / press: new game" with no chips, and Life's
    Mishaps' none of the counters it is won on (Cats and Mice said its points)."""
    from firmware.oled.views import final_points
    players = [{"name": "Red", "score": 0, "chips": 27}, {"name": "Blue", "score": 0,
                                                            "chips": 13}]
    snap = {"game": "kat-en-muis", "phase": "over", "players": players}
    assert final_points({**snap, "winners": [0]}) == "wins, 27 chips"
    tied = [{**players[0], "chips": 18}, {**players[1], "chips": 18}]
    assert final_points({**snap, "game": "lifes-mishaps", "players": tied,
                         "winners": [0, 1]}) == "share the win, 18 chips"
    assert final_points({**snap, "game": "gantlope", "winners": [0]}) == ""   # no chips kept
    unused = [{**p, "chips": 0} for p in players]          # free play, no chips ever moved:
    assert final_points({**snap, "game": "free-play", "players": unused,   # not "wins, 0 chips"
                         "winners": [1]}) == ""


def test_screens_a_game_without_dice_says_so_on_one_line():
    """"2 players · no dice in play" wrapped to "no dice / in play" under Fox and Geese, which
    a new player read as a game being in play."""
    from companion.games import GAMES
    from firmware.oled.views import game_detail
    detail = game_detail(GAMES["fox-and-geese"], False)
    assert detail == "2 players · no dice"
    assert screens.message_lines("Fox and Geese", detail)[1] == [detail]


@pytest.mark.parametrize("game, players, words", [
    ("kat-en-muis", ["Ann", "Ben"],
     ["Each player pays 5 chips into the pool (stake into the pot)"]),
    ("lifes-mishaps", ["Ann", "Ben", "Cy"],
     ["Each player gets 12 chips", "Each player pays 2 chips into the pool (to start)"]),
    ("cats-and-dogs", ["Ann", "Ben"], []), ("fox-and-geese", ["Ann", "Ben"], [])])
def test_screens_k1_l1_a_new_game_says_the_chips_to_put_in(game, players, words):
    """K1, L1: the box went from the game list to "flick to throw / who leads?": a family
    with real chips was never told to put 5 in the pot. The same payment by every player is
    said once; a game that asks nothing says nothing."""
    from companion.replay import replay
    from firmware.oled.views import setup_words
    table = replay([{"type": "new_game", "game": game, "players": players}])
    assert setup_words(table.to_json()) == words


def test_screens_each_player_s_two_lines_join_after_the_noun():
    """"Each player gets 12 counters" and "Each player pays 2 chips" were joined as "Each
    player gets 12 counters and player pays ...": the subject was taken to be "Each"."""
    assert screens.result_layout("Life's Mishaps", "", [
        "Each player gets 12 counters", "Each player pays 2 chips into the pool (to start)"])[2] \
        == [["Each player gets 12", "counters and pays", "2 chips into the pool", "(to start)"]]


def test_screens_f3_fox_and_geese_scores_say_each_side_and_its_count():
    """F3 keeps no points: the Scores screen said "Pi -" and "Red -". Each row says the side
    and what it counts: the Fox's geese taken, the Geese's geese left."""
    from companion.replay import replay
    from firmware.oled.views import score_rows
    snap = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Pi", "Red"]}]
                  ).to_json()
    assert [row.figure for row in score_rows(snap)] == ["Fox · 0 geese taken",
                                                         "Geese · 17 left"]


def test_screens_ld2_the_carriers_turn_says_who_has_the_diamond():
    """LD2: under "press the knob to end the turn" the carrier's line read "has the diamond",
    taken for the end of the sentence above it."""
    from firmware.oled.views import turn_view
    snap = {"game": "lost-diamond", "title": "The Lost Diamond", "phase": "play", "turn": 1,
            "awaiting": "next", "prompt": "Blue - press the knob to end the turn", "diamond": 1,
            "players": [{"name": "Red", "diamond": False}, {"name": "Blue", "diamond": True}]}
    assert turn_view(snap).detail == "Blue has the diamond"


def test_screens_g3_gantlope_scores_say_none_in_goal_yet():
    """G3: Gantlope's Scores said "Blue -" where no man was in the Goal yet."""
    from companion.replay import replay
    from firmware.oled.views import score_rows
    snap = replay([{"type": "new_game", "game": "gantlope", "players": ["Red", "Blue"]}]).to_json()
    assert [row.figure for row in score_rows(snap)] == ["0 in Goal", "0 in Goal"]


@pytest.mark.parametrize("left, right, detail", [("Bartholomew spins", "2/2", ""),
                                                 ("Kat", "pool 5 · 1/2", "pool 5")])
def test_screens_the_pages_mark_is_told_from_the_heading(left, right, detail):
    """Page 2 of a result read "Bartholomew spins 2/2", a spin of 2 at a glance: the page's
    mark is drawn dark in a lit box beside the heading, the heading and any detail as ever."""
    from PIL import ImageOps
    from drawn_words import shows
    strip = screens.header_strip(left, right).convert("L")
    mark = right.rpartition(" · ")[2]
    assert shows(ImageOps.invert(strip), mark) and not shows(strip, mark)
    assert shows(strip, left)
    assert not detail or shows(strip, detail)


@pytest.mark.parametrize("yes", [False, True])
def test_screens_a_question_boxes_only_the_choice_picked(yes):
    """"Start a new game?" lit "No" and outlined "Yes", where the menus outline their pick: the
    outlined "Yes" read as picked. Only the choice picked is in a box (lit); the other is
    plain words, with no box round them."""
    image = screens.confirm("Start a new game?", yes)
    px = image.load()
    for left, picked in ((4, not yes), (68, yes)):
        corner = px[left, 49], px[left + 55, 63]
        assert corner == ((lettering.ON, lettering.ON) if picked else
                          (lettering.OFF, lettering.OFF)), (left, picked)
