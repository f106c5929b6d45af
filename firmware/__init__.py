"""The Cargoboard firmware (docs/firmware.md). Its layers are the folders: hal/, drivers/,
system/, games/. Here is only what every layer may use: unload(), for code that is loaded when
needed and dropped after (docs/firmware.md "Loading on demand").
"""

import sys


def unload(module):
    """Drop a loaded module (e.g. "firmware.system.logformat") on MicroPython, where its bytecode
    would otherwise stay in the heap: code needed only now and then is imported when needed
    and dropped after. Nothing on CPython."""
    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(module, None)
    i = module.rfind(".")
    if i > 0:
        pkg = sys.modules.get(module[:i])
        short = module[i + 1:]
        if pkg is not None and short in dir(pkg):
            delattr(pkg, short)
