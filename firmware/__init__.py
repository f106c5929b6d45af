"""The Cargoboard firmware (docs/firmware.md). Its layers are the folders: hal/ (the hardware
and the platform), drivers/, system/ (the app, the link, the game log), games/ (the plug-in
registry and one folder per game); main.py on top.
"""
