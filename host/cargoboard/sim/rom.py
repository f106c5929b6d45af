# The virtual board's boot ROM, run by the MicroPython unix port (not firmware: it stands for
# what MicroPython does on the Pico before the firmware runs). It mounts the littlefs flash
# image at /flash, makes it the only place modules come from, and runs /flash/main.py, so the
# virtual board runs exactly the files `cargoboard deploy --flash DIR` put on it.
#
#     micropython rom.py IMAGE [main.py arguments ...]

import sys
import os

try:
    import vfs
except ImportError:
    import os as vfs


class _ImageFlash:
    """The image file as a block device (the Pico's geometry: 4 KiB blocks, 352 of them)."""

    def __init__(self, path, block_size=4096, blocks=352):
        self.f = open(path, "r+b")
        self.bs = block_size
        self.n = blocks

    def readblocks(self, block, buf, offset=0):
        self.f.seek(block * self.bs + offset)
        k = self.f.readinto(buf) or 0
        for i in range(k, len(buf)):
            buf[i] = 0xFF

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            offset = 0
            for k in range((len(buf) + self.bs - 1) // self.bs):
                self.ioctl(6, block + k)
        self.f.seek(block * self.bs + offset)
        self.f.write(buf)
        self.f.flush()

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return self.bs
        if op == 6:
            self.f.seek(arg * self.bs)
            self.f.write(b"\xff" * self.bs)
            self.f.flush()
            return 0
        return None


def boot():
    image = sys.argv[1]
    try:
        vfs.mount(vfs.VfsLfs2(_ImageFlash(image), progsize=256), "/flash")
    except OSError as e:
        sys.stderr.write("rom: %s holds no littlefs image (%s)\n" % (image, e))
        sys.exit(3)
    try:
        os.stat("/flash/main.py")
    except OSError:
        sys.stderr.write("rom: no main.py on the flash (cargoboard deploy --flash DIR first)\n")
        sys.exit(3)
    sim = False
    for name in ("sim.mpy", "sim.py"):
        try:
            os.stat("/flash/firmware/hal/" + name)
            sim = True
        except OSError:
            pass
    if not sim:
        sys.stderr.write("rom: the firmware on the flash is a board's, with no simulated HAL "
                         "(firmware/hal/sim): boot it with --target pico, or put a virtual "
                         "board's there with cargoboard deploy --flash DIR\n")
        sys.exit(3)
    sys.path[:] = ["/flash"]
    sys.argv[:] = ["main.py"] + sys.argv[2:]
    with open("/flash/main.py") as f:
        code = compile(f.read(), "main.py", "exec")
    import gc
    gc.collect()  # the source text is garbage now: the firmware gets the heap, as on the Pico
    exec(code, {"__name__": "__main__"})


boot()
