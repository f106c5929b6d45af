"""clikit.signals_held: signals that come while it holds them are handed to their handlers
when the block ends; none is lost (the whole-change review of stop 37: a second, different
signal was dropped, and so was every held one when the block raised)."""

import os
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from cargoboard.clikit import signals_held  # noqa: E402


class Stopped(Exception):
    pass


def stop(num, frame):
    """A handler that raises, as `sim --pty`'s SIGTERM handler does."""
    raise Stopped


@pytest.fixture
def handlers():
    seen = []
    olds = {s: signal.signal(s, lambda num, frame: seen.append(signal.Signals(num).name))
            for s in (signal.SIGUSR1, signal.SIGUSR2)}
    yield seen
    for s, old in olds.items():
        signal.signal(s, old)


def test_each_signal_is_handed_on_once_in_the_order_it_came(handlers):
    with signals_held(signal.SIGUSR1, signal.SIGUSR2):
        os.kill(os.getpid(), signal.SIGUSR2)
        os.kill(os.getpid(), signal.SIGUSR1)
        os.kill(os.getpid(), signal.SIGUSR2)
        assert handlers == []  # held
    assert handlers == ["SIGUSR2", "SIGUSR1"]


def test_a_signal_held_in_a_block_that_raises_is_still_handed_on(handlers):
    with pytest.raises(OSError):
        with signals_held(signal.SIGUSR1):
            os.kill(os.getpid(), signal.SIGUSR1)
            raise OSError("the block's own error, which a caller may swallow")
    assert handlers == ["SIGUSR1"]


def test_a_handler_that_raises_ends_the_block_with_its_exception():
    old = signal.signal(signal.SIGUSR1, stop)
    try:
        with pytest.raises(Stopped):
            with signals_held(signal.SIGUSR1):
                os.kill(os.getpid(), signal.SIGUSR1)
                done = True
        assert done  # the block ran to its end first
        assert signal.getsignal(signal.SIGUSR1) is stop  # and the handler is back
    finally:
        signal.signal(signal.SIGUSR1, old)


def test_a_sigterm_while_littlefs_writes_the_emulated_picos_flash_stops_before_the_file(
        tmp_path, monkeypatch):
    """`sim --target pico --pty` writes the board's files into its flash image at start; its
    SIGTERM handler raises. Raised inside littlefs-python's callback it was printed and dropped
    (the write then failed with LFS_ERR_NOSPC, a traceback); now it stops the write before the
    image file is touched."""
    import littlefs
    from cargoboard.sim.pico import fsimage

    real_prog = littlefs.UserContext.prog
    sent = []

    def prog(self, *args):
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGTERM)
        return real_prog(self, *args)

    monkeypatch.setattr(littlefs.UserContext, "prog", prog)
    old = signal.signal(signal.SIGTERM, stop)
    image = tmp_path / "flash.img"
    try:
        with pytest.raises(Stopped):
            fsimage.write_files(image, [("/main.py", b"x" * 5000)])
    finally:
        signal.signal(signal.SIGTERM, old)
    assert sent and not image.exists()
