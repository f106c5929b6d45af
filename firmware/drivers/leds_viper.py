# The per-LED loop of a render's end (Painter.finish in firmware/drivers/leds.py) in native code,
# for the RP2040 only (viper: the unix port has no native emitter, CPython none at all). On the
# emulated RP2040 the Python loop took ~5 ms of a 9 ms render for a Cargocube position with 30
# blinking cells (about 80 us an LED drawn, when the frame is scaled into the current budget),
# the most of a put-back's frame; here it takes a fraction of a millisecond. Same results as the
# Python loop, byte for byte (tests/test_pico.py checks them against each other on the emulated
# board).

import micropython


@micropython.viper
def scale_and_group(frame, pat, bufs, ctl) -> int:
    # ctl (array 'i'): scale (0/1), t, s in; out: the first and the end index in bl of the LEDs
    # blinking with pattern k (1..3) at ctl[2k + 1], ctl[2k + 2]. bufs: (bl, rgb). pat[i]:
    # 0x10 (drawn) | blink pattern, 0 for an LED not drawn. Returns the number of blinking LEDs.
    f = ptr8(frame)
    p = ptr8(pat)
    bl = ptr8(bufs[0])
    rgb = ptr8(bufs[1])
    c = ptr32(ctl)
    n_leds = int(len(pat))
    if c[0]:
        t = c[1]
        s = c[2]
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
        c[2 * k + 1] = n
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
        c[2 * k + 2] = n
        k += 1
    return n
