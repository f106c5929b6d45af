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
