"""The game log codec (firmware/system/logformat.py): round trips, the same bytes on CPython and on
the MicroPython unix port, torn and corrupt logs give a named problem and the good prefix,
never an exception."""

import random

import pytest
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from firmware.system import logformat as LF  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402
from logsteps import as_records, random_steps, with_doubts  # noqa: E402

START = cc.start_position(2).notation()


def sample_header(**kw):
    args = dict(kind="cargocube", variant="polygon", seats="SN", start=START, board="e6614c31",
                game=42, rules=cc.RULES_VERSION, time=1767225600)
    args.update(kw)
    return LF.Header(**args)


def build(steps, header=None):
    """A log from steps (tests/logsteps.py), encoded here record by record."""
    h = header or sample_header()
    out = bytearray(h.encode())
    crc = h.seed()
    for s in steps:
        if s is None:
            rec, crc = LF.encode_record(LF.UNDO, b"", crc)
        elif s == "f":
            rec, crc = LF.encode_record(LF.FINISH, b"", crc, len(out))
        elif s == "x":
            rec, crc = LF.encode_record(LF.ABANDON, b"", crc, len(out))
        elif isinstance(s, tuple):
            rec, crc = LF.encode_record(LF.DOUBT, s[1], crc)
        else:
            rec, crc = LF.encode_record(LF.ACTION, s, crc)
        out += rec
    return bytes(out)


def test_header_round_trip():
    h = sample_header()
    raw = h.encode()
    assert raw[:4] == b"CBGL" and raw[4] == 1  # (a log with no doubt record: version 1)
    h2, n, problem = LF.decode_header(raw + b"\x02\x00\x00\x00")
    assert problem is None and n == len(raw) == h.length
    for f in ("kind", "variant", "seats", "start", "board", "game", "rules", "time", "crc",
              "version"):
        assert getattr(h2, f) == getattr(h, f), f
    h3 = sample_header(version=2)
    assert h3.encode()[4] == 2 == LF.FORMAT_VERSION and LF.decode_header(h3.encode())[0].version == 2


def test_doubt_records_round_trip_in_a_version_2_log_only():
    steps = with_doubts(random_steps(4, n=60)[0], every=5) + ["f"]
    assert any(isinstance(x, tuple) and not x[1] for x in steps)
    raw = build(steps, sample_header(version=2))
    h, recs, good, problem = LF.parse(raw)
    assert problem is None and good == len(raw) and recs == as_records(steps)
    # the same records under a version 1 header: the first doubt record is no record
    v1 = build(steps, sample_header())
    h, recs, good, problem = LF.parse(v1)
    first = next(i for i, x in enumerate(steps) if isinstance(x, tuple))
    assert recs == as_records(steps[:first]) and problem.startswith("bad record tag")
    # torn anywhere in a doubt record: the good prefix and a named problem, never an exception
    at = len(build(steps[:first], sample_header(version=2)))
    end = len(build(steps[:first + 1], sample_header(version=2)))
    for cut in range(at + 1, end):
        h, recs, good, problem = LF.parse(raw[:cut])
        assert good == at and problem.startswith("torn tail") and recs == as_records(steps[:first])
    # its length damaged: named as such, before the length is believed
    bad = bytearray(raw)
    bad[at + 1] ^= 0x04
    h, recs, good, problem = LF.parse(bytes(bad))
    assert good == at and problem.startswith("bad doubt record length at byte %d" % at), problem
    with pytest.raises(ValueError):
        LF.encode_record(LF.DOUBT, bytes(LF.DOUBT_MAX + 1), 0)


def test_records_round_trip_and_sizes():
    steps, _ = random_steps(3, n=120)
    steps += ["f"]
    raw = build(steps)
    h, recs, good, problem = LF.parse(raw)
    assert problem is None and good == len(raw)
    assert recs == as_records(steps)
    # The common action: 2 bytes of the rules' encoding + tag + CRC = 4 bytes; an undo 2.
    a = cc.encode_action(cc.start_position(2).legal_actions()[0])
    assert len(LF.encode_record(LF.ACTION, a, 0)[0]) == 4
    assert len(LF.encode_record(LF.UNDO, b"", 0)[0]) == 2
    assert len(LF.encode_record(LF.FINISH, b"", 0, 500)[0]) == 4


def test_every_truncation_keeps_the_good_prefix():
    steps, _ = random_steps(5, n=60)
    steps += ["f"]
    raw = build(steps)
    hl = sample_header().encode().__len__()
    ends = [hl]
    for s in steps:
        ends.append(ends[-1] + (2 if s is None else 4 if s in ("f", "x") else len(s) + 2))
    assert ends[-1] == len(raw)
    for cut in range(len(raw) + 1):
        h, recs, good, problem = LF.parse(raw[:cut])
        if cut < hl:
            assert h is None and recs == [] and good == 0 and problem
            continue
        complete = max(i for i, e in enumerate(ends) if e <= cut)
        assert recs == as_records(steps[:complete])
        assert good == ends[complete]
        if cut == good:
            assert problem is None
        else:
            assert problem.startswith("torn tail") and "%d byte(s) dropped" % (cut - good) in problem


def test_every_bit_flip_in_the_records_is_found():
    steps, _ = random_steps(7, n=40)
    raw = build(steps)
    hl = sample_header().encode().__len__()
    for i in range(hl, len(raw)):
        for bit in range(8):
            bad = bytearray(raw)
            bad[i] ^= 1 << bit
            h, recs, good, problem = LF.parse(bytes(bad))
            assert problem is not None, (i, bit)
            assert good <= i  # nothing from the damaged record on is taken as good
            assert recs == as_records(steps)[:len(recs)]


def test_tags_differ_in_four_bits():
    tags = list(LF.TAGS)
    assert min(bin(a ^ b).count("1") for a in tags for b in tags if a != b) == 4
    assert LF.TAG_VALUE[0x00] == LF.TAG_VALUE[0xFF] == 0xFF  # blank bytes are no tag
    assert LF.TAG_VALUE[LF.TAGS[15]] == 15 == LF.V_DOUBT  # (a record only in version 2)
    assert sum(1 for v in LF.TAG_VALUE if v != 0xFF) == 16


def test_every_error_of_up_to_three_bits_in_a_record_is_found():
    from itertools import combinations
    small = sample_header(start="f1=B1 SN S a", version=2)
    for middle in (b"\x12\x34", None, "f", b"\x01\x02\x03\x04\x05", ("d", b"\x07\x00\x01\x02"),
                   ("d", bytes(range(40)))):
        steps = [b"\x00\x10", middle, b"\x23\x45"]
        raw = build(steps, small)
        lo = len(build(steps[:1], small))
        hi = len(build(steps[:2], small))
        bits = range(lo * 8, hi * 8)
        long = middle == b"\x01\x02\x03\x04\x05" or isinstance(middle, tuple) and len(middle[1]) > 4
        for k in ((1, 2) if long else (1, 2, 3)):
            for flip in combinations(bits, k):
                bad = bytearray(raw)
                for b in flip:
                    bad[b >> 3] ^= 1 << (b & 7)
                h, recs, good, problem = LF.parse(bytes(bad))
                assert problem is not None and good == lo, (middle, flip)


def test_header_problems_are_named():
    raw = build([b"\x00\x10"])
    assert LF.parse(b"")[3] == "empty log"
    assert "no CBGL magic" in LF.parse(b"PK\x03\x04" + raw[4:])[3]
    assert "version 9" in LF.parse(raw[:4] + b"\x09" + raw[5:])[3]
    bad = bytearray(raw)
    bad[20] ^= 0x40
    assert "header checksum" in LF.parse(bytes(bad))[3]
    assert LF.parse(raw[:30])[3].startswith("torn header")
    assert LF.parse(raw[:2])[3].startswith("torn header")
    # Records of another game (another header) do not check: the chain starts from the header.
    other = build([b"\x00\x10"], sample_header(game=43))
    h, recs, good, problem = LF.parse(other[:len(other) - 4] + raw[len(raw) - 4:])
    assert recs == [] and "bad checksum" in problem


def test_closed_tail():
    for steps, want in (([b"\x00\x10", "f"], LF.FINISH), ([b"\x00\x10", "x"], LF.ABANDON),
                        ([b"\x00\x10"], 0), ([b"\x41\x41"], 0), ([], 0), (["f", None], 0)):
        raw = build(steps)
        assert LF.closed_tail(raw[-4:], len(raw)) == want, steps


def test_bad_input_never_raises():
    rng = random.Random(11)
    raw = build(random_steps(13, n=30)[0])
    for _ in range(300):
        bad = bytearray(raw)
        for _ in range(rng.randrange(1, 6)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        h, recs, good, problem = LF.parse(bytes(bad[:rng.randrange(len(bad) + 1)]))
        assert good == 0 or h is not None


MPY_SCRIPT = r"""
from firmware.system import logformat as LF
h = LF.Header("cargocube", "polygon+cards", "SWNE", %r, "e6614c31", 7, 1, 1767225600)
raw = bytearray(h.encode())
crc = h.seed()
steps = %r
for s in steps:
    if s is None:
        rec, crc = LF.encode_record(LF.UNDO, b"", crc)
    elif s == "f":
        rec, crc = LF.encode_record(LF.FINISH, b"", crc, len(raw))
    else:
        rec, crc = LF.encode_record(LF.ACTION, bytes(s), crc)
    raw.extend(rec)
print("".join(["%%02x" %% b for b in raw]))
for cut in (len(raw), len(raw) - 1, len(raw) - 3, 40, 0):
    h2, recs, good, problem = LF.parse(bytes(raw[:cut]))
    print(cut, len(recs), good, problem)
"""


def test_same_bytes_on_micropython(micropython):
    start = cc.start_position(4, cards=True).notation()
    steps, _ = random_steps(17, n=50)
    steps += ["f"]
    listed = [s if s is None or s == "f" else list(s) for s in steps]
    out = micropython(MPY_SCRIPT % (start, listed), heapsize="192k").strip().splitlines()
    h = LF.Header("cargocube", "polygon+cards", "SWNE", start, "e6614c31", 7, 1, 1767225600)
    raw = build(steps, h)
    assert out[0] == raw.hex()
    for line in out[1:]:
        cut, n, good, problem = line.split(" ", 3)
        h2, recs, good2, problem2 = LF.parse(raw[:int(cut)])
        assert (int(n), int(good), problem) == (len(recs), good2, str(problem2))


HEADER_ARGS = ("cargocube", "polygon+both+teleport", "12345678")
STREAM_SCRIPT = """
import io
from firmware.system import logformat as LF
from shared_rules.cargocube import rules as cc
pos = cc.start_position(8, cards="both", teleport=True)
for start in (pos, pos.notation()):
    f = io.BytesIO()
    n, c = LF.write_header(f, %r, %r, %r, start, "e6614c31", 9, 1, 1767225600)
    raw = f.getvalue()
    print(raw.hex(), n, c)
"""


def test_streamed_header_is_the_encoded_one(micropython):
    """write_header (the board's: in pieces, the position streaming its notation) writes the
    bytes encode_header builds in one buffer, on CPython and on the MicroPython unix port."""
    import io
    pos = cc.start_position(8, cards="both", teleport=True)
    want, crc = LF.encode_header(*HEADER_ARGS, pos.notation(), "e6614c31", 9, 1, 1767225600)
    assert len(want) > 500  # the long one: 8 players, both expansions, the teleport
    for start in (pos, pos.notation()):
        f = io.BytesIO()
        assert LF.write_header(f, *HEADER_ARGS, start, "e6614c31", 9, 1, 1767225600) == \
            (len(want), crc)
        assert f.getvalue() == want
    out = micropython(STREAM_SCRIPT % HEADER_ARGS, heapsize="192k").split()
    assert out == [want.hex(), str(len(want)), str(crc)] * 2
    assert LF.decode_header(want)[0].start == pos.notation()
