"""Game store cases (firmware/system/gamelog.py), plain code for CPython (a temporary directory) and the
MicroPython unix port (real littlefs: vfs.VfsLfs2 on a RAM block device). tests/test_gamelog.py
runs every case under both. Each case gets a fresh, empty filesystem root from `new_root()`.
"""

import os
import sys

from firmware.system import gamelog as GL
from firmware.system import logformat as LF
from firmware.system import logread
from firmware.system.logboot import open_newest

MICRO = sys.implementation.name == "micropython"
_roots = [0, None]

START = "f1=B1,g1=B1 SN S a"


def new_root(blocks=40):
    """A fresh empty directory: a littlefs image (4 KB blocks, the Pico's progsize) under
    MicroPython (the previous one is unmounted), a temporary directory under CPython."""
    _roots[0] += 1
    if MICRO:
        from firmware.drivers import flashdev
        try:
            import vfs
        except ImportError:
            import os as vfs
        if _roots[1]:
            vfs.umount(_roots[1])  # the last case's image goes (it lives in the heap)
        path = "/lfs%d" % _roots[0]
        _roots[1] = path
        return flashdev.mount(flashdev.RamBlockDev(4096, blocks), path, True)
    import tempfile
    return tempfile.mkdtemp(prefix="gamelog-")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def play(gl, n_actions, undo_every=0, finish=True):
    n = gl.begin("cargocube", "polygon", "SN", START, None, 1, 0)
    steps = []
    for i in range(n_actions):
        p = bytes([i & 0x3F, (i * 7) & 0xFF])
        gl.append(p)
        steps.append((LF.ACTION, p))
        if undo_every and i % undo_every == undo_every - 1:
            gl.undo()
            steps.append((LF.UNDO, b""))
    if finish:
        gl.finish()
        steps.append((LF.FINISH, b""))
    return n, steps


def recs_count(reader):
    return reader.count, reader.actions, reader.undos


def whole(gl, n):
    return logread.read(gl, n, 0, logread.size(gl, n))


def case_log_round_trip():
    gl = GL.GameLog(new_root(), "b1")
    n, steps = play(gl, 30, 7)
    check(n == 1, "first game is number 1")
    h, recs, good, problem = LF.parse(whole(gl, n))
    check(problem is None and good == logread.size(gl, n), "clean log")
    check(recs == steps, "records as logged")
    check((h.kind, h.variant, h.seats, h.start, h.board, h.game, h.rules) ==
          ("cargocube", "polygon", "SN", START, "b1", 1, 1), "header fields")
    check(logread.games(gl) == [(1, logread.size(gl, 1), LF.FINISH)], "listed as over")
    check(logread.read(gl, 1, 4, 1) == b"\x01", "read at an offset")
    check(logread.read(gl, 1, logread.size(gl, 1), 10) == b"", "read past the end")


def case_many_games_kept_listed_and_numbered_for_good():
    root = new_root(60)
    gl = GL.GameLog(root, "b1")
    for k in range(12):
        play(gl, 5 + k, 0, k % 3 != 2)
    gl.close()  # the last one (k = 11) was open: abandoned
    listed = logread.games(gl)
    check([g[0] for g in listed] == list(range(1, 13)), "12 games listed oldest first")
    states = [g[2] for g in listed]
    check(states == [LF.FINISH if k % 3 != 2 else LF.ABANDON for k in range(12)],
          "over/abandoned: %r" % (states,))
    for g in listed:
        check(g[1] == logread.size(gl, g[0]), "sizes")
    logread.delete(gl, 3)
    logread.delete(gl, 12)
    check([g[0] for g in logread.games(gl)] == [1, 2] + list(range(4, 12)), "deleted two")
    for n in gl.numbers():
        logread.delete(gl, n)
    check(logread.games(gl) == [], "all deleted")
    # Numbers are never reused, not even after every game was deleted and the store reopened.
    gl2 = GL.GameLog(root, "b1")
    n, _ = play(gl2, 1)
    check(n == 13, "next number after deleting everything: %d" % n)
    try:
        logread.read(gl2, 3, 0, 10)
        check(False, "read of a deleted game raises")
    except ValueError:
        pass


def case_current_game_is_not_deleted_unless_forced():
    gl = GL.GameLog(new_root(), "b1")
    n, _ = play(gl, 3, 0, False)
    try:
        logread.delete(gl, n)
        check(False, "deleting the current game raises")
    except ValueError as e:
        check("being played" in str(e), str(e))
    check(gl.numbers() == [n], "still there")
    logread.delete(gl, n, True)
    check(gl.numbers() == [] and gl.current() == 0, "forced")


def case_resume_newest_open_game():
    root = new_root()
    gl = GL.GameLog(root, "b1")
    play(gl, 4)
    n, steps = play(gl, 9, 4, False)
    # A reboot: a new store on the same flash.
    gl2 = GL.GameLog(root, "b1")
    r = open_newest(gl2)
    check(r is not None, "resumed")
    h, recs, dropped = r
    recs = list(recs)
    check(h.game == n and recs == steps and dropped == 0, "the open game, all of it")
    check((recs_count(r[1])) == (len(steps), 9, 2), "counts after the replay")
    check(gl2.current() == n, "it is the current game")
    gl2.append(b"\x01\x02")
    gl2.finish()
    h, recs, good, problem = LF.parse(whole(gl2, n))
    check(problem is None and recs == steps + [(LF.ACTION, b"\x01\x02"), (LF.FINISH, b"")],
          "appends go on after a resume")
    check(open_newest(GL.GameLog(root, "b1")) is None, "a finished game is not resumed")


def case_undo_after_the_end_reopens():
    root = new_root()
    gl = GL.GameLog(root, "b1")
    n, steps = play(gl, 3)
    gl.finish()  # again: no second finish record
    gl.undo()
    check(logread.games(gl)[0][2] == 0, "open again")
    r = open_newest(GL.GameLog(root, "b1"))
    check(r is not None and list(r[1]) == steps + [(LF.UNDO, b"")], "resumable")


def case_torn_tail_is_cut_on_resume():
    root = new_root()
    gl = GL.GameLog(root, "b1")
    n, steps = play(gl, 5, 0, False)
    with open(gl.path(n), "ab") as f:
        f.write(bytes([LF.TAGS[2], 0x05]))  # half a record: what a non-atomic store could leave
    found = whole(gl, n)
    gl2 = GL.GameLog(root, "b1")
    h, recs, dropped = open_newest(gl2)
    check(list(recs) == steps and dropped == 2, "good records kept, 2 bytes dropped")
    with open(gl.path(n) + ".bad", "rb") as f:
        check(f.read() == found, "the log as found is kept beside it")
    check(GL.GameLog(root, "b1").numbers() == [n], "and is no game of the store")
    check(logread.size(gl2, n) == len(whole(gl, n)) and logread.size(gl2, n) == gl2._size, "file cut")
    gl2.append(b"\x07\x08")
    h, recs, good, problem = LF.parse(whole(gl2, n))
    check(problem is None and recs[-1] == (LF.ACTION, b"\x07\x08"), "clean after")


def case_unreadable_newest_log_is_left_alone():
    root = new_root()
    gl = GL.GameLog(root, "b1")
    n, _ = play(gl, 2, 0, False)
    raw = whole(gl, n)
    with open(gl.path(n), "wb") as f:
        f.write(b"XXXX" + raw[4:])
    check(open_newest(GL.GameLog(root, "b1")) is None, "no resume")
    check(logread.size(GL.GameLog(root, "b1"), n) == len(raw), "file untouched")


def case_begin_abandons_the_open_game_and_tmp_files_go():
    root = new_root()
    gl = GL.GameLog(root, "b1")
    a, _ = play(gl, 2, 0, False)
    b, _ = play(gl, 2, 0, False)
    check(logread.state(gl, a) == LF.ABANDON and logread.state(gl, b) == 0, "a abandoned, b open")
    with open(gl.dir + "/g00099.log.tmp", "wb") as f:
        f.write(b"half a header")
    GL.GameLog(root, "b1")
    check("g00099.log.tmp" not in os.listdir(gl.dir), "leftover tmp removed")


def case_low_space_refuses_a_new_game():
    if MICRO:
        root = new_root(24)  # 96 KB of littlefs: a few 20-KB logs fill it
        gl = GL.GameLog(root, "b1", 40 * 1024)
        started = 0
        while True:
            try:
                n, _ = play(gl, 0, 0, False)
            except GL.FlashLow as e:
                check("flash low" in str(e) and "sync" in str(e), str(e))
                break
            started += 1
            for i in range(1600):  # ~6 KB of log each (2 blocks of littlefs)
                gl.append(b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c")
            gl.finish()
            check(started < 50, "never got low")
        check(gl.low() and started >= 2, "low after %d games" % started)
        count = len(logread.games(gl))
        check(count == started, "no game dropped to make room")
        logread.delete(gl, gl.numbers()[0])
        logread.delete(gl, gl.numbers()[0])
        check(not gl.low(), "room again after deleting synced games")
        play(gl, 1)
    else:
        gl = GL.GameLog(new_root(), "b1", 1 << 62)
        check(gl.low(), "low")
        try:
            gl.begin("cargocube", "polygon", "SN", START)
            check(False, "refused")
        except GL.FlashLow:
            pass
        check(logread.games(gl) == [], "nothing written")
        gl.reserve = 0
        play(gl, 1)


def case_full_flash_reads_as_full():
    # littlefs counts blocks in use best-effort; near full MicroPython's statvfs free count
    # wraps below zero (seen: 4294967295 free blocks): the store must still read it as full.
    root = new_root(24)
    gl = GL.GameLog(root, "b1", 0)
    k = 0
    try:
        while k < 200:
            with open(root + "/fill%d" % k, "wb") as f:
                f.write(bytes(1100))
            k += 1
    except OSError:
        pass
    if MICRO:
        check(k < 200, "the flash filled up")
        check(gl.free_bytes() < 2 * 4096, "free %d" % gl.free_bytes())
        gl.reserve = 4096
        check(gl.low(), "low when full")


def case_littlefs_commits_on_flush_and_close_only():
    # What the store relies on: MicroPython's VfsLfs2 file flush() (lfs_file_sync) and close()
    # commit; bytes written and not yet flushed are not in the image after a power cut.
    if not MICRO:
        return
    from firmware.drivers import flashdev
    try:
        import vfs
    except ImportError:
        import os as vfs
    dev = flashdev.RamBlockDev(4096, 16)
    flashdev.mount(dev, "/fl", True)
    snaps = []
    f = open("/fl/x", "wb")
    f.write(b"abc")
    snaps.append(bytes(dev.data))   # written, not flushed
    f.flush()
    snaps.append(bytes(dev.data))   # flushed
    f.write(b"def")
    snaps.append(bytes(dev.data))   # more, not flushed
    f.close()
    snaps.append(bytes(dev.data))   # closed
    vfs.umount("/fl")
    seen = []
    for img in snaps:
        flashdev.mount(flashdev.RamBlockDev(4096, 16, bytearray(img)), "/fl2")
        with open("/fl2/x", "rb") as g:
            seen.append(g.read())
        vfs.umount("/fl2")
    check(seen == [b"", b"abc", b"abc", b"abcdef"], "seen after a cut: %r" % (seen,))


CASES = [k for k in sorted(globals()) if k.startswith("case_")]


def run_all():
    from fwcases import run_cases
    run_cases(globals())
