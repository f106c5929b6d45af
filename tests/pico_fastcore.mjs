// Runs the emulated Pico twice from the same flash image, once with fastcore.mjs's executor and
// once with rp2040js's own executeInstruction, for the same emulated time, and prints what each
// ended with (cycles, time, registers, flags, a digest of SRAM, serial output, LEDs) as JSON
// lines: they must be equal.
//   node tests/pico_fastcore.mjs BOOTROM UF2 IMAGE PINS MS
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Board, readBootrom, readUf2 } from '../host/cargoboard/sim/pico/board.mjs';

const [bootromPath, uf2Path, image, pinsPath, ms] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(pinsPath, 'utf8'));
const pins = {};
for (const p of spec.pins) pins[p.name] = p.gpio;
for (const s of spec.settings) pins[s.name] = s.value;
const bootrom = readBootrom(bootromPath);
const uf2 = readUf2(uf2Path);
for (const fastCore of [true, false]) {
  const copy = `${image}.${fastCore ? 'fast' : 'slow'}`;
  fs.copyFileSync(image, copy);
  const b = new Board({ bootrom, uf2, image: copy, pins, out: () => {}, fastCore });
  for (let t = 10; t <= Number(ms); t += 10) b.run(t * 1e6);
  const core = b.mcu.core;
  console.log(JSON.stringify({
    fastCore,
    cycles: b.cycles,
    coreCycles: core.cycles,
    nanos: b.hostNanos,
    wfiNanos: b.wfiNanos,
    registers: Array.from(core.registers),
    flags: [core.N, core.Z, core.C, core.V],
    sram: crypto.createHash('sha256').update(b.mcu.sram).digest('hex'),
    serial: Buffer.concat(b.serialOut).toString(),
    leds: Array.from(b.leds),
    warmUp: Board.warmUpReport, // the fast board was the process's first: it warmed V8 up first
  }));
  b.chip.close();
}
