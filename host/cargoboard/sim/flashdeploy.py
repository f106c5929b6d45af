"""`cargoboard deploy --flash DIR`: the virtual board's flash as the place a deploy goes.

The deploy command is a core module (cargoboard/deploy.py) and imports nothing above it; the
command line hands it this module (cli.PLUGIN_PARTS), which knows the virtual board: its flash
image (DIR/flash.img, as `cargoboard sim --flash DIR` uses) and its runner, which boots from
the image to report the deployed versions."""

from pathlib import Path

from cargoboard.deploy import DeployError


def image(flash_dir, create=True) -> Path:
    """DIR/flash.img of --flash DIR, its folder made if create (only the last one); a
    DeployError when it cannot be (a file, a missing parent folder)."""
    from cargoboard.sim.runner import FirmwareError, flash_image
    try:
        return Path(flash_image(flash_dir, create=create))
    except FirmwareError as e:
        raise DeployError(str(e)) from None


def deploy(flash_dir, staged, out=print, heapsize="224k", rev="A") -> dict:
    """Write the staged files (cargoboard.build's stage) into the virtual board's flash image,
    boot it from there (as a board of revision rev) and return what it reports (HELLO)."""
    from cargoboard.link import Link
    from cargoboard.sim.runner import FirmwareError, UnixRunner, write_flash_files
    made = not Path(flash_dir).exists()
    where = image(flash_dir)
    try:
        write_flash_files(where, [(bp, str(lp)) for bp, lp, _ in staged])
    except BaseException as e:  # a failed or interrupted first deploy leaves no empty DIR
        if made and not any(where.parent.iterdir()):
            where.parent.rmdir()
        if isinstance(e, FirmwareError):
            raise DeployError(str(e)) from None
        raise
    out("wrote %d files into %s" % (len(staged), where))
    try:
        with UnixRunner(flash=str(where), boot_from_flash=True, heapsize=heapsize,
                        revision=rev) as runner, \
                runner.serving(), Link(runner.port) as link:
            return link.hello()
    except FirmwareError as e:
        raise DeployError("the virtual board did not boot from %s: %s" % (where, e)) from None
