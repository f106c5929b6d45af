# Power cuts on real littlefs (MicroPython's vfs.VfsLfs2 on a RAM block device), run under the
# MicroPython unix port by tests/test_log_powercut.py.
#
#   driver_powercut.py STEPS_FILE GEOMETRY FIRST STRIDE [LIMIT]
#
# STEPS_FILE: the game to log (tests/logsteps.py: `a HEX` an action's payload, `u` an undo,
# `f` the finish, one a line). GEOMETRY: block_size:blocks:progsize. The flash first holds an
# older finished game (logged from the same steps), then the long game is logged from begin() on.
#
# For every cut K = FIRST, FIRST + STRIDE, ... the whole run starts again on a copy of the flash
# image, and the K-th block operation (a writeblocks call or an erase) is cut: for even K
# nothing of it reaches the image, for odd K the first half of its bytes does (a torn
# program/erase), and that and every later block operation fails (see CutDev). The image as
# it is then is mounted afresh and the game resumed (firmware/system/logboot.py's open_newest,
# as at boot): it must hold every step completed before the cut and at most the one in flight;
# the older game must be untouched; every 8th cut the game then goes on to its end on the
# remounted flash and must parse clean. The sweep ends at the first K the run completes
# without reaching (all block operations cut once).
#
# Prints `cuts N ok M ops T` (N cuts tried, M passed, T block operations of the whole run),
# one `FAIL ...` line per failure.

import gc
import sys

try:
    import vfs
except ImportError:
    import os as vfs

from firmware.drivers import flashdev
from firmware.system import gamelog
from firmware.system import logformat as LF
from firmware.system import logread
from firmware.system.logboot import open_newest
from logsteps import as_records, log_step, needs_version, read_steps


EIO = -5


class CutDev(flashdev.RamBlockDev):
    """A RAM flash whose power goes away at block operation cut_at (1-based; 0 = never): that
    operation is torn (nothing or its first half reaches the image) and it and every later
    operation fail with EIO. The device returns the error rather than raising inside the
    block-device callback: a Python exception would unwind through littlefs's C code
    (longjmp) and leave its open-file list pointing into dead stack frames, which the
    finalisers of the files it left open would then walk. With the error littlefs unwinds
    by itself and the logger sees OSError, as it would see a dying flash."""

    def __init__(self, block_size, blocks, data, cut_at):
        flashdev.RamBlockDev.__init__(self, block_size, blocks, data)
        self.ops = 0
        self.cut_at = cut_at

    def dead(self):
        return self.cut_at > 0 and self.ops >= self.cut_at

    def readblocks(self, block, buf, offset=0):
        if self.dead():
            return EIO
        flashdev.RamBlockDev.readblocks(self, block, buf, offset)
        return 0

    def writeblocks(self, block, buf, offset=None):
        if self.dead():
            return EIO
        self.ops += 1
        if self.ops == self.cut_at:
            if self.cut_at & 1:
                a = block * self.block_size + (offset or 0)
                h = len(buf) // 2
                self.data[a:a + h] = buf[:h]
            return EIO
        flashdev.RamBlockDev.writeblocks(self, block, buf, offset)
        return 0

    def ioctl(self, op, arg):
        if op == 6:
            if self.dead():
                return EIO
            self.ops += 1
            if self.ops == self.cut_at:
                if self.cut_at & 1:
                    bs = self.block_size
                    a = arg * bs
                    self.data[a:a + bs // 2] = b"\xff" * (bs // 2)
                return EIO
        return flashdev.RamBlockDev.ioctl(self, op, arg)


START = "f1=B1,g1=B1 SN S a"


def play(gl, steps, first=0):
    """Log steps[first:] (step -1 = begin). Returns the index of the step in flight when a cut
    came (len(steps) if none)."""
    i = first
    try:
        if first < 0:
            gl.begin("cargocube", "polygon", "SN", START, "cutboard", 1, 0,
                     needs_version(steps))
            i = 0
        while i < len(steps):
            log_step(gl, steps[i])
            i += 1
    except OSError:
        return i  # the power went away during step i
    return len(steps)


def main():
    steps = read_steps(sys.argv[1])
    bs, blocks, prog = [int(x) for x in sys.argv[2].split(":")]
    first = int(sys.argv[3])
    stride = int(sys.argv[4])
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else 1 << 30

    # The flash before the game: formatted, one older game logged to its end.
    base = flashdev.RamBlockDev(bs, blocks)
    vfs.VfsLfs2.mkfs(base, progsize=prog)
    vfs.mount(vfs.VfsLfs2(base, progsize=prog), "/base")
    gl = gamelog.GameLog("/base", "cutboard")
    play(gl, steps, -1)
    old_no = gl.current()
    old_raw = logread.read(gl, old_no, 0, logread.size(gl, old_no))
    gl.close()
    vfs.umount("/base")
    base_img = bytes(base.data)
    base = gl = None
    n_steps = len(steps)

    # The run without a cut: how many block operations it takes.
    dev = CutDev(bs, blocks, bytearray(base_img), 0)
    vfs.mount(vfs.VfsLfs2(dev, progsize=prog), "/run")
    play(gamelog.GameLog("/run", "cutboard"), steps, -1)
    vfs.umount("/run")
    total = dev.ops
    dev = None

    tried = ok = 0
    k = first
    while k <= total and tried < limit:
        gc.collect()
        dev = CutDev(bs, blocks, bytearray(base_img), k)
        inflight = -2
        try:
            vfs.mount(vfs.VfsLfs2(dev, progsize=prog), "/run")
            gl = gamelog.GameLog("/run", "cutboard")
            inflight = play(gl, steps, -1)
        except OSError:
            inflight = -1  # cut while mounting or opening the store: before begin()
        try:
            vfs.umount("/run")
        except Exception:
            pass
        if inflight >= n_steps:
            break  # the run did not reach block operation k
        tried += 1
        problem = check(dev, bs, blocks, prog, steps, inflight, old_no, old_raw, k)
        if problem:
            print("FAIL cut %d (step %d of %d): %s" % (k, inflight, n_steps, problem))
        else:
            ok += 1
        k += stride
    print("cuts %d ok %d ops %d" % (tried, ok, total))


def check(dev, bs, blocks, prog, steps, inflight, old_no, old_raw, k):
    img = flashdev.RamBlockDev(bs, blocks, bytearray(dev.data))
    try:
        vfs.mount(vfs.VfsLfs2(img, progsize=prog), "/chk")
    except OSError as e:
        return "the flash does not mount after the cut: %r" % (e,)
    try:
        gl = gamelog.GameLog("/chk", "cutboard")
        if logread.read(gl, old_no, 0, logread.size(gl, old_no)) != old_raw:
            return "the older game changed"
        game = old_no + 1
        if game not in gl.numbers():
            if inflight >= 0:
                return "no log of the game, %d steps were done" % inflight
            return None  # cut during begin(): no game yet, nothing was lost
        raw = logread.read(gl, game, 0, logread.size(gl, game))
        h, recs, good, problem = LF.parse(raw)
        if h is None:
            return "the game's log has no header: %s" % problem
        if problem:
            return "torn log (littlefs should never leave one): %s" % problem
        have = len(recs)
        done = inflight if inflight > 0 else 0
        if have != done and have != done + 1:
            return "%d records, %d steps were done (at most the one in flight may be lost)" % (
                have, done)
        if recs != as_records(steps[:have]):
            return "records differ from the steps logged"
        r = open_newest(gl)
        if have and recs[-1][0] == LF.FINISH:
            if r is not None:
                return "a finished game was resumed"
            return None
        if r is None:
            return "the open game did not resume"
        h, recs, dropped = r
        recs = list(recs)
        if h.game != game or recs != as_records(steps[:have]) or dropped:
            return "resume gave game %d, %d records, %d dropped" % (h.game, len(recs), dropped)
        if k % 8 == 0:
            # Go on playing on the remounted flash to the end: must parse clean.
            if play(gl, steps, have) != len(steps):
                return "cut again while going on"
            raw = logread.read(gl, h.game, 0, logread.size(gl, h.game))
            h2, recs2, good, problem = LF.parse(raw)
            if problem or recs2 != as_records(steps):
                return "after going on: %s, %d records" % (problem, len(recs2))
        return None
    finally:
        vfs.umount("/chk")


main()
