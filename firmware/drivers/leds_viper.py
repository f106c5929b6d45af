# The per-LED loop of a render's end (Painter._group in firmware/drivers/leds.py) in native code,
# for the RP2040 only (viper: the unix port has no native emitter, CPython none at all); leds.py
# puts it in the Painter class there. On the emulated RP2040 the Python loop took ~5 ms of a
# 9 ms render for a Cargocube position with 30 blinking cells (about 80 us an LED drawn, the
# frame scaled into the current budget), the most of a put-back's frame; here ~0.3 ms. Same
# results as the Python loop, byte for byte (tests/test_pico.py checks them against each other
# on the emulated board).

import micropython


@micropython.viper
def group(painter, scale: int, t: int, s: int) -> int:
    # every drawn LED (pat[i]: 0x10 | its blink pattern, 0 if not drawn) scaled by t / s if
    # scale; those that blink recorded in bl by pattern k (bl[lo[k]:hi[k]], k 1..3, by index),
    # their 'on' RGB in rgb; returns how many blink
    f = ptr8(painter.frame)
    pat = painter._pat
    p = ptr8(pat)
    bl = ptr8(painter._bl)
    rgb = ptr8(painter._bl_rgb)
    lo = ptr8(painter._lo)
    hi = ptr8(painter._hi)
    n_leds = int(len(pat))
    if scale:
        i = 0
        while i < n_leds:
            if p[i]:
                o = i * 3
                f[o] = (f[o] * t) // s
                f[o + 1] = (f[o + 1] * t) // s
                f[o + 2] = (f[o + 2] * t) // s
            i += 1
    n = 0
    k = 1
    while k < 4:
        lo[k] = n
        want = 0x10 | k
        i = 0
        while i < n_leds:
            if p[i] == want:
                bl[n] = i
                o = i * 3
                q = n * 3
                rgb[q] = f[o]
                rgb[q + 1] = f[o + 1]
                rgb[q + 2] = f[o + 2]
                n += 1
            i += 1
        hi[k] = n
        k += 1
    return n
