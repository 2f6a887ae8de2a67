"""The device program: pins, controls, display, main loop, simulator and the parlour CLI.

The interfaces between its modules (config, controls, display, screens, controller, sim,
runner) and the web's DevicePanel are laid out in firmware/INTERFACES.md: keep to them.
"""
