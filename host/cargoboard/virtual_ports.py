"""Where the running virtual boards are served, so that `cargoboard ports` lists them and a
command without --port finds them (link.candidate_ports) as it finds a board on USB.

`cargoboard sim --pty PATH` registers PATH while it serves it (Runner.serve_on): one small
file per sim in a folder of this user's, $CARGOBOARD_SIM_PORTS if set (the tests give each
test its own), else $XDG_RUNTIME_DIR/cargoboard/sims, else cargoboard-sims-UID in the temp
folder; the file is removed when the sim stops. A file whose sim is gone (killed, so it could
not remove it) or whose PATH no longer leads to that sim's pseudo-terminal is ignored and
removed by whoever reads the folder next. A folder another user owns or may write is not
used: nothing is registered there, nothing read from it.

A sim killed outright (SIGKILL, a crash of the machine's session) leaves its PATH, a link to
/dev/pts/N, and the system gives N to the next program that opens a pseudo-terminal (a terminal
window, another sim). stale_link tells such a link by its age: a sim makes its link after its
pty, so a link older than the pty it leads to was made for an earlier one. The host tools
refuse to open it (they would speak frames into another program's terminal, and hold it: `serve`
follows an unplugged board's PATH until it is back), and `sim --pty PATH` replaces it."""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from pathlib import Path

from .clikit import process_runs, read_at_most

ENV = "CARGOBOARD_SIM_PORTS"
MAX_RECORD = 4096


def folder() -> Path:
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "cargoboard" / "sims"
    return Path(tempfile.gettempdir()) / ("cargoboard-sims-%d" % os.getuid())


def _ours(path) -> bool:
    """Whether path is a folder of this user's that no one else may write (a folder someone
    else made in the shared temp folder could list their ports as ours)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


def register(port, pty, target="unix"):
    """Record that this process serves the board's pty at the link port; the record's path
    (for unregister), or None when the folder cannot be used (the sim is then served all the
    same, found only with --port)."""
    where = folder()
    try:
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _ours(where):
            return None
        entry = where / ("%d-%s.json" % (os.getpid(), os.urandom(3).hex()))
        part = entry.with_suffix(".part")
        part.write_text(json.dumps({"port": os.path.abspath(port), "pty": pty,
                                    "target": target}))
        os.replace(part, entry)  # a reader sees the whole record or none
        return entry
    except OSError:
        return None


def unregister(entry):
    if entry is not None:
        try:
            os.unlink(entry)
        except OSError:
            pass


def _alive(pid) -> bool:
    """Whether the sim of this id runs: the folder is this user's alone, so another user's
    process of that id got the number after the sim was gone."""
    return process_runs(pid, others_count=False)


# The names register() gives (a record, and the part it writes first): the only files of the
# folder this module reads or removes. $CARGOBOARD_SIM_PORTS may name a folder that holds the
# user's own files; those are none of ours.
_RECORD = re.compile(r"^(\d+)-[0-9a-f]{6}\.(json|part)$")


def running(targets=None):
    """The running virtual boards: (port, description), oldest record first; stale records
    (and a part a register() that was killed left) are removed on the way. targets: only
    boards of these `--target`s (None: all)."""
    where = folder()
    if not _ours(where):
        return []
    found = []
    entries = []
    for entry in where.iterdir():
        m = _RECORD.match(entry.name)
        if m is None:
            continue
        if m.group(2) == "part":
            if not _alive(int(m.group(1))):
                unregister(entry)
            continue
        entries.append(entry)
    for entry in sorted(entries, key=lambda p: (_mtime(p), p.name)):
        try:
            pid = int(entry.name.split("-", 1)[0])
            if not entry.is_file():  # (a FIFO would block the read)
                raise ValueError(entry)
            with entry.open("rb") as f:
                text = read_at_most(f, MAX_RECORD)  # a record is ~150 bytes
            rec = json.loads(text)
            port, pty = rec["port"], rec["pty"]
            live = _alive(pid) and os.readlink(port) == pty and os.path.exists(pty)
        except (ValueError, KeyError, TypeError, OSError):
            live = False
        if not live:
            unregister(entry)
            continue
        target = rec.get("target", "unix")
        if targets is None or target in targets:
            found.append((port, "virtual board (cargoboard sim --target %s, pid %d)"
                          % (target, pid)))
    return found


def _mtime(path):
    try:
        return path.stat().st_mtime
    except OSError:
        return 0


# How much older than its pseudo-terminal a link must be to be taken for an earlier sim's: a sim
# makes its link milliseconds after its pty (the clocks of the two times tick in jiffies).
STALE_LINK_S = 1.0


def stale_link(path):
    """The one-line reason not to open path when it is a virtual board's link (to /dev/pts/N)
    that its sim left (stale: the pty is gone, or newer than the link, given since to another
    program); None for anything else (a live sim's link, a device, a file)."""
    try:
        if not os.path.islink(path):
            return None
        target = os.readlink(path)
        made = os.lstat(path).st_mtime
    except OSError:
        return None
    if not target.startswith("/dev/pts/"):
        return None
    try:
        given = os.stat(target).st_ctime  # when the system gave out this /dev/pts/N
    except FileNotFoundError:
        return ("%s links to %s, which is gone: the virtual board that made the link no longer "
                "runs (one killed outright leaves its link); start it again (cargoboard sim "
                "--pty %s)" % (path, target, path))
    except OSError:
        return None
    if given > made + STALE_LINK_S:
        return ("%s is a link an earlier virtual board left to %s, which the system has since "
                "given to another program (a terminal, another sim): not opening it; start the "
                "virtual board again (cargoboard sim --pty %s replaces the link) or remove the "
                "link" % (path, target, path))
    return None
