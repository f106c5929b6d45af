"""What every command module shares: its errors (one line each, with the exit code they mean:
CommandError, UsageError, InputError, Terminated; error_text, capped, shown, terminal_text),
its parser and help's formatter (ArgumentParser, HelpFormatter; read_position, apply_only_to),
Ctrl-C and SIGTERM (terminated_as_interrupt, sigterm_unwinds, signals_held), the files a user
names (read_at_most; check_new_file, is_stream, why_not_writable and write_file, whole or not
at all) and whether the process that named a file runs (process_runs). Apart
from cli.py so that the commands' modules (deploy, export, the store, the games' own) need not
import the entry point that imports them."""

import argparse
import contextlib
import errno
import os
import signal
import threading


class HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions and epilogs as usual but keeps indented lines (the examples) as
    written. Every subcommand gets it (build_parser), so modules only write `epilog=`."""

    def _fill_text(self, text, width, indent):
        return "\n".join(indent + line if line.startswith("  ") else
                         super(HelpFormatter, self)._fill_text(line, width, indent)
                         for line in text.splitlines())


class CommandError(Exception):
    """A failure the user can act on: printed as one line, exit code 1."""


class InputError(ValueError):
    """What the user gave will not do (a game file, a flash image, a sim's world or fault, a
    game's name, a board's log): one line, exit code 1, as a CommandError. A ValueError, as
    the readers that raise it catch ValueError among their own errors; the command line
    catches only this kind (and CommandError), so any other ValueError is a bug and shows its
    traceback."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill`, a session ending) where a command ends it as it ends a Ctrl-C
    (terminated_as_interrupt): it says what it had done; exit status 143 (128 + 15)."""


@contextlib.contextmanager
def terminated_as_interrupt():
    """Within it, SIGTERM raises Terminated (a KeyboardInterrupt) in the main thread, as
    Ctrl-C raises KeyboardInterrupt: a command that tidies up after Ctrl-C does so after a
    SIGTERM too, instead of dying without a word."""
    def terminated(signum, frame):
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def sigterm_unwinds():
    """terminated_as_interrupt where SIGTERM would end the program at once (its default, in
    the main thread), so that the block's `finally` runs; elsewhere nothing changes: a
    program's own handler (sync's, serve's) keeps its way, and other threads get no signals."""
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        return terminated_as_interrupt()
    return contextlib.nullcontext()


class UsageError(CommandError):
    """Options that are out of range or do not fit together (as argparse's own usage errors):
    printed as one line, exit code 2."""


def read_position(read, text, position_help, errors):
    """read(text), a POSITION. No game's notation is one word, so a one-word text that does
    not read is most likely a mistyped start word: its error (one of `errors`) says what a
    POSITION may be (position_help: the game's start words), not only the notation's fields."""
    try:
        return read(text)
    except errors as e:
        if len(text.split()) != 1:
            raise
        raise CommandError("%s; POSITION: %s" % (e, position_help)) from None


def read_named_position(rules, text, position_help):
    """A POSITION of a game whose rules module names its starts (rules.named_position(word):
    Cephalopod's 5x5, КУБитва's board, ...): the start the word names, else the notation
    (read_position, the rules' RulesError). `perft`, `legal`, `show` and the games' `hint`."""
    text = text.strip()
    named = rules.named_position(text.lower())  # (its own error for a size it lacks: '4x4')
    if named is not None:
        return named
    return read_position(rules.Position.parse, text, position_help, rules.RulesError)


# The longest error line the CLI prints: the longest real ones (an action not legal in an
# 8-player Cargocube position with cards, named in full) are some 500 characters; a 100 KB
# argument echoed whole would flood the terminal.
MAX_ERROR_CHARS = 600

# An OSError without a file name that these numbers raise came from writing, not opening:
# standard output (`> /dev/full`) or a file the command writes (--save, -o), which is its
# output too; open() names its file, so a full disk there says the name.
OUTPUT_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


# The metavars of the options that name a file, a folder or a path, and what each wants.
PATH_NAMES = {"FILE": "a file name", "DIR": "a folder name", "PATH": "a path",
              "PORT": "a serial port's path"}


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser with its usage errors quoting what the user typed as ours do, each
    argument cut short by shown() ("invalid choice: 'xxx'" and the options' own checks, `not
    %r`, echoed a 5000-digit --players whole, to 600 characters), and capped at
    MAX_ERROR_CHARS. Its subcommands' parsers are of this class too (add_subparsers makes
    them of the parser's own class)."""

    _typed = ()  # the arguments this parser was given (parse_known_args)

    def error(self, message):
        for arg in sorted(set(self._typed), key=len, reverse=True):
            for value in (arg,) + ((arg.split("=", 1)[1],) if "=" in arg else ()):
                if len(value) > SHOWN_CHARS:
                    message = message.replace(repr(value), repr(shown(value))) \
                        .replace(value, shown(value))
        super().error(capped(message))

    def parse_known_args(self, args=None, namespace=None):
        """argparse's, and an empty name given where a file, folder or path goes (an option
        whose metavar is in PATH_NAMES) is a UsageError: `--save "$OUT"` with OUT unset played
        a whole game and saved it nowhere, `--db ''` opened the default store."""
        import sys
        self._typed = [str(a) for a in (sys.argv[1:] if args is None else args)]
        ns, extra = super().parse_known_args(args, namespace)
        for action in self._actions:
            what = PATH_NAMES.get(action.metavar)
            given = getattr(ns, action.dest, None)
            if what and (given == "" or isinstance(given, list) and "" in given):
                e = UsageError("%s wants %s, not ''" % (
                    "/".join(action.option_strings) or action.metavar, what))
                e.prog = self.prog  # said as argparse says the command's usage errors
                raise e
        return ns, extra

    def _print_message(self, message, file=None):
        """argparse's help, usage and error text (of every subcommand too), written and
        flushed. argparse dropped a failed write and exited 0: `--help > /dev/full` said
        nothing. Now a failed write to standard output raises its OSError, which main()
        reports as every command reports its output's (`cannot write the output: ...`, exit
        1); a failed write to standard error has nowhere to be said and is dropped."""
        import sys
        if not message:
            return
        file = file or sys.stderr
        try:
            file.write(message)
            file.flush()
        except (AttributeError, OSError):  # (AttributeError: no such stream, as argparse's)
            if file is sys.stdout:
                raise


def error_text(exc):
    """The one line an error is told in: an OSError in words with its path(s), "x.svg: No
    such file or directory", not "[Errno 2] No such file or directory: 'x.svg'"; a full disk
    behind standard output "cannot write the output: No space left on device". At most
    MAX_ERROR_CHARS, the rest cut off with an ellipsis."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        where = str(exc.filename) + ("" if exc.filename2 is None else " -> %s" % exc.filename2)
        text = "%s: %s" % (where, exc.strerror)
    elif isinstance(exc, OSError) and exc.strerror:
        text = ("cannot write the output: %s" if exc.errno in OUTPUT_ERRNOS else "%s") \
            % exc.strerror
    else:
        text = (str(exc).splitlines() or [type(exc).__name__])[0]
    return capped(text)


def capped(text):
    """text, or its first MAX_ERROR_CHARS - 1 characters and an ellipsis."""
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS - 1] + "\u2026"


# How much of a value the user gave an error message quotes (shown()).
SHOWN_CHARS = 40


def shown(value, most=SHOWN_CHARS):
    """A value a user gave, as an error message quotes it: cut after `most` characters (a
    100 KB argument or URL parameter came back whole)."""
    value = str(value)
    return value if len(value) <= most else value[:most] + "… (%d characters)" % len(value)


def terminal_text(text):
    """text as it may be printed: a control character (ESC, a newline, BEL: from a game file's
    tags, they could move the cursor or retitle the terminal) shown as its escape, \\x1b."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in str(text))


# The most a command reads of a file the user names (a game file to import, a sim script): such
# files are some KB; more is none of them, and /dev/zero, or a link to it, would be read until
# memory runs out.
MAX_INPUT_FILE = 16 * 1024 * 1024


def process_runs(pid, others_count):
    """Whether a process of this id runs on this machine, for a file named by the id of the
    process that wrote it. others_count: whether another user's process counts (the
    system says only that it may not signal it): in a folder other users share (a store's) it
    may be the writer, still at work, so it runs; in a folder of this user's alone (the
    virtual boards') it is not the writer but a process that got the number later, so the
    writer is gone. An id no process can have (too large for the system) runs not."""
    try:
        os.kill(pid, 0)  # signal 0: only looks
    except ProcessLookupError:
        return False
    except PermissionError:
        return others_count
    except OverflowError:
        return False
    return True


def read_at_most(f, limit=MAX_INPUT_FILE):
    """f.read() of the open file f (binary: bytes; text: characters), or None if it holds more
    than limit: every file a user names is read so, never whole without a bound."""
    data = f.read(limit + 1)
    return None if len(data) > limit else data


def why_not_writable(path):
    """None if this program may write path (a file, or a folder to make files in), else why
    not, in words (said before any work is done, not as "[Errno 30]" at its end)."""
    import os
    from pathlib import Path
    if os.access(path, os.W_OK | (os.X_OK if Path(path).is_dir() else 0)):
        return None
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return "it is on a read-only file system"
    except OSError:
        pass
    return "no permission to write it"


def is_stream(name):
    """Whether name leads to a character device or a pipe (/dev/null, /dev/stdout at a
    terminal, a FIFO): written as it is, it holds no file of the user's to protect."""
    import stat
    try:
        mode = os.stat(name).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def check_new_file(name, replace=False):
    """CommandError unless a file may be written at name, said in words before any work is
    done (a game played for an hour must not be lost at the end to "No such file or
    directory"): not a folder, in a folder that exists and may be written; and, unless
    replace, not a file that exists."""
    import os
    from pathlib import Path
    path = Path(name)
    if path.is_dir():
        raise CommandError("cannot write %s: it is a folder; give a file name" % name)
    if replace and path.exists() and not os.path.isfile(os.path.realpath(name)):
        return  # a device or a pipe (/dev/null, /dev/stdout) is written as it is, not beside
    folder = path.absolute().parent
    if not folder.is_dir():
        raise CommandError("cannot write %s: the folder %s does not exist" % (name, folder))
    why = why_not_writable(folder)
    if why:
        raise CommandError("cannot write %s: the folder %s may not be written (%s)"
                           % (name, folder, why))
    if not replace and os.path.lexists(name):  # (a link to nothing too: open "x" refuses it)
        raise CommandError("cannot write %s: it exists; give another file" % name)


def write_file(name, data, replace=False, exists="it exists; give another file"):
    """Write data (text, as UTF-8, or bytes) to the file name as a whole or not at all: into a
    temporary file beside it, flushed to the disk, then renamed over it, so a full disk or a
    crash leaves the old file (or none), never half of one (which the next try would refuse
    as existing). A link is followed (the file it points to is replaced, the link stays); a
    device or a pipe (/dev/null) is written to directly. A file made meanwhile is replaced
    only with replace. Any failure is a CommandError naming the file: "cannot write NAME:
    why" (`exists` is the why of a file that is there)."""
    import os
    import tempfile

    def opened(fd_or_path):
        if isinstance(data, bytes):
            return open(fd_or_path, "wb")
        return open(fd_or_path, "w", encoding="utf-8", newline="\n")
    try:
        target = os.path.realpath(name)
        if os.path.exists(target) and not os.path.isfile(target):
            with opened(target) as f:
                f.write(data)
            return
        folder, base = os.path.split(target)
        fd, tmp = tempfile.mkstemp(prefix="." + base + ".", suffix=".part", dir=folder)
        try:
            with opened(fd) as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if os.path.exists(target) or not replace and os.path.lexists(name):
                if not replace:  # made meanwhile (a link to nothing too): not replaced unasked
                    raise FileExistsError(errno.EEXIST, exists, name)
                mode = os.stat(target).st_mode & 0o7777
            else:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask  # as open() would have made it, not mkstemp's 0600
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:  # no permission, a full disk, ... (the write's own error names no file)
        raise CommandError("cannot write %s: %s" % (name, e.strerror or e)) from None


def apply_only_to(flags, kind):
    """The usage error for options of the game `kind` given for another game's position:
    "--cards, --expansion and --teleport apply to cargocube only"."""
    flags = list(flags)
    listed = flags[0] if len(flags) == 1 else "%s and %s" % (", ".join(flags[:-1]), flags[-1])
    return UsageError("%s apply to %s only" % (listed, kind))


@contextlib.contextmanager
def signals_held(*signums):
    """The given signals held while the block runs and handed to their handlers when it ends,
    for work an exception must not cut in two: littlefs-python calling back into Python from C
    (an exception raised there is printed and dropped, so a Ctrl-C would be lost), or a child
    process forked but not yet known to its Popen (a handler's exception there leaves the child
    running with nobody to stop it). Only the main thread gets signals; elsewhere, and for a
    signal without a Python handler, nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = []
    olds = {}
    for signum in signums:
        old = signal.getsignal(signum)
        if callable(old):
            olds[signum] = old
            signal.signal(signum, lambda num, frame: held.append((num, frame)))
    try:
        yield
    finally:
        # each signal that came, once, in the order they came; also when the block raised
        # (a caller that swallows its error must not swallow a Ctrl-C with it)
        for signum, old in olds.items():
            signal.signal(signum, old)
        handed = []
        for num, frame in held:
            if num not in handed:
                handed.append(num)
                olds[num](num, frame)
