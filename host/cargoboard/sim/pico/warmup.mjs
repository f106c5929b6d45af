// V8's warm-up for fastcore.mjs, on a throwaway chip before the board's own chip runs.
//
// FastCore.run is one large function. V8 optimizes it from the types it has seen so far; an
// instruction kind, a memory region or a value range met for the first time later (a register
// above 2^31 in an address sum, a handler-mode return, a time past 2^31 ns, a load from flash
// by register) throws the optimized code away, and the next compilation of the whole loop
// costs 30-150 ms of CPU while the loop runs unoptimized meanwhile. A booting MicroPython met
// those one after another: the loop was compiled 14-25 times in the first emulated second.
// Here every instruction kind runs first, 100 times, one instruction per
// FastCore.run call, from states drawn to reach each path: registers that are addresses in
// SRAM, XIP flash, the boot ROM and SIO (aligned or not) or large and small words, handler
// mode with EXC_RETURN values, an interrupt check pending, alarms due or not, times below
// and above 2^31 ns. The throwaway chip is built by the same code as the board's (so V8 sees
// the same object shapes) and dropped after; nothing of it reaches the board's chip, so the
// emulated behaviour is the same with or without the warm-up.
import { KIND, cyclesUntil } from './fastcore.mjs';

const SRAM = 0x20000000;
const FLASH = 0x10000000;
// bases that address sums start from, and offsets and plain values
const BASES = [
  0x20002000, 0x20002001, 0x20002002, 0x20002003, 0x20003000, 0x10000100, 0x10000102,
  0x10000101, 0x11000200, 0x100, 0x102, 0x3ffc, 0xd0000000, 0xd0000004, 0xd000001c,
];
const VALUES = [
  0, 1, 2, 3, 4, 7, 8, 31, 32, 33, 0x60, 0xff, 0x100, 0x7fffffff, 0x80000000, 0x80000001,
  0xfffffffc, 0xfffffffe, 0xffffffff, 0xfffffff9, 0xfffffff1, 0xfffffffd,
];
const PCS = [0x20001000, 0x20001002, 0x10000800, 0x10000802];

/**
 * Run every instruction kind `trials` times on `board` (a Board built only for this, with no
 * flash image) through its FastCore. Returns the instructions run.
 */
export function warmUp(board, trials = 100) {
  let seed = 0x2545f491;
  const random = () => { // xorshift32
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const pick = (list) => list[random() % list.length];
  const { mcu } = board;
  const fast = board.exec;
  const core = mcu.core;
  const regs = core.registers;
  const alarm = mcu.clock.createAlarm(() => {});
  // the board passes the cycle time as a division's result, which optimized code hands over
  // as a heap number and the interpreter as a small integer: both, so V8 expects either
  const cycleNs = [8, new Float64Array([8])[0]];
  // every opcode by kind, so that each kind (and the 32-bit ones left to the core) gets its
  // share of trials however few opcodes it has
  const byKind = [];
  for (let op = 0; op < 65536; op++) (byKind[KIND[op]] ||= []).push(op);
  // rp2040js reports stray peripheral accesses on the console: not the board's, so not shown
  const { warn, error } = console;
  console.warn = () => {};
  console.error = () => {};
  let n = 0;
  try {
    for (let t = 0; t < trials; t++) {
      for (let kind = 0; kind < byKind.length; kind++) {
        const opcode = pick(byKind[kind]);
        for (let r = 0; r < 13; r++) {
          const w = random();
          regs[r] = w & 1 ? pick(BASES) : w & 2 ? pick(VALUES) : w & 4 ? (w >>> 8) & 0x3c : w;
        }
        regs[13] = 0x20003000 + ((random() % 64) - 32) * 4;
        // what POP finds on the stack: EXC_RETURN values among them (a handler's return)
        for (let a = regs[13] - 8; a < regs[13] + 40; a += 4) {
          mcu.sramView.setUint32(a - SRAM, random() & 1 ? pick(VALUES) : pick(BASES), true);
        }
        regs[14] = pick(VALUES) | 1;
        const pc = PCS[(t + kind) % PCS.length];
        regs[15] = pc;
        core.N = !!(random() & 1);
        core.Z = !!(random() & 1);
        core.C = !!(random() & 1);
        core.V = !!(random() & 1);
        core.PM = !!(random() & 1);
        core.currentMode = random() % 4 === 0 ? 1 : 0;
        core.IPSR = core.currentMode ? 15 : 0;
        core.SPSEL = 0;
        core.bankedSP = 0x20003800;
        core.waiting = false;
        core.interruptsUpdated = random() % 8 === 0;
        core.pendingInterrupts = 0;
        const view = pc >= SRAM ? mcu.sramView : mcu.flashView;
        view.setUint16(pc - (pc >= SRAM ? SRAM : FLASH), opcode, true);
        // the second half: BL's, or something else (a 32-bit instruction for the core)
        view.setUint16(pc + 2 - (pc >= SRAM ? SRAM : FLASH),
          random() & 3 ? 0xd000 | (random() & 0x2fff) : random() & 0xffff, true);
        const t0 = random() & 1 ? 8 * (random() % 100000) : 4e9 + 8 * (random() % 100000);
        mcu.clock.nanosCounter = t0;
        if (random() & 1) alarm.schedule(8 * (random() % 4));
        else alarm.cancel();
        board.resetRequested = false;
        board.breakBurst = false;
        // mostly one instruction; sometimes a few (whatever follows in memory) so that the
        // loop also recounts its budget
        const cycles = random() % 4 ? 1 + (random() % 3) : 4 + (random() % 60);
        fast.run(t0 + 8 * cycles, board, cycleNs[random() & 1]);
        n++;
      }
      // the loop's budget when the limit has passed already (an alarm due at once)
      cyclesUntil(4e9 + t, 4e9 + 8 * t + 16, t & 7, cycleNs[t & 1]);
      cyclesUntil(t, 8 * t + 16, t & 7, cycleNs[t & 1]);
    }
  } finally {
    alarm.cancel();
    console.warn = warn;
    console.error = error;
  }
  return n;
}
