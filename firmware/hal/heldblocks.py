"""Heap blocks that the board's own code would pin for good, held by objects of its own.

MicroPython's garbage collector is conservative: a word in a live block that equals the start
of a heap block keeps that block alive, and all it refers to. Compiled code lies in such live
blocks, and the RP2040's native code (viper: firmware/hal/rp2040.py, firmware/hal/rp2040_revb.py,
firmware/drivers/frames_viper.py) holds instruction pairs that read as heap addresses. Viper
makes a comparison's result with `b.n` then `movs r0, #1`, the word 0x2001E000 wherever the pair
starts on a 4-byte boundary; `str r0, [sp, #128]` then `movs r0, #0` is 0x20009020. An object
that comes to lie at such an address is never freed while that code is loaded: on the emulated
Pico a dropped game's function landed at 0x2001E000 and kept its code, 29 KB, after the board
had moved on to another game (docs/firmware.md "Words of the code that pin heap blocks").

`hold()` puts a small object of the board's own at each of these addresses that is free: at
the boot, once the resident code is loaded, and before each game's code is loaded
(firmware/system/newgame.py), so no game's object can come to lie there. The RP2040's HALs ask
for it (`Hal.holds_heap`). WORDS are the words of every module of the board's, compiled as
`cargoboard deploy` compiles them, and main.py's (mpy-cross's bytes are the board's): the test
tests/test_heldblocks.py fails when one is missing here. Loaded for the call and dropped after it.
"""

import gc

WORDS = (0x20009020, 0x2001E000)


def hold(words=WORDS):
    """Objects of the board's own at the blocks of `words` that are free, added to
    firmware.hal.HELD (kept there); a word's block in use by another object is left (and tried
    again at the next call: a table that grows moves, and leaves its blocks free). A new 1-tuple
    is one heap block, and with the collector off each one takes the lowest free block: they
    climb the heap until one lands on the next word. The climbers are garbage once the collector
    runs. On the emulated Pico the boot's climb to 0x2001E000 takes ~50 ms; a later call with
    that block held climbs only as far as the words left, and with the module's load and the
    two collections it makes a `new` ~35-80 ms longer (bench/commands.py)."""
    from firmware.hal import HELD
    todo = sorted([w for w in words if w not in [id(t) for t in HELD]])  # the climb goes up
    if not todo:
        return
    got = [None] * len(todo)
    n = 0
    gc.collect()
    try:
        gc.disable()  # (in the try: a Ctrl-C right after it must not leave the collector off)
        for w in todo:
            while True:
                t = (n,)
                a = id(t)
                if a >= w:
                    break
            if a == w:
                got[n] = t
                n += 1
    except MemoryError:
        pass  # the heap is full below the next word: what is held so far stays
    finally:
        gc.enable()
    gc.collect()
    HELD.extend(got[:n])
