"""Every command's `--help` explains every option and argument it lists, and a mistyped choice
is quoted as typed (found by stop 36's audit: `demo --players`/`--seed`, `show`'s ACTION and
`cephalopod paths`'s DEPTH had no text; `deploy --rev c` said `invalid choice: 'C'`)."""

import argparse

from cargoboard.cli import build_parser
from clirun import run


def _commands(parser, name="cargoboard"):
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                yield from _commands(subparser, name + " " + sub)


def test_every_option_and_argument_of_every_command_has_help():
    unexplained = []
    commands = list(_commands(build_parser()))
    for name, parser in commands:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
                continue
            if not action.help:
                unexplained.append((name, action.option_strings or action.dest))
    assert len(commands) > 15 and unexplained == []


def test_a_mistyped_revision_is_quoted_as_typed():
    proc = run("deploy", "--rev", "c", "--dry-run", check_rc=2)
    assert "invalid choice: 'c' (choose from A or B, in either case)" in proc.stderr, proc.stderr
    assert "board_rev" in run("deploy", "--rev", "b", "--dry-run").stdout  # either case taken


def _verb_list(lines):
    """The lines from "One command per line" to the end of the last verb's text (`restart`)."""
    first = next(i for i, line in enumerate(lines) if line.startswith("One command per line"))
    last = next(i for i, line in enumerate(lines) if line.startswith("    restart "))
    while last + 1 < len(lines) and lines[last + 1].startswith(" " * 10):
        last += 1
    return lines[first:last + 1]


def test_the_interactive_sims_help_is_the_documented_verb_list():
    """The `help` verb of `sim --interactive` prints cargoboard.sim.script's docstring, which
    lacked the `new-game formula99 L2 1357` paragraph of docs/virtual-board.md "Script verbs":
    the docs' list (indented 4) is the docstring's, line for line."""
    from pathlib import Path
    from cargoboard.sim import script
    doc = (Path(__file__).resolve().parent.parent / "docs" / "virtual-board.md").read_text(
        encoding="utf-8")
    section = doc[doc.index("## Script verbs"):].split("\n## ")[0]
    documented = [line[4:] for line in section.splitlines()]
    assert _verb_list(documented) == _verb_list(script.__doc__.splitlines())
    assert "`new-game formula99 L2 1357`" in script.__doc__


# Commands whose options are one set (the CLI's _add_position_args): documented once for all.
SAME_OPTIONS = ("perft", "legal", "show")


def test_every_option_of_every_command_is_named_in_the_docs():
    """Options that `--help` lists and no doc named (newuser40: `sim --heapsize`, `play kubitva
    --position`/`--no-color`, `cephalopod paths --time`, `demo`'s): each option is named in
    a paragraph (or a README list item) of README.md, DEVELOPERS.md or docs/ that names its
    command (`cargoboard COMMAND` or `COMMAND`)."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    texts = [root / "README.md", root / "DEVELOPERS.md"] + sorted((root / "docs").rglob("*.md"))
    paragraphs = [p for path in texts for p in
                  re.split(r"\n\s*\n|\n(?=- )", path.read_text(encoding="utf-8"))]
    unnamed = []
    for name, parser in _commands(build_parser(), ""):
        name = name.strip()
        if not name:
            continue
        names = SAME_OPTIONS if name in SAME_OPTIONS else (name,)
        about = [p for p in paragraphs
                 if any("cargoboard " + n in p or "`" + n in p for n in names)]
        for action in parser._actions:
            flags = [f for f in action.option_strings if f not in ("-h", "--help", "--debug")]
            if flags and not any(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(f), p)
                                 for f in flags for p in about):
                unnamed.append((name, flags[0]))
    assert unnamed == []


def test_a_commands_examples_write_to_different_places():
    """`cargoboard demo --help` showed `--out /tmp/demo` twice: run in turn, as a new user copies
    them, the second refused the folder the first had filled (exit 1; stop 43's audit). The
    examples of one command that write a file or folder (`--out`, `-o`) name different ones."""
    import re
    clashes = []
    for name, parser in _commands(build_parser()):
        places = re.findall(r"(?:--out|-o) +(\S+)", parser.epilog or "")
        clashes += [(name, p) for p in set(places) if places.count(p) > 1]
    assert clashes == []


def _example_lines(epilog):
    """The commands of an epilog's examples: each line's, split at `&` (a command started in
    the background, then the next), comments cut off."""
    lines = []
    for line in (epilog or "").splitlines():
        if line.startswith("  cargoboard "):
            for part in line.split("#")[0].split("&"):
                if part.strip():
                    lines.append(part.strip())
    return lines


def test_the_sync_and_serve_examples_run_a_script_an_example_before_them_makes():
    """`sync --help` and `serve --help` showed `cargoboard sim --script game.txt ...`: a script a
    new user has not got (stop 43's audit). Each `--script FILE` in their examples is one an
    example before it writes: `demo --keep-script --out DIR` keeps DIR/demo-script.txt."""
    import re
    commands = dict(_commands(build_parser()))
    for name in ("cargoboard sync", "cargoboard serve"):
        made = []
        scripts = 0
        for line in _example_lines(commands[name].epilog):
            m = re.search(r"--script (\S+)", line)
            if m:
                scripts += 1
                assert m.group(1) in made, (name, line, made)
            m = re.search(r"demo .*--keep-script.*--out (\S+)|demo .*--out (\S+).*--keep-script",
                          line)
            if m:
                made.append((m.group(1) or m.group(2)).rstrip("/") + "/demo-script.txt")
        assert scripts, name


def test_the_sync_examples_run_as_written(tmp_path):
    """sync's examples for a virtual board, run in turn as a new user types them (their /tmp/
    in a folder of the test's, the default store under its own XDG_DATA_HOME): the game the
    demo played comes into the store."""
    import os
    import signal
    import subprocess
    from clirun import cargoboard_exe
    commands = dict(_commands(build_parser()))
    lines = [ln.replace("/tmp/", "%s/" % tmp_path)
             for ln in _example_lines(commands["cargoboard sync"].epilog)]
    demo = next(i for i, ln in enumerate(lines) if ln.startswith("cargoboard demo "))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    env.pop("CARGOBOARD_DB", None)

    def argv(line):
        return [cargoboard_exe()] + line.split()[1:]
    r = subprocess.run(argv(lines[demo]), capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    sim, sync = lines[demo + 1], lines[demo + 2]
    assert sim.startswith("cargoboard sim ") and sync == "cargoboard sync", lines
    proc = subprocess.Popen(argv(sim), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        line = proc.stdout.readline()
        while line and not line.startswith("serving the virtual board on"):
            line = proc.stdout.readline()
        assert line, proc.stderr.read()
        r = subprocess.run(argv(sync), capture_output=True, text=True, timeout=300, env=env)
        assert r.returncode == 0 and ": 1 new game stored" in r.stdout, r.stdout + r.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
