"""Source lint for the device-side code: what the MicroPython subset forbids but mpy-cross accepts.

mpy-cross (see tests/mpy.py) already rejects `match`, PEP 695 generics, `{**d}` and friends; it
ACCEPTS, and the board would then fail at import or behave differently, the constructs below, so we
reject them here from the AST (plus the source text for the f-string `=` specifier):

- imports of CPython-only modules: dataclasses, enum, typing, abc, functools, itertools,
  collections, pathlib, threading (also their submodules; `asyncio` is allowed);
- `from __future__ import ...`;
- f-strings with the self-documenting `=` specifier, f"{x=}";
- the walrus `:=` inside a comprehension or generator expression;
- `match` statements (also rejected by mpy-cross; kept so the message names the construct);
- class generics: a subscripted base class (`class A(Generic[T])`, `class A(list[int])`) or PEP 695
  type parameters (`class A[T]`), and `type X = ...` aliases;
- and one allocation rule: an array made from a multiplied list, `array("H", [0] * 256)`, builds
  the whole list first, a block of 8 bytes an item on the unix port (4 on the board) that a heap
  cut up by a game may not have (`array("H", bytearray(512))` needs no list);
- dir(x) with an argument: MicroPython answers it by trying every interned name on x (a thousand
  with «Формула 99» loaded), which made each of its console commands' unloads slow;
- an int looked for in a buffer: `x in buf` (NotImplementedError on MicroPython for a bytearray,
  array or memoryview) and buf.find(x)/index/count (TypeError on the board, though the unix
  port's newer MicroPython takes find and index), as far as one module shows that buf is a
  buffer and x is not bytes (see _ModuleBuffers).

Variable annotations are fine. Every `*.py` under shared_rules/ and firmware/ is linted; the list
is collected afresh on every run, so new files are covered without touching this test.
"""

import ast
from pathlib import Path

import pytest

import mpy

REPO_ROOT = Path(__file__).resolve().parent.parent
DEVICE_DIRS = ("shared_rules", "firmware")

FORBIDDEN_MODULES = frozenset((
    "dataclasses", "enum", "typing", "abc", "functools", "itertools", "collections", "pathlib",
    "threading",
))

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def device_files():
    files = []
    for d in DEVICE_DIRS:
        for p in sorted((REPO_ROOT / d).rglob("*.py")):
            if "__pycache__" not in p.parts:
                files.append(p)
    return files


def _line_starts(data):
    """Byte offset of the start of each line (1-based line numbers index [line - 1])."""
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    return starts


def _has_debug_specifier(data, starts, value):
    """True if the f-string field whose expression is `value` uses the `=` specifier.

    The expression's end position (line, UTF-8 byte column) is exact for f-string fields on
    CPython 3.8+; after it, only whitespace may come before the specifier's `=`, while a
    conversion `!r`, a format spec `:` or the closing `}` means there is none.
    """
    if value.end_lineno is None or value.end_col_offset is None:
        return False
    i = starts[value.end_lineno - 1] + value.end_col_offset
    n = len(data)
    while i < n and data[i] in b" \t\r\n\f":
        i += 1
    return i < n and data[i] == 0x3D and not (i + 1 < n and data[i + 1] == 0x3D)


def lint_source(source, filename="<source>"):
    """Problems of one source text, as 'filename:line: message' strings (empty: all fine)."""
    problems = []

    def report(node, message):
        problems.append((getattr(node, "lineno", 0), "%s:%d: %s" % (
            filename, getattr(node, "lineno", 0), message)))

    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as e:
        return ["%s:%s: syntax error: %s" % (filename, e.lineno, e.msg)]
    data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
    starts = _line_starts(data)

    # Parents, to know whether a walrus sits inside a comprehension.
    parent = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent[child] = node

    match_type = getattr(ast, "Match", None)
    type_alias = getattr(ast, "TypeAlias", None)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root in FORBIDDEN_MODULES:
                    report(node, "import of %r: module not in the MicroPython subset" % alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                root = node.module.split(".")[0]
                if node.module == "__future__":
                    report(node, "'from __future__ import ...': not supported by MicroPython")
                elif root in FORBIDDEN_MODULES:
                    report(node, "import from %r: module not in the MicroPython subset"
                           % node.module)
        elif isinstance(node, ast.FormattedValue):
            if _has_debug_specifier(data, starts, node.value):
                report(node.value, "f-string '=' specifier (f\"{x=}\"): not in MicroPython")
        elif isinstance(node, ast.NamedExpr):
            p = parent.get(node)
            while p is not None:
                if isinstance(p, _COMPREHENSIONS):
                    report(node, "walrus ':=' inside a comprehension: not in MicroPython")
                    break
                p = parent.get(p)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "dir" and node.args:
            report(node, "dir(x): MicroPython tries every interned name on x (a thousand with a "
                   "game loaded, 0.25 ms on the unix port); ask getattr(x, name, None)")
        elif isinstance(node, ast.Call) and _is_array_from_list(node):
            report(node, "array from a multiplied list (a temporary list of every item): "
                   "make it from a bytearray")
        elif match_type is not None and isinstance(node, match_type):
            report(node, "'match' statement: not in MicroPython")
        elif type_alias is not None and isinstance(node, type_alias):
            report(node, "'type' alias statement (PEP 695): not in MicroPython")
        elif isinstance(node, ast.ClassDef):
            if getattr(node, "type_params", None):
                report(node, "class generics 'class %s[...]' (PEP 695): not in MicroPython"
                       % node.name)
            for base in node.bases:
                if isinstance(base, ast.Subscript):
                    report(base, "class generics: subscripted base class in class %s: "
                           "not in MicroPython" % node.name)
    _buffer_problems(tree, report)
    problems.sort()
    return [text for _, text in problems]


def _is_array_from_list(call):
    """array(typecode, [x] * n) (or array.array): the list is made whole before the array."""
    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    if name != "array" or len(call.args) < 2:
        return False
    init = call.args[1]
    return isinstance(init, ast.BinOp) and isinstance(init.op, ast.Mult) and (
        isinstance(init.left, ast.List) or isinstance(init.right, ast.List))


# -- buffers: `x in buf` and buf.find(x) with an int x -------------------------------------------
#
# Measured (tests/mpy.py's unix port, MicroPython 1.29 preview, and the emulated Pico's stock
# 1.26.1 image): `2 in bytearray(b"\x01\x02")` raises NotImplementedError on both, and so do an
# array.array and a memoryview (`2 in bytes(...)` works on both, as does `b"\x02" in buf`);
# buf.find(2) / buf.index(2) work on the unix port but raise TypeError on the board, and
# buf.count(2) on both. CPython accepts them all, so only the board's own tests would tell.
# Statically the lint follows what one module shows: the names (in their function, or the module),
# the attributes (`self.buf`, any object's, by name in the module) and the parameters (from the
# module's own calls) bound to bytearray(...), array(...) or memoryview(...) or to a slice of
# one; the item looked for must be plainly bytes (a bytes literal, bytes(...), a name bound only
# to those, a slice of a buffer), or it is reported.

_BUFFER_MAKERS = frozenset(("bytearray", "array", "memoryview"))
_BYTES_MAKERS = _BUFFER_MAKERS | {"bytes"}
_BUFFER_SEARCHES = frozenset(("find", "rfind", "index", "count"))


def _called_name(call):
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


class _ModuleBuffers:
    """What one module binds its names, attributes and parameters to, to tell the buffers."""

    def __init__(self, tree):
        self.names = {}     # (scope node, name) -> [value expressions]
        self.attrs = {}     # attribute name -> [value expressions]
        self.scope_of = {}  # node -> its function (or the module)
        self.outer = {}     # function -> the scope it is defined in
        functions = {}      # name -> [(function node, 1 for a method's self)]
        self._scan(tree, tree, functions)
        for node, scope in self.scope_of.items():
            if isinstance(node, ast.Call):
                self._bind_arguments(node, scope, functions)

    def _scan(self, node, scope, functions):
        for child in ast.iter_child_nodes(node):
            self.scope_of[child] = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                self.outer[child] = scope
                args = child.args
                positional = args.posonlyargs + args.args
                for arg, default in zip(positional[len(positional) - len(args.defaults):],
                                        args.defaults):
                    self._bind(child, arg.arg, default)
                if not isinstance(child, ast.Lambda):
                    method = isinstance(node, ast.ClassDef) and bool(positional)
                    functions.setdefault(child.name, []).append((child, int(method)))
                self._scan(child, child, functions)
                continue
            if isinstance(child, ast.Assign):
                for target in child.targets:
                    self._bind_target(target, child.value, scope)
            elif isinstance(child, (ast.AnnAssign, ast.AugAssign)) and child.value is not None:
                self._bind_target(child.target, child.value, scope)
            self._scan(child, scope, functions)

    def _bind_target(self, target, value, scope):
        if isinstance(target, ast.Name):
            self._bind(scope, target.id, value)
        elif isinstance(target, ast.Attribute):
            self.attrs.setdefault(target.attr, []).append((value, scope))

    def _bind(self, scope, name, value):
        self.names.setdefault((scope, name), []).append((value, scope))

    def _bind_arguments(self, call, scope, functions):
        f = call.func
        if isinstance(f, ast.Name):
            targets = [(fn, 0) for fn, _ in functions.get(f.id, ())]
        elif isinstance(f, ast.Attribute):
            targets = [(fn, skip) for fn, skip in functions.get(f.attr, ()) if skip]
        else:
            return
        for fn, skip in targets:
            params = fn.args.posonlyargs + fn.args.args
            for i, value in enumerate(call.args):
                if i + skip < len(params) and not isinstance(value, ast.Starred):
                    self._bind(fn, params[i + skip].arg, value)
            for kw in call.keywords:
                if kw.arg is not None:
                    self._bind(fn, kw.arg, kw.value)

    def _bindings(self, name, scope):
        while True:
            found = self.names.get((scope, name))
            if found is not None or scope not in self.outer:
                return found or ()
            scope = self.outer[scope]

    def _bound(self, node, scope):
        """[(value, scope)] a name or an attribute was given in the module; () for other nodes."""
        if isinstance(node, ast.Name):
            return self._bindings(node.id, scope)
        if isinstance(node, ast.Attribute):
            return self.attrs.get(node.attr, ())
        return ()

    def is_buffer(self, node, scope, seen=None):
        """A bytearray, array or memoryview (or a slice of one), as far as the module shows."""
        seen = _first_visit(node, seen)
        if seen is None:
            return False
        if isinstance(node, ast.Call):
            return _called_name(node) in _BUFFER_MAKERS
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.is_buffer(node.value, scope, seen)
        if isinstance(node, ast.IfExp):
            return any(self.is_buffer(b, scope, seen) for b in (node.body, node.orelse))
        return any(self.is_buffer(value, where, seen) for value, where in self._bound(node, scope))

    def is_bytes(self, node, scope, seen=None):
        """Plainly bytes (or a str, or a buffer): what `in` and find() take on MicroPython."""
        seen = _first_visit(node, seen)
        if seen is None:
            return False
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (bytes, str))
        if isinstance(node, ast.Call):
            return _called_name(node) in _BYTES_MAKERS
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self.is_bytes(node.value, scope, seen) or self.is_buffer(node.value, scope)
        bound = self._bound(node, scope)
        return bool(bound) and all(self.is_bytes(v, where, seen) for v, where in bound)


def _first_visit(node, seen):
    """The set of nodes seen, with node added; None if it was there (a loop of names)."""
    seen = set() if seen is None else seen
    if node in seen:
        return None
    seen.add(node)
    return seen


def _buffer_problems(tree, report):
    """`x in buf` / buf.find(x) where buf is a buffer and x is not plainly bytes."""
    buffers = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            looks = [(node.left if i == 0 else node.comparators[i - 1], right)
                     for i, (op, right) in enumerate(zip(node.ops, node.comparators))
                     if isinstance(op, (ast.In, ast.NotIn))]
            if not looks:
                continue
            buffers = buffers or _ModuleBuffers(tree)
            scope = buffers.scope_of[node]
            for item, container in looks:
                if buffers.is_buffer(container, scope) and not buffers.is_bytes(item, scope):
                    report(node, "'x in %s' with an int x: NotImplementedError on MicroPython "
                           "(bytearray, array and memoryview have no 'in'); test bytes, or "
                           "keep a bytes or a set" % ast.unparse(container))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _BUFFER_SEARCHES and node.args:
            buffers = buffers or _ModuleBuffers(tree)
            scope = buffers.scope_of[node]
            if buffers.is_buffer(node.func.value, scope) and \
                    not buffers.is_bytes(node.args[0], scope):
                report(node, "'%s.%s(x)' with an int x: TypeError on the board's MicroPython "
                       "(find and index work on the unix port); look for bytes((x,))"
                       % (ast.unparse(node.func.value), node.func.attr))


def lint_file(path):
    try:
        shown = str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        shown = str(path)
    return lint_source(Path(path).read_text(encoding="utf-8"), shown)


DEVICE_FILES = device_files()


def test_there_are_device_files():
    assert any(p.parts[-2] == "shared_rules" for p in DEVICE_FILES), DEVICE_FILES


@pytest.mark.parametrize(
    "path", DEVICE_FILES, ids=[str(p.relative_to(REPO_ROOT)) for p in DEVICE_FILES]
)
def test_device_file_in_micropython_subset(path):
    problems = lint_file(path)
    assert not problems, "outside the MicroPython subset:\n" + "\n".join(problems)


# -- self-test: the lint can fail ----------------------------------------------------------------

BAD_SOURCE = '''\
from __future__ import annotations
import typing
import collections.abc as cabc
from functools import partial
from dataclasses import dataclass
import os, itertools
x = 1
s = f"value {x=}"
t = f"{x + 1 = :>4}"
u = [y for v in range(3) if (y := v)]


class Box(typing.Generic[int]):
    pass


def f(v):
    match v:
        case 1:
            return 0
'''

GOOD_SOURCE = '''\
import asyncio
import gc
import micropython
from shared_rules import geometry as g

counter: int = 0
x = 1
a = f"x={x!r} {x == 1} {x != 2} {x:>4}"
b = f"{'=' if x else ':'}"
if (n := len(a)) > 3:
    pass


class Plain(object):
    size: int = 3

    def total(self, items: list) -> int:
        return sum(i for i in items)
'''


def _lines(problems):
    return sorted(int(p.split(":")[1]) for p in problems)


def test_lint_catches_bad_source():
    problems = lint_source(BAD_SOURCE, "bad.py")
    text = "\n".join(problems)
    assert all(p.startswith("bad.py:") for p in problems), text
    assert _lines(problems) == [1, 2, 3, 4, 5, 6, 8, 9, 10, 13, 18], text
    for needle in ("__future__", "'typing'", "'collections.abc'", "'functools'",
                   "'dataclasses'", "'itertools'", "'=' specifier", "walrus", "class generics",
                   "'match'"):
        assert needle in text, (needle, text)


def test_lint_accepts_good_source():
    assert lint_source(GOOD_SOURCE, "good.py") == []


def test_lint_fstring_specifier_across_lines_and_nesting():
    src = 'x = 1\ny = f"""{x\n=}"""\nz = f"{f\'{x=}\'}"\nw = f"{x}" f"{x}"\n'
    assert _lines(lint_source(src)) == [2, 4]  # y (lines 2-3) and the nested one in z


def test_lint_reports_syntax_errors():
    (problem,) = lint_source("def f(:\n", "broken.py")
    assert problem.startswith("broken.py:1: syntax error")


def test_lint_catches_an_array_made_from_a_list():
    src = ('from array import array\nimport array as A\na = array("H", [0] * 256)\n'
           'b = A.array("I", 121 * [0])\nc = array("H", bytearray(512))\nd = [0] * 256\n')
    problems = lint_source(src, "alloc.py")
    assert _lines(problems) == [3, 4], problems
    assert "bytearray" in problems[0]


BUFFER_SOURCE = '''\
import array as A
BITS = bytearray(8)
class Cells:
    def __init__(self):
        self.cells = bytearray(4)
        self.marks = A.array("H", bytearray(8))
        self.seen = []
    def has(self, c):
        return c in self.cells or c in self.seen or b"\\x01" in self.cells
    def window(self, c, lo):
        v = memoryview(self.cells)[lo:]
        return c not in v or 3 < c in BITS or c in self.marks
    def pass_on(self, x):
        return self.look(x, bytearray(3))
    def look(self, x, buf):
        return x in buf
def outer(c):
    def inner():
        return c in BITS[1:]
    return search(BITS, c, bytes((c,)))
def search(b, c, needle):
    found = b.find(needle), b.find(c), b.index(c + 1), b.count(c), "abc".find("b")
    return found, c in bytes(b), needle in b, c in (1, 2)
'''


def test_lint_catches_an_int_looked_for_in_a_buffer():
    """`x in buf` and buf.find(x) where the module binds buf (a name, an attribute, a parameter
    its own calls pass it, a slice) to a bytearray, array or memoryview and x is not plainly
    bytes; a list, a bytes and a bytes item are fine."""
    problems = lint_source(BUFFER_SOURCE, "buf.py")
    assert _lines(problems) == [9, 12, 12, 12, 16, 19, 22, 22, 22], "\n".join(problems)
    assert "'x in self.cells'" in problems[0] and "NotImplementedError" in problems[0]
    assert any("'b.find(x)'" in p and "TypeError" in p for p in problems), problems


BUFFER_PROBE = """
import array
buf = bytearray(b"\\x01\\x02")
for name, look in (("bytearray", lambda: 2 in buf), ("array", lambda: 2 in array.array("B", buf)),
                   ("memoryview", lambda: 2 in memoryview(buf)), ("count", lambda: buf.count(2))):
    try:
        print(name, look())
    except Exception as e:
        print(name, type(e).__name__)
print("bytes", 2 in bytes(buf), b"\\x02" in buf, buf.find(b"\\x02"))
"""


def test_micropython_has_no_int_in_a_buffer():
    """The rule's ground, under tests/mpy.py's unix port (the emulated Pico's 1.26.1 answers the
    same, and raises TypeError for buf.find(2) too): if a MicroPython ever takes these, the
    rule can go."""
    assert mpy.run_micropython(BUFFER_PROBE).split("\n") == [
        "bytearray NotImplementedError", "array NotImplementedError",
        "memoryview NotImplementedError", "count TypeError", "bytes True True 1", ""]


def test_lint_catches_dir_of_an_object():
    src = "import sys\nm = sys.modules['x']\nif 'y' in dir(m):\n    pass\nnames = dir()\n"
    problems = lint_source(src, "d.py")
    assert _lines(problems) == [3] and "getattr" in problems[0], problems
