"""The MicroPython harness itself works (tests/mpy.py): if these fail, device tests mean nothing."""

import pytest

import mpy


def test_micropython_runs(micropython):
    assert micropython("print(1+1)") == "2\n"


def test_is_really_micropython(micropython):
    out = micropython("import sys\nprint(sys.implementation.name)")
    assert out.strip() == "micropython"


def test_heapsize_is_honoured(micropython):
    # 192 KiB heap: the GC sees 192 KiB minus its block table.
    total = int(micropython("import gc\ngc.collect()\nprint(gc.mem_free() + gc.mem_alloc())"))
    assert 180 * 1024 <= total <= 192 * 1024
    with pytest.raises(mpy.MicroPythonError) as exc:
        micropython("b = bytearray(300000)\nprint('allocated')", heapsize="192k")
    assert "MemoryError" in str(exc.value)
    # ...and the same script is fine with a bigger heap, so the limit is what failed it.
    assert micropython("b = bytearray(300000)\nprint('allocated')", heapsize="1m") == "allocated\n"


def test_memory_introspection_available(micropython):
    out = micropython("import gc, micropython\nmicropython.mem_info()\nprint(gc.mem_alloc() > 0)")
    assert "GC: total:" in out
    assert out.strip().endswith("True")


def test_error_is_raised_with_traceback(micropython):
    with pytest.raises(mpy.MicroPythonError) as exc:
        micropython("raise ValueError('boom')")
    assert exc.value.returncode == 1
    assert "ValueError: boom" in str(exc.value)


def test_args_and_repo_on_path(micropython, tmp_path):
    """The repo is on the path through a short link (the same heap from any checkout's path):
    the checkout's own path is not on it, and the repo's modules load through the link."""
    out = micropython("import sys\nprint(sys.argv[1:])\nprint(sys.path)\n"
                      "import firmware.system.logformat as m\nprint(m.__file__)",
                      args=("a", "7"))
    argv, path, module = out.splitlines()
    assert argv == "['a', '7']"
    assert ".frozen" in path and str(mpy.REPO_ROOT) not in path
    assert module.startswith("/tmp/m") and module.endswith("/r/firmware/system/logformat.py")


def test_package_import_via_micropypath(micropython, tmp_path):
    # A throwaway package outside the repo (no __init__.py, like shared_rules may be).
    pkg = tmp_path / "throwaway_pkg"
    pkg.mkdir()
    (pkg / "mod.py").write_text("from micropython import const\nX = const(41) + 1\n")
    out = micropython("import throwaway_pkg.mod as m\nprint(m.X)", path=[tmp_path])
    assert out == "42\n"


def test_mpy_cross_compiles_valid_code(mpy_cross, tmp_path, micropython):
    src = tmp_path / "ok_mod.py"
    src.write_text("def f(x):\n    return [y for y in range(x) if (z := y)]\nprint(f(3))\n")
    out_dir = tmp_path / "out"
    data = mpy_cross(src, out_dir=out_dir)
    assert data[:1] == b"M"  # .mpy magic
    # The compiled .mpy imports in the unix port.
    assert micropython("import ok_mod", path=[out_dir]) == "[1, 2]\n"


@pytest.mark.parametrize(
    "source",
    [
        "def f(a, /, b):\n    pass\n",  # positional-only parameters
        "match 1:\n    case 1:\n        pass\n",  # structural pattern matching
        "d = {**{}}\n",  # dict unpacking in a display
        "x = [*a, *b]\n",  # star-unpacking in a list display
        "class A[T]:\n    pass\n",  # PEP 695 generics
        "print(1\n",  # plain syntax error
    ],
    ids=["posonly", "match", "dict-unpack", "list-unpack", "pep695", "unclosed"],
)
def test_mpy_cross_rejects_cpython_only_syntax(mpy_cross, tmp_path, source):
    src = tmp_path / "bad.py"
    src.write_text(source)
    with pytest.raises(mpy.MpyCrossError) as exc:
        mpy_cross(src)
    assert "SyntaxError" in str(exc.value)


@pytest.mark.parametrize(
    "source",
    [
        'x = 1\nprint(f"{x=}")\n',  # f-string `=` specifier
        "print([y for x in range(3) if (y := x)])\n",  # walrus inside a comprehension
    ],
    ids=["fstring-eq", "walrus-in-comprehension"],
)
def test_mpy_cross_accepts_some_newer_syntax(mpy_cross, micropython, tmp_path, source):
    # Documented so nobody relies on mpy-cross to catch these: it compiles them and the
    # unix port runs them.
    src = tmp_path / "newer.py"
    src.write_text(source)
    assert mpy_cross(src)
    assert micropython(src)
