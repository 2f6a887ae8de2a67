"""Work beside the device loop, never in its way: the chances worker (a process) and the Pi
player (a thread)."""
