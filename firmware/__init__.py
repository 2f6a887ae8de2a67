"""The device program: pins, controls, display, main loop, simulator and the parlour CLI.

config (TOML) -> controls (gpiozero pins -> InputEvents) -> controller (screens as a table,
session calls) -> screens (PIL frames) -> display (changed OLED pages only); runner composes
them with the store, the session and the web app; sim drives the same pins for /device.
"""
