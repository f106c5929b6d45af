"""Cargoboard hardware as code (host only, never copied to the board): pin map generator,
netlist with ERC (SKiDL), BOM, power budget, magnet field estimates. See docs/hardware.md."""
