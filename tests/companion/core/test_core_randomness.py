"""Randomizers as data, and the committed roll stream that feeds them."""

import hashlib
import hmac
from collections import Counter

import pytest

from companion.errors import Refused
from companion.randomness.randomizers import Randomizer, dice, from_json, indicator, spinner
from companion.randomness.rollstream import commitment, draw, parse_seed

SEEDS = [bytes([i]) * 32 for i in range(8)] + [b"parlour", bytes(range(32))]


# -- randomizers ------------------------------------------------------------------------------

@pytest.mark.parametrize("randomizer, name, verb", [
    (dice(1), "a die", "throws"), (dice(2), "two dice", "throws"),
    (dice(3), "three dice", "throws"), (indicator(), "the Indicator", "spins"),
    (spinner(6), "a spinner of 6", "spins"),
])
def test_randomizers_say_what_they_are(randomizer, name, verb):
    assert (randomizer.name, randomizer.verb) == (name, verb)


def test_randomizers_indicator_is_two_arrows_of_six():
    assert (indicator().count, indicator().faces) == (2, 6)
    indicator().check((6, 1))


@pytest.mark.parametrize("randomizer, values, words", [
    (dice(2), (3,), "two dice show two numbers (such as 3 and 4), not 1"),
    (dice(1), (1, 1), "a die shows one number, not 2"),
    (dice(1), (7,), "7 is off a die (faces 1 to 6)"),
    (indicator(), (0, 3), "0 is off the Indicator"),
    (spinner(12), (13,), "13 is off a spinner of 12"),
])
def test_randomizers_refuse_values_they_cannot_show(randomizer, values, words):
    with pytest.raises(Refused, match=words.replace("(", r"\(").replace(")", r"\)")):
        randomizer.check(values)


def test_randomizers_words_and_totals():
    assert dice(1).words((4,)) == "4"
    assert dice(2).words((3, 5)) == "3 and 5"
    assert dice(3).words((1, 2, 3)) == "1, 2 and 3"
    assert dice(3).total((1, 2, 3)) == 6
    labelled = spinner(["1", "2", "double 1"])
    assert (labelled.faces, labelled.words((3,))) == (3, "double 1")


@pytest.mark.parametrize("randomizer", [dice(1), dice(2), dice(3), indicator()]
                         + [spinner(n) for n in range(2, 13)])
def test_randomizers_round_trip_through_json(randomizer):
    assert from_json(randomizer.to_json()) == randomizer


@pytest.mark.parametrize("data, words", [
    ("dice", "is an object"),
    ({"kind": "dice", "count": 4}, "count must be 1, 2 or 3"),
    ({"kind": "spinner", "faces": 1}, "from 2 to 12"),
    ({"kind": "spinner", "faces": 13}, "from 2 to 12"),
    ({"kind": "spinner", "faces": True}, "from 2 to 12"),
    ({"kind": "spinner"}, "from 2 to 12"),
    ({"kind": "teetotum"}, 'unknown randomizer kind "teetotum"'),
    ({"kind": ["dice"]}, "unknown randomizer kind"),
    ({"kind": {}}, "unknown randomizer kind"),
])
def test_randomizers_bad_description_refused(data, words):
    with pytest.raises(Refused, match=words):
        from_json(data)


# -- the roll stream --------------------------------------------------------------------------

def spec_draw(seed: bytes, index: int, count: int, faces: int) -> tuple[int, ...]:
    """The stream as rollstream's docstring specifies it, written out plainly."""
    data = hmac.new(seed, index.to_bytes(8, "big"), hashlib.sha256).digest()
    block = 1
    limit = 256 - 256 % faces
    values = []
    position = 0
    while len(values) < count:
        if position == len(data):
            message = index.to_bytes(8, "big") + block.to_bytes(4, "big")
            data += hmac.new(seed, message, hashlib.sha256).digest()
            block += 1
        byte = data[position]
        position += 1
        if byte < limit:
            values.append(byte % faces + 1)
    return tuple(values)


def test_rollstream_commitment_is_sha256_of_the_seed():
    seed = bytes(range(32))
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert commitment(seed) != commitment(seed[::-1])
    assert len(commitment(seed)) == 64


@pytest.mark.parametrize("randomizer", [dice(1), dice(2), indicator(), spinner(12),
                                        spinner(5), Randomizer("spinner", 20, 129)])
def test_rollstream_draw_follows_the_documented_stream(randomizer):
    for seed in SEEDS:
        for index in range(40):
            assert draw(seed, index, randomizer) == spec_draw(seed, index, randomizer.count,
                                                              randomizer.faces)


def test_rollstream_spec_exercises_rejection_and_extra_blocks():
    """The comparison above is only worth something if it hits both rare paths."""
    first_bytes = [hmac.new(s, i.to_bytes(8, "big"), hashlib.sha256).digest()[0]
                   for s in SEEDS for i in range(40)]
    assert any(b >= 252 for b in first_bytes)           # a rejected byte for six faces
    wide = Randomizer("spinner", 20, 129)                 # ~half the bytes rejected
    needs_more = [(s, i) for s in SEEDS for i in range(40)
                  if sum(b < 129 for b in hmac.new(s, i.to_bytes(8, "big"),
                                                   hashlib.sha256).digest()) < wide.count]
    assert needs_more


def test_rollstream_draw_is_repeatable_and_moves_on():
    seed = b"\x07" * 32
    rolls = [draw(seed, i, indicator()) for i in range(50)]
    assert rolls == [draw(seed, i, indicator()) for i in range(50)]
    assert len(set(rolls)) > 10


# The 0.1% points of chi-square for faces - 1 degrees of freedom.
CHI2_LIMIT = {2: 10.83, 5: 18.47, 6: 20.52, 7: 22.46, 12: 31.26}


@pytest.mark.parametrize("faces", sorted(CHI2_LIMIT))
def test_rollstream_faces_are_evenly_spread(faces):
    seed = b"fairness" * 4
    n = 600 * faces
    counts = Counter(draw(seed, i, spinner(faces))[0] for i in range(n))
    assert set(counts) == set(range(1, faces + 1))
    expected = n / faces
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in counts)
    assert chi2 < CHI2_LIMIT[faces]


def test_rollstream_indicator_double_is_one_in_six():
    seed = b"indicator" * 3
    n = 6000
    doubles = sum(a == b for a, b in (draw(seed, i, indicator()) for i in range(n)))
    assert abs(doubles / n - 1 / 6) < 0.02


def test_rollstream_parse_seed():
    assert parse_seed("00ff10") == b"\x00\xff\x10"
    with pytest.raises(ValueError, match="not hex"):
        parse_seed("zz")
    with pytest.raises(ValueError, match="empty"):
        parse_seed("")
