"""Revision A's move inference on the emulated RP2040, asking at once (wait=0) and with the option
wait=K (firmware/games/cargocube/waiting.py: a look-alike settled by up to K later moves): for
each, a game the modelled hand plays (cargoboard.games.cargocube.play, purposeful) is recorded as
the occupancy frames and presses, then played again on the stock MicroPython image under
rp2040js through the device code as `cargoboard deploy --rev b` builds it (every module the
host's Table imports; the game is revision A's plug-in, made by the replay), by
tests/cargocube/driver_replay.py and the host's Table (bench/cargocube/revb_pico.py's measure()).
Printed, never asserted.

    .venv/bin/python bench/cargocube/reva_pico.py [ACTIONS [SEED]] [--players 2|3|4|8]
                                        [--cards base|pyramid|bastion|both|none] [--teleport]
                                        [--wait K]

(default: 80 actions of seed 3, 4 players, the base cards, K = 2, the board's default.) Figures, in emulated
microseconds: each on_change (the inference after a stable change of the occupancy) and each
tick that did work (over 0.5 ms: a move committed once the board was still, and with wait=K
the readings of a look-alike followed), with the unix port's (this process, CPython) beside
them, and the live heap's lowest free figure after an on_change (a collection before each
reading). The two games differ after the first question the waiting board does not ask."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "host"), str(ROOT / "bench")]

import benchcli  # noqa: E402  (bench/: --help, the numbers on the command line)
from cargoboard.sim.pico.images import PicoUnavailable, find_images  # noqa: E402

# bench/cargocube/revb_pico.py (its name is tests/cargocube/revb_pico.py's too, which it imports)
_spec = importlib.util.spec_from_file_location("revb_pico_bench",
                                               str(ROOT / "bench" / "cargocube" / "revb_pico.py"))
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
measure = _bench.measure


def main(argv):
    actions, seed, players, cards, teleport, wait = _bench.parse(argv, actions=80, players=4,
                                                                 wait=2)
    try:
        find_images()
    except PicoUnavailable as e:
        print("bench/cargocube/reva_pico.py: skipped: %s" % e)
        return 0
    same = True
    for k in (0, wait):
        same = measure(actions, seed, players, cards, teleport, rev="A", wait=k) and same
        print()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv))
