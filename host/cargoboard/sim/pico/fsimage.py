"""The board's filesystem image on the host (littlefs-python): the littlefs region of the
Pico's flash with the geometry of MicroPython's rp2 port (firmware/drivers/flashdev.py), the same file
format for both targets of the virtual board (`cargoboard sim --flash DIR` keeps DIR/flash.img).
An image may be shorter than the region: what is missing reads as erased flash."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from cargoboard.clikit import InputError, read_at_most, signals_held
from firmware.drivers.flashdev import BLOCK_SIZE, BLOCKS, PROG_SIZE

SIZE = BLOCK_SIZE * BLOCKS
READ_SIZE = 32  # as MicroPython's vfs.VfsLfs2 reads


class ImageError(InputError):
    """The file is not a filesystem image of the board (the message says why, in one line)."""


def _fs(buffer=None):
    """A mounted littlefs over `buffer` (an image's bytes), or over a freshly formatted one.
    (littlefs-python's own constructor formats an image it cannot mount: never used so.)"""
    import littlefs
    kw = dict(block_size=BLOCK_SIZE, block_count=BLOCKS, prog_size=PROG_SIZE,
              read_size=READ_SIZE)
    ctx = littlefs.UserContext(SIZE)
    if buffer is not None:
        ctx.buffer[:] = buffer
    fs = littlefs.LittleFS(context=ctx, mount=False, **kw)
    if buffer is None:
        fs.format()
    fs.mount()
    return fs


def load(image) -> "littlefs.LittleFS":
    """Mount an image file (in memory); ImageError if it is not one."""
    import littlefs
    path = Path(image)
    try:
        with open(path, "rb") as f:  # (a link to /dev/zero must not be read for ever)
            data = read_at_most(f, SIZE)
    except OSError as e:
        raise ImageError(f"flash image {path}: {e.strerror}") from None
    if data is None:
        raise ImageError(f"flash image {path}: more than the board's {SIZE}-byte filesystem")
    data = data + b"\xff" * (SIZE - len(data))
    try:
        with signals_held(signal.SIGINT, signal.SIGTERM):
            return _fs(data)
    except littlefs.LittleFSError as e:
        raise ImageError(f"flash image {path}: not a littlefs filesystem of the board ({e})") from None


def save(fs, image):
    """Write a mounted image back to its file (whole, through a temporary file and a rename)."""
    path = Path(image)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(bytes(fs.context.buffer))
        os.replace(tmp, path)
    except BaseException:  # a full disk, Ctrl-C: the old image stays, no part file beside it
        tmp.unlink(missing_ok=True)
        raise


def put_files(fs, files):
    """files = [(path on the board, bytes)]; each written beside its old version and renamed
    over it, as a deploy leaves them; other files (the game logs) stay."""
    for board_path, data in files:
        parent = os.path.dirname(board_path)
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(board_path + ".tmp", "wb") as f:
            f.write(data)
        try:
            fs.remove(board_path)
        except FileNotFoundError:
            pass
        fs.rename(board_path + ".tmp", board_path)


def write_files(image, files, create=True):
    """Put files into an image file (a new empty filesystem if the file is missing and
    `create`): files = [(path on the board, bytes)]."""
    import littlefs
    path = Path(image)
    # a Ctrl-C or SIGTERM (sim --pty's stop) ends it here, before the file is touched
    with signals_held(signal.SIGINT, signal.SIGTERM):
        fs = load(path) if path.exists() or not create else _fs()
        try:
            put_files(fs, files)
        except littlefs.LittleFSError as e:  # the file is untouched: the writes were in memory
            why = ("its filesystem is full" if e.code == littlefs.LittleFSError.Error.LFS_ERR_NOSPC
                   else f"writing its filesystem failed ({e})")
            raise ImageError(f"flash image {path}: {why}") from None
    save(fs, path)


def read_file(image, board_path) -> bytes:
    fs = load(image)
    with fs.open(board_path, "rb") as f:
        return f.read()


def listdir(image, board_path="/") -> list:
    return sorted(load(image).listdir(board_path))
