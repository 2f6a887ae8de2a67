"""The OLED: the screens drawn as 1-bit images, the spin's animation, what each screen shows
(views), and sending the frames to the display, changed pages only."""
