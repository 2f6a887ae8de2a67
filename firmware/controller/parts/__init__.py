"""The parts of the box's screen state that are classes of their own, each with its rules
and its own tests: the notice up, the pages, the result up and a change held back, the changes
missed under another screen, the inputs a moment late and the start screen's codes."""
