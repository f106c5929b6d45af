// A faster executor for rp2040js's Cortex-M0+ core, with the same results cycle for cycle.
//
// rp2040js 1.4.1 decodes every instruction by walking one long if/else chain in alphabetical
// order (the instructions MicroPython runs most are tested for last), reaches memory through
// RP2040.readUint32/writeUint32 (which look for a peripheral before SRAM), and is driven one
// instruction per call. Here:
// - every 16-bit opcode is classified once, into a 64 KiB table built by the core's own chain
//   of tests in the core's order (`KIND`), and executed by one switch with exactly the core's
//   semantics: registers, flags, cycle counts, the same memory accesses in the same order;
// - loads and stores to SRAM, XIP flash and the boot ROM go straight to typed arrays over the
//   chip's own buffers; every other address goes through the chip's methods as before, with
//   the clock brought up to date first (a peripheral may read the time);
// - `run(target, board, cycleNs)` executes instructions in a loop of its own until the clock
//   reaches `target` or the next alarm, as the board's loop did one call at a time, counting
//   cycles against a budget rather than adding nanoseconds per instruction, and looks at what a
//   peripheral may have changed (alarms, WFI/WFE, a reset, the board's break request, pending
//   interrupts) only after an instruction that reached one;
// - whatever is rare (an interrupt to take, BKPT, SVC, UDF, WFE/WFI, SEV, YIELD, 32-bit
//   instructions other than BL, undefined encodings) is handed to the core's own
//   executeInstruction, which fetches it again.
// tests/test_pico.py checks the whole (boot and a Python workload against rp2040js's own
// decoder) and every opcode one by one against the core's executeInstruction.

const SRAM = 0x20000000;
const FLASH = 0x10000000;
const FLASH_MIRRORS_END = 0x14000000; // XIP, XIP_NOALLOC, XIP_NOCACHE, XIP_NOCACHE_NOALLOC
const SIO = 0xd0000000;
const SIO_END = 0xe0000000;
const APB = 0x40000000;
const APB_END = 0x50000000;
const AHB_PERIPHERALS = 0x50200000; // PIO0, PIO1 (below: DMA, the USB's DPRAM and registers)
const AHB_PERIPHERALS_END = 0x50400000;
const MAX_BUDGET = 0x3fffffff; // the largest small integer (Smi) V8 keeps untagged

// --- decoding -----------------------------------------------------------------------------------
// Instruction kinds (the values of KIND).
const SLOW = 0; // executed by rp2040js's own executeInstruction
const K = {};
[
  'ADCS', 'ADD_RD_SP', 'ADD_SP', 'ADDS_IMM3', 'ADDS_IMM8', 'ADDS_REG', 'ADD_HI', 'ADR', 'ANDS',
  'ASRS_IMM', 'ASRS_REG', 'B_COND', 'B', 'BICS', 'BL', 'BLX', 'BX', 'CMN', 'CMP_IMM', 'CMP_REG',
  'CMP_HI', 'CPSID', 'CPSIE', 'EORS', 'LDMIA', 'LDR_IMM', 'LDR_SP', 'LDR_LIT', 'LDR_REG',
  'LDRB_IMM', 'LDRB_REG', 'LDRH_IMM', 'LDRH_REG', 'LDRSB', 'LDRSH', 'LSLS_IMM', 'LSLS_REG',
  'LSRS_IMM', 'LSRS_REG', 'MOV', 'MOVS', 'MULS', 'MVNS', 'ORRS', 'POP', 'PUSH', 'REV', 'REV16',
  'REVSH', 'ROR', 'RSBS', 'NOP', 'SBCS', 'STMIA', 'STR_IMM', 'STR_SP', 'STR_REG', 'STRB_IMM',
  'STRB_REG', 'STRH_IMM', 'STRH_REG', 'SUB_SP', 'SUBS_IMM3', 'SUBS_IMM8', 'SUBS_REG', 'SXTB',
  'SXTH', 'TST', 'UXTB', 'UXTH',
].forEach((name, i) => { K[name] = i + 1; });

/** The kind of a 16-bit opcode: rp2040js 1.4.1's executeInstruction tests, in its order. A
 *  32-bit instruction's first half is BL when its second half says so (checked when run), else
 *  SLOW, as are the instructions left to the core. */
function classify(opcode) {
  const wide = opcode >> 12 === 0b1111 || opcode >> 11 === 0b11101;
  if (wide) return opcode >> 11 === 0b11110 ? K.BL : SLOW;
  if (opcode >> 6 === 0b0100000101) return K.ADCS;
  if (opcode >> 11 === 0b10101) return K.ADD_RD_SP;
  if (opcode >> 7 === 0b101100000) return K.ADD_SP;
  if (opcode >> 9 === 0b0001110) return K.ADDS_IMM3;
  if (opcode >> 11 === 0b00110) return K.ADDS_IMM8;
  if (opcode >> 9 === 0b0001100) return K.ADDS_REG;
  if (opcode >> 8 === 0b01000100) return K.ADD_HI;
  if (opcode >> 11 === 0b10100) return K.ADR;
  if (opcode >> 6 === 0b0100000000) return K.ANDS;
  if (opcode >> 11 === 0b00010) return K.ASRS_IMM;
  if (opcode >> 6 === 0b0100000100) return K.ASRS_REG;
  if (opcode >> 12 === 0b1101 && ((opcode >> 9) & 0x7) !== 0b111) return K.B_COND;
  if (opcode >> 11 === 0b11100) return K.B;
  if (opcode >> 6 === 0b0100001110) return K.BICS;
  if (opcode >> 8 === 0b10111110) return SLOW; // BKPT
  if (opcode >> 7 === 0b010001111 && (opcode & 0x7) === 0) return K.BLX;
  if (opcode >> 7 === 0b010001110 && (opcode & 0x7) === 0) return K.BX;
  if (opcode >> 6 === 0b0100001011) return K.CMN;
  if (opcode >> 11 === 0b00101) return K.CMP_IMM;
  if (opcode >> 6 === 0b0100001010) return K.CMP_REG;
  if (opcode >> 8 === 0b01000101) return K.CMP_HI;
  if (opcode === 0xb672) return K.CPSID;
  if (opcode === 0xb662) return K.CPSIE;
  if (opcode >> 6 === 0b0100000001) return K.EORS;
  if (opcode >> 11 === 0b11001) return K.LDMIA;
  if (opcode >> 11 === 0b01101) return K.LDR_IMM;
  if (opcode >> 11 === 0b10011) return K.LDR_SP;
  if (opcode >> 11 === 0b01001) return K.LDR_LIT;
  if (opcode >> 9 === 0b0101100) return K.LDR_REG;
  if (opcode >> 11 === 0b01111) return K.LDRB_IMM;
  if (opcode >> 9 === 0b0101110) return K.LDRB_REG;
  if (opcode >> 11 === 0b10001) return K.LDRH_IMM;
  if (opcode >> 9 === 0b0101101) return K.LDRH_REG;
  if (opcode >> 9 === 0b0101011) return K.LDRSB;
  if (opcode >> 9 === 0b0101111) return K.LDRSH;
  if (opcode >> 11 === 0b00000) return K.LSLS_IMM;
  if (opcode >> 6 === 0b0100000010) return K.LSLS_REG;
  if (opcode >> 11 === 0b00001) return K.LSRS_IMM;
  if (opcode >> 6 === 0b0100000011) return K.LSRS_REG;
  if (opcode >> 8 === 0b01000110) return K.MOV;
  if (opcode >> 11 === 0b00100) return K.MOVS;
  if (opcode >> 6 === 0b0100001101) return K.MULS;
  if (opcode >> 6 === 0b0100001111) return K.MVNS;
  if (opcode >> 6 === 0b0100001100) return K.ORRS;
  if (opcode >> 9 === 0b1011110) return K.POP;
  if (opcode >> 9 === 0b1011010) return K.PUSH;
  if (opcode >> 6 === 0b1011101000) return K.REV;
  if (opcode >> 6 === 0b1011101001) return K.REV16;
  if (opcode >> 6 === 0b1011101011) return K.REVSH;
  if (opcode >> 6 === 0b0100000111) return K.ROR;
  if (opcode >> 6 === 0b0100001001) return K.RSBS;
  if (opcode === 0b1011111100000000) return K.NOP;
  if (opcode >> 6 === 0b0100000110) return K.SBCS;
  if (opcode === 0b1011111101000000) return SLOW; // SEV
  if (opcode >> 11 === 0b11000) return K.STMIA;
  if (opcode >> 11 === 0b01100) return K.STR_IMM;
  if (opcode >> 11 === 0b10010) return K.STR_SP;
  if (opcode >> 9 === 0b0101000) return K.STR_REG;
  if (opcode >> 11 === 0b01110) return K.STRB_IMM;
  if (opcode >> 9 === 0b0101010) return K.STRB_REG;
  if (opcode >> 11 === 0b10000) return K.STRH_IMM;
  if (opcode >> 9 === 0b0101001) return K.STRH_REG;
  if (opcode >> 7 === 0b101100001) return K.SUB_SP;
  if (opcode >> 9 === 0b0001111) return K.SUBS_IMM3;
  if (opcode >> 11 === 0b00111) return K.SUBS_IMM8;
  if (opcode >> 9 === 0b0001101) return K.SUBS_REG;
  if (opcode >> 8 === 0b11011111) return SLOW; // SVC
  if (opcode >> 6 === 0b1011001001) return K.SXTB;
  if (opcode >> 6 === 0b1011001000) return K.SXTH;
  if (opcode >> 6 === 0b0100001000) return K.TST;
  if (opcode >> 8 === 0b11011110) return SLOW; // UDF
  if (opcode >> 6 === 0b1011001011) return K.UXTB;
  if (opcode >> 6 === 0b1011001010) return K.UXTH;
  return SLOW; // WFE, WFI, YIELD, and what rp2040js does not implement (it warns)
}

export const KIND = new Uint8Array(65536);
for (let op = 0; op < 65536; op++) KIND[op] = classify(op);
export const KINDS = K;

// --- the executor -------------------------------------------------------------------------------
export class FastCore {
  constructor(mcu) {
    if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
      throw new Error('fastcore.mjs needs a little-endian host');
    }
    this.mcu = mcu;
    this.core = mcu.core;
    // rp2040js's own executeInstruction (the prototype's, whatever the instance carries)
    this.slow = Object.getPrototypeOf(this.core).executeInstruction;
    this.sramEnd = SRAM + mcu.sram.length;
    this.sram8 = mcu.sram;
    this.sram16 = new Uint16Array(mcu.sram.buffer, mcu.sram.byteOffset, mcu.sram.length >> 1);
    this.sram32 = new Uint32Array(mcu.sram.buffer, mcu.sram.byteOffset, mcu.sram.length >> 2);
    this.flashLen = mcu.flash.length;
    this.flash8 = mcu.flash;
    this.flash16 = new Uint16Array(mcu.flash.buffer, mcu.flash.byteOffset, mcu.flash.length >> 1);
    this.flash32 = new Uint32Array(mcu.flash.buffer, mcu.flash.byteOffset, mcu.flash.length >> 2);
    this.rom32 = mcu.bootrom;
    this.rom16 = new Uint16Array(mcu.bootrom.buffer, mcu.bootrom.byteOffset, mcu.bootrom.length * 2);
    this.romLen = mcu.bootrom.length * 4;
    this.touched = false; // set when an instruction reached a peripheral or the core's own code
  }

  // Memory: SRAM, flash (reads) and the boot ROM (reads) straight from the arrays, anything
  // else through the chip with the clock up to date (`nanos` is the time of the instruction).
  read32(addr, nanos) {
    if (addr >= SRAM && addr < this.sramEnd && !(addr & 3)) return this.sram32[(addr - SRAM) >> 2];
    if (addr >= FLASH && addr < FLASH_MIRRORS_END && !(addr & 3)) {
      return this.flash32[(addr & 0xffffff) >> 2];
    }
    if (addr < this.romLen && !(addr & 3) && addr >= 0) return this.rom32[addr >> 2];
    this.touched = true;
    this.mcu.clock.nanosCounter = nanos;
    if (addr >= SIO && addr < SIO_END && !(addr & 3)) return this.mcu.sio.readUint32(addr - SIO);
    if (((addr >= APB && addr < APB_END) || (addr >= AHB_PERIPHERALS && addr < AHB_PERIPHERALS_END)) &&
        !(addr & 3)) {
      // the chip's decoder would look through its memories first, then find this peripheral
      // (status registers polled in a loop: SPI, PIO FIFOs, the timer)
      const peripheral = this.mcu.peripherals[(addr >>> 14) << 2];
      if (peripheral) return peripheral.readUint32(addr & 0x3fff);
    }
    return this.mcu.readUint32(addr);
  }

  read16(addr, nanos) {
    if (addr >= SRAM && addr + 1 < this.sramEnd && !(addr & 1)) return this.sram16[(addr - SRAM) >> 1];
    if (addr >= FLASH && addr + 1 < FLASH + this.flashLen && !(addr & 1)) {
      return this.flash16[(addr - FLASH) >> 1];
    }
    this.touched = true;
    this.mcu.clock.nanosCounter = nanos;
    return this.mcu.readUint16(addr);
  }

  read8(addr, nanos) {
    if (addr >= SRAM && addr < this.sramEnd) return this.sram8[addr - SRAM];
    if (addr >= FLASH && addr < FLASH + this.flashLen) return this.flash8[addr - FLASH];
    this.touched = true;
    this.mcu.clock.nanosCounter = nanos;
    return this.mcu.readUint8(addr);
  }

  write32(addr, value, nanos) {
    if (addr >= SRAM && addr < this.sramEnd && !(addr & 3)) {
      this.sram32[(addr - SRAM) >> 2] = value;
      return;
    }
    this.touched = true;
    this.mcu.clock.nanosCounter = nanos;
    if (addr >= SIO && addr < SIO_END && !(addr & 3)) this.mcu.sio.writeUint32(addr - SIO, value);
    else this.mcu.writeUint32(addr, value);
  }

  write16(addr, value, nanos) {
    if (addr >= SRAM && addr + 1 < this.sramEnd && !(addr & 1)) {
      this.sram16[(addr - SRAM) >> 1] = value;
      return;
    }
    this.touched = true;
    this.mcu.clock.nanosCounter = nanos;
    this.mcu.writeUint16(addr, value);
  }

  write8(addr, value, nanos) {
    if (addr >= SRAM && addr < this.sramEnd) {
      this.sram8[addr - SRAM] = value;
      return;
    }
    this.touched = true;
    this.mcu.clock.nanosCounter = nanos;
    this.mcu.writeUint8(addr, value);
  }

  /**
   * The instructions a busy MicroPython runs least (each below ~0.3% of those run), executed as
   * in run()'s switch: kept out of run() so that its optimized code stays small, compiles fast
   * and is not thrown away when one of these runs for the first time. `nanos` is the time of
   * the instruction; returns its cycles.
   */
  rare(kind, opcode, pc, next, nanos) {
    const { core } = this;
    const regs = core.registers;
    const { sram8, sram16, sram32, flash8, flash16 } = this;
    const sramEnd = this.sramEnd;
    const sramEnd4 = sramEnd - 3;
    const flashEnd = FLASH + this.flashLen;
    let d = 1;
    switch (kind) {
      case 1: { // ADCS
        const a = regs[(opcode >> 3) & 7];
        const Rdn = opcode & 7;
        const b = regs[Rdn] + (core.C ? 1 : 0);
        const result = a + b;
        core.N = !!(result & 0x80000000);
        core.Z = (result & 0xffffffff) === 0;
        core.C = result !== (a + b) >>> 0;
        core.V = (result | 0) !== (a | 0) + (b | 0);
        regs[Rdn] = result;
        break;
      }
      case 2: // ADD (Rd = SP plus immediate)
        regs[(opcode >> 8) & 7] = regs[13] + ((opcode & 0xff) << 2);
        break;
      case 3: // ADD (SP plus immediate)
        regs[13] = (regs[13] + ((opcode & 0x7f) << 2)) & ~3;
        break;
      case 7: { // ADD (register, high registers)
        const Rm = (opcode >> 3) & 0xf;
        const Rdn = ((opcode & 0x80) >> 4) | (opcode & 0x7);
        const left = Rdn === 15 ? next + 2 : regs[Rdn];
        const right = Rm === 15 ? next + 2 : regs[Rm];
        const result = left + right;
        if (Rdn === 15) {
          regs[15] = result & ~1;
          d++;
        } else if (Rdn === 13) {
          regs[13] = result & ~3;
        } else {
          regs[Rdn] = result;
        }
        break;
      }
      case 8: // ADR
        regs[(opcode >> 8) & 7] = (pc & 0xfffffffc) + 4 + ((opcode & 0xff) << 2);
        break;
      case 10: { // ASRS (immediate)
        const imm5 = (opcode >> 6) & 0x1f;
        const input = regs[(opcode >> 3) & 7];
        const shiftN = imm5 ? imm5 : 32;
        const result = shiftN < 32 ? input >> shiftN : (input & 0x80000000) >> 31;
        regs[opcode & 7] = result;
        core.N = !!(result & 0x80000000);
        core.Z = (result & 0xffffffff) === 0;
        core.C = !!(input & (1 << (shiftN - 1)));
        break;
      }
      case 16: { // BLX
        const Rm = (opcode >> 3) & 0xf;
        regs[14] = next | 0x1;
        regs[15] = regs[Rm] & ~1;
        d++;
        core.blTaken(core, true);
        break;
      }
      case 18: { // CMN
        const a = regs[opcode & 7];
        const b = regs[(opcode >> 3) & 7];
        const result = a + b;
        core.N = !!(result & 0x80000000);
        core.Z = (result & 0xffffffff) === 0;
        core.C = result !== (a + b) >>> 0;
        core.V = (result | 0) !== (a | 0) + (b | 0);
        break;
      }
      case 22: // CPSID i
        core.PM = true;
        break;
      case 23: // CPSIE i
        core.PM = false;
        core.interruptsUpdated = true;
        this.touched = true; // for the loop to see interruptsUpdated
        break;
      case 24: { // EORS
        const Rdn = opcode & 7;
        const result = regs[(opcode >> 3) & 7] ^ regs[Rdn];
        regs[Rdn] = result;
        core.N = !!(result & 0x80000000);
        core.Z = result === 0;
        break;
      }
      case 25: { // LDMIA
        const Rn = (opcode >> 8) & 7;
        const list = opcode & 0xff;
        let address = regs[Rn];
        for (let i = 0; i < 8; i++) {
          if (list & (1 << i)) {
            regs[i] = address >= SRAM && address < sramEnd4 && !(address & 3)
              ? sram32[(address - SRAM) >> 2] : this.read32(address, nanos);
            address += 4;
            d++;
          }
        }
        if (!(list & (1 << Rn))) regs[Rn] = address;
        break;
      }
      case 32: { // LDRH (immediate)
        const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 1);
        if (addr >= SRAM && addr < sramEnd - 1 && !(addr & 1)) {
          regs[opcode & 7] = sram16[(addr - SRAM) >> 1];
          d++;
        } else if (addr >= FLASH && addr < flashEnd - 1 && !(addr & 1)) {
          regs[opcode & 7] = flash16[(addr - FLASH) >> 1];
          d++;
        } else {
          d += cyclesIO(addr, false);
          regs[opcode & 7] = this.read16(addr, nanos);
        }
        break;
      }
      case 33: { // LDRH (register)
        const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
        if (addr >= SRAM && addr < sramEnd - 1 && !(addr & 1)) {
          regs[opcode & 7] = sram16[(addr - SRAM) >> 1];
          d++;
        } else if (addr >= FLASH && addr < flashEnd - 1 && !(addr & 1)) {
          regs[opcode & 7] = flash16[(addr - FLASH) >> 1];
          d++;
        } else {
          d += cyclesIO(addr, false);
          regs[opcode & 7] = this.read16(addr, nanos);
        }
        break;
      }
      case 34: { // LDRSB
        const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
        let value;
        if (addr >= SRAM && addr < sramEnd) {
          value = sram8[addr - SRAM];
          d++;
        } else if (addr >= FLASH && addr < flashEnd) {
          value = flash8[addr - FLASH];
          d++;
        } else {
          d += cyclesIO(addr, false);
          value = this.read8(addr, nanos);
        }
        regs[opcode & 7] = (value << 24) >> 24;
        break;
      }
      case 35: { // LDRSH
        const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
        let value;
        if (addr >= SRAM && addr < sramEnd - 1 && !(addr & 1)) {
          value = sram16[(addr - SRAM) >> 1];
          d++;
        } else if (addr >= FLASH && addr < flashEnd - 1 && !(addr & 1)) {
          value = flash16[(addr - FLASH) >> 1];
          d++;
        } else {
          d += cyclesIO(addr, false);
          value = this.read16(addr, nanos);
        }
        regs[opcode & 7] = (value << 16) >> 16;
        break;
      }
      case 37: { // LSLS (register)
        const Rdn = opcode & 7;
        const input = regs[Rdn];
        const shiftCount = regs[(opcode >> 3) & 7] & 0xff;
        const result = shiftCount >= 32 ? 0 : input << shiftCount;
        regs[Rdn] = result;
        core.N = !!(result & 0x80000000);
        core.Z = result === 0;
        if (shiftCount) core.C = !!(input & (1 << (32 - shiftCount)));
        break;
      }
      case 39: { // LSRS (register)
        const Rdn = opcode & 7;
        const shiftAmount = regs[(opcode >> 3) & 7] & 0xff;
        const input = regs[Rdn];
        const result = shiftAmount < 32 ? input >>> shiftAmount : 0;
        regs[Rdn] = result;
        core.N = !!(result & 0x80000000);
        core.Z = result === 0;
        core.C = shiftAmount <= 32 ? !!((input >>> (shiftAmount - 1)) & 0x1) : false;
        break;
      }
      case 42: { // MULS
        const Rdm = opcode & 7;
        const result = Math.imul(regs[(opcode >> 3) & 7], regs[Rdm]);
        regs[Rdm] = result;
        core.N = !!(result & 0x80000000);
        core.Z = (result & 0xffffffff) === 0;
        break;
      }
      case 43: { // MVNS
        const result = ~regs[(opcode >> 3) & 7];
        regs[opcode & 7] = result;
        core.N = !!(result & 0x80000000);
        core.Z = result === 0;
        break;
      }
      case 47: { // REV
        const input = regs[(opcode >> 3) & 7];
        regs[opcode & 7] = ((input & 0xff) << 24) | (((input >> 8) & 0xff) << 16) |
          (((input >> 16) & 0xff) << 8) | ((input >> 24) & 0xff);
        break;
      }
      case 48: { // REV16
        const input = regs[(opcode >> 3) & 7];
        regs[opcode & 7] = (((input >> 16) & 0xff) << 24) | (((input >> 24) & 0xff) << 16) |
          ((input & 0xff) << 8) | ((input >> 8) & 0xff);
        break;
      }
      case 49: { // REVSH
        const input = regs[(opcode >> 3) & 7];
        regs[opcode & 7] = ((((input & 0xff) << 8) | ((input >> 8) & 0xff)) << 16) >> 16;
        break;
      }
      case 50: { // ROR
        const Rdn = opcode & 7;
        const input = regs[Rdn];
        const shift = (regs[(opcode >> 3) & 7] & 0xff) % 32;
        const result = (input >>> shift) | (input << (32 - shift));
        regs[Rdn] = result;
        core.N = !!(result & 0x80000000);
        core.Z = result === 0;
        core.C = !!(result & 0x80000000);
        break;
      }
      case 51: { // NEGS / RSBS
        const b = regs[(opcode >> 3) & 7];
        const result = 0 - b;
        core.N = !!(result & 0x80000000);
        core.Z = (result & 0xffffffff) === 0;
        core.C = 0 >= b;
        core.V = (b & result) < 0;
        regs[opcode & 7] = result;
        break;
      }
      case 52: // NOP
        break;
      case 53: { // SBCS
        const Rdn = opcode & 7;
        const a = regs[Rdn];
        const b = regs[(opcode >> 3) & 7] + (1 - (core.C ? 1 : 0));
        const result = a - b;
        core.N = !!(result & 0x80000000);
        core.Z = (result & 0xffffffff) === 0;
        core.C = a >= b;
        core.V = ((a ^ b) & (a ^ result)) < 0;
        regs[Rdn] = result;
        break;
      }
      case 54: { // STMIA
        const Rn = (opcode >> 8) & 7;
        const list = opcode & 0xff;
        let address = regs[Rn];
        for (let i = 0; i < 8; i++) {
          if (list & (1 << i)) {
            if (address >= SRAM && address < sramEnd4 && !(address & 3)) {
              sram32[(address - SRAM) >> 2] = regs[i];
            } else {
              this.write32(address, regs[i], nanos);
            }
            address += 4;
            d++;
          }
        }
        if (!(list & (1 << Rn))) regs[Rn] = address;
        break;
      }
      case 57: { // STR (register)
        const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
        if (addr >= SRAM && addr < sramEnd4 && !(addr & 3)) {
          sram32[(addr - SRAM) >> 2] = regs[opcode & 7];
          d++;
        } else {
          d += cyclesIO(addr, true);
          this.write32(addr, regs[opcode & 7], nanos);
        }
        break;
      }
      case 58: { // STRB (immediate)
        const addr = regs[(opcode >> 3) & 7] + ((opcode >> 6) & 0x1f);
        if (addr >= SRAM && addr < sramEnd) {
          sram8[addr - SRAM] = regs[opcode & 7];
          d++;
        } else {
          d += cyclesIO(addr, true);
          this.write8(addr, regs[opcode & 7], nanos);
        }
        break;
      }
      case 59: { // STRB (register)
        const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
        if (addr >= SRAM && addr < sramEnd) {
          sram8[addr - SRAM] = regs[opcode & 7];
          d++;
        } else {
          d += cyclesIO(addr, true);
          this.write8(addr, regs[opcode & 7], nanos);
        }
        break;
      }
      case 60: { // STRH (immediate)
        const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 1);
        d += cyclesIO(addr, true);
        this.write16(addr, regs[opcode & 7], nanos);
        break;
      }
      case 61: { // STRH (register)
        const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
        d += cyclesIO(addr, true);
        this.write16(addr, regs[opcode & 7], nanos);
        break;
      }
      case 62: // SUB (SP minus immediate)
        regs[13] = (regs[13] - ((opcode & 0x7f) << 2)) & ~3;
        break;
      case 66: // SXTB
        regs[opcode & 7] = (regs[(opcode >> 3) & 7] << 24) >> 24;
        break;
      case 67: // SXTH
        regs[opcode & 7] = (regs[(opcode >> 3) & 7] << 16) >> 16;
        break;
      case 69: // UXTB
        regs[opcode & 7] = regs[(opcode >> 3) & 7] & 0xff;
        break;
      case 70: // UXTH
        regs[opcode & 7] = regs[(opcode >> 3) & 7] & 0xffff;
        break;
      default:
        throw new Error(`fastcore: no case for kind ${kind}`);
    }
    return d;
  }

  /**
   * Execute instructions until the clock reaches `target` or the first alarm due before it
   * (checked after each instruction, as rp2040js's loop would), or until the core waits
   * (WFI/WFE), `board.resetRequested` or `board.breakBurst` is set. The clock is advanced by
   * `cycleNs` per cycle: the caller's figure, which it keeps for its whole run even when the
   * firmware changes clk_sys meanwhile, so the time is the same to the last bit as with
   * rp2040js's executeInstruction in the caller's own loop. Returns the cycles run.
   */
  run(target, board, cycleNs) {
    const { core, mcu } = this;
    const { clock } = mcu;
    const regs = core.registers;
    const slow = this.slow;
    const { sram8, sram16, sram32, flash8, flash16, flash32, rom16 } = this;
    const sramEnd = this.sramEnd;
    const sramEnd4 = sramEnd - 3;
    const flashEnd = FLASH + this.flashLen;
    const romLen = this.romLen;
    // The time. rp2040js's loop adds cycles * cycleNs to the clock after every instruction.
    // When the clock and cycleNs are whole nanoseconds (always at 125 MHz: 8 ns) every such
    // sum is exact, so the time before an instruction is start + cycles * cycleNs to the bit,
    // and the loop only counts cycles against a budget: the cycles at which the time reaches
    // `limit`. Otherwise (`step` 0) `base` is the time itself, summed instruction by
    // instruction as rp2040js sums it, and the budget is always the next instruction.
    // Either way the time before the present instruction is `base + cycles * step`.
    const whole = Number.isInteger(clock.nanosCounter) && clock.nanosCounter < 2 ** 50 &&
      Number.isInteger(cycleNs) && cycleNs < 2 ** 31;
    // (`| 0`: a small integer always. The board's optimized loop hands cycleNs over as a heap
    // number, the interpreter as a small integer; each `cycles * step` that met the one and
    // then the other made V8 throw away this loop's optimized code, ~20 times in a boot.)
    const step = whole ? cycleNs | 0 : 0;
    let base = clock.nanosCounter;
    let alarm = clock.nextAlarm;
    let limit = alarm && alarm.nanos < target ? alarm.nanos : target;
    let cycles = 0; // returned by instructions (the clock's)
    let slowCycles = 0; // ... of which the core's own executeInstruction counted in core.cycles
    let budget = 0;
    let now = base;
    // interrupts to look at: only the core's own code and a peripheral change it (or CPSIE)
    let irq = core.interruptsUpdated;
    // The first instruction is followed by the full check, as rp2040js's loop follows every
    // one: what ran between two calls (alarms, a PIO catch-up) may have asked for a break.
    this.touched = true;
    for (;;) {
      let d = 1;
      if (irq) {
        clock.nanosCounter = base + cycles * step;
        d = slow.call(core);
        slowCycles += d;
        this.touched = true;
      } else {
        const pc0 = regs[15];
        const pc = pc0 & ~1;
        let opcode;
        if (pc >= FLASH && pc + 1 < flashEnd) opcode = flash16[(pc - FLASH) >> 1];
        else if (pc >= SRAM && pc + 1 < sramEnd) opcode = sram16[(pc - SRAM) >> 1];
        else if (pc >= 0 && pc < romLen) opcode = rom16[pc >> 1];
        else opcode = -1;
        const kind = opcode < 0 ? SLOW : KIND[opcode];
        if (kind === SLOW) {
          clock.nanosCounter = base + cycles * step;
          d = slow.call(core);
          slowCycles += d;
          this.touched = true;
        } else {
          const next = pc0 + 2; // rp2040js's PC while the instruction runs
          regs[15] = next;
          switch (kind) {
            case 4: { // ADDS (3-bit immediate)
              const a = regs[(opcode >> 3) & 7];
              const b = (opcode >> 6) & 7;
              const result = a + b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = result !== (a + b) >>> 0;
              core.V = (result | 0) !== (a | 0) + b;
              regs[opcode & 7] = result;
              break;
            }
            case 5: { // ADDS (8-bit immediate)
              const Rdn = (opcode >> 8) & 7;
              const a = regs[Rdn];
              const b = opcode & 0xff;
              const result = a + b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = result !== (a + b) >>> 0;
              core.V = (result | 0) !== (a | 0) + b;
              regs[Rdn] = result;
              break;
            }
            case 6: { // ADDS (register)
              const a = regs[(opcode >> 3) & 7];
              const b = regs[(opcode >> 6) & 7];
              const result = a + b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = result !== (a + b) >>> 0;
              core.V = (result | 0) !== (a | 0) + (b | 0);
              regs[opcode & 7] = result;
              break;
            }
            case 9: { // ANDS
              const Rdn = opcode & 7;
              const result = regs[Rdn] & regs[(opcode >> 3) & 7];
              regs[Rdn] = result;
              core.N = !!(result & 0x80000000);
              core.Z = result === 0;
              break;
            }
            case 11: { // ASRS (register)
              const Rdn = opcode & 7;
              const input = regs[Rdn];
              const m = regs[(opcode >> 3) & 7] & 0xff;
              const shiftN = m < 32 ? m : 32;
              const result = shiftN < 32 ? input >> shiftN : (input & 0x80000000) >> 31;
              regs[Rdn] = result;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = !!(input & (1 << (shiftN - 1)));
              break;
            }
            case 12: { // B (with condition)
              let taken;
              switch ((opcode >> 8) & 0xf) {
                case 0: taken = core.Z; break;
                case 1: taken = !core.Z; break;
                case 2: taken = core.C; break;
                case 3: taken = !core.C; break;
                case 4: taken = core.N; break;
                case 5: taken = !core.N; break;
                case 6: taken = core.V; break;
                case 7: taken = !core.V; break;
                case 8: taken = core.C && !core.Z; break;
                case 9: taken = !(core.C && !core.Z); break;
                case 10: taken = core.N === core.V; break;
                case 11: taken = core.N !== core.V; break;
                case 12: taken = core.N === core.V && !core.Z; break;
                default: taken = !(core.N === core.V && !core.Z); break;
              }
              if (taken) {
                let imm8 = (opcode & 0xff) << 1;
                if (imm8 & (1 << 8)) imm8 = (imm8 & 0x1ff) - 0x200;
                regs[15] = next + imm8 + 2;
                d++;
              }
              break;
            }
            case 13: { // B
              let imm11 = (opcode & 0x7ff) << 1;
              if (imm11 & (1 << 11)) imm11 = (imm11 & 0x7ff) - 0x800;
              regs[15] = next + imm11 + 2;
              d++;
              break;
            }
            case 14: { // BICS
              const Rdn = opcode & 7;
              const result = regs[Rdn] & ~regs[(opcode >> 3) & 7];
              regs[Rdn] = result;
              core.N = !!(result & 0x80000000);
              core.Z = result === 0;
              break;
            }
            case 15: { // BL (or another 32-bit instruction: to the core)
              const at = pc + 2;
              let opcode2;
              if (at >= FLASH && at + 1 < flashEnd) opcode2 = flash16[(at - FLASH) >> 1];
              else if (at >= SRAM && at + 1 < sramEnd) opcode2 = sram16[(at - SRAM) >> 1];
              else opcode2 = -1;
              if (opcode2 < 0 || !(opcode2 >> 14 === 0b11 && ((opcode2 >> 12) & 0x1) === 1)) {
                regs[15] = pc0;
                clock.nanosCounter = base + cycles * step;
                d = slow.call(core);
                slowCycles += d;
                this.touched = true;
                break;
              }
              const imm11 = opcode2 & 0x7ff;
              const J2 = (opcode2 >> 11) & 0x1;
              const J1 = (opcode2 >> 13) & 0x1;
              const imm10 = opcode & 0x3ff;
              const S = (opcode >> 10) & 0x1;
              const I1 = 1 - (S ^ J1);
              const I2 = 1 - (S ^ J2);
              const imm32 = ((S ? 0b11111111 : 0) << 24) | ((I1 << 23) | (I2 << 22) | (imm10 << 12) | (imm11 << 1));
              regs[14] = (next + 2) | 0x1;
              regs[15] = next + 2 + imm32;
              d += 2;
              core.blTaken(core, false);
              break;
            }
            case 17: { // BX
              const value = regs[(opcode >> 3) & 0xf];
              if (core.currentMode === 1 && value >>> 28 === 0b1111) {
                clock.nanosCounter = base + cycles * step;
                core.exceptionReturn(value & 0x0fffffff);
                this.touched = true;
              } else {
                regs[15] = value & ~1;
              }
              d++;
              break;
            }
            case 19: { // CMP (immediate)
              const a = regs[(opcode >> 8) & 7];
              const b = opcode & 0xff;
              const result = a - b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = a >= b;
              core.V = ((a ^ b) & (a ^ result)) < 0;
              break;
            }
            case 20: { // CMP (register)
              const a = regs[opcode & 7];
              const b = regs[(opcode >> 3) & 7];
              const result = a - b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = a >= b;
              core.V = ((a ^ b) & (a ^ result)) < 0;
              break;
            }
            case 21: { // CMP (register, high registers)
              const a = regs[((opcode >> 4) & 0x8) | (opcode & 0x7)];
              const b = regs[(opcode >> 3) & 0xf];
              const result = a - b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = a >= b;
              core.V = ((a ^ b) & (a ^ result)) < 0;
              break;
            }
            case 26: { // LDR (immediate)
              const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 2);
              if (addr >= SRAM && addr < sramEnd4 && !(addr & 3)) {
                regs[opcode & 7] = sram32[(addr - SRAM) >> 2];
                d++;
              } else if (addr >= FLASH && addr < flashEnd && !(addr & 3)) {
                regs[opcode & 7] = flash32[(addr - FLASH) >> 2];
                d++;
              } else {
                d += cyclesIO(addr, false);
                regs[opcode & 7] = this.read32(addr, base + cycles * step);
              }
              break;
            }
            case 27: { // LDR (SP plus immediate)
              const addr = regs[13] + ((opcode & 0xff) << 2);
              if (addr >= SRAM && addr < sramEnd4 && !(addr & 3)) {
                regs[(opcode >> 8) & 7] = sram32[(addr - SRAM) >> 2];
                d++;
              } else {
                d += cyclesIO(addr, false);
                regs[(opcode >> 8) & 7] = this.read32(addr, base + cycles * step);
              }
              break;
            }
            case 28: { // LDR (literal)
              const addr = ((next + 2) & 0xfffffffc) + ((opcode & 0xff) << 2);
              if (addr >= FLASH && addr < flashEnd && !(addr & 3)) {
                regs[(opcode >> 8) & 7] = flash32[(addr - FLASH) >> 2];
                d++;
              } else {
                d += cyclesIO(addr, false);
                regs[(opcode >> 8) & 7] = this.read32(addr, base + cycles * step);
              }
              break;
            }
            case 29: { // LDR (register)
              const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
              if (addr >= SRAM && addr < sramEnd4 && !(addr & 3)) {
                regs[opcode & 7] = sram32[(addr - SRAM) >> 2];
                d++;
              } else if (addr >= FLASH && addr < flashEnd && !(addr & 3)) {
                regs[opcode & 7] = flash32[(addr - FLASH) >> 2];
                d++;
              } else {
                d += cyclesIO(addr, false);
                regs[opcode & 7] = this.read32(addr, base + cycles * step);
              }
              break;
            }
            case 30: { // LDRB (immediate)
              const addr = regs[(opcode >> 3) & 7] + ((opcode >> 6) & 0x1f);
              if (addr >= SRAM && addr < sramEnd) {
                regs[opcode & 7] = sram8[addr - SRAM];
                d++;
              } else if (addr >= FLASH && addr < flashEnd) {
                regs[opcode & 7] = flash8[addr - FLASH];
                d++;
              } else {
                d += cyclesIO(addr, false);
                regs[opcode & 7] = this.read8(addr, base + cycles * step);
              }
              break;
            }
            case 31: { // LDRB (register)
              const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
              if (addr >= SRAM && addr < sramEnd) {
                regs[opcode & 7] = sram8[addr - SRAM];
                d++;
              } else if (addr >= FLASH && addr < flashEnd) {
                regs[opcode & 7] = flash8[addr - FLASH];
                d++;
              } else {
                d += cyclesIO(addr, false);
                regs[opcode & 7] = this.read8(addr, base + cycles * step);
              }
              break;
            }
            case 36: { // LSLS (immediate)
              const imm5 = (opcode >> 6) & 0x1f;
              const input = regs[(opcode >> 3) & 7];
              const result = input << imm5;
              regs[opcode & 7] = result;
              core.N = !!(result & 0x80000000);
              core.Z = result === 0;
              if (imm5) core.C = !!(input & (1 << (32 - imm5)));
              break;
            }
            case 38: { // LSRS (immediate)
              const imm5 = (opcode >> 6) & 0x1f;
              const input = regs[(opcode >> 3) & 7];
              const result = imm5 ? input >>> imm5 : 0;
              regs[opcode & 7] = result;
              core.N = !!(result & 0x80000000);
              core.Z = result === 0;
              core.C = !!((input >>> (imm5 ? imm5 - 1 : 31)) & 0x1);
              break;
            }
            case 40: { // MOV
              const Rm = (opcode >> 3) & 0xf;
              const Rd = ((opcode >> 4) & 0x8) | (opcode & 0x7);
              let value = Rm === 15 ? next + 2 : regs[Rm];
              if (Rd === 15) {
                d++;
                value &= ~1;
              } else if (Rd === 13) {
                value &= ~3;
              }
              regs[Rd] = value;
              break;
            }
            case 41: { // MOVS
              const value = opcode & 0xff;
              regs[(opcode >> 8) & 7] = value;
              core.N = false;
              core.Z = value === 0;
              break;
            }
            case 44: { // ORRS
              const Rdn = opcode & 7;
              const result = regs[Rdn] | regs[(opcode >> 3) & 7];
              regs[Rdn] = result;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              break;
            }
            case 45: { // POP
              let address = regs[13];
              for (let i = 0; i <= 7; i++) {
                if (opcode & (1 << i)) {
                  regs[i] = address >= SRAM && address < sramEnd4 && !(address & 3)
                    ? sram32[(address - SRAM) >> 2] : this.read32(address, base + cycles * step);
                  address += 4;
                  d++;
                }
              }
              if ((opcode >> 8) & 1) {
                regs[13] = (address + 4) & ~3;
                const value = address >= SRAM && address < sramEnd4 && !(address & 3)
                  ? sram32[(address - SRAM) >> 2] : this.read32(address, base + cycles * step);
                if (core.currentMode === 1 && value >>> 28 === 0b1111) {
                  clock.nanosCounter = base + cycles * step;
                  core.exceptionReturn(value & 0x0fffffff);
                  this.touched = true;
                } else {
                  regs[15] = value & ~1;
                }
                d += 2;
              } else {
                regs[13] = address & ~3;
              }
              break;
            }
            case 46: { // PUSH
              let bitCount = 0;
              for (let i = 0; i <= 8; i++) {
                if (opcode & (1 << i)) bitCount++;
              }
              let address = regs[13] - 4 * bitCount;
              for (let i = 0; i <= 7; i++) {
                if (opcode & (1 << i)) {
                  if (address >= SRAM && address < sramEnd4 && !(address & 3)) {
                    sram32[(address - SRAM) >> 2] = regs[i];
                  } else {
                    this.write32(address, regs[i], base + cycles * step);
                  }
                  d++;
                  address += 4;
                }
              }
              if (opcode & (1 << 8)) {
                if (address >= SRAM && address < sramEnd4 && !(address & 3)) {
                  sram32[(address - SRAM) >> 2] = regs[14];
                } else {
                  this.write32(address, regs[14], base + cycles * step);
                }
              }
              regs[13] = (regs[13] - 4 * bitCount) & ~3;
              break;
            }
            case 55: { // STR (immediate)
              const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 2);
              if (addr >= SRAM && addr < sramEnd4 && !(addr & 3)) {
                sram32[(addr - SRAM) >> 2] = regs[opcode & 7];
                d++;
              } else {
                d += cyclesIO(addr, true);
                this.write32(addr, regs[opcode & 7], base + cycles * step);
              }
              break;
            }
            case 56: { // STR (SP plus immediate)
              const addr = regs[13] + ((opcode & 0xff) << 2);
              if (addr >= SRAM && addr < sramEnd4 && !(addr & 3)) {
                sram32[(addr - SRAM) >> 2] = regs[(opcode >> 8) & 7];
                d++;
              } else {
                d += cyclesIO(addr, true);
                this.write32(addr, regs[(opcode >> 8) & 7], base + cycles * step);
              }
              break;
            }
            case 63: { // SUBS (3-bit immediate)
              const a = regs[(opcode >> 3) & 7];
              const b = (opcode >> 6) & 7;
              const result = a - b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = a >= b;
              core.V = ((a ^ b) & (a ^ result)) < 0;
              regs[opcode & 7] = result;
              break;
            }
            case 64: { // SUBS (8-bit immediate)
              const Rdn = (opcode >> 8) & 7;
              const a = regs[Rdn];
              const b = opcode & 0xff;
              const result = a - b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = a >= b;
              core.V = ((a ^ b) & (a ^ result)) < 0;
              regs[Rdn] = result;
              break;
            }
            case 65: { // SUBS (register)
              const a = regs[(opcode >> 3) & 7];
              const b = regs[(opcode >> 6) & 7];
              const result = a - b;
              core.N = !!(result & 0x80000000);
              core.Z = (result & 0xffffffff) === 0;
              core.C = a >= b;
              core.V = ((a ^ b) & (a ^ result)) < 0;
              regs[opcode & 7] = result;
              break;
            }
            case 68: { // TST
              const result = regs[opcode & 7] & regs[(opcode >> 3) & 7];
              core.N = !!(result & 0x80000000);
              core.Z = result === 0;
              break;
            }
            default: // the rarer instructions, in a function of their own (see rare())
              d = this.rare(kind, opcode, pc, next, base + cycles * step);
              break;
          }
        }
      }
      cycles += d;
      if (cycles >= budget || this.touched) {
        if (whole) {
          now = base + cycles * step;
        } else {
          base += d * cycleNs;
          now = base;
        }
        if (now >= limit) break;
        if (this.touched) {
          // The instruction reached a peripheral or the core's own code: alarms may have been
          // scheduled (they count from the next instruction on, as in rp2040js's loop), the
          // core may wait, the board may want the loop to stop.
          this.touched = false;
          clock.nanosCounter = now;
          if (core.waiting || board.resetRequested || board.breakBurst) break;
          alarm = clock.nextAlarm;
          limit = alarm && alarm.nanos < target ? alarm.nanos : target;
          irq = core.interruptsUpdated;
        }
        // (a small integer: an Infinity here would make V8 drop the loop's optimized code)
        budget = whole ? Math.min(cyclesUntil(limit, base, cycles, step), MAX_BUDGET) : cycles + 1;
      }
    }
    clock.nanosCounter = now;
    core.cycles += cycles - slowCycles;
    return cycles;
  }
}

/** The fewest cycles (more than `cycles`) after which base + cycles * step >= limit; every
 *  product and sum here is a whole number below 2^53, so exact. */
export function cyclesUntil(limit, base, cycles, step) {
  if (!(limit - base < 2 ** 48)) return Infinity; // never in one run (or no limit at all)
  let c = Math.ceil((limit - base) / step);
  if (!(c > cycles)) c = cycles + 1; // the next instruction: the limit has passed
  while (c > cycles + 1 && base + (c - 1) * step >= limit) c--;
  while (base + c * step < limit) c++;
  return c;
}

/** The cycles an access adds (rp2040js's cyclesIO). */
function cyclesIO(addr, write) {
  addr >>>= 0;
  if (addr >= SIO && addr < SIO_END) return 0;
  if (addr >= APB && addr < APB_END) return write ? 4 : 3;
  return 1;
}
