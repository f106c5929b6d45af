"""`cargoboard deploy`: put the firmware on a board and check that it runs.

1. Build: every device module (firmware/, shared_rules/, hardware/) compiled with mpy-cross
   for the RP2040 (`-march=armv6m`) into a staging folder laid out like the board's flash,
   plus `main.py` (source: the board runs it by name) and a version stamp `cargoboard.ver`
   (`fw=... rules=... proto=... build=HASH`, the hash of what was staged): cargoboard.build's
   stage, which the emulated Pico's runner uses too.
2. Prompt: the board is brought to MicroPython's REPL prompt before mpremote gets the port
   (enter_repl). A running Cargoboard firmware is asked once, with a REPL frame, to hand
   over (it returns from main.py, and the REPL follows); then Enter, Ctrl-C, Ctrl-B go
   whenever the board falls silent without showing `>>> ` (or the raw REPL's banner), until
   it does, for up to REPL_WAIT_S. Without a prompt deploy stops there with one line and
   copies nothing: mpremote itself would wait for ever (on a pty it reads with no timeout).
3. Copy: one `mpremote connect PORT fs cp ... + reset` run. It first puts a stamp
   `build=incomplete` on the board and the real one last, so a copy cut short leaves a board
   whose HELLO says so. Game logs (`/games`) are left alone.
4. Check: once the board is back, HELLO must report the staged fw, rules and build.

`--rev a|b` (default a): the board's revision (docs/hardware.md). The build carries only that
revision's modules (revision A none of REVB_ONLY: the linear Hall sensors' HAL, pin map, level
scanner and the steps' tracker), and a file `board_rev` ("A" or "B") that the boot reads on the
board to pick its HAL and App (firmware/system/boot.py); it is part of the build's hash, so
HELLO's build tells the revisions apart too.

`--timeout S` bounds the whole (prompt, copy, the board back; 900 s by default): mpremote is
stopped there and deploy fails with one line.

`--dry-run` shows the files and the mpremote command without a board. `--flash DIR` deploys to
the virtual board's flash image instead (DIR/flash.img, as `cargoboard sim --flash DIR` uses),
boots the virtual board from it and runs the same check: the sim layer's part
(cargoboard/sim/flashdeploy.py), which the command line hands to run(), as this core module
imports nothing above it.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cargoboard.build import BOARD_REV, REVISIONS, STAMP, BuildError, read_stamp, stage
from cargoboard.link import RAW_REPL_BANNER, REPL_BANNER, REPL_PROMPT


class DeployError(Exception):
    pass


# The stamp a deploy writes first and replaces last: a deploy cut short leaves the board
# saying `build=incomplete` in HELLO, not the old build's id over a mix of old and new modules
# (mpremote copies only the files that changed).
INCOMPLETE = "incomplete.ver"
INCOMPLETE_TEXT = "build=incomplete\n"


def mpremote_command(port, stage_dir) -> list:
    """One mpremote run: the stamp `build=incomplete` first, the packages, main.py, board_rev,
    the real stamp last, then a reset (deploy_board writes INCOMPLETE into stage_dir)."""
    d = Path(stage_dir)
    cmd = ["mpremote", "connect", port, "fs", "cp", str(d / INCOMPLETE), ":" + STAMP, "+",
           "fs", "cp", "-r"]
    cmd += [str(d / pkg) for pkg in ("firmware", "shared_rules", "hardware")]
    cmd += [":", "+", "fs", "cp", str(d / "main.py"), ":main.py",
            "+", "fs", "cp", str(d / BOARD_REV), ":" + BOARD_REV,
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


# Bringing the board to MicroPython's prompt before mpremote takes the port (enter_repl).
# The virtual boards a deploy without --port may take: the emulated Pico runs the stock image
# and hands over its REPL as a board does; the unix port's sim has no REPL to take a deploy.
DEPLOYABLE_SIMS = ("pico",)

# The REPL's marks are the link's (link.PROMPT_MARKS: what tells a board at the REPL); a
# deploy waits for a prompt itself, the friendly REPL's or the raw REPL's.
PROMPT = REPL_PROMPT
RAW_REPL = RAW_REPL_BANNER + b"\r\n>"
BANNER = REPL_BANNER  # the friendly REPL's first line: version, date, board
# Enter; Ctrl-C stops a running program (the firmware, once Ctrl-C is on); Ctrl-B leaves the
# raw REPL (and in the friendly REPL prints the banner): every state ends at ">>> ".
TO_PROMPT = b"\r\x03\x02"
# The whole wait for the prompt. A Pico is there in milliseconds; an old firmware soft-reboots
# first (a second of boot), and one that took a stray frame keeps Ctrl-C off for 3 s of quiet
# (firmware/system/link.py); the emulated board takes 2-10x longer in wall time.
REPL_WAIT_S = 120.0
# Ctrl-C goes again once the board has been silent this long without showing its prompt: a
# try too many only prints another prompt.
REPL_QUIET_S = 1.0
REPL_RETRY_S = 5.0  # and at least this often while the board chatters without a prompt


def enter_repl(port, seconds=REPL_WAIT_S) -> str:
    """Bring the board to MicroPython's REPL prompt, or raise DeployError (nothing sent but
    the bytes below). A running Cargoboard firmware is asked once (a REPL frame) to hand
    over; then TO_PROMPT goes whenever the board has gone quiet without showing the prompt
    (or the raw REPL's banner), until it does or `seconds` have passed. Returns the REPL's
    banner (`MicroPython v1.26.1 on ...`), "" if it printed none."""
    from cargoboard.link import Link
    from firmware.system import link as L
    end = time.monotonic() + seconds
    seen = bytearray()
    tries = 0
    with Link(port) as link:
        seq = link.send(L.REPL)
        last = last_try = time.monotonic()  # last: the last byte sent or received
        while time.monotonic() < end:
            chunk = link.read_raw()
            now = time.monotonic()
            if chunk:
                seen += chunk
                last = now
                if seen.endswith(PROMPT) or seen.endswith(RAW_REPL):
                    i = seen.rfind(BANNER)
                    return bytes(seen[i:]).split(b"\r")[0].decode(errors="replace") \
                        if i >= 0 else ""
                refused = _refusal(seen, seq)
                if refused:
                    raise DeployError("the board on %s cannot hand over to a REPL: %s (the "
                                      "virtual board: deploy --flash DIR)" % (port, refused))
                del seen[:-4096]
            if now - last >= REPL_QUIET_S or now - last_try >= REPL_RETRY_S:
                link.write_raw(TO_PROMPT)
                tries += 1
                last = last_try = time.monotonic()
    tail = bytes(seen).decode(errors="replace").strip()[-60:]
    raise DeployError("the board on %s did not come to MicroPython's prompt within %d s (%d "
                      "tries of Ctrl-C; it last said %r); nothing was copied"
                      % (port, seconds, tries, tail or "nothing"))


def _refusal(seen, seq):
    """The board's message if it answered the REPL request (seq) with an ERROR frame."""
    from firmware.drivers import frames as F
    from firmware.system import link as L
    for block in bytes(seen).split(b"\x00"):
        r = F.decode(block) if block else None
        if isinstance(r, tuple) and r[0] == L.ERROR and r[1] == seq:
            return r[2][1:].decode(errors="replace")
    return None


# What a deploy interrupted (Ctrl-C, SIGTERM) says of the board, by the step it was at.
INTERRUPTED_AT_PROMPT = ("nothing was copied; the board may be at MicroPython's prompt: unplug "
                         "it and plug it in again, or run `cargoboard deploy` again")
INTERRUPTED_COPYING = ("mpremote was stopped midway: the board may hold part of the new "
                       "firmware (its hello says build=incomplete) and not start; run "
                       "`cargoboard deploy` again (its game logs are kept)")
INTERRUPTED_BACK = ("the firmware was copied and the board reset; `cargoboard deploy` again "
                    "checks its versions")


# How long the board has to come back after the reset: a Pico boots in a second or two; the
# emulated one (cargoboard sim --target pico) takes as long in emulated time, several times
# that in wall time.
HELLO_WAIT_S = 120.0
# How long one HELLO waits for its answer before it is sent again: the first one loads the
# firmware's host link (a fraction of a second on the chip, seconds on a busy emulated one); a
# reply that comes after its try is given up counts for nothing.
HELLO_TRY_S = 10.0


def wait_hello(port, seconds=HELLO_WAIT_S):
    from cargoboard.link import Link, LinkError
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        try:
            with Link(port, timeout=min(HELLO_TRY_S, max(0.5, end - time.monotonic())),
                      retries=1) as link:
                return link.hello()
        except LinkError as e:
            last = e
            time.sleep(0.5)
    raise DeployError("the board did not come back on %s after the reset (%s)" % (port, last))


# The whole deploy's limit (prompt, copy, the board back): a Pico takes well under a minute;
# the emulated one a few minutes of wall time on a busy machine. Beyond this mpremote is taken
# as stalled (it has no limit of its own: once, on the emulated Pico, it waited more than 14
# minutes for a prompt that never came).
COPY_TIMEOUT_S = 900.0


def _run_to_the_end(cmd, timeout):
    """subprocess.run(cmd) with its output captured, never leaving the program running: on
    any exception (Ctrl-C, SIGTERM, the timeout) it is killed and waited for. mpremote left
    so would copy on, holding the port, and reset the board after the deploy had ended
    (subprocess.run itself leaves a child that a signal met inside Popen, after the fork)."""
    from cargoboard.clikit import signals_held
    proc = None
    try:
        # (deploy_board's sigterm_unwinds gives SIGTERM the handler this hands it to)
        with signals_held(signal.SIGINT, signal.SIGTERM):
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        if proc is not None:
            proc.kill()
            proc.communicate()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def deploy_board(port, staged, stage_dir, out=print, timeout=COPY_TIMEOUT_S):
    """Bring the board to its prompt (enter_repl), copy with mpremote and reset, then wait for
    the new firmware's HELLO: each step within its own limit and all within `timeout`."""
    from cargoboard.clikit import sigterm_unwinds
    want = read_stamp(staged)
    end = time.monotonic() + timeout
    step = INTERRUPTED_AT_PROMPT
    try:
        with sigterm_unwinds():  # SIGTERM as Ctrl-C: the line below, and no mpremote left
            banner = enter_repl(port, min(REPL_WAIT_S, timeout))
            out("the board is at MicroPython's prompt%s" % (": " + banner if banner else ""))
            (Path(stage_dir) / INCOMPLETE).write_text(INCOMPLETE_TEXT)
            cmd = mpremote_command(port, stage_dir)
            cmd[0] = _mpremote_exe()
            step = INTERRUPTED_COPYING  # (before the line that says so: a test waits for it)
            out("copying %d files with mpremote ..." % len(staged))
            try:
                r = _run_to_the_end(cmd, max(1.0, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise DeployError("mpremote did not finish copying within the deploy's %d s "
                                  "(the board stopped answering?); the files copied so far are "
                                  "on the board: run deploy again" % timeout) from None
            if r.returncode != 0:
                msg = (r.stderr or r.stdout).strip().splitlines()
                raise DeployError("mpremote failed: %s" % (msg[-1] if msg else
                                                          "exit %d" % r.returncode))
            step = INTERRUPTED_BACK
            time.sleep(1.0)
            info = wait_hello(port, max(1.0, min(HELLO_WAIT_S, end - time.monotonic())))
    except KeyboardInterrupt:
        print("interrupted: %s" % step, file=sys.stderr)
        raise
    return want, info


def find_deployable_port(port):
    """The port to deploy to (link.find_port, of the virtual boards only the emulated Pico's);
    when the only boards there are cannot take a deploy, the no-board line says why and what
    deploys to a virtual board."""
    from cargoboard.link import LinkError, NoBoardFound, boards_there_text, find_port
    try:
        return find_port(port, DEPLOYABLE_SIMS)
    except NoBoardFound as e:
        if not e.others:
            raise
        raise LinkError("%s (%s, which cannot take a deploy; `cargoboard deploy --flash DIR` "
                        "deploys to the virtual board's flash)"
                        % (e.plain, boards_there_text(e.others))) from None


def run(args, out=print, flash=None) -> int:
    """The deploy command. flash: the virtual board's flash as a place to deploy to (`--flash
    DIR`: image(dir, create), deploy(dir, staged, out, rev=) -> HELLO's info), the sim layer's
    cargoboard.sim.flashdeploy, which the command line hands in (cli.PLUGIN_PARTS): a core
    module imports nothing above it."""
    from cargoboard.clikit import UsageError
    from cargoboard.link import LinkError
    if not 0 < args.timeout < float("inf"):  # nan, too: it waited for ever
        raise UsageError("--timeout wants a finite number of seconds above 0, not %s" % args.timeout)
    if args.flash and args.port:
        raise UsageError("--flash DIR deploys to the virtual board's flash, --port PATH to a "
                         "board: give one of them")
    if args.flash:
        if flash is None:
            raise DeployError("--flash DIR: this deploy was given no virtual board to deploy to")
        flash.image(args.flash, create=False)  # before the build: nothing made yet
    with tempfile.TemporaryDirectory(prefix="cargoboard-deploy-") as tmp:
        try:
            staged = stage(tmp, "sim" if args.flash else "rp2", args.rev)
        except BuildError as e:
            raise DeployError(str(e)) from None
        total = sum(n for _, _, n in staged)
        if args.dry_run:
            port = args.port or "PORT"
            if not args.port and not args.flash:
                try:
                    port = find_deployable_port(None)
                except LinkError:  # no board, or several: the command is shown with PORT
                    pass
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
            want, info = read_stamp(staged), flash.deploy(args.flash, staged, out, rev=args.rev)
            where = "the virtual board (%s)" % args.flash
        else:
            port = find_deployable_port(args.port)
            want, info = deploy_board(port, staged, Path(tmp), out, args.timeout)
            where = port
    bad = check_versions(info, want)
    if bad:
        raise DeployError("%s runs other firmware than deployed: %s" % (where, "; ".join(bad)))
    out("%s runs fw=%s rules=%s build=%s" % (where, info["fw"], info["rules"], info["build"]))
    return 0


def _revision(text):
    """--rev's value, either case; argparse's error quotes it as typed."""
    import argparse
    if text.upper() not in REVISIONS:
        raise argparse.ArgumentTypeError("invalid choice: %r (choose from %s, in either case)"
                                         % (text, " or ".join(REVISIONS)))
    return text.upper()


def add_parser(sub, flash=None):
    """`cargoboard deploy`; flash: what run() takes for --flash DIR."""
    import functools
    p = sub.add_parser(
        "deploy", help="compile the firmware and put it on the board",
        description="Compile firmware/, shared_rules/ and hardware/ with mpy-cross for the "
                    "RP2040, copy them to the board with mpremote (game logs are kept), reset "
                    "it, and check that it reports the deployed versions.",
        epilog="examples:\n  cargoboard deploy --dry-run\n  cargoboard deploy --port /dev/ttyACM0\n"
               "  cargoboard deploy --rev b --port /dev/ttyACM0   # a revision-B board\n"
               "  cargoboard deploy --flash ~/vboard   # the virtual board's flash")
    p.add_argument("--port", metavar="PATH", help="the board's serial port (default: the single "
                   "connected board; not with --flash)")
    p.add_argument("--dry-run", action="store_true", help="show what would be copied; touch nothing")
    p.add_argument("--flash", metavar="DIR", help="deploy to the virtual board's flash image "
                   "DIR/flash.img (DIR is made if missing, in an existing folder)")
    p.add_argument("--rev", metavar="A|B", type=_revision, default="A",
                   help="the board's revision: A (Hall switches, the default) or B (linear Hall "
                        "sensors that see stacks, docs/hardware.md); deploys that revision's "
                        "HAL and pin map and writes /board_rev, which the boot reads")
    p.add_argument("--timeout", metavar="S", type=float, default=COPY_TIMEOUT_S,
                   help="give up if the deploy (the board's prompt, mpremote's copy, the board "
                        "back) takes longer than S seconds, a number above 0 (default "
                        "%(default)d)")
    p.set_defaults(func=functools.partial(run, flash=flash))
