// The emulator's own speed on a fixed workload, without a host in the loop: the board runs from
// IMAGE for MS emulated milliseconds in 10 ms frames (as the host drives it) and prints, as one
// JSON line, the node process's CPU seconds and wall seconds for each emulated second (the
// first counted from before the board is built: it holds V8's warm-up and the boot), the
// totals, and the cycles run and time spent in WFI (both fixed by the workload: the same on
// every machine). bench/pico.py --speed builds the images and prints the figures.
//   node bench/pico_speed.mjs BOOTROM UF2 IMAGE PINS MS [fast|slow|cold]
// (slow: rp2040js's own executor; cold: fastcore.mjs without V8's warm-up, board.mjs `warm`)
import fs from 'node:fs';
import { Board, readBootrom, readUf2 } from '../host/cargoboard/sim/pico/board.mjs';

const [bootromPath, uf2Path, image, pinsPath, ms, mode] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(pinsPath, 'utf8'));
const pins = {};
for (const p of spec.pins) pins[p.name] = p.gpio;
for (const s of spec.settings) pins[s.name] = s.value;
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e6; };
const wall = () => Number(process.hrtime.bigint()) / 1e9;
const start = cpu();
const wall0 = wall();
const bootrom = readBootrom(bootromPath);
const uf2 = readUf2(uf2Path);
const board = new Board({
  bootrom, uf2, image, pins, out: () => {}, fastCore: mode !== 'slow', warm: mode !== 'cold',
});
const setupCpu = cpu() - start;
const perSecond = [];
const wallPerSecond = [];
let c0 = start;
let w0 = wall0;
for (let t = 10; t <= Number(ms); t += 10) {
  board.run(t * 1e6);
  if (t % 1000 === 0 || t + 10 > Number(ms)) {
    const c = cpu();
    const w = wall();
    perSecond.push(Number((c - c0).toFixed(3)));
    wallPerSecond.push(Number((w - w0).toFixed(3)));
    c0 = c;
    w0 = w;
  }
}
console.log(JSON.stringify({
  emulated_s: board.hostNanos / 1e9,
  cpu_s: Number((cpu() - start).toFixed(3)),
  wall_s: wall() - wall0,
  setup_cpu_s: Number(setupCpu.toFixed(3)),
  cpu_s_per_second: perSecond,
  wall_s_per_second: wallPerSecond,
  cycles: board.cycles,
  wfi_s: board.wfiNanos / 1e9,
  serial_tail: Buffer.concat(board.serialOut).toString().slice(-200),
}));
board.chip.close();
