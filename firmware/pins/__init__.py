"""The table's hands as input events: gpiozero controls (buttons, encoder, LEDs, buzzer),
the knob's gestures, and the simulated panel that drives MockFactory pins."""
