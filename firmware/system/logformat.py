"""Game log codec: the bytes of one game's log file (docs/log-format.md). Pure functions, no
files: the board's store (firmware/system/gamelog.py) and the host (cargoboard.logrecord) share
it, so it keeps to the MicroPython subset.

A log is a header, then records:

    header   magic "CBGL", format version, header length, game number, start time, rules
             version, kind, variant, seats, board id, start position; CRC-16 at its end.
    record   tag byte, payload, CRC-8 byte. The tag says the kind and the payload's length:
             an action of 1..12 bytes (the rules core's encode_action), undo (a take-back),
             finish (over by the rules) or abandon (dropped before the end); the last two carry
             their own offset (u16 LE, mod 65536) so a listing can tell a closed log from its
             last 4 bytes. The 16 tag values are the codewords of the extended Hamming
             (8,4) code (any two differ in at least 4 bits) XOR 0x5A, so a tag damaged in up
             to 3 bits is no tag, and a record's framing cannot change unnoticed.

The CRC-8 of a record is chained: it starts from the previous record's CRC (the first record
from a seed taken from the header's CRC), so a record checks everything before it too.
`parse(raw)` stops at the first record that is incomplete or fails its check and reports it;
what comes before is good.

The writing half lives in firmware/system/logwrite.py (re-exported here): the board keeps only that
loaded while it plays.
"""

from firmware.system.logwrite import *  # noqa: F401,F403 (kinds, tags, CRC-8, encode_record, ...)
from firmware.system.logwrite import _u16
from firmware.system.logdoubt import DOUBT_MAX, DOUBT_OVER, crc16  # noqa: F401 (re-exported)

MAGIC = b"CBGL"
FORMAT_VERSION = 2  # the newest this codec reads: 1, or 2 (1 and doubt records), written by
# games that keep moves in doubt (the Cargocube option wait=K); the others still write 1
_HEAD_FIXED = 17  # magic 4, version 1, header length 2, game 4, time 4, rules version 2


def seed_of(header_crc):
    """The CRC-8 register the first record starts from: ties the records to their header."""
    return (header_crc ^ (header_crc >> 8)) & 0xFF


def _header_head(kind, variant, seats, start_len, board, game, rules, time, version=1):
    """The header's bytes before its start position (of start_len bytes)."""
    if start_len > 0xFFFF - 64:
        raise ValueError("start position too long")
    if not 1 <= version <= FORMAT_VERSION:
        raise ValueError("log format version %r" % (version,))
    out = bytearray(MAGIC)
    out.append(version)
    out.extend(b"\x00\x00")  # header length, filled in below
    _put_u32(out, game)
    _put_u32(out, time)
    _put_u16(out, rules)
    for text in (kind, variant, seats, board):
        b = text.encode()
        if len(b) > 255:
            raise ValueError("header field too long: %r" % text)
        out.append(len(b))
        out.extend(b)
    _put_u16(out, start_len)
    n = len(out) + start_len + 2
    out[5] = n & 0xFF
    out[6] = n >> 8
    return out


def encode_header(kind, variant, seats, start, board, game, rules, time, version=1):
    """(header bytes, its CRC-16)."""
    b = start.encode()
    out = _header_head(kind, variant, seats, len(b), board, game, rules, time, version)
    out.extend(b)
    c = crc16(out)
    _put_u16(out, c)
    return bytes(out), c


class _Stream:
    """Where a position writes its notation (Position.notation(out)): counts the bytes and,
    given a file, keeps their CRC-16 and writes them on."""

    def __init__(self, f=None, crc=0xFFFF):
        self.f = f
        self.n = 0
        self.crc = crc

    def write(self, b):
        self.n += len(b)
        if self.f is not None:
            self.crc = crc16(b, crc=self.crc)
            self.f.write(b)


def write_header(f, kind, variant, seats, start, board, game, rules, time, version=1):
    """Write the header to the binary file f in pieces, the same bytes as encode_header with
    no buffer of the whole; returns (its length, its CRC-16). start: the notation, or a
    position that writes it (notation(out)), streamed twice (its length comes first):
    with 8 players and both expansions it is ~0.6 KB, and the heap of a game just set up
    may hold no block that size."""
    if isinstance(start, str):
        text = start.encode()
        n = len(text)
    else:
        text = _Stream()
        start.notation(text)
        n = text.n
    head = _header_head(kind, variant, seats, n, board, game, rules, time, version)
    f.write(head)
    out = _Stream(f, crc16(head))
    if isinstance(text, _Stream):
        start.notation(out)
    else:
        out.write(text)
    if out.n != n:
        raise ValueError("start position changed while written")
    c = out.crc
    f.write(bytes((c & 0xFF, c >> 8)))
    return len(head) + n + 2, c


def _put_u16(out, v):
    out.append(v & 0xFF)
    out.append((v >> 8) & 0xFF)


def _put_u32(out, v):
    for k in range(4):
        out.append((v >> (8 * k)) & 0xFF)


def _tag_values():
    t = bytearray(b"\xff" * 256)
    for v in range(16):  # (15, a doubt record, only in a log of format version 2)
        t[TAGS[v]] = v
    return bytes(t)


TAG_VALUE = _tag_values()  # tag byte -> v, 0xFF if the byte is no tag


# --- header ----------------------------------------------------------------------------------

class Header:
    """A log header. `crc` is the CRC-16 it was written with (set by encode/decode)."""

    def __init__(self, kind, variant, seats, start, board="", game=0, rules=0, time=0,
                 version=1):
        self.kind = kind
        self.variant = variant
        self.seats = seats
        self.start = start
        self.board = board
        self.game = game
        self.rules = rules
        self.time = time
        self.version = version
        self.crc = 0
        self.length = 0

    def encode(self):
        raw, self.crc = encode_header(self.kind, self.variant, self.seats, self.start, self.board,
                                      self.game, self.rules, self.time, self.version)
        self.length = len(raw)
        return raw

    def seed(self):
        return seed_of(self.crc)

    def __repr__(self):
        return "Header(%s %s %s game=%d board=%s rules=%d time=%d)" % (
            self.kind, self.variant, self.seats, self.game, self.board, self.rules, self.time)


def _u32(raw, i):
    return raw[i] | (raw[i + 1] << 8) | (raw[i + 2] << 16) | (raw[i + 3] << 24)


def decode_header(raw):
    """(header, length, problem): the header at the start of raw and its length in bytes, or
    (None, 0, problem text) if there is no valid header."""
    n = len(raw)
    if n == 0:
        return None, 0, "empty log"
    if n < 4 or bytes(raw[0:4]) != MAGIC:
        if n < 4 and bytes(raw[0:n]) == MAGIC[0:n]:
            return None, 0, "torn header: %d of at least %d bytes" % (n, _HEAD_FIXED + 8)
        return None, 0, "not a game log (no CBGL magic)"
    if n < 7:
        return None, 0, "torn header: %d of at least %d bytes" % (n, _HEAD_FIXED + 8)
    if not 1 <= raw[4] <= FORMAT_VERSION:
        return None, 0, "log format version %d (this reader knows 1 to %d)" % (
            raw[4], FORMAT_VERSION)
    hl = _u16(raw, 5)
    if hl < _HEAD_FIXED + 8:
        return None, 0, "bad header length %d" % hl
    if n < hl:
        return None, 0, "torn header: %d of %d bytes" % (n, hl)
    c = _u16(raw, hl - 2)
    if crc16(raw, 0, hl - 2) != c:
        return None, 0, "header checksum does not match"
    i = _HEAD_FIXED
    texts = []
    try:
        for k in range(5):
            if k == 4:
                ln = _u16(raw, i)
                i += 2
            else:
                ln = raw[i]
                i += 1
            if i + ln > hl - 2:
                return None, 0, "header fields overrun the header"
            texts.append(bytes(raw[i:i + ln]).decode())
            i += ln
    except (IndexError, UnicodeError, ValueError):
        return None, 0, "header fields unreadable"
    h = Header(texts[0], texts[1], texts[2], texts[4], texts[3], _u32(raw, 7), _u16(raw, 15),
               _u32(raw, 11), raw[4])
    h.crc = c
    h.length = hl
    return h, hl, None


# --- records ---------------------------------------------------------------------------------

# By tag value: the record's kind and its size in bytes (tag and CRC included; a doubt
# record's, 4 + its length, is read from it).
_KIND = bytes([UNDO] + [ACTION] * MAX_PAYLOAD + [FINISH, ABANDON, DOUBT])
_SIZE = bytes([2] + [v + 2 for v in range(1, MAX_PAYLOAD + 1)] + [4, 4, 0])


class Reader:
    """Iterates the records of raw from offset (normally the header's end) as (kind, payload)
    (payload: bytes, b"" for undo; the offset field for finish/abandon is checked and not
    returned). Stops at the end or at the first bad record; afterwards `good` is the length of
    the good prefix, `problem` None or what was wrong, `crc` the register after the last good
    record, `count` the records read, `actions`/`undos` their numbers, `last` the last kind.
    version: the log's format version (a doubt record is no record in version 1)."""

    def __init__(self, raw, offset, seed, version=1):
        self.raw = raw
        self.version = version
        self.good = offset
        self.crc = seed
        self.problem = None
        self.count = 0
        self.actions = 0
        self.undos = 0
        self.last = 0

    def __iter__(self):
        raw = self.raw
        n = len(raw)
        i = self.good
        crc = self.crc
        while i < n:
            tag = raw[i]
            v = TAG_VALUE[tag]
            size = _SIZE[v] if v < 16 else 0
            if v == V_DOUBT and self.version >= 2:
                if i + 4 > n:
                    self.problem = "torn tail: record %d at byte %d has %d of at least %d " \
                        "bytes" % (self.count + 1, i, n - i, DOUBT_OVER)
                    break
                if crc8(raw, 0, i + 1, i + 3) != raw[i + 3] or _u16(raw, i + 1) > DOUBT_MAX:
                    self.problem = "bad doubt record length at byte %d (record %d)" % (
                        i, self.count + 1)
                    break
                size = _u16(raw, i + 1) + DOUBT_OVER
                if i + size <= n and crc16(raw, i, i + size - 3) != _u16(raw, i + size - 3):
                    self.problem = "bad checksum at byte %d (record %d)" % (i, self.count + 1)
                    break
            if size == 0:
                self.problem = "bad record tag 0x%02x at byte %d (record %d)" % (
                    tag, i, self.count + 1)
                break
            if i + size > n:
                self.problem = "torn tail: record %d at byte %d has %d of %d bytes" % (
                    self.count + 1, i, n - i, size)
                break
            c = crc8(raw, crc, i, i + size - 1)
            if c != raw[i + size - 1]:
                self.problem = "bad checksum at byte %d (record %d)" % (i, self.count + 1)
                break
            kind = _KIND[v]
            if (kind == FINISH or kind == ABANDON) and _u16(raw, i + 1) != (i & 0xFFFF):
                self.problem = "bad end record at byte %d (record %d)" % (i, self.count + 1)
                break
            crc = c
            self.crc = c
            self.good = i + size
            self.count += 1
            self.last = kind
            if kind == ACTION:
                self.actions += 1
                yield kind, bytes(raw[i + 1:i + size - 1])
            elif kind == DOUBT:
                yield kind, bytes(raw[i + 4:i + size - 3])
            else:
                if kind == UNDO:
                    self.undos += 1
                yield kind, b""
            i += size
        if self.problem is not None:
            self.problem += ": %d byte(s) dropped" % (n - self.good)

    def dropped(self):
        return len(self.raw) - self.good


def parse(raw):
    """(header, records, good_length, problem) of a whole log: records is a list of
    (kind, payload); good_length the bytes up to the end of the last good record; problem None
    for a clean log, else text (a torn tail, a bad checksum, no header). Never raises on bad
    bytes."""
    h, hl, problem = decode_header(raw)
    if h is None:
        return None, [], 0, problem
    rd = Reader(raw, hl, h.seed(), h.version)
    records = list(rd)
    return h, records, rd.good, rd.problem


