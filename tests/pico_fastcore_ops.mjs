// Every 16-bit Thumb opcode, one instruction at a time, on two identical chips: once through
// fastcore.mjs's FastCore.run, once through rp2040js's own executeInstruction. After each
// instruction both chips must agree on everything the instruction can change: registers, flags,
// the cycles returned and counted, the clock, PRIMASK, the mode and stacks, WFI/WFE, pending
// exceptions, and the memory around the addresses the registers point at (SRAM, flash, ROM).
// Register values are drawn from a pool of edge values and addresses in SRAM (aligned or not,
// its last word), XIP flash and its mirrors, the boot ROM, SIO (the divider, spinlocks), APB
// and AHB peripherals (timer, SPI, watchdog, DMA, the USB's DPRAM, PIO), EXC_RETURN values in
// handler mode, and random words; the instruction itself runs from SRAM, flash and the ROM at
// both halfword alignments, with the clock at 125 MHz and at a fractional cycle time. Then the
// run loop's budget of cycles against a step-by-step sum. Prints one JSON line; exits 1 on the
// first differences (listed).
//   node tests/pico_fastcore_ops.mjs [TRIALS_PER_OPCODE]
import { RP2040 } from 'rp2040js';
import { FastCore, KIND, KINDS, cyclesUntil } from '../host/cargoboard/sim/pico/fastcore.mjs';

const trials = Number(process.argv[2] || 4);
const SRAM = 0x20000000;
const FLASH = 0x10000000;
// the time: whole nanoseconds (125 MHz) and not (133 MHz, from a fractional start)
const CLOCKS = [[8, 1000], [1e9 / 133e6, 1000.37]];

let seed = 0x2545f491;
function random32() { // xorshift32
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}
const pick = (list) => list[random32() % list.length];

const POOL = [
  0, 1, 2, 3, 4, 7, 8, 31, 32, 33, 0x60, 0xff, 0x100, 0x7fffffff, 0x80000000, 0x80000001,
  0xfffffffc, 0xfffffffe, 0xffffffff,
  0x20002000, 0x20002001, 0x20002002, 0x20002003, 0x20002104, 0x20002ffe,
  0x20041ffc, 0x20041ffe, 0x20041fff, 0x20042000, 0x1ffffffc,
  0x10000100, 0x10000101, 0x10000102, 0x11000200, 0x13000100, 0x10fffffc, 0x13fffffc,
  0x100, 0x102, 0x3ffc,
  0xd0000000, 0xd0000004, 0xd0000060, 0xd0000064, 0xd0000070, 0xd0000078, 0xd0000100,
  0x40054000, 0x4005400c, 0x40054028, 0x4003c00c, 0x40058000,
  0x50000000, 0x50100000, 0x50200000, 0x50200004,
  0xfffffff1, 0xfffffff9, 0xfffffffd,
];
// where the instruction runs from (both halfword alignments: ADR and LDR (literal) care)
const PCS = [0x20001000, 0x20001002, 0x10000800, 0x10000802, 0x3000, 0x3002];

function chip() {
  const mcu = new RP2040();
  const quiet = () => {};
  mcu.logger = { debug: quiet, info: quiet, warn: quiet, error: quiet };
  return mcu;
}
// rp2040js's SIO reports stray writes on the console itself
console.warn = () => {};
console.error = () => {};
const fastChip = chip();
const slowChip = chip();
// the same pseudo-random contents in both: SRAM, the first 64 KiB of flash, the ROM
seed = 0x1234567;
for (let i = 0; i < fastChip.sram.length; i++) fastChip.sram[i] = random32() & 0xff;
for (let i = 0; i < 0x10000; i++) fastChip.flash[i] = random32() & 0xff;
for (let i = 0; i < fastChip.bootrom.length; i++) fastChip.bootrom[i] = random32();
slowChip.sram.set(fastChip.sram);
slowChip.flash.set(fastChip.flash);
slowChip.bootrom.set(fastChip.bootrom);
const fast = new FastCore(fastChip);
const board = { resetRequested: false, breakBurst: false };

function setState(mcu, s) {
  const core = mcu.core;
  core.registers.set(s.regs);
  [core.N, core.Z, core.C, core.V] = s.flags;
  core.PM = s.PM;
  core.currentMode = s.mode;
  core.IPSR = s.mode ? 15 : 0;
  core.SPSEL = 0;
  core.bankedSP = s.bankedSP;
  core.waiting = false;
  core.eventRegistered = s.event;
  core.interruptsUpdated = false;
  core.pendingSVCall = false;
  core.pendingPendSV = false;
  core.pendingInterrupts = 0;
  core.cycles = 0;
  mcu.clock.nanosCounter = s.t0;
  const pc = s.regs[15];
  put16(mcu, pc, s.opcode);
  put16(mcu, pc + 2, s.opcode2);
}

function put16(mcu, addr, value) {
  if (addr >= SRAM) mcu.sramView.setUint16(addr - SRAM, value, true);
  else if (addr >= FLASH) mcu.flashView.setUint16(addr - FLASH, value, true);
  else new DataView(mcu.bootrom.buffer).setUint16(addr, value, true);
}

function state(mcu, returned) {
  const c = mcu.core;
  return {
    registers: Array.from(c.registers),
    flags: [c.N, c.Z, c.C, c.V],
    returned,
    cycles: c.cycles,
    nanos: mcu.clock.nanosCounter,
    other: [c.PM, c.currentMode, c.IPSR, c.SPSEL, c.bankedSP, c.waiting, c.eventRegistered,
      c.interruptsUpdated, c.pendingSVCall, c.breakRewind],
  };
}

// memory windows the pool's addresses (and sums of two of them) reach, compared after every
// instruction; everything is compared once more at the end
const windows = (mcu) => [
  Buffer.from(mcu.sram.buffer, 0, 0x4000),
  Buffer.from(mcu.sram.buffer, mcu.sram.length - 0x100, 0x100),
  Buffer.from(mcu.flash.buffer, 0, 0x1000),
  Buffer.from(mcu.bootrom.buffer, 0, 0x4000),
];
const fastWindows = windows(fastChip);
const slowWindows = windows(slowChip);

const differences = [];
const fastKinds = new Uint32Array(Object.keys(KINDS).length + 1);
let blTaken = 0;
let n = 0;
seed = 0x9e3779b9;
for (let opcode = 0; opcode < 65536 && differences.length < 10; opcode++) {
  for (let k = 0; k < trials; k++) {
    const regs = new Uint32Array(16);
    for (let r = 0; r < 15; r++) regs[r] = random32() & 1 ? pick(POOL) : random32();
    regs[13] = 0x20003000 + ((random32() % 64) - 32) * 4;
    regs[15] = PCS[(opcode + k) % PCS.length];
    let opcode2 = random32() & 0xffff;
    if (opcode >> 11 === 0b11110 && random32() & 1) opcode2 = 0xd000 | (opcode2 & 0x2fff); // BL
    const [cycleNs, t0] = CLOCKS[k % CLOCKS.length];
    const s = {
      regs, opcode, opcode2, t0,
      flags: [!!(random32() & 1), !!(random32() & 1), !!(random32() & 1), !!(random32() & 1)],
      PM: !!(random32() & 1),
      mode: random32() % 4 === 0 ? 1 : 0,
      bankedSP: 0x20003800 + (random32() % 16) * 4,
      event: !!(random32() & 1),
    };
    setState(fastChip, s);
    setState(slowChip, s);
    const r1 = fast.run(t0 + 1, board, cycleNs);
    const a = state(fastChip, r1);
    const r2 = slowChip.core.executeInstruction();
    slowChip.clock.nanosCounter += r2 * cycleNs;
    const b = state(slowChip, r2);
    n++;
    fastKinds[KIND[opcode]]++;
    if (KIND[opcode] === KINDS.BL && opcode2 >> 14 === 0b11 && (opcode2 >> 12) & 1) blTaken++;
    const sa = JSON.stringify(a);
    const sb = JSON.stringify(b);
    let memory = '';
    for (let w = 0; w < fastWindows.length; w++) {
      if (!fastWindows[w].equals(slowWindows[w])) memory += ` window ${w}`;
    }
    if (sa !== sb || memory) {
      differences.push(`opcode 0x${opcode.toString(16)} (0x${opcode2.toString(16)}) at ` +
        `0x${regs[15].toString(16)} from ${JSON.stringify(Array.from(regs))}:` +
        `${memory}\n  fast ${sa}\n  core ${sb}`);
      // bring the chips together again so one difference is reported once
      slowChip.sram.set(fastChip.sram);
      slowChip.flash.set(fastChip.flash);
      slowChip.bootrom.set(fastChip.bootrom);
      break;
    }
  }
}
// FastCore.run's budget of cycles: where rp2040js's loop, summing 8 ns per cycle, would stop
for (let i = 0; i < 20000 && differences.length < 10; i++) {
  const base = random32() % 1000000 * 8;
  const cycles = random32() % 50;
  const limit = base + (random32() % 3000) - 200 + (random32() & 1 ? 0 : (random32() % 1000) / 1000);
  let c = cycles + 1;
  let t = base + c * 8;
  while (t < limit) { c++; t += 8; }
  const got = cyclesUntil(limit, base, cycles, 8);
  if (got !== c) differences.push(`cyclesUntil(${limit}, ${base}, ${cycles}, 8) = ${got}, not ${c}`);
}
if (cyclesUntil(Infinity, 0, 0, 8) !== Infinity) differences.push('cyclesUntil(Infinity) is finite');
if (!Buffer.from(fastChip.sram.buffer).equals(Buffer.from(slowChip.sram.buffer))) differences.push('SRAM differs');
if (!Buffer.from(fastChip.flash.buffer).equals(Buffer.from(slowChip.flash.buffer))) differences.push('flash differs');
const uncovered = Object.keys(KINDS).filter((name) => !fastKinds[KINDS[name]]);
console.log(JSON.stringify({ instructions: n, uncovered, blTaken, differences: differences.length }));
for (const d of differences) console.log(d);
process.exit(differences.length || uncovered.length || !blTaken ? 1 : 0);
