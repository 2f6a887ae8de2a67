"""What the benchmarks share: summaries of timings, the I2C bus model, a recording OLED
interface, the machine's description, ports and a temporary data folder."""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for folder in (ROOT, ROOT / "tests"):        # the project, and the tests' shared fakes
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from simulated_table import PIN, SimulatedTable  # noqa: E402 - shared with the tests

I2C_HZ = 400_000
BITS_PER_BYTE = 9                  # 8 data bits + ACK
# Each I2C write transaction also carries START, the 7-bit address + R/W, the SSD1306 control
# byte (0x00 command / 0x40 data) and STOP: 2 bytes of 9 bits plus ~2 bit times.
TRANSACTION_BITS = 2 * BITS_PER_BYTE + 2
LUMA_FRAME_BYTES = 1024            # luma's ssd1306.display(): every byte, every frame
LUMA_FRAME_COMMAND = 6             # 0x21 c0 c1 0x22 p0 p1 before it


def bus_seconds(data_bytes: int, command_bytes: int, transactions: int) -> float:
    """Time on a 400 kHz I2C bus for these payload bytes in this many write transactions."""
    bits = (data_bytes + command_bytes) * BITS_PER_BYTE + transactions * TRANSACTION_BITS
    return bits / I2C_HZ


LUMA_FRAME_SECONDS = bus_seconds(LUMA_FRAME_BYTES, LUMA_FRAME_COMMAND, 2)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), linear between closest ranks."""
    data = sorted(values)
    if not data:
        return float("nan")
    if len(data) == 1:
        return data[0]
    pos = (len(data) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def summary(values: list[float], scale: float = 1.0, digits: int = 3) -> dict:
    """p50, p99, IQR, min, max and n of a sample (each value times `scale`)."""
    data = [v * scale for v in values]
    if not data:
        return {"n": 0}
    return {"p50": round(percentile(data, 50), digits), "p99": round(percentile(data, 99), digits),
            "p25": round(percentile(data, 25), digits), "p75": round(percentile(data, 75), digits),
            "min": round(min(data), digits), "max": round(max(data), digits),
            "mean": round(statistics.fmean(data), digits), "n": len(data)}


class RecordingSerial:
    """A luma serial interface (command/data) that keeps counts, like an OLED on I2C would see
    them: one write transaction per command() call, data() split the way luma's managed
    smbus2 i2c does (up to 4096 bytes a transaction)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.command_bytes = 0
        self.data_bytes = 0
        self.transactions = 0

    def command(self, *cmd: int) -> None:
        self.command_bytes += len(cmd)
        self.transactions += 1

    def data(self, data) -> None:
        n = len(data)
        self.data_bytes += n
        self.transactions += max(1, -(-n // 4096))

    def cleanup(self) -> None:
        pass

    def bus_seconds(self) -> float:
        return bus_seconds(self.data_bytes, self.command_bytes, self.transactions)


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model", "Hardware")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        cores = os.cpu_count()
    return {"cpu": model, "cores": cores, "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "system": f"{platform.system()} {platform.release()} {platform.machine()}",
            "date": time.strftime("%Y-%m-%d %H:%M:%S %z")}


def luma_device(serial):
    """luma's real ssd1306 driver on `serial` (its init sequence's full frame silenced)."""
    from luma.oled.device import ssd1306

    from firmware.oled.display import _luma_full_frame
    with _luma_full_frame():
        return ssd1306(serial)


# -- a real `parlour run --sim` on loopback ---------------------------------------------------

class Server(SimulatedTable):
    """`parlour run --sim` (tests/simulated_table.py) with its memory and CPU read from /proc."""

    def __init__(self, tmp: Path):
        super().__init__(tmp / "data", tmp, timeout=30.0)

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def processes(self) -> list[int]:
        """The program and every process under it (the chances worker, the resource tracker)."""
        children: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                children.setdefault(ppid, []).append(int(entry.name))
        found, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo.extend(children.get(pid, []))
        return found

    def box_memory_mib(self) -> dict:
        """RSS and PSS (shared pages split between their users) of all the box's processes,
        from /proc/<pid>/smaps_rollup; PSS is what they cost the machine together."""
        totals = {"rss": 0, "pss": 0}
        pids = self.processes()
        for pid in pids:
            try:
                lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
            except OSError:
                continue
            for line in lines:
                key = line.split(":")[0].lower()
                if key in totals:
                    totals[key] += int(line.split()[1])
        return {"processes": len(pids), "rss_mib": round(totals["rss"] / 1024, 1),
                "pss_mib": round(totals["pss"] / 1024, 1)}

    def cpu_seconds(self) -> float:
        """utime + stime of the process (all its threads), in seconds."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """A keep-alive HTTP/1.1 connection to the server (one per thread)."""

    def __init__(self, port: int, timeout: float = 10.0, source: str = "127.0.0.1"):
        """`source`: the loopback address it comes from (127.0.0.x: one phone each, as the
        server limits connections and streams per address)."""
        import http.client
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                               source_address=(source, 0))

    def get(self, path: str) -> tuple[int, bytes]:
        self.conn.request("GET", path)
        response = self.conn.getresponse()
        return response.status, response.read()

    def control(self, action: str, body: dict | None = None) -> dict:
        import json
        self.conn.request("POST", f"/api/control/{action}", body=json.dumps(body or {}),
                          headers={"Content-Type": "application/json", "X-Parlour-Pin": PIN})
        response = self.conn.getresponse()
        data = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{action}: {response.status} {data}")
        return data

    def close(self) -> None:
        self.conn.close()


def run_games_alone(doc: str, run, games_help: str) -> int:
    """A games bench run on its own: `--games N` and `--quick`, its figures printed as JSON."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help=games_help)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(json.dumps(run(args.quick, args.games), indent=1))
    return 0
