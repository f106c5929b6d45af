"""Game log, the part the board keeps loaded while it plays (docs/log-format.md): the record
kinds and tags, the chained CRC-8, encode_record() for appends, closed_tail() for listings.
The whole codec is firmware/system/logformat.py (which re-exports all of this); the board loads it
only for a moment (to write a header, to resume a game at boot) and drops it again.
"""

# Record kinds (as parse() and Reader report them).
ACTION = 1
UNDO = 2
FINISH = 3
ABANDON = 4
DOUBT = 5
KIND_NAMES = ("", "action", "undo", "finish", "abandon", "doubt")

# Record tags: tag value v (0..15) -> the tag byte TAGS[v]. v = 1..12: an action of v bytes;
# V_UNDO, V_FINISH, V_ABANDON; V_DOUBT (format version 2 only: the moves the board has taken
# for now, with the readings it keeps of them; docs/log-format.md "Doubt records").
V_UNDO = 0
V_FINISH = 13
V_ABANDON = 14
V_DOUBT = 15  # (its framing: firmware/system/logdoubt.py)
MAX_PAYLOAD = 12
TAG_MASK = 0x5A  # not a codeword: 0x00 and 0xFF (blank or erased bytes) are no tags


def _codeword(v):
    d0 = v & 1
    d1 = (v >> 1) & 1
    d2 = (v >> 2) & 1
    d3 = (v >> 3) & 1
    p = (d1 ^ d2 ^ d3) | ((d0 ^ d2 ^ d3) << 1) | ((d0 ^ d1 ^ d3) << 2) | ((d0 ^ d1 ^ d2) << 3)
    return (v | (p << 4)) ^ TAG_MASK


TAGS = bytes([_codeword(v) for v in range(16)])
del _codeword

TAG_UNDO = TAGS[V_UNDO]
TAG_FINISH = TAGS[V_FINISH]
TAG_ABANDON = TAGS[V_ABANDON]


# --- checksums -------------------------------------------------------------------------------

def _crc8_table():
    t = bytearray(256)
    for i in range(256):
        c = i
        for _ in range(8):
            c = ((c << 1) ^ 0x2F) & 0xFF if c & 0x80 else (c << 1) & 0xFF
        t[i] = c
    return bytes(t)


CRC8_TABLE = _crc8_table()  # polynomial 0x2F, MSB first (CRC-8/OPENSAFETY)
del _crc8_table


def crc8(data, crc=0, start=0, end=-1):
    """CRC-8 (poly 0x2F, no reflection, no final xor) of data[start:end], from register crc."""
    t = CRC8_TABLE
    if end < 0:
        end = len(data)
    for i in range(start, end):
        crc = t[crc ^ data[i]]
    return crc


def _u16(raw, i):
    return raw[i] | (raw[i + 1] << 8)


def encode_record(kind, payload, crc, offset=0):
    """(record bytes, CRC register after it). kind: ACTION (payload: 1..MAX_PAYLOAD bytes), UNDO,
    FINISH or ABANDON (offset: where the record starts in the log), DOUBT (payload: 0..DOUBT_MAX
    bytes, firmware/system/logdoubt.py)."""
    if kind == ACTION:
        n = len(payload)
        if n < 1 or n > MAX_PAYLOAD:
            raise ValueError("action payload must be 1..%d bytes, got %d" % (MAX_PAYLOAD, n))
        out = bytearray(n + 2)
        out[0] = TAGS[n]
        out[1:n + 1] = payload
    elif kind == UNDO:
        out = bytearray(2)
        out[0] = TAG_UNDO
    elif kind == DOUBT:
        # (only a game that keeps moves in doubt writes these: their framing is loaded for it)
        from firmware.system.logdoubt import doubt_record
        out = doubt_record(payload, TAGS[V_DOUBT], crc8)
    elif kind == FINISH or kind == ABANDON:
        out = bytearray(4)
        out[0] = TAG_FINISH if kind == FINISH else TAG_ABANDON
        out[1] = offset & 0xFF
        out[2] = (offset >> 8) & 0xFF
    else:
        raise ValueError("unknown record kind %r" % (kind,))
    last = len(out) - 1
    crc = crc8(out, crc, 0, last)
    out[last] = crc
    return bytes(out), crc


def closed_tail(tail, size):
    """What the last 4 bytes `tail` of a log of `size` bytes say: FINISH or ABANDON if they are
    a finish/abandon record at its right offset (a quick check for listings; parse() decides),
    else 0 (still open)."""
    if len(tail) < 4 or size < 4:
        return 0
    t = tail[-4]
    if (t == TAG_FINISH or t == TAG_ABANDON) and _u16(tail, len(tail) - 3) == ((size - 4) & 0xFFFF):
        return FINISH if t == TAG_FINISH else ABANDON
    return 0
