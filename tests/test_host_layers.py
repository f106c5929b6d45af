"""The host tools' layout (host/cargoboard/): no import circles, counting the imports inside
functions too (a circle there works until someone moves an import to the top, and it means two
modules that cannot be understood apart), none between folders either (a layer's folder and a
core module that import each other through different modules are one layer in two places), no
core module importing a folder's (the core is the bottom), and no game's folder importing
another game's. The circuit tools (circuit/) get the same circle
check. The device side has its own checks (test_device_layers.py)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = ROOT / "host"


def _module_of(path, base=HOST):
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(package=HOST / "cargoboard"):
    """{module: {module it imports}} for every module of a package (host/cargoboard unless
    told), by the names in its import statements wherever they stand (a name that is an
    attribute of a module counts as that module). Imports from outside the package are left
    out."""
    sources = {_module_of(p, package.parent): p for p in package.rglob("*.py")}
    graph = {}
    for mod, path in sources.items():
        is_pkg = path.name == "__init__.py"
        out = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = mod if is_pkg else mod.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        pkg = pkg.rpartition(".")[0]
                    base = pkg + ("." + base if base else "")
                names = [base + "." + a.name for a in node.names]
            else:
                continue
            for name in names:
                while name and name not in sources:
                    name = name.rpartition(".")[0]
                if name and name != mod:
                    out.add(name)
        graph[mod] = out
    return graph


def circles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_host_modules_import_in_no_circle():
    assert circles(import_graph()) == []


def folder_of(mod):
    """The part of the host a module belongs to: a core module (directly in cargoboard/) stands
    for itself, a module in a folder for its top folder (cargoboard.sim, its pico/ included),
    and under cargoboard.games each game's folder for itself (the registry, games/__init__.py,
    is the folder cargoboard.games, below the games)."""
    parts = mod.split(".")
    return ".".join(parts[:3 if parts[1:2] == ["games"] else 2])


def folder_graph(graph):
    """{folder: {folder it imports}}, from the module graph (imports inside a folder left out)."""
    out = {}
    for mod, deps in graph.items():
        here = folder_of(mod)
        out.setdefault(here, set()).update(folder_of(d) for d in deps if folder_of(d) != here)
    return out


def test_the_host_folders_import_in_no_circle():
    assert circles(folder_graph(import_graph())) == []


def test_a_circle_between_folders_is_found_where_no_two_modules_make_one():
    graph = {"cargoboard.deploy": {"cargoboard.sim.runner"}, "cargoboard.sim.runner": set(),
             "cargoboard.sim.pico.runner": {"cargoboard.deploy", "cargoboard.sim.runner"},
             "cargoboard.games": set(), "cargoboard.games.g.draw": {"cargoboard.games"}}
    assert circles(graph) == []
    assert circles(folder_graph(graph)) == [["cargoboard.deploy", "cargoboard.sim"]]


# The core (the flat modules of cargoboard/: the store, sync, link, build, deploy, ...) is the
# bottom of the host tools, the folders (sim/, export/, web/, games/<kind>/) stand on it. The one
# module of a folder the core may import is the games' registry (games/__init__.py), which is
# below the games (folder_of) and names them for the core (build.py's device files, ...).
CORE_MAY_IMPORT = {"cargoboard.games"}
# The command line puts the layers together: it names the folders' command modules (cli.py's
# PLUGIN_MODULES, PLUGIN_PARTS), so it is the one core module that may name them.
ABOVE_THE_CORE = {"cargoboard.cli", "cargoboard.__main__"}


def core_modules(package=HOST / "cargoboard"):
    return {"%s.%s" % (package.name, p.stem) for p in package.glob("*.py")
            if p.name != "__init__.py"}


def upward_imports(graph, core):
    """(core module, a folder's module it imports) for every import of the core that reaches
    above it."""
    return sorted((mod, dep) for mod in core for dep in graph.get(mod, ())
                  if dep not in core and dep not in CORE_MAY_IMPORT)


def test_no_core_module_imports_a_folder_above_it():
    """`deploy --flash` imported the simulator (cargoboard.sim.runner) into the core: no circle,
    but the layout says nothing imports upward. The virtual board's flash is the sim layer's
    (sim/flashdeploy.py), which the command line hands to deploy. Nor is a folder's module
    named in a core module's code (an import by name, importlib, is an import too)."""
    graph = import_graph()
    core = core_modules()
    assert {"cargoboard.deploy", "cargoboard.store", "cargoboard.cli"} <= core
    assert upward_imports(graph, core) == []
    folder = re.compile(r"\bcargoboard\.(sim|export|web|games\.[A-Za-z_])")
    named = []
    for mod in sorted(core - ABOVE_THE_CORE):
        tree = ast.parse((HOST / (mod.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and
                ast.get_docstring(n, clean=False) is not None}
        named += [(mod, n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str) and
                  id(n) not in docs and folder.search(n.value)]
    assert named == []


def test_an_import_from_the_core_upward_is_found():
    graph = {"cargoboard.deploy": {"cargoboard.build", "cargoboard.sim.runner"},
             "cargoboard.build": {"cargoboard.games"},
             "cargoboard.sim.runner": {"cargoboard.deploy"},
             "cargoboard.sim.flashdeploy": {"cargoboard.deploy", "cargoboard.sim.runner"}}
    core = {"cargoboard.deploy", "cargoboard.build"}
    assert upward_imports(graph, core) == [("cargoboard.deploy", "cargoboard.sim.runner")]


def test_deploy_is_handed_the_virtual_boards_flash_by_the_command_line():
    from cargoboard import cli, deploy
    from cargoboard.sim import flashdeploy
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    func = sub.choices["deploy"].get_default("func")
    assert (func.func, func.keywords) == (deploy.run, {"flash": flashdeploy})
    assert cli.PLUGIN_PARTS["cargoboard.deploy"] == {"flash": flashdeploy.__name__}
    assert flashdeploy.DeployError is deploy.DeployError


def test_the_circuit_tools_import_in_no_circle_and_nothing_of_the_host_tools():
    """circuit/ (the netlist, pin maps, BOM, magnet and power models) stands beside the host
    tools, below them: Cargocube's hallfield imports its magnet model. Its shared command line
    (circuit/cli.py) is the bottom of it, so no tool's module is imported by it."""
    graph = import_graph(ROOT / "circuit")
    assert {"circuit.cli", "circuit.pins", "circuit.board", "circuit.magnet"} <= set(graph)
    assert circles(graph) == []
    assert graph["circuit.cli"] == set()
    named = set()
    for path in (ROOT / "circuit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                named.add(node.module)
    assert not [n for n in named if n.split(".")[0] == "cargoboard"]


def test_the_circuit_tools_take_the_revisions_that_have_pin_maps():
    from circuit import cli, pins
    assert list(cli.REVISIONS) == sorted(pins.REVISIONS)


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_game_folder_imports_another_games():
    graph = import_graph()
    games = sorted(p.name for p in (HOST / "cargoboard" / "games").iterdir()
                   if (p / "__init__.py").exists())
    assert len(games) >= 4
    crossing = []
    for mod, deps in graph.items():
        parts = mod.split(".")
        if parts[:2] != ["cargoboard", "games"] or len(parts) < 3:
            continue
        for d in deps:
            dp = d.split(".")
            if dp[:2] == ["cargoboard", "games"] and len(dp) > 2 and dp[2] != parts[2]:
                crossing.append((mod, d))
    assert crossing == []


def test_the_sim_finds_revision_b_physics_through_the_game_registry():
    """The sim names no game: revision B's physics is the `hallfield` part of the one game that
    has one (Cargocube's); a second game with one is an error, not a silent choice."""
    from cargoboard import games
    from cargoboard.sim.world import revb_physics
    assert revb_physics().__name__ == "cargoboard.games.cargocube.hallfield"
    named = [p.name for p in (HOST / "cargoboard" / "sim").rglob("*.py")
             if "cargocube.hallfield" in p.read_text(encoding="utf-8")]
    assert named == []
    assert not any(d.endswith(".hallfield") for mod, deps in import_graph().items()
                   if mod.startswith("cargoboard.sim") for d in deps)
    games.register("twin", games.PACKAGES["cargocube"])
    try:
        try:
            revb_physics()
        except LookupError as e:
            assert "2 games" in str(e)
        else:
            raise AssertionError("two games with a hallfield part were not refused")
    finally:
        del games.PACKAGES["twin"]


def test_cargocubes_demo_command_comes_from_its_game_folder():
    """`cargoboard demo` is Cargocube's: its own cli part registers it, cli.py does not name it."""
    from cargoboard import cli
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    assert "cargoboard.games.cargocube" in sub.choices["demo"].get_default("func").__module__
    assert not any("demo" in m for m in cli.PLUGIN_MODULES)


def test_the_start_options_of_perft_legal_show_come_from_the_games_folders():
    """cli.py's code names no game, not even its DEFAULT_GAME (the board's boot game, from the
    firmware's registry, as a sim script's): every start option of `perft`, `legal` and `show`
    is one game's (START_OPTIONS of its cli part), and POSITION's help is the games'
    POSITION_HELP, the default game's first."""
    from cargoboard import cli, games
    from cargoboard.sim import script
    from firmware.games import REGISTRY
    tree = ast.parse((HOST / "cargoboard" / "cli.py").read_text(encoding="utf-8"))
    tree.body = tree.body[1:]  # the module docstring
    code = ast.unparse(tree)
    for kind in games.kinds():
        assert code.count(kind) == 0, kind
    assert cli.DEFAULT_GAME == script.boot_game() == REGISTRY[0][0] == "cargocube"
    owners = {flag: kind for kind in games.kinds()
              for flag, _ in getattr(games.part(kind, "cli"), "START_OPTIONS", ())}
    assert {"--players", "--level"} <= set(owners), owners
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    for command in ("perft", "legal", "show"):
        parser = sub.choices[command]
        flags = [a.option_strings[-1] for a in parser._actions if a.option_strings]
        assert [f for f in flags if f in owners] == list(owners), (command, flags)
        position = next(a for a in parser._actions if a.dest == "position")
        assert position.help.startswith(games.part(cli.DEFAULT_GAME, "cli").POSITION_HELP)
        for kind in games.kinds():
            if kind != cli.DEFAULT_GAME and games.has_part(kind, "cli"):
                assert "%s: %s" % (kind, games.part(kind, "cli").POSITION_HELP) in position.help


def test_the_script_parser_takes_cargocubes_new_game_words_from_its_folder():
    """cargoboard.sim.script's code names no game (its docstring, the verbs' manual, may): the
    words after SEATS are the game's world part's (new_game_words, NEW_GAME_WORDS for the
    usage line), and the game before any new-game is the firmware registry's boot game."""
    from cargoboard import games
    from cargoboard.sim import script
    tree = ast.parse((HOST / "cargoboard" / "sim" / "script.py").read_text(encoding="utf-8"))
    tree.body = tree.body[1:]  # the module docstring
    assert "cargocube" not in ast.unparse(tree)
    assert script.new_game_usage() == (
        "usage: new-game GAME LAYOUT SEATS [cards|pyramid|bastion|both] [teleport] (SEATS may "
        "be left out for a game with fixed seats), or new-game GAME position=NOTATION (its "
        "spaces written _)")
    assert script.boot_game() == "cargocube"
    own = games.part("cargocube", "world").new_game_words
    words = ["cargocube", "polygon", "SN", "cards", "teleport"]
    assert own(words) == (["cards=base", "teleport=1"], {"cards": "base", "teleport": True})
    assert words == ["cargocube", "polygon", "SN"]
    assert own(["cargocube", "polygon", "both"]) is None  # the card word is no SEATS
    assert own(["cargocube", "polygon", "SN"]) == ([], {"cards": False, "teleport": False})
    assert own(["cargocube", "position=f1=KS,f11=KN_SN_S_2"]) == (
        [], {"position": "f1=KS,f11=KN_SN_S_2"})
    assert own(["cargocube", "position=f1=KS,f11=KN_SN_S_2", "SN"]) is None
