"""The spin animation: frames rendered per second (Animation.frame -> screens.spin ->
Display.show on luma's ssd1306 over a recording interface), and I2C bytes per frame with the
page updates of firmware/oled/pages.py against luma's whole 1024-byte frames, as time on a
400 kHz bus."""

from __future__ import annotations

import json
import time

import common
from common import RecordingSerial, luma_device, summary
from companion.games import GAMES
from firmware.oled import screens
from firmware.oled.animation import FPS, Animation
from firmware.config import DisplayConfig
from firmware.oled.display import Display

CASES = {   # what spins: the game whose randomizer it is, and the values it stops on
    "indicator (2 arrows)": ("cats-and-mice", (3, 5)),
    "spinner (1 arrow)": ("cats-and-dogs", (4,)),
    "dice (2)": ("kat-en-muis", (6, 2)),
}
STRENGTH = 1.0                  # the longest spin: 3 s, 90 frames at 30 fps


def one_spin(randomizer: dict, values: tuple[int, ...]) -> dict:
    """Every frame of one spin at FPS on a fake clock: wall time and bytes of each."""
    now = [0.0]
    animation = Animation(randomizer, values, strength=STRENGTH, name="Ann",
                          clock=lambda: now[0])
    serial = RecordingSerial()
    display = Display(DisplayConfig(), device=luma_device(serial))
    display.show(screens.message("Ann", "flick"))        # the screen before the spin
    seconds, data, commands, bus = [], [], [], []
    while True:
        serial.reset()
        start = time.perf_counter()
        display.show(screens.spin(animation.frame()))
        seconds.append(time.perf_counter() - start)
        data.append(serial.data_bytes)
        commands.append(serial.command_bytes)
        bus.append(serial.bus_seconds())
        if animation.done:
            break
        now[0] += 1 / FPS
    return {"seconds": seconds, "data": data, "commands": commands, "bus": bus}


def run(quick: bool = False) -> dict:
    runs = 3 if quick else 7
    out = {}
    for label, (game, values) in CASES.items():
        randomizer = GAMES[game].randomizer.to_json()
        spins = [one_spin(randomizer, values) for _ in range(runs)]
        fps = [len(s["seconds"]) / sum(s["seconds"]) for s in spins]
        frame_ms = [t for s in spins for t in s["seconds"]]
        first = spins[0]                                  # bytes are the same every run
        data = first["data"][1:]                          # frames after the first
        bus = first["bus"][1:]
        mean_bytes = sum(d + c for d, c in zip(data, first["commands"][1:])) / len(data)
        mean_bus = sum(bus) / len(bus)
        out[label] = {
            "frames": len(first["seconds"]),
            "render_fps": summary(fps, digits=0),
            "frame_cpu_ms": summary(frame_ms, 1000),
            "bytes_per_frame": summary([d + c for d, c in zip(data, first["commands"][1:])],
                                       digits=0),
            "bytes_vs_luma": round(mean_bytes / (common.LUMA_FRAME_BYTES
                                                 + common.LUMA_FRAME_COMMAND), 3),
            "bus_ms_per_frame": summary(bus, 1000),
            "luma_bus_ms_per_frame": round(common.LUMA_FRAME_SECONDS * 1000, 2),
            # A frame takes CPU time then bus time (one thread does both): the rate it can hold.
            "sustainable_fps_at_400khz": round(
                1 / (sum(frame_ms) / len(frame_ms) + mean_bus), 1),
            "luma_full_frame_fps_at_400khz": round(
                1 / (sum(frame_ms) / len(frame_ms) + common.LUMA_FRAME_SECONDS), 1),
        }
    out["goal"] = {"fps": FPS, "frame_budget_ms": round(1000 / FPS, 2)}
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
