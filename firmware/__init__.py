"""The device program: pins, controls, display, main loop, simulator and the parlour CLI."""
