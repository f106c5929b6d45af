"""Cargoboard host tools: talk to the board, run the rules core on the PC."""

__version__ = "0.1.0"
