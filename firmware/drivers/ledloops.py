# The Painter's loops over the LEDs it drew (firmware/drivers/leds.py: Painter.cells and
# Painter._group), in Python: what the unix port and the host run. On the RP2040 native code
# does the same, byte for byte (firmware/hal/rp2040.py: led_cells, led_group;
# tests/test_pico.py compares them), and this module is not loaded there (its bytecode would
# only take heap).
#
# Painter._pat[i] says how LED i was drawn in this render: _DRAWN | its blink pattern (1..3), 0
# if not drawn (leds.py's _DRAWN; the HAL's native code uses the same encoding) or if it is the
# turn glow, which finish() budgets first and keeps from scaling.

from firmware.hal import const

_DRAWN = const(0x10)
_BLINK_MAX = const(3)  # BLINK_WINK, the last pattern
# bytearray.find needles: every drawn LED is one of these (pattern 0 steady, 1..3 blinking)
_NEEDLE = (bytes((_DRAWN,)), bytes((_DRAWN | 1,)), bytes((_DRAWN | 2,)), bytes((_DRAWN | 3,)))
_ZERO3 = bytes(3)


def cells(painter, overlay):
    """Painter.cells: painter.cell(c, colour, level, blink) for each entry of an Overlay, in one
    call (a plug-in's overlay is drawn at every render). A colour outside the palette draws the
    LED off, a blink outside the patterns none."""
    f = painter.frame
    pat = painter._pat
    pc = painter._pc  # the palette scaled by the cap, 3 a colour
    n_colours = len(pc) // 3
    b = overlay.buf
    for e in range(overlay.lo * 4, overlay.n * 4, 4):
        c = b[e]  # a cell (Overlay.add checks)
        colour = b[e + 1]
        o = c * 3
        if colour <= 0 or colour >= n_colours:
            pat[c] = _DRAWN
            f[o:o + 3] = _ZERO3
            continue
        blink = b[e + 3]
        pat[c] = (_DRAWN | blink) if 0 < blink <= _BLINK_MAX else _DRAWN
        level = b[e + 2]
        p = colour * 3
        f[o] = (pc[p] * level) // 65025
        f[o + 1] = (pc[p + 1] * level) // 65025
        f[o + 2] = (pc[p + 2] * level) // 65025


def group(painter, over, t):
    """Painter._group: s = the sum of the frame's bytes; if s >= over, every drawn LED scaled by
    t / s (each byte floored); then the blinking ones recorded, grouped by pattern (1..3), with
    their 'on' RGB (painter._bl, _bl_rgb; pattern k's are [_lo[k], _hi[k])). Returns s << 8 |
    how many blink (at most 157)."""
    f = painter.frame
    pat = painter._pat
    bl = painter._bl
    rgb = painter._bl_rgb
    lo = painter._lo
    hi = painter._hi
    s = sum(f)
    scale = s >= over
    n = 0
    for k in range(4):
        if k:
            lo[k] = n
        elif not scale:
            continue  # steady LEDs need nothing unless scaled
        needle = _NEEDLE[k]
        i = pat.find(needle)
        while i >= 0:
            o = i * 3
            if scale:
                f[o] = (f[o] * t) // s
                f[o + 1] = (f[o + 1] * t) // s
                f[o + 2] = (f[o + 2] * t) // s
            if k:
                bl[n] = i
                q = n * 3
                rgb[q] = f[o]
                rgb[q + 1] = f[o + 1]
                rgb[q + 2] = f[o + 2]
                n += 1
            i = pat.find(needle, i + 1)
        if k:
            hi[k] = n
    return (s << 8) | n
