"""Block devices for littlefs (vfs.VfsLfs2) off the board: the simulator's flash and the tests'.

Both speak MicroPython's extended block protocol (readblocks/writeblocks with an offset,
ioctl 6 = erase) with the Pico's geometry by default: 4096-byte blocks, 352 of them (the
1408 KiB filesystem of a 2 MB Pico), mounted with progsize=256 as the rp2 port's _boot.py does.

- RamBlockDev(block_size, blocks): the image in a bytearray (tests; it lives in the heap, the
  Pico's flash does not, so tests that use it run with a larger heap).
- FileBlockDev(path, ...): the image in a file, written through at once (`main.py --sim
  --flash PATH`): the virtual board's flash survives runs. Reads past the end of the file read
  as erased (0xFF), so a new image costs only the blocks written.

`mount(dev, path, mkfs)` mounts a device (formatting it first if mkfs) and returns the path;
`open_flash(image)` is the simulator's flash: mounted at /flash, with its board id;
`attach_sim_flash(hal, image)` mounts it for the simulator's HAL (main.py --sim).
"""

try:
    import vfs
except ImportError:  # MicroPython before 1.23 keeps the VFS functions in os
    import os as vfs

BLOCK_SIZE = 4096
BLOCKS = 352
PROG_SIZE = 256

_IOCTL_BLOCK_COUNT = 4
_IOCTL_BLOCK_SIZE = 5
_IOCTL_BLOCK_ERASE = 6


class RamBlockDev:
    def __init__(self, block_size=BLOCK_SIZE, blocks=BLOCKS, data=None):
        self.block_size = block_size
        self.blocks = blocks
        if data is None:
            data = bytearray(block_size * blocks)
            ff = b"\xff" * block_size
            for k in range(blocks):
                data[k * block_size:(k + 1) * block_size] = ff
        self.data = data
        # reads and erases allocate next to nothing, as the board's flash driver: a heap in
        # pieces (a big game set up) still reads and writes its logs
        self._mv = memoryview(data)
        self._ff = b"\xff" * 256

    def readblocks(self, block, buf, offset=0):
        a = block * self.block_size + offset
        buf[:] = self._mv[a:a + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if offset is None:  # the simple protocol: erase, then write whole blocks
            offset = 0
            for k in range((len(buf) + self.block_size - 1) // self.block_size):
                self.erase(block + k)
        a = block * self.block_size + offset
        self.data[a:a + len(buf)] = buf

    def erase(self, block):
        mv = self._mv
        ff = self._ff
        a = block * self.block_size
        for k in range(a, a + self.block_size, len(ff)):
            mv[k:k + len(ff)] = ff

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.blocks
        if op == _IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == _IOCTL_BLOCK_ERASE:
            self.erase(arg)
            return 0
        return None


class FileBlockDev:
    """A flash image in a file: every write goes to the file at once (and is flushed)."""

    def __init__(self, f, block_size=BLOCK_SIZE, blocks=BLOCKS):
        self.f = f
        self.block_size = block_size
        self.blocks = blocks
        self._ff = b"\xff" * 256

    @classmethod
    def open(cls, path, block_size=BLOCK_SIZE, blocks=BLOCKS):
        """The image at path, created if missing."""
        try:
            f = open(path, "r+b")
        except OSError:
            f = open(path, "w+b")
        return cls(f, block_size, blocks)

    def is_new(self):
        """True if the image file is empty (never formatted)."""
        return self.f.seek(0, 2) == 0

    def readblocks(self, block, buf, offset=0):
        f = self.f
        f.seek(block * self.block_size + offset)
        n = f.readinto(buf)
        if n is None:
            n = 0
        for i in range(n, len(buf)):
            buf[i] = 0xFF

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            offset = 0
            for k in range((len(buf) + self.block_size - 1) // self.block_size):
                self.erase(block + k)
        f = self.f
        f.seek(block * self.block_size + offset)
        f.write(buf)
        f.flush()

    def erase(self, block):
        f = self.f
        f.seek(block * self.block_size)
        ff = self._ff
        for _ in range(self.block_size // len(ff)):
            f.write(ff)
        f.flush()

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.blocks
        if op == _IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == _IOCTL_BLOCK_ERASE:
            self.erase(arg)
            return 0
        return None


def mount(dev, path, mkfs=False, progsize=PROG_SIZE):
    """Mount dev's littlefs at path, formatting it first if mkfs. Returns path; OSError if the
    device holds no littlefs."""
    if mkfs:
        vfs.VfsLfs2.mkfs(dev, progsize=progsize)
    vfs.mount(vfs.VfsLfs2(dev, progsize=progsize), path)
    return path


def open_flash(image=None, path="/flash"):
    """The simulator's flash: the littlefs image file `image` (created and formatted if new), or
    without one a temporary file removed at once (it lives as long as the process). Mounted at
    path; "mounted": the virtual board's boot ROM mounted it there already. Returns (path,
    board id). The id is the virtual chip's, which the host gives with the image (the
    CARGOBOARD_SIM_BOARD_ID environment variable, host/cargoboard/sim/runner.py sim_board_id):
    like a Pico's unique id it outlives an erased flash. An id an earlier version kept in the
    image (<path>/board_id) stays the board's while the image lasts (its games are stored
    under it); without either (a temporary flash) a random one ("sim-" + 8 hex digits) is
    made and kept there."""
    import os
    if image == "mounted":
        pass  # the virtual board's boot ROM mounted the image already (host/cargoboard/sim/rom.py)
    elif image:
        dev = FileBlockDev.open(image)
    else:
        image = "/tmp/cargoboard-flash-%s.img" % "".join(["%02x" % b for b in os.urandom(6)])
        dev = FileBlockDev.open(image)
        os.remove(image)  # the open file stays usable until the process ends
    if image != "mounted":
        try:
            mount(dev, path, dev.is_new())
        except OSError as e:
            raise OSError("%s holds no littlefs image (%s)" % (image, e))
    p = path + "/board_id"
    try:
        with open(p) as f:
            bid = f.read().strip()
    except OSError:
        bid = os.getenv("CARGOBOARD_SIM_BOARD_ID")
        if not bid:
            bid = "sim-" + "".join(["%02x" % b for b in os.urandom(4)])
            with open(p, "w") as f:
                f.write(bid + "\n")
    return path, bid


def attach_sim_flash(hal, image):
    """Mount the simulator's flash (open_flash: the littlefs image file, a temporary one if
    image is None) and hand it to the simulator's HAL (hal.attach_flash). A failure is logged
    through the HAL and the board runs without a game log."""
    try:
        root, board_id = open_flash(image)
        hal.attach_flash(root, board_id)
    except Exception as e:
        hal.log("flash: %s: %s; the board runs without a game log" % (type(e).__name__, e))
