"""Bad input on the serial side (issue 11; tests/fuzz_link.py, full counts in bench/fuzz.py): a
sample of generated bad frames and console lines against the firmware in the middle of a
logged game, under CPython and under the MicroPython unix port as deployed (.mpy)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import fuzz_link  # noqa: E402

WANT = "fuzz inputs=%d frames=%d lines=%d answered=%d unanswered=0 crashes=0 handler_errors=0 untouched=1"


def test_bad_input_cpython():
    c = fuzz_link.run(1000, 3)
    assert c["inputs"] == c["answered"] == 1000 and c["frames"] == 600
    assert c["crashes"] == c["unanswered"] == c["handler_errors"] == 0 and c["untouched"] == 1


def test_bad_input_micropython(micropython, tmp_path):
    import mpy
    from cargoboard.build import cached_build
    sys.path.insert(0, str(ROOT / "bench"))
    from fuzz import HEAP
    mpy.mpy_cross_compile(ROOT / "tests" / "fuzz_link.py", out_dir=tmp_path)
    out = micropython("import fuzz_link\nfuzz_link.run(3000, 5)\n", heapsize=HEAP,
                      path=[str(tmp_path), str(cached_build())])
    assert WANT % (3000, 1800, 1200, 3000) in out, out


def test_a_bad_input_that_is_answered_normally_is_caught(monkeypatch):
    """The check can fail: a valid HELLO among the inputs is an answer that is no error, and a
    console `abort` leaves the game no longer logged."""
    real = fuzz_link.generate

    def with_valid(kind, rnd):
        if kind == "crc":
            return fuzz_link.F.encode(fuzz_link.L.HELLO, 7, b"")
        if kind == "unknown_command":
            return b"abort\n"
        return real(kind, rnd)

    monkeypatch.setattr(fuzz_link, "generate", with_valid)
    c = fuzz_link.run(100, 3)
    assert c["unanswered"] == 20 and c["untouched"] == 0


FORGET = """
import sys
import fuzz_link as Z
from firmware.system.app import App
from firmware.system.gamelog import GameLog
hal = Z.Hal()
root = Z.new_root()
app = App(hal, gamelog=GameLog(root, "forget-board", reserve=4096))
app.step()
Z._load_link()
hal.inp = Z.F.encode(Z.L.LIST, 1, b"")
for _ in range(3):
    app.step()
link = app.link
loaded = "firmware.system.linklog" in sys.modules
held = link.log_buf is not None
for _ in range(350):  # 3.5 s of frames with no word from the host
    app.step()
print("loaded", loaded, held, "after", "firmware.system.linklog" in sys.modules,
      link.log_buf is not None, len(link.crc_cache))
Z.drop_root(root)
"""


def test_the_link_drops_its_log_state_once_the_host_has_gone(micropython, tmp_path):
    """A LIST loads linklog and logread (and may make the read buffer); once the host has been
    quiet for 3 s and no confirmed game waits, they go: the heap is the next game's."""
    import mpy
    from cargoboard.build import cached_build
    mpy.mpy_cross_compile(ROOT / "tests" / "fuzz_link.py", out_dir=tmp_path)
    out = micropython(FORGET, path=[str(tmp_path), str(cached_build())])
    assert "loaded True" in out and "after False False 0" in out, out


def booted_with_link():
    """The in-process HAL and an App on it, a frame run and the link's code loaded (frames and
    request types in fuzz_link.F, fuzz_link.L)."""
    hal = fuzz_link.Hal()
    app = fuzz_link.App(hal)
    app.step()
    fuzz_link._load_link()
    return hal, app


def test_the_unknown_types_drawn_are_the_ones_the_board_calls_unknown():
    """`unknown_type` draws a type outside fuzz_link.REQUESTS: that set must be what the board
    itself answers as unknown (E_UNKNOWN) for all 256 type bytes, the ONCE bit included (a
    ONCE CONFIG drawn as "unknown" was rightly answered `ok`, and bench/fuzz.py said NO)."""
    hal, app = booted_with_link()
    F, L = fuzz_link.F, fuzz_link.L
    unknown = set()
    for typ in range(256):
        if typ in (L.NEW, L.NEW | L.ONCE, L.REPL):
            continue  # a new game or the REPL: answered, and known; not to be run here
        hal.out = bytearray()
        hal.inp = F.encode(typ, 9, b"")
        app.step()
        replies = [F.decode(b) for b in bytes(hal.out).split(b"\x00") if b]
        replies = [r for r in replies if not isinstance(r, int) and r[1] == 9]
        assert len(replies) == 1, (typ, bytes(hal.out))
        if replies[0][0] == L.ERROR and replies[0][2][0] == L.E_UNKNOWN:
            unknown.add(typ)
    drawn_from = set(range(256)) - set(fuzz_link.REQUESTS)
    assert unknown == drawn_from, (sorted(unknown ^ drawn_from))


def test_a_board_without_a_clock_answers_a_hello_with_the_time():
    """protocol.md: a HELLO never fails. A HAL with no clock of its own (the interface's
    defaults, as this in-process one) got an ERROR frame (AttributeError: set_wall_time) for a
    HELLO with `time=`, and the console's `hello` raised."""
    hal, app = booted_with_link()
    F, L = fuzz_link.F, fuzz_link.L
    hal.out = bytearray()
    hal.inp = F.encode(L.HELLO, 5, b"time=1800000000")
    app.step()
    replies = [F.decode(b) for b in bytes(hal.out).split(b"\x00") if b]
    assert [r[:2] for r in replies if not isinstance(r, int)] == [(L.HELLO | 0x80, 5)], replies
    assert app.command(["hello"]).endswith(" time=0")  # it keeps no time it cannot keep
