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
  cut up by a game may not have (`array("H", bytearray(512))` needs no list).

Variable annotations are fine. Every `*.py` under shared_rules/ and firmware/ is linted; the list
is collected afresh on every run, so new files are covered without touching this test.
"""

import ast
from pathlib import Path

import pytest

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
