"""The game log's doubt record (docs/log-format.md "Doubt records", format version 2): its
framing, its sizes and the CRC-16 it shares with the header. Loaded by the codec
(firmware/system/logformat.py) and, while a game that keeps moves in doubt writes them, by
firmware/system/logwrite.py; a board playing any other game keeps none of it. (It imports
nothing: logwrite imports it.)"""

DOUBT_MAX = 1024  # a doubt record's payload at most (bytes)
DOUBT_OVER = 7  # its bytes besides the payload: tag, length, the length's CRC-8, CRC-16, CRC-8

_CRC16_NIBBLE = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
                 0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(data, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of data[start:end]."""
    t = _CRC16_NIBBLE
    if end < 0:
        end = len(data)
    for i in range(start, end):
        b = data[i]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc


def doubt_record(payload, tag, crc8):
    """The doubt record's bytes but its last (the chained CRC-8, logwrite.encode_record's):
    tag, length (u16 LE) and its own CRC-8, payload, CRC-16 of all that. The length decides
    where the record ends, so an error in it must be found before it is believed; the payload
    may be longer than a CRC-8 guards."""
    n = len(payload)
    if n > DOUBT_MAX:
        raise ValueError("doubt payload must be 0..%d bytes, got %d" % (DOUBT_MAX, n))
    out = bytearray(n + DOUBT_OVER)
    out[0] = tag
    out[1] = n & 0xFF
    out[2] = n >> 8
    out[3] = crc8(out, 0, 1, 3)
    out[4:n + 4] = payload
    c = crc16(out, 0, n + 4)
    out[n + 4] = c & 0xFF
    out[n + 5] = c >> 8
    return out
