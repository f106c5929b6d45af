# The byte loops of the frame codec (firmware/drivers/frames.py) in native code, for the RP2040
# only (viper: the unix port has no native emitter, CPython none at all). On the emulated
# RP2040 the Python loops took 6 ms for the CRC and 7 ms for COBS of one 512-byte READ reply,
# the most of the board's time in a sync; here they take a fraction of a millisecond.
# Same results as the Python versions in frames.py, byte for byte (tests/test_pico.py checks
# them against each other on the emulated board).

import micropython


@micropython.viper
def crc16_table(buf, n: int, crc: int, table) -> int:
    # CRC-16/CCITT-FALSE by frames.py's table (array of 256 'H')
    p = ptr8(buf)
    t = ptr16(table)
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ p[i]) & 0xFF]
        i += 1
    return crc


@micropython.viper
def _cobs_into(src, n: int, dst) -> int:
    # dst holds at least n + n // 254 + 1 bytes; returns the length written
    s = ptr8(src)
    d = ptr8(dst)
    code_at = 0
    o = 1
    code = 1
    i = 0
    while i < n:
        b = s[i]
        if b == 0:
            d[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            d[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                d[code_at] = code
                code_at = o
                o += 1
                code = 1
        i += 1
    d[code_at] = code
    return o


@micropython.viper
def _uncobs_into(src, n: int, dst) -> int:
    # dst holds at least n bytes; returns the length written, -1 if src is not valid COBS
    s = ptr8(src)
    d = ptr8(dst)
    i = 0
    o = 0
    while i < n:
        code = s[i]
        if code == 0:
            return -1
        end = i + code
        if end > n:
            return -1
        j = i + 1
        while j < end:
            b = s[j]
            if b == 0:
                return -1
            d[o] = b
            o += 1
            j += 1
        i = end
        if code != 0xFF and i < n:
            d[o] = 0
            o += 1
    return o


def cobs_encode(data):
    n = len(data)
    out = bytearray(n + n // 254 + 1)
    k = _cobs_into(data, n, out)
    return out if k == len(out) else out[:k]


def cobs_decode(data):
    n = len(data)
    out = bytearray(n)
    k = _uncobs_into(data, n, out)
    if k < 0:
        return None
    return out if k == n else out[:k]
