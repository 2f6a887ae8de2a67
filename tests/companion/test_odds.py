"""Chances to win: exact Kat en Muis against playouts of the real rules, sums, finished and
decided games, the Domino Rex hint, and the roll stream left alone."""

from __future__ import annotations

import random

import pytest

from companion.chances import odds
from companion.games import get_rulebook
from companion.chances.domino_rex import choices, hint
from companion.events import Choose
from companion.replay import advance
from companion.chances import kat_en_muis as odds_kat
from companion.chances.kat_en_muis import kat_odds, turn_table
from companion.randomness.rollstream import draw
from companion.session import Session
from companion.record.store import Store
from companion.randomness.randomizers import dice
from game_support import act, start_game

SEED = bytes(range(32))
Z999 = 3.29        # the 99.9% margin, for the many small comparisons


def kat_position(mover: int, other: int, turn: int = 0, lost: int = 0):
    """A Kat en Muis state in play with both squares set (own numbering) and `turn` to throw;
    the other player has `lost` turns to sit out."""
    table = start_game("kat-en-muis", leads=[(6, 5), (1, 2)])
    state = table.state.copy()
    state.turn = turn
    state.players[turn].position = mover or None
    state.players[1 - turn].position = other or None
    state.players[1 - turn].lost_turns = lost
    return table.rulebook, state


@pytest.mark.slow
def test_odds_kat_exact_agrees_with_1e5_playouts():
    rulebook, state = kat_position(52, 45, turn=1, lost=1)
    known = odds.exact(rulebook, state)
    played = odds.playouts(rulebook, state, random.Random(14), 100_000).result()
    assert known["exact"] and not played["exact"] and played["playouts"] == 100_000
    assert played["margin"] < 0.0032
    for seat in (0, 1):
        assert abs(known["win"][seat] - played["win"][seat]) <= played["margin"]


@pytest.mark.parametrize("case", range(6))
def test_odds_kat_exact_agrees_with_playouts_at_random_positions(case):
    rng = random.Random(100 + case)
    rulebook, state = kat_position(rng.randrange(66), rng.randrange(66), turn=rng.randrange(2),
                                   lost=rng.randrange(2))
    known = odds.exact(rulebook, state)
    played = odds.playouts(rulebook, state, random.Random(case), 2_000).result()
    p = known["win"][0]
    assert abs(p - played["win"][0]) <= Z999 * (p * (1 - p) / 2_000) ** 0.5 + 1e-9


def test_odds_kat_throw_order_never_matters():
    """The solver counts each unordered throw twice: the rules must not see the order."""
    rulebook = get_rulebook("kat-en-muis")
    for square in range(0, 66, 3):
        for a in range(1, 7):
            for b in range(a + 1, 7):
                results = []
                for values in ((a, b), (b, a)):
                    _, state = kat_position(square, 20)
                    rulebook.on_roll(state, values)
                    results.append([(p.position, p.lost_turns) for p in state.players]
                                   + [state.turn, state.phase])
                assert results[0] == results[1]


def test_odds_kat_the_other_counter_moves_only_chips():
    """K6 is the only rule that reads the other counter, and it moves chips alone."""
    rulebook = get_rulebook("kat-en-muis")
    rng = random.Random(7)
    for _ in range(300):
        square, values = rng.randrange(66), (rng.randint(1, 6), rng.randint(1, 6))
        seen = set()
        for other in (0, rng.randrange(1, 66)):
            _, state = kat_position(square, other)
            rulebook.on_roll(state, values)
            seen.add((state.players[0].position, state.players[0].lost_turns, state.turn,
                      state.phase))
        assert len(seen) == 1


def test_odds_kat_bounce_k5_and_lost_turn_change_the_chances():
    rulebook = get_rulebook("kat-en-muis")
    wins, ends = turn_table(rulebook)
    assert any(square == 48 for square, _, _ in ends[60])            # K5: back to 48
    _, fresh = kat_position(30, 30)
    _, sitting = kat_position(30, 30, lost=1)
    assert kat_odds(rulebook, sitting)["win"][0] > kat_odds(rulebook, fresh)["win"][0]


@pytest.mark.parametrize("game,players,leads", [
    ("kat-en-muis", ["Ann", "Ben"], [(6, 5), (1, 2)]),
    ("lifes-mishaps", ["Ann", "Ben", "Cy"], [6, 1, 2]),
    ("cats-and-dogs", ["Ann", "Ben", "Cy", "Di"], [6, 5, 4, 3]),
    ("domino-rex", ["Ann", "Ben"], [6, 1]),
])
def test_odds_sum_to_one(game, players, leads):
    table = start_game(game, players, leads=leads)
    rng = random.Random(3)
    for _ in range(6):                       # a few moves in, by the real rules
        state = table.state
        if state.awaiting == "roll":
            d = table.rulebook.randomizer_now(state)
            act(table, type="roll", values=[rng.randint(1, d.faces) for _ in range(d.count)])
        else:
            act(table, type="choose", value=sorted(state.players[state.turn]
                                                   .extra["covered"])[0])
    result = odds.odds(table.rulebook, table.state, rng, runs=300)
    assert len(result["win"]) == len(players)
    assert sum(result["win"]) == pytest.approx(1.0)
    assert all(0 <= p <= 1 for p in result["win"]) and result["margin"] >= 0


def test_odds_kat_lead_k2_is_exact_and_agrees_with_playouts():
    table = start_game("kat-en-muis")
    assert odds.exact(table.rulebook, table.state) == {"win": [0.5, 0.5], "exact": True,
                                                       "margin": 0.0}
    act(table, type="roll", values=[5, 4])                # Ann throws 9 for the lead
    known = odds.exact(table.rulebook, table.state)
    assert known["exact"] and sum(known["win"]) == pytest.approx(1.0)
    first = odds_kat.mover_wins(table.rulebook, 0, 0, 0, 0)
    leads = 26 / 36 + (4 / 36) / 2                        # Ben under 9; a tie starts afresh
    assert known["win"][0] == pytest.approx(leads * first + (1 - leads) * (1 - first))
    played = odds.playouts(table.rulebook, table.state, random.Random(4), 3_000).result()
    p = known["win"][0]
    assert abs(p - played["win"][0]) <= Z999 * (p * (1 - p) / 3_000) ** 0.5


def test_odds_finished_game_gives_the_winners_their_share():
    table = start_game("kat-en-muis", leads=[(6, 5), (1, 2)])
    state = table.state.copy()
    state.players[0].position = 64
    table.rulebook.on_roll(state, (1, 1))              # 64 + 2 = 66: the Cat wins (K8)
    assert state.over and state.winners == [0]
    assert odds.odds(table.rulebook, state, random.Random(0)) == {
        "win": [1.0, 0.0], "exact": True, "margin": 0.0}
    shared = table.state.copy()
    shared.phase, shared.winners = "over", [0, 1]
    assert odds.finished(shared)["win"] == [0.5, 0.5]


def test_odds_lifes_mishaps_three_way_share_counts_a_third_each():
    state = start_game("lifes-mishaps", ["Ann", "Ben", "Cy"], leads=[6, 1, 2]).state.copy()
    state.phase, state.winners = "over", [0, 2]
    assert odds.finished(state)["win"] == [0.5, 0.0, 0.5]
    tally = odds.Tally(3)
    tally.add([0, 1, 2])
    assert tally.result()["win"] == pytest.approx([1 / 3] * 3)


def domino_end(mine: list[int], theirs: list[int], last: int | None = 1, checkers=None):
    """Domino Rex in play, Ann (seat 0) to uncover, with these covered squares left."""
    table = start_game("domino-rex", leads=[6, 1])
    state = table.state.copy()
    state.players[0].extra["covered"] = list(mine)
    state.players[1].extra["covered"] = list(theirs)
    state.data["last"] = last
    for seat, marks in (checkers or {}).items():
        state.players[seat].extra["checkers"].update({str(n): m for n, m in marks.items()})
    return table.rulebook, state


def test_odds_deterministic_domino_position_is_zero_or_one():
    """One square each left: no choice remains, so the game is decided: 0 and 1, exactly."""
    rulebook, state = domino_end([6], [5], last=4, checkers={
        0: {7: "crowned", 8: "crowned", 9: "crowned", 11: "crowned", 10: "domino"},
        1: {7: "crowned", 8: "crowned"}})
    result = odds.odds(rulebook, state, random.Random(0))
    assert result == {"win": [1.0, 0.0], "exact": True, "margin": 0.0}   # 6 + 4 = 10: Rex!
    played = odds.playouts(rulebook, state, random.Random(0), 50).result()
    assert played["win"] == [1.0, 0.0]


def test_odds_domino_end_game_exact_agrees_with_playouts():
    rulebook, state = domino_end([1, 4, 6, 6], [2, 3, 5, 5], last=5)
    known = odds.exact(rulebook, state)
    assert known is not None and known["exact"]
    played = odds.playouts(rulebook, state, random.Random(5), 4_000).result()
    for seat in (0, 1):
        p = known["win"][seat]
        assert abs(p - played["win"][seat]) <= Z999 * (p * (1 - p) / 4_000) ** 0.5 + 1e-9


def test_odds_domino_hint_keeps_the_sixes_for_eleven_as_the_seed_says():
    """HINTS TO PLAYERS: the opponent uncovers a one, you have two sixes and your eleventh
    checker unmoved: do not spend a six on the seventh (7 comes in six ways, 11 in two)."""
    rulebook, state = domino_end([2, 6, 6], [5, 5, 1, 3], last=1, checkers={
        0: {8: "crowned", 9: "crowned", 10: "crowned"}})
    advice = hint(rulebook, state)
    assert advice.value != 6
    assert advice.text == f"uncover a {advice.value}: it keeps a way to crown your checker 11"


def test_odds_domino_hint_takes_the_move_the_opponent_will_not_offer_again():
    """HINTS: he uncovers his last five and you have eleven to make: play the six now."""
    rulebook, state = domino_end([1, 2, 6], [1, 2, 3], last=5, checkers={
        0: {8: "crowned", 9: "crowned", 10: "crowned", 11: "domino"}})
    advice = hint(rulebook, state)
    assert advice.value == 6                       # not the 2 that would move the 7 (2 + 5)
    assert advice.text == "uncover a 6: 6 + 5 = 11 crowns your checker 11. Rex!"


@pytest.mark.parametrize("ben, words", [
    (8, "uncover a 2: it ends the game: Ben wins"),
    (7, "uncover a 2: it ends the game in a win shared with Ben"),     # X6
    (0, "uncover a 2: it wins the game")])
def test_odds_domino_hint_says_who_wins_when_the_last_square_ends_the_game(ben, words):
    """D4: every square uncovered, the highest crowned sum wins. The hint said "it wins the
    game" for the last square whoever won (Ann 7 against Ben 20: "Ben wins" on the box)."""
    rulebook, state = domino_end([2], [], last=1, checkers={
        0: {7: "crowned"}, 1: {ben: "crowned"} if ben else {}})
    state.players[0].score, state.players[1].score = 7, ben
    assert hint(rulebook, state).text == words


@pytest.mark.parametrize("seed", range(40))
def test_odds_domino_hint_words_are_true_of_the_move_they_advise(seed):
    """Over random games of 2-4 players, each hint's words hold for its square: a win, a
    shared win or a loss as the game then ends; "no square moves a checker now" only when no
    square does (it was said when uncovering a 6 would move the seventh checker)."""
    rng = random.Random(seed)
    players = ["Ann", "Ben", "Cy", "Dee"][:rng.randint(2, 4)]
    table = start_game("domino-rex", players, leads=[6, 5, 4, 3][:len(players)])
    rulebook = table.rulebook
    while not table.state.over:
        state, seat = table.state, table.state.turn
        advice = hint(rulebook, state)
        after = advance(rulebook, state, Choose(advice.value))
        others = [advance(rulebook, state, Choose(v)) for v in choices(state)]
        text = advice.text
        assert ("it wins the game" in text) == (after.over and after.winners == [seat]), text
        assert ("shared with" in text) == (after.over and seat in after.winners
                                           and len(after.winners) > 1), text
        assert ("it ends the game:" in text) == (after.over and seat not in after.winners)
        if "no square moves a checker now" in text:
            mine = state.players[seat].extra["checkers"]
            assert all(o.players[seat].extra["checkers"] == mine for o in others), text
        act(table, type="choose", value=rng.choice(choices(state)))


def test_odds_domino_hint_is_only_for_a_choice():
    table = start_game("domino-rex")
    assert hint(table.rulebook, table.state) is None        # the lead is still thrown


def test_odds_playouts_never_touch_the_roll_stream(tmp_path):
    """The same seed gives the same next throws with chances worked out between them or not."""
    sessions = [Session(Store(tmp_path / f"{i}.db"), new_seed=lambda: SEED) for i in range(2)]
    for session in sessions:
        session.new_game("lifes-mishaps", ["Ann", "Ben", "Cy"])
    rng = random.Random(9)
    throws = [[], []]
    for _ in range(12):
        on, off = sessions
        rulebook = on.table.rulebook
        odds.odds(rulebook, on.state, rng, runs=50)           # chances on for the first one
        for i, session in enumerate(sessions):
            throws[i].append(session.roll()["last_roll"]["values"])
        assert on.snapshot()["rolls"] == off.snapshot()["rolls"]
    assert throws[0] == throws[1]
    assert tuple(throws[0][-1]) == draw(SEED, 11, dice(1))
    for session in sessions:
        session.store.close()


def test_odds_session_drops_a_stale_result_and_shows_a_fresh_one(tmp_path):
    session = Session(Store(tmp_path / "p.db"), new_seed=lambda: SEED)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    stale = session.state_version
    session.roll()
    fresh = {"win": [0.5, 0.5], "exact": False, "margin": 0.2}
    assert not session.publish_odds(stale, fresh)
    assert "odds" not in session.snapshot()
    before = session.snapshot()["version"]
    assert session.publish_odds(session.state_version, fresh, {0: [0.5, 0.5]})
    snap = session.snapshot()
    assert snap["odds"] == fresh and snap["version"] == before + 1
    assert snap["chart"]["win"] == [[0.5, 0.5], [0.5, 0.5]]
    session.roll()                               # the game moves on: the old chances go
    assert "odds" not in session.snapshot()
    assert session.snapshot()["chart"]["win"][:2] == [[0.5, 0.5], [0.5, 0.5]]
    session.store.close()
