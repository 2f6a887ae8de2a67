"""The small files kept beside the store (the PIN, the table's id, the hotspot's password,
paired phones) last through a power cut: the file is synced, renamed into place, and then its
folder is synced, where the rename itself is kept. Without that last step a PIN made at the
first start, or a phone paired a moment before the power went, could be gone after it."""

from __future__ import annotations

import os
import stat

import pytest

from firmware.datadir import keys
from web.access import keptfile


@pytest.fixture
def steps(monkeypatch):
    """What reaches the disk, in order: ("file", name) and ("folder", path) syncs, renames."""
    done: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        what = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        done.append((what, os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(source, target):
        real_replace(source, target)
        done.append(("rename", str(target)))

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return done


@pytest.mark.parametrize("make", [keys.stored_pin, keys.hotspot_password, keys.table_id],
                         ids=["pin", "hotspot-password", "table-id"])
def test_kept_files_a_first_file_is_synced_in_its_folder_after_the_rename(tmp_path, steps,
                                                                          make):
    kept = make(tmp_path)
    assert kept and make(tmp_path) == kept
    renames = [i for i, (what, _) in enumerate(steps) if what == "rename"]
    assert len(renames) == 1
    assert ("folder", str(tmp_path)) in steps[renames[0] + 1:], steps


def test_kept_files_a_phone_paired_is_synced_in_its_folder(tmp_path, steps):
    keptfile.write_kept(tmp_path / "phones.json", {"seat": 1})
    assert steps[-1] == ("folder", str(tmp_path))
    assert keptfile.read_kept(tmp_path / "phones.json") == {"seat": 1}


def test_kept_files_a_folder_that_cannot_be_synced_leaves_the_file_written(tmp_path,
                                                                            monkeypatch):
    real_fsync = os.fsync

    def no_folder_sync(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(22, "Invalid argument")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", no_folder_sync)
    keptfile.write_private(tmp_path / "pin", b"123456")
    assert (tmp_path / "pin").read_bytes() == b"123456"
