"""Every bench script answers `--help` with its usage and runs nothing, and a word that should
be a number stops it with one line and exit status 2 (bench/benchcli.py; the scripts with
options use argparse). Before, `--help` ran some benches whole and gave others a traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# bench/ and bench/<game>/: paths relative to bench/
SCRIPTS = sorted(p.relative_to(ROOT / "bench").as_posix() for p in (ROOT / "bench").rglob("*.py")
                 if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8"))


def _run(*args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_the_scripts_are_found():
    assert "pico.py" in SCRIPTS and "cargocube/inference.py" in SCRIPTS and len(SCRIPTS) >= 20


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_prints_the_usage(script):
    r = _run("bench/" + script, "--help")
    assert r.returncode == 0, r.stderr
    assert r.stderr == "" and "Traceback" not in r.stdout
    assert "usage" in r.stdout.lower() or ".venv/bin/python bench/" in r.stdout, r.stdout[:300]


@pytest.mark.parametrize("args,word", [
    (("pico.py", "x"), "FRAMES"),
    (("log.py", "many"), "GAMES"),
    # a count of games of 0 ended in a ZeroDivisionError (or mpremote's ValueError) traceback
    # (stop 43's audit); inference.py's GAMES 0 is meaningful (only the expansions' rows)
    (("log.py", "0"), "GAMES"),
    (("sync.py", "0"), "GAMES"),
    (("cargocube/hint.py", "0"), "GAMES"),
    (("formula99/formula99.py", "0"), "GAMES"),
    (("cephalopod/cephalopod_board.py", "0"), "GAMES"),
    (("kubitva/kubitva_board.py", "0"), "GAMES"),
    (("formula99/formula99_board.py", "0"), "GAMES"),
    (("formula99/formula99_board.py", "pico-walk", "1.5"), "PLIES"),
    (("cargocube/inference.py", "200", "x"), "EXPANSION_GAMES"),
    (("cargocube/inference.py", "2", "--noise", "1:3"), "--noise"),
    (("cargocube/inference.py", "2", "--noise", "1"), "--noise"),
    (("cargocube/revb_pico.py", "--players", "5"), "--players"),
    (("cargocube/reva_pico.py", "--wait", "9"), "--wait"),
    (("cargocube/inference.py", "2", "--wait", "9"), "--wait"),
    (("cargocube/inference.py", "2", "--wait", "x"), "--wait"),
    (("cargocube/lookback.py", "many"), "GAMES"),
    (("cargocube/lookback.py", "2", "--chooser", "lucky"), "--chooser"),
])
def test_a_bad_number_is_one_line(args, word):
    r = _run("bench/" + args[0], *args[1:])
    assert r.returncode == 2 and r.stdout == "", (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and word in r.stderr and "Traceback" not in r.stderr


def test_the_log_bench_runs_with_its_smallest_numbers():
    """`bench/log.py 2` (fewer than 6 games: none of 4 players with cards, or none with cards at
    all) ended in a ZeroDivisionError traceback after its first lines (stop 43's audit of every
    documented command): each row is printed for the games there are."""
    for games in ("1", "2"):
        r = _run("bench/log.py", games)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-500:]
        assert "header: mean" in r.stdout and "whole log:" in r.stdout, r.stdout


def test_the_replay_bench_runs_with_one_load():
    """`bench/web_replay.py --loads 1` (its smallest) printed the first request and then ended in
    a StatisticsError traceback (the median of no further requests); --loads 0 in an IndexError.
    Now the row of further requests is left out, and 0 is a usage error (stop 43's audit)."""
    r = _run("bench/web_replay.py", "--actions", "10", "--loads", "1", "--no-keep")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-500:]
    assert "a new server's first" in r.stdout, r.stdout
    r = _run("bench/web_replay.py", "--loads", "0")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "--loads" in r.stderr, r.stderr


def test_the_inference_benchs_noise_reaches_the_expansions_rows():
    """docs/hardware.md's expansion table has columns at 1 mm and with 5 % bumps that its
    command (`inference.py 0 200 --rev b`) could not print: the expansions' revision-B rows were
    fixed at 0.5 mm (stop 43's audit). `--noise MM:P` now sets them too."""
    r = _run("bench/cargocube/inference.py", "0", "1", "--rev", "b", "--jobs", "1",
             "--chooser", "random", "--noise", "1:0.05")
    assert r.returncode == 0, r.stderr[-500:]
    assert "The expansions (revision B, bottom cubes shifting <= 1 mm, bumps 5%)" in r.stdout


def test_a_part_this_machine_lacks_is_one_line(capsys, monkeypatch):
    """The benches on the emulated Pico ended in a FirmwareError traceback where rp2040js was
    not installed (stop 45's note): a part of the environment the bench needs, or a device build
    that fails, is one line naming it and exit status 3; argparse benches (no docstring given)
    keep their own --help."""
    sys.path.insert(0, str(ROOT / "bench"))
    import benchcli
    from cargoboard.build import BuildError
    from cargoboard.sim.runner import FirmwareError

    def lacks(error):
        def main():
            raise error("rp2040js is not installed in node_modules; run `make venv`")
        return main

    monkeypatch.setattr(sys, "argv", ["bench/pico.py"])
    for error in (FirmwareError, BuildError):
        assert benchcli.run(lacks(error), "usage") == 3
        out, err = capsys.readouterr()
        assert out == "" and err == "bench/pico.py: rp2040js is not installed in node_modules;" \
            " run `make venv`\n"
    monkeypatch.setattr(sys, "argv", ["bench/heap.py", "--help"])
    assert benchcli.run(lambda: 7, None) == 7  # (argparse's own --help, not the docstring)
    assert benchcli.run(lambda: 7, "usage") == 0
