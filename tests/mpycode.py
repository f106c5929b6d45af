"""The code in a .mpy file (format v6, as mpy-cross 1.29 writes it and MicroPython 1.26 loads it):
each function's bytecode or machine code, as the loader puts it in a heap block of its own.

    code_blocks(data) -> [(kind, bytes)]   kind: "bytecode", "native", "viper" or "asm"

Written from MicroPython's py/persistentcode.c (load_raw_code) and docs/reference/mpy_files.rst.
Used by tests/test_heldblocks.py to find the words in the board's code that its conservative
garbage collector would take for pointers.
"""

KINDS = ("bytecode", "native", "viper", "asm")
# scope flags that tell a viper function's extra sections (py/runtime0.h)
_VIPERRELOC, _VIPERRODATA, _VIPERBSS = 0x10, 0x20, 0x40
# constant object kinds (py/persistentcode.h: MP_PERSISTENT_OBJ_*)
_OBJ_NO_DATA = 4  # fun table, None, False, True, Ellipsis: the kind byte alone
_OBJ_STR, _OBJ_BYTES, _OBJ_TUPLE = 5, 6, 10


class MpyError(ValueError):
    pass


class _Reader:
    def __init__(self, data):
        self.data = data
        self.i = 0

    def take(self, n):
        if self.i + n > len(self.data):
            raise MpyError("truncated at byte %d" % self.i)
        out = self.data[self.i:self.i + n]
        self.i += n
        return out

    def uint(self):
        v = 0
        while True:
            c = self.take(1)[0]
            v = (v << 7) | (c & 0x7F)
            if not c & 0x80:
                return v


def code_blocks(data: bytes) -> list:
    r = _Reader(data)
    if r.take(2) != b"M\x06":
        raise MpyError("not a .mpy file of format 6")
    r.take(2)  # architecture and sub-version, small-int bits
    n_qstr, n_obj = r.uint(), r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if not n & 1:  # else a static qstr's index
            r.take((n >> 1) + 1)

    def obj():
        kind = r.take(1)[0]
        if kind <= _OBJ_NO_DATA:
            return
        if kind == _OBJ_TUPLE:
            for _ in range(r.uint()):
                obj()
            return
        r.take(r.uint() + (1 if kind in (_OBJ_STR, _OBJ_BYTES) else 0))

    for _ in range(n_obj):
        obj()
    out = []

    def raw_code():
        kind_len = r.uint()
        kind = KINDS[kind_len & 3]
        has_children = kind_len & 4
        out.append((kind, r.take(kind_len >> 3)))
        flags = 0
        if kind == "native":
            r.uint()  # the prelude's offset
        elif kind in ("viper", "asm"):
            flags = r.uint()
            if kind == "asm":
                r.uint()
                r.uint()
        if kind == "viper":
            rodata = r.uint() if flags & _VIPERRODATA else 0
            if flags & _VIPERBSS:
                r.uint()
            r.take(rodata)
        if kind != "asm" and has_children:
            for _ in range(r.uint()):
                raw_code()
        if flags & _VIPERRELOC:
            raise MpyError("relocations are not read (mpy-cross writes none)")

    raw_code()
    if r.i != len(data):
        raise MpyError("%d bytes after the code" % (len(data) - r.i))
    return out
