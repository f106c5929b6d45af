"""The device code's layers (docs/firmware.md "Layers"): every import of every module under
firmware/ and shared_rules/ (at the top or inside a function) is read from its source, and
none may go upward or form a circle.

    shared_rules.<g>      a game's rules: import their own folder and the shared modules of
                          shared_rules (those in no game's folder: geometry, grid, perft,
                          versions), never another game's
    shared_rules (shared) the modules in no game's folder: import only each other
    (every layer)         may import the board's geometry, shared_rules.geometry (the 11x11
                          grid and its cell names, shared by every game and the HAL)
    firmware.hal          imports the HAL (and the generated pin map, hardware.pinmap)
    firmware.drivers      imports the HAL and the drivers
    firmware.system       imports the HAL, the drivers, the system, the registries of games
                          (firmware.games, and revision B's firmware.games.revb; data only:
                          plug-ins are loaded by name) and the table of rules versions
                          (shared_rules.versions)
    firmware.games.<g>    imports the HAL, the drivers, the log's record kinds
                          (firmware.system.logwrite), its own folder, its own game's rules
                          (shared_rules.<g>) and the shared modules of shared_rules; never
                          another game's plug-in or rules
    firmware.main, firmware.bench_frame   the top: anything
"""

import ast
from pathlib import Path

import pytest

from mpy import REPO_ROOT

TOP = {"firmware.main", "firmware.bench_frame"}
REGISTRIES = ("firmware.games", "firmware.games.revb")  # data only: game name -> plug-in module


def module_name(path, root=REPO_ROOT):
    parts = list(Path(path).relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def device_modules(root=REPO_ROOT):
    """{module name: source text} of every device module."""
    out = {}
    for pkg in ("firmware", "shared_rules"):
        for p in sorted((Path(root) / pkg).rglob("*.py")):
            if "__pycache__" not in p.parts:
                out[module_name(p, root)] = p.read_text(encoding="utf-8")
    return out


def game_folders(root=REPO_ROOT):
    """The games' folders: the packages in shared_rules/ and in firmware/games/."""
    return {p.parent.name for base in ("shared_rules", "firmware/games")
            for p in (Path(root) / base).glob("*/__init__.py")}


GAMES = game_folders()


def game_of(module):
    """The game whose folder holds module (shared_rules.<g>..., firmware.games.<g>...), or
    None for a module in no game's folder."""
    parts = module.split(".")
    if parts[0] == "shared_rules" and len(parts) > 1 and parts[1] in GAMES:
        return parts[1]
    if parts[:2] == ["firmware", "games"] and len(parts) > 2 and parts[2] in GAMES:
        return parts[2]
    return None


def imports_of(name, source, known):
    """The project modules `name` imports (every import statement, also inside functions):
    `from a.b import c` is a.b.c when that is a module, else a.b."""
    found = set()
    is_pkg = name in {k.rsplit(".", 1)[0] for k in known if "." in k}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = name if is_pkg else name.rsplit(".", 1)[0]
                for _ in range(node.level - 1):
                    pkg = pkg.rsplit(".", 1)[0]
                base = pkg + ("." + base if base else "")
            for alias in node.names:
                sub = base + "." + alias.name
                found.add(sub if sub in known else base)
    return {m for m in found if m.split(".")[0] in ("firmware", "shared_rules", "hardware")}


def _under(module, prefix):
    return module == prefix or module.startswith(prefix + ".")


def allowed(src, dst):
    """Whether module src may import module dst (the layers in the module docstring)."""
    if src in TOP or dst == "shared_rules.geometry":
        return True
    if _under(src, "shared_rules"):
        # a game's rules: their own folder and the shared modules; a shared module: no game's
        return _under(dst, "shared_rules") and game_of(dst) in (None, game_of(src))
    if _under(src, "firmware.hal"):
        return _under(dst, "firmware.hal") or _under(dst, "hardware")
    if _under(src, "firmware.drivers"):
        return _under(dst, "firmware.hal") or _under(dst, "firmware.drivers")
    if _under(src, "firmware.system"):
        return (_under(dst, "firmware.hal") or _under(dst, "firmware.drivers")
                or _under(dst, "firmware.system") or dst in REGISTRIES
                or dst == "shared_rules.versions")
    if src.startswith("firmware.games."):
        own = game_of(src)
        return (_under(dst, "firmware.hal") or _under(dst, "firmware.drivers")
                or dst == "firmware.system.logwrite"
                or (own is not None and (_under(dst, "firmware.games." + own)
                                         or _under(dst, "shared_rules." + own)))
                or (_under(dst, "shared_rules") and game_of(dst) is None))
    return False


def upward_imports(modules):
    """[(module, imported module)] that break the layers."""
    known = set(modules)
    bad = []
    for name, source in sorted(modules.items()):
        for dst in sorted(imports_of(name, source, known)):
            if not allowed(name, dst):
                bad.append((name, dst))
    return bad


def import_circles(modules):
    """Every circle of imports, each as the list of its modules (first one repeated at the end)."""
    known = set(modules)
    graph = {n: sorted(d for d in imports_of(n, s, known) if d in known)
             for n, s in modules.items()}
    circles = []
    state = {}  # 1 on the path, 2 done
    path = []

    def visit(n):
        state[n] = 1
        path.append(n)
        for d in graph[n]:
            if state.get(d) == 1:
                circles.append(path[path.index(d):] + [d])
            elif d not in state:
                visit(d)
        path.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return circles


MODULES = device_modules()


def test_the_layers_are_folders():
    for layer in ("firmware.hal", "firmware.drivers", "firmware.system", "firmware.games"):
        assert layer in MODULES, layer
    assert "firmware.games.cargocube.plugin" in MODULES
    assert "shared_rules.cargocube.rules" in MODULES


def test_no_device_module_imports_upward():
    assert upward_imports(MODULES) == []


def test_no_import_circle():
    assert import_circles(MODULES) == []


def test_the_system_loads_games_only_by_name():
    # (and the frame benchmark, which runs any game: a game's bench part is its own
    # firmware/games/<game>/framebench.py, found by name)
    known = set(MODULES)
    games = [["shared_rules", m.split(".")[2]] for m in MODULES
             if m.startswith("firmware.games.") and m.count(".") == 2]  # a game's rules too
    for name, source in MODULES.items():
        if _under(name, "firmware.system") or name == "firmware.bench_frame":
            assert not [d for d in imports_of(name, source, known)
                        if (d.startswith("firmware.games.") or d.split(".")[:2] in games)
                        and d not in REGISTRIES], name


@pytest.mark.parametrize("registry", REGISTRIES)
def test_the_registry_is_data_only(registry):
    tree = ast.parse(MODULES[registry])
    assert [type(n).__name__ for n in tree.body] == ["Assign"]


@pytest.mark.parametrize("src,dst", [
    ("firmware.drivers.leds", "firmware.system.app"),
    ("firmware.hal.sim", "firmware.drivers.flashdev"),
    ("firmware.system.app", "firmware.games.cargocube.plugin"),
    ("firmware.games.cargocube.plugin", "firmware.games.cephalopod.tracker"),
    ("firmware.games.cargocube.plugin", "firmware.system.app"),
    ("shared_rules.cargocube.rules", "firmware.hal"),
    # one game's code reaching into another game's folder
    ("firmware.games.kubitva.plugin", "shared_rules.cephalopod.rules"),
    ("shared_rules.formula99.rules", "shared_rules.cargocube.orient"),
    # the shared modules of shared_rules belong to no game
    ("shared_rules.perft", "shared_rules.kubitva.rules"),
])
def test_the_checks_find_an_upward_import(src, dst):
    modules = dict(MODULES)
    modules[src] = modules[src] + "\n\ndef _late():\n    import %s\n" % dst
    assert (src, dst) in upward_imports(modules)


def test_the_checks_find_a_circle():
    modules = dict(MODULES)
    modules["firmware.system.link"] += "\nfrom firmware.system import app\n"
    modules["firmware.system.app"] += "\ndef _late():\n    from firmware.system.link import Link\n"
    circles = import_circles(modules)
    assert any(set(c) == {"firmware.system.app", "firmware.system.link"} for c in circles), circles


# -- module aliases ------------------------------------------------------------------------------

def module_aliases(modules):
    """{alias: {module: [where]}} of the device code's `import a.b as X` and `from a import b
    as X` of project modules (not of functions or constants), every game's folder written
    `<game>`: each game's plug-in holds its own tracker as T, which is one name for one role."""
    known = set(modules)
    out = {}

    def role(module):
        game = game_of(module)
        return module if game is None else module.replace("." + game + ".", ".<game>.", 1)

    for name, source in sorted(modules.items()):
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                pairs = [(a.name, a.asname) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                pairs = [(node.module + "." + a.name, a.asname) for a in node.names]
            else:
                continue
            for module, alias in pairs:
                if alias and module in known and alias != module.rsplit(".", 1)[-1]:
                    where = "%s:%d" % (name, node.lineno)
                    out.setdefault(alias, {}).setdefault(role(module), []).append(where)
    return out


def alias_clashes(modules):
    """['X: a (where), b (where)'] for the aliases that name more than one module."""
    return ["%s: %s" % (alias, ", ".join("%s (%s)" % (m, " ".join(w))
                                         for m, w in sorted(ms.items())))
            for alias, ms in sorted(module_aliases(modules).items()) if len(ms) > 1]


def test_each_module_alias_names_one_module():
    """A short alias (LW, LR, F, T, ...) read in one file means the same module in the next:
    logread was LR and so was logformat, logwrite LF, frames F and the step model's field F,
    «Формула 99»'s rules R and its constants R, a tracker T and «Формула 99»'s track T."""
    assert alias_clashes(MODULES) == []


def test_the_alias_check_finds_a_clash():
    modules = dict(MODULES)
    modules["firmware.system.logboot"] += (
        "\n\ndef _late():\n    from firmware.system import logread as LF\n")
    (clash,) = alias_clashes(modules)
    assert clash.startswith("LF: firmware.system.logformat (firmware.system.logboot:"), clash
    assert "firmware.system.logread (firmware.system.logboot:" in clash, clash
