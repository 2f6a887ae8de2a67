"""What `parlour run` refuses before it starts: a data directory another table holds (its pid
named, exit 2), a bad PIN from any source (one line, exit 2), and a Pi it cannot recognise
(an unreadable model file is "cannot tell", never a quiet simulated table)."""

from __future__ import annotations

import os
import re
import subprocess

from pathlib import Path

import pytest

from companion.errors import ParlourError
from firmware import runner
from firmware.config import Config, load_config
from firmware.datadir.datalock import DataDirBusy, DataDirLock
from reliability_support import request
from simulated_table import PIN, ROOT, SimulatedTable, free_port, parlour_command, quiet_env


def parlour_run(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(parlour_command("run", "--sim", "--host", "127.0.0.1", "--port",
                                          str(free_port()), *args),
                          cwd=ROOT, env=quiet_env(tmp_path), capture_output=True, text=True,
                          timeout=60)


# -- one table per data directory ----------------------------------------------------------

def test_datalock_second_holder_is_refused_with_the_first_ones_pid(tmp_path):
    first = DataDirLock(tmp_path / "data")
    try:
        with pytest.raises(DataDirBusy, match=f"in use by process {os.getpid()} "):
            DataDirLock(tmp_path / "data")
    finally:
        first.release()
    DataDirLock(tmp_path / "data").release()        # free again once released


@pytest.mark.slow
def test_datalock_two_parlour_runs_on_one_data_directory(tmp_path):
    data = tmp_path / "data"
    with SimulatedTable(data, tmp_path) as table:
        second = parlour_run(tmp_path, "--data-dir", str(data), "--pin", PIN)
        assert second.returncode == 2, second.stderr
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and f"process {table.pid}" in lines[0], second.stderr
        assert "Traceback" not in second.stderr
        assert request(table.port, "GET", "/api/state")[0] == 200   # the first one serves on
        # the way out it names: a second table with its own data directory (and port)
        assert re.search(f'make run ARGS="--sim --host 127.0.0.1 --pin {PIN} --data-dir '
                         f'{re.escape(str(data))}-2 --port [0-9]+"$', lines[0]), lines[0]
        with SimulatedTable(Path(f"{data}-2"), tmp_path) as beside:
            assert beside.first_state["phase"] == "idle"
        table.kill9()                                  # the kernel lets go of the lock
    with SimulatedTable(data, tmp_path) as again:
        assert again.first_state["phase"] == "idle"
        out, err = again.stop()
    assert again.proc.returncode == 0 and "Traceback" not in err


# -- the PIN: 4-8 ASCII digits from any source --------------------------------------------

@pytest.mark.parametrize("pin", ["a", "", "123", "123456789", "12 34", "\uff11\uff12\uff13\uff14",
                                 "1234\n", "\u0663\u0663\u0663\u0663"])
def test_pin_from_the_command_line_is_checked(tmp_path, capsys, pin):
    status = runner.run(sim=True, host="127.0.0.1", port=0, data_dir=str(tmp_path / "d"),
                        config_path=None, pin=pin)
    err = capsys.readouterr().err
    assert status == 2 and "--pin: expected 4-8 digits" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "d").exists()               # nothing started, nothing written


def test_pin_from_a_config_named_by_the_environment_is_checked(tmp_path):
    config = tmp_path / "parlour.toml"
    config.write_text('pin = "12a4"\n')
    with pytest.raises(ParlourError, match="pin: expected 4-8 digits"):
        load_config(env={"PARLOUR_CONFIG": str(config), "HOME": str(tmp_path)})


def test_pin_bad_on_the_real_command_line_is_one_line_and_status_2(tmp_path):
    done = parlour_run(tmp_path, "--data-dir", str(tmp_path / "data"), "--pin", "a")
    assert done.returncode == 2
    assert done.stderr.strip() == "parlour: --pin: expected 4-8 digits (e.g. \"2468\"), got 'a'"


# -- Pi detection ------------------------------------------------------------------------------

def test_pi_only_a_readable_model_file_means_a_pi(tmp_path):
    model = tmp_path / "model"
    assert runner.on_pi(model) is False                # none: a laptop
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\x00")
    assert runner.on_pi(model) is True
    unreadable = tmp_path / "dir-model"
    unreadable.mkdir()                                 # exists, cannot be read (even as root)
    assert runner.on_pi(unreadable) is None


def test_pi_unreadable_model_file_stops_start_up_instead_of_simulating(tmp_path, monkeypatch,
                                                                         capsys):
    unreadable = tmp_path / "model"
    unreadable.mkdir()
    monkeypatch.setattr(runner, "PI_MODEL", unreadable)
    status = runner.run(host="127.0.0.1", port=0, data_dir=str(tmp_path / "d"),
                        config_path=None, pin=PIN)
    out, err = capsys.readouterr()
    assert status == 2 and "cannot tell whether this is a Raspberry Pi" in err
    assert "--sim" in err and len(err.strip().splitlines()) == 1
    assert "simulated" not in out and not (tmp_path / "d").exists()


def test_pi_config_or_sim_flag_decides_when_the_tree_cannot_tell(tmp_path, monkeypatch):
    unreadable = tmp_path / "model"
    unreadable.mkdir()
    monkeypatch.setattr(runner, "PI_MODEL", unreadable)
    assert runner.simulated(Config(hardware="simulated")) is True
    assert runner.simulated(Config(hardware="pi")) is False
    with pytest.raises(ParlourError, match="cannot tell"):
        runner.simulated(Config())
    monkeypatch.setattr(runner, "PI_MODEL", tmp_path / "absent")
    assert runner.simulated(Config()) is True


def test_pi_hardware_key_in_the_config_is_checked(tmp_path):
    config = tmp_path / "parlour.toml"
    config.write_text('hardware = "maybe"\n')
    with pytest.raises(ParlourError, match="hardware: expected one of auto, pi, simulated"):
        load_config(config)
    config.write_text('hardware = "pi"\n')
    assert load_config(config).hardware == "pi"
