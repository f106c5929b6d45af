# Framing of the binary serial protocol (docs/protocol.md), the same code on the board
# (MicroPython) and on the host (CPython).
#
# On the wire a frame is 0x00, COBS(payload), 0x00. The payload is
#   type (1 byte), seq (1 byte), body (0..MAX_BODY bytes), CRC-16 (2 bytes, big endian)
# with CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over type, seq and body.
# COBS leaves no zero byte inside a frame, so a reader resynchronises at the next zero
# whatever garbage came before it.

import sys as _sys

try:
    from array import array

    # from a bytearray, not a list: [0] * 256 is a 2 KB block at once on a 64-bit port, which a
    # heap cut up by a game may not have when the host first calls (the link loads then)
    _TABLE = array("H", bytearray(512))
except ImportError:  # pragma: no cover
    _TABLE = [0] * 256

PROTOCOL_VERSION = 2
MAX_BODY = 1024           # largest body either side sends
MAX_PAYLOAD = MAX_BODY + 4
MAX_WIRE = MAX_PAYLOAD + MAX_PAYLOAD // 254 + 2  # COBS overhead, not counting the zeros


def _build_table():
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        _TABLE[i] = c & 0xFFFF


_build_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of data (bytes-like); crc16(b'123456789') == 0x29B1."""
    t = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc


def cobs_encode(data):
    """COBS: the result has no zero byte; len(result) <= len(data) + len(data) // 254 + 1."""
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return out


def cobs_decode(data):
    """Inverse of cobs_encode; None if data is not a valid COBS block (a zero, or a code
    pointing past the end)."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        j = i + 1
        while j < end:
            b = data[j]
            if b == 0:
                return None
            out.append(b)
            j += 1
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return out


def encode(typ, seq, body=b""):
    """The bytes to send for one frame, both delimiting zeros included."""
    if len(body) > MAX_BODY:
        raise ValueError("frame body too long: %d > %d" % (len(body), MAX_BODY))
    p = bytearray(len(body) + 4)
    p[0] = typ & 0xFF
    p[1] = seq & 0xFF
    p[2:2 + len(body)] = body
    c = crc16(memoryview(p)[:2 + len(body)])
    p[-2] = c >> 8
    p[-1] = c & 0xFF
    out = bytearray(b"\x00")
    out += cobs_encode(p)
    out.append(0)
    return out


if _sys.platform == "rp2":
    # the byte loops above cost ~13 ms a 512-byte frame on the RP2040; native code there
    from firmware.drivers.frames_viper import crc16_table, cobs_encode, cobs_decode  # noqa: F811

    def crc16(data, crc=0xFFFF):  # noqa: F811
        return crc16_table(data, len(data), crc, _TABLE)


# Why decode() refused a block (the error frame reports these codes).
BAD_COBS = 1
BAD_LENGTH = 2
BAD_CRC = 3


def decode(block):
    """One block read between two zeros -> (type, seq, body) or an int error code."""
    p = cobs_decode(block)
    if p is None:
        return BAD_COBS
    if len(p) < 4 or len(p) > MAX_PAYLOAD:
        return BAD_LENGTH
    c = crc16(memoryview(p)[:len(p) - 2])
    if (c >> 8) != p[-2] or (c & 0xFF) != p[-1]:
        return BAD_CRC
    return p[0], p[1], bytes(p[2:len(p) - 2])


def u32(buf, o):
    return (buf[o] << 24) | (buf[o + 1] << 16) | (buf[o + 2] << 8) | buf[o + 3]


def put_u32(out, v):
    out.append((v >> 24) & 0xFF)
    out.append((v >> 16) & 0xFF)
    out.append((v >> 8) & 0xFF)
    out.append(v & 0xFF)
