"""The committed roll stream: every roll is derived from a secret seed, checkably.

Roll n of a game is read from HMAC-SHA256(seed, n as 8 bytes big-endian); should those 32 bytes
run out, HMAC-SHA256(seed, n + block as 4 bytes big-endian) for block 1, 2, ... follow. A face
of k is one byte b with b < 256 - 256 % k, mapped to b % k + 1 (rejection sampling), so every
face is exactly equally likely. The seed is injected: the companion never makes one.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

from companion.randomness.randomizers import Randomizer

SEED_BYTES = 32                 # a game's seed, drawn by the box as it begins


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed, hex: published before the first roll."""
    return hashlib.sha256(seed).hexdigest()


def _stream(seed: bytes, index: int) -> Iterator[int]:
    block = 0
    while True:
        message = index.to_bytes(8, "big") + (block.to_bytes(4, "big") if block else b"")
        yield from hmac.new(seed, message, hashlib.sha256).digest()
        block += 1


def draw(seed: bytes, index: int, randomizer: Randomizer) -> tuple[int, ...]:
    """The values of roll `index` (from 0) for this randomizer."""
    k = randomizer.faces
    limit = 256 - 256 % k
    values = []
    for b in _stream(seed, index):
        if b < limit:
            values.append(b % k + 1)
            if len(values) == randomizer.count:
                return tuple(values)
    raise AssertionError("unreachable")  # pragma: no cover


def parse_seed(text: str) -> bytes:
    """A revealed seed from its hex form."""
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"the seed {text[:16]!r}... is not hex") from None
    if not seed:
        raise ValueError("the seed is empty")
    return seed
