"""The pages of the text on the box's screen (a long outcome or instruction, the turn screen's
words, a question, a shared win): which page is up, how many there are, when it turned and
the words drawn on it. Each screen says how many pages it has as it is drawn; the controller
turns them, by the knob or by themselves every PAGE_SECONDS."""

from __future__ import annotations

from collections.abc import Callable

PAGE_SECONDS = 4.0           # each page of a long outcome or instruction


class Pager:
    """The page up of the screen's text, its page count as last drawn, when it turned, and
    the words drawn on it (for tests and logs)."""

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.page, self.count, self.at = 0, 1, clock()
        self.text: list[str] = []          # the words of the page drawn last
        self._about: tuple = ()            # what the text up says (`new_text`)

    @property
    def on_last(self) -> bool:
        return self.page >= self.count - 1

    def turn_to(self, page: int) -> None:
        self.page, self.at = page, self.clock()

    def turn_by(self, detents: int) -> None:
        """The knob's turn: `detents` pages on (or back), within the pages there are."""
        self.turn_to(max(0, min(self.count - 1, self.page + detents)))

    def due(self) -> float:
        """When the page up turns by itself, if there are more."""
        return self.at + PAGE_SECONDS

    def turns_by_itself(self, now: float) -> bool:
        return self.count > 1 and now >= self.due()

    def read(self, now: float) -> bool:
        """The page up has been up long enough to read: PAGE_SECONDS among more pages; one
        page alone, at once (the screen's own time covers it)."""
        return now >= self.at + (PAGE_SECONDS if self.count > 1 else 0)

    def new_text(self, about: tuple) -> bool:
        """Whether the text up is about something else than when last asked (`about` says
        what: the screen, its words, the game's state)."""
        if about == self._about:
            return False
        self._about = about
        return True

    def blank(self) -> None:
        """Before a frame: one page and no words, until the screen drawn says otherwise."""
        self.count, self.text = 1, []

    def go_round(self, count: int) -> None:
        """The screen drawn has `count` pages that go round: the page up is taken among them."""
        self.count = count
        self.page %= count

    def stop_at_last(self, count: int) -> None:
        """The screen drawn has `count` pages that stop at the last: none is up past it."""
        self.count = count
        self.page = min(self.page, count - 1)
