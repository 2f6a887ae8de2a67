"""How fast one phone may change the game: a token bucket per phone (a pairing, or a sign-in).
Each action done for a phone spends a token (one refused, for its seat, its turn, a `seen` the
table has moved on from or by the game, spends none). A phone may act a few times at once (a
turn's throw, captures and end, a double tap), then once every so often; past that it is
answered 429 with the seconds to wait, and nothing is done.
The box's own controls never pass here. A script with the PIN in a header is the owner's tool
and is not held back (the PIN can set any game aside)."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from flask import has_request_context, request, session

from web.access import auth, seat
from web.access.keptfile import token_digest
from web.context import parlour
from web.errors import ApiError

MAX_PHONES = 512          # buckets kept; the one unused longest is forgotten (so full again)


@dataclass(frozen=True)
class Pace:
    burst: int            # actions at once
    every: float          # s: one more action is allowed each time this passes


# One seat's phone: a turn is at most a throw, two captures and its end (four), a double tap
# one more; a person playing one seat never keeps up more than one action every 2 s.
PAIRED = Pace(burst=6, every=2.0)
# A signed-in phone may run the whole table (every seat of a game played from one phone,
# corrections, a new game): twice the burst, one action a second.
SIGNED_IN = Pace(burst=12, every=1.0)


class Buckets:
    """Token buckets by key, one `pace` for all: `wait(key)`, then `spend(key)` once done."""

    def __init__(self, pace: Pace, *, clock: Callable[[], float], limit: int = MAX_PHONES):
        self.pace, self._clock, self.limit = pace, clock, limit
        self._held: OrderedDict[str, tuple[float, float]] = OrderedDict()   # key -> (tokens, at)
        self._lock = threading.Lock()

    def _tokens(self, key: str) -> float:
        """`key`'s tokens now, kept as of now; call holding the lock."""
        now = self._clock()
        tokens, at = self._held.get(key, (float(self.pace.burst), now))
        tokens = min(float(self.pace.burst), tokens + max(0.0, now - at) / self.pace.every)
        self._held[key] = (tokens, now)
        self._held.move_to_end(key)
        while len(self._held) > self.limit:
            self._held.popitem(last=False)
        return tokens

    def wait(self, key: str) -> float:
        """0 if `key` may act now, else the seconds until it may."""
        with self._lock:
            tokens = self._tokens(key)
            return 0.0 if tokens >= 1.0 else (1.0 - tokens) * self.pace.every

    def spend(self, key: str) -> None:
        """One action done for `key`."""
        with self._lock:
            tokens = self._tokens(key)
            self._held[key] = (tokens - 1.0, self._held[key][1])


class Paces:
    """The buckets of paired phones and of signed-in ones."""

    def __init__(self, *, clock: Callable[[], float], paired: Pace = PAIRED,
                 signed_in: Pace = SIGNED_IN):
        self.paired = Buckets(paired, clock=clock)
        self.signed_in = Buckets(signed_in, clock=clock)


def too_fast_words(wait: float) -> tuple[str, int]:
    """What a phone held back is told, and the whole seconds it waits (Retry-After)."""
    seconds = max(1, math.ceil(wait))
    return (f"Not done: this phone is sending moves faster than a hand plays them. Try again "
            f"in {seconds} s (the box's buttons are never held back)."), seconds


def keep_pace() -> Callable[[], None]:
    """As the table is about to act for a phone (its pairing, turn and `seen` checked): a 429
    ApiError, nothing done, if the phone is past its pace; else what to call once the action
    is done (one the game refuses spends nothing). Call it and act holding the session's
    lock. A call with the PIN in a header and an action run directly (tests, tools) pass."""
    if not has_request_context():
        return _nothing
    table = parlour()
    if table.paces is None or request.headers.get(auth.PIN_HEADER) is not None:
        return _nothing
    if auth.logged_in():
        buckets, key = table.paces.signed_in, "pin:" + token_digest(session["login"])
    else:
        token = seat.phone_token()
        if not token or table.pairings is None or table.pairings.button(token) is None:
            return _nothing
        buckets, key = table.paces.paired, "phone:" + token_digest(token)
    wait = buckets.wait(key)
    if wait:
        words, seconds = too_fast_words(wait)
        raise ApiError(429, words, {"Retry-After": str(seconds)})
    return partial(buckets.spend, key)


def _nothing() -> None:
    pass
