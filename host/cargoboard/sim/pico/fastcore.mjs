// A faster instruction dispatch for rp2040js's Cortex-M0+ core, with the same results.
//
// rp2040js 1.4.1 decodes every instruction by walking one long if/else chain in alphabetical
// order, so the instructions MicroPython runs most (loads, stores, branches, moves) are tested
// for last. Here the frequent instructions are decoded by their top five bits and executed with
// exactly the core's semantics (registers, flags, cycle counts, the same memory accesses); any
// other instruction, and any instruction with an interrupt pending, goes to the core's own
// executeInstruction, which fetches it again.

export function installFastCore(mcu) {
  const core = mcu.core;
  const slow = Object.getPrototypeOf(core).executeInstruction;
  const regs = core.registers;
  const sram = mcu.sramView;
  const flash = mcu.flashView;
  const SRAM = 0x20000000;
  const SRAM_END = SRAM + mcu.sram.length;
  const FLASH = 0x10000000;
  const FLASH_END = FLASH + mcu.flash.length;

  // cycles an access to addr adds (the core's cyclesIO)
  const io = (addr, write) => {
    addr >>>= 0;
    if (addr >= 0xd0000000 && addr < 0xe0000000) return 0;
    if (addr >= 0x40000000 && addr < 0x50000000) return write ? 4 : 3;
    return 1;
  };
  const read32 = (addr) => {
    if (addr >= SRAM && addr + 3 < SRAM_END && !(addr & 3)) return sram.getUint32(addr - SRAM, true);
    return core.readUint32(addr);
  };
  const write32 = (addr, v) => {
    if (addr >= SRAM && addr + 3 < SRAM_END && !(addr & 3)) sram.setUint32(addr - SRAM, v, true);
    else core.writeUint32(addr, v);
  };
  const add = (a, b) => core.addUpdateFlags(a, b);
  const sub = (a, b) => core.substractUpdateFlags(a, b);

  core.executeInstruction = function fastExecute() {
    if (core.interruptsUpdated) return slow.call(core);
    const pc = regs[15] & ~1;
    let opcode;
    if (pc >= FLASH && pc + 1 < FLASH_END) opcode = flash.getUint16(pc - FLASH, true);
    else if (pc >= SRAM && pc + 1 < SRAM_END) opcode = sram.getUint16(pc - SRAM, true);
    else return slow.call(core);
    let d = 1;
    switch (opcode >> 11) {
      case 0b00000: { // LSLS (immediate)
        const imm5 = (opcode >> 6) & 0x1f;
        const input = regs[(opcode >> 3) & 7];
        const result = input << imm5;
        regs[opcode & 7] = result;
        core.N = !!(result & 0x80000000);
        core.Z = result === 0;
        core.C = imm5 ? !!(input & (1 << (32 - imm5))) : core.C;
        break;
      }
      case 0b00001: { // LSRS (immediate)
        const imm5 = (opcode >> 6) & 0x1f;
        const input = regs[(opcode >> 3) & 7];
        const result = imm5 ? input >>> imm5 : 0;
        regs[opcode & 7] = result;
        core.N = !!(result & 0x80000000);
        core.Z = result === 0;
        core.C = !!((input >>> (imm5 ? imm5 - 1 : 31)) & 1);
        break;
      }
      case 0b00011: { // ADDS/SUBS register or 3-bit immediate
        const op = (opcode >> 9) & 3;
        const Rn = regs[(opcode >> 3) & 7];
        const x = (opcode >> 6) & 7;
        const Rd = opcode & 7;
        if (op === 0) regs[Rd] = add(Rn, regs[x]);
        else if (op === 1) regs[Rd] = sub(Rn, regs[x]);
        else if (op === 2) regs[Rd] = add(Rn, x);
        else regs[Rd] = sub(Rn, x);
        break;
      }
      case 0b00100: { // MOVS
        const value = opcode & 0xff;
        regs[(opcode >> 8) & 7] = value;
        core.N = false;
        core.Z = value === 0;
        break;
      }
      case 0b00101: // CMP immediate
        sub(regs[(opcode >> 8) & 7], opcode & 0xff);
        break;
      case 0b00110: { // ADDS (T2)
        const Rdn = (opcode >> 8) & 7;
        regs[Rdn] = add(regs[Rdn], opcode & 0xff);
        break;
      }
      case 0b00111: { // SUBS (T2)
        const Rdn = (opcode >> 8) & 7;
        regs[Rdn] = sub(regs[Rdn], opcode & 0xff);
        break;
      }
      case 0b01000: {
        const hi = opcode >> 8;
        if (hi === 0b01000110) { // MOV
          const Rm = (opcode >> 3) & 0xf;
          const Rd = ((opcode >> 4) & 0x8) | (opcode & 7);
          regs[15] = pc + 2;
          let value = Rm === 15 ? regs[15] + 2 : regs[Rm];
          if (Rd === 15) {
            d++;
            value &= ~1;
          } else if (Rd === 13) {
            value &= ~3;
          }
          regs[Rd] = value;
          core.cycles += d;
          return d;
        }
        if (opcode >> 6 === 0b0100001010) { // CMP (register)
          sub(regs[opcode & 7], regs[(opcode >> 3) & 7]);
          break;
        }
        if (opcode >> 6 === 0b0100001000) { // TST
          const result = regs[opcode & 7] & regs[(opcode >> 3) & 7];
          core.N = !!(result & 0x80000000);
          core.Z = result === 0;
          break;
        }
        return slow.call(core);
      }
      case 0b01001: { // LDR (literal)
        const addr = ((pc + 4) & 0xfffffffc) + ((opcode & 0xff) << 2);
        d += io(addr);
        regs[15] = pc + 2;
        regs[(opcode >> 8) & 7] = read32(addr);
        core.cycles += d;
        return d;
      }
      case 0b01010:
      case 0b01011: {
        const op = (opcode >> 9) & 0x7f;
        const addr = regs[(opcode >> 6) & 7] + regs[(opcode >> 3) & 7];
        const Rt = opcode & 7;
        if (op === 0b0101100) { // LDR (register)
          d += io(addr);
          regs[15] = pc + 2;
          regs[Rt] = read32(addr);
        } else if (op === 0b0101000) { // STR (register)
          d += io(addr, true);
          regs[15] = pc + 2;
          write32(addr, regs[Rt]);
        } else if (op === 0b0101110) { // LDRB (register)
          d += io(addr);
          regs[15] = pc + 2;
          regs[Rt] = core.readUint8(addr);
        } else {
          return slow.call(core);
        }
        core.cycles += d;
        return d;
      }
      case 0b01100: { // STR (immediate)
        const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 2);
        d += io(addr, true);
        regs[15] = pc + 2;
        write32(addr, regs[opcode & 7]);
        core.cycles += d;
        return d;
      }
      case 0b01101: { // LDR (immediate)
        const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 2);
        d += io(addr);
        regs[15] = pc + 2;
        regs[opcode & 7] = read32(addr);
        core.cycles += d;
        return d;
      }
      case 0b01110: { // STRB (immediate)
        const addr = regs[(opcode >> 3) & 7] + ((opcode >> 6) & 0x1f);
        d += io(addr, true);
        regs[15] = pc + 2;
        core.writeUint8(addr, regs[opcode & 7]);
        core.cycles += d;
        return d;
      }
      case 0b01111: { // LDRB (immediate)
        const addr = regs[(opcode >> 3) & 7] + ((opcode >> 6) & 0x1f);
        d += io(addr);
        regs[15] = pc + 2;
        regs[opcode & 7] = core.readUint8(addr);
        core.cycles += d;
        return d;
      }
      case 0b10000: { // STRH (immediate)
        const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 1);
        d += io(addr, true);
        regs[15] = pc + 2;
        core.writeUint16(addr, regs[opcode & 7]);
        core.cycles += d;
        return d;
      }
      case 0b10001: { // LDRH (immediate)
        const addr = regs[(opcode >> 3) & 7] + (((opcode >> 6) & 0x1f) << 1);
        d += io(addr);
        regs[15] = pc + 2;
        regs[opcode & 7] = core.readUint16(addr);
        core.cycles += d;
        return d;
      }
      case 0b10010: { // STR (sp + immediate)
        const addr = regs[13] + ((opcode & 0xff) << 2);
        d += io(addr, true);
        regs[15] = pc + 2;
        write32(addr, regs[(opcode >> 8) & 7]);
        core.cycles += d;
        return d;
      }
      case 0b10011: { // LDR (sp + immediate)
        const addr = regs[13] + ((opcode & 0xff) << 2);
        d += io(addr);
        regs[15] = pc + 2;
        regs[(opcode >> 8) & 7] = read32(addr);
        core.cycles += d;
        return d;
      }
      case 0b10101: // ADD (Rd = SP plus immediate)
        regs[(opcode >> 8) & 7] = regs[13] + ((opcode & 0xff) << 2);
        break;
      case 0b10110: {
        if (opcode >> 7 === 0b101100000) { // ADD (SP plus immediate)
          regs[13] = (regs[13] + ((opcode & 0x7f) << 2)) & ~3;
          break;
        }
        if (opcode >> 7 === 0b101100001) { // SUB (SP minus immediate)
          regs[13] = (regs[13] - ((opcode & 0x7f) << 2)) & ~3;
          break;
        }
        if (opcode >> 9 === 0b1011010) { // PUSH
          let bitCount = 0;
          for (let i = 0; i <= 8; i++) if (opcode & (1 << i)) bitCount++;
          let address = regs[13] - 4 * bitCount;
          regs[15] = pc + 2;
          for (let i = 0; i <= 7; i++) {
            if (opcode & (1 << i)) {
              write32(address, regs[i]);
              d++;
              address += 4;
            }
          }
          if (opcode & (1 << 8)) write32(address, regs[14]);
          regs[13] = (regs[13] - 4 * bitCount) & ~3;
          core.cycles += d;
          return d;
        }
        return slow.call(core);
      }
      case 0b10111: {
        if (opcode >> 9 === 0b1011110) { // POP
          let address = regs[13];
          regs[15] = pc + 2;
          for (let i = 0; i <= 7; i++) {
            if (opcode & (1 << i)) {
              regs[i] = read32(address);
              address += 4;
              d++;
            }
          }
          if ((opcode >> 8) & 1) {
            regs[13] = (address + 4) & ~3;
            core.BXWritePC(read32(address));
            d += 2;
          } else {
            regs[13] = address & ~3;
          }
          core.cycles += d;
          return d;
        }
        return slow.call(core);
      }
      case 0b11010:
      case 0b11011: { // B (with cond)
        const cond = (opcode >> 8) & 0xf;
        if (cond >= 0b1110) return slow.call(core); // UDF, SVC
        let imm8 = (opcode & 0xff) << 1;
        if (imm8 & (1 << 8)) imm8 = (imm8 & 0x1ff) - 0x200;
        regs[15] = pc + 2;
        if (core.checkCondition(cond)) {
          regs[15] += imm8 + 2;
          d++;
        }
        core.cycles += d;
        return d;
      }
      case 0b11100: { // B
        let imm11 = (opcode & 0x7ff) << 1;
        if (imm11 & (1 << 11)) imm11 = (imm11 & 0x7ff) - 0x800;
        regs[15] = pc + 4 + imm11;
        d++;
        core.cycles += d;
        return d;
      }
      case 0b11110: { // BL
        const opcode2 = pc + 3 < FLASH_END && pc >= FLASH ? flash.getUint16(pc + 2 - FLASH, true) : core.readUint16(pc + 2);
        if (!(opcode2 >> 14 === 0b11 && ((opcode2 >> 12) & 1) === 1)) return slow.call(core);
        const imm11 = opcode2 & 0x7ff;
        const J2 = (opcode2 >> 11) & 1;
        const J1 = (opcode2 >> 13) & 1;
        const imm10 = opcode & 0x3ff;
        const S = (opcode >> 10) & 1;
        const I1 = 1 - (S ^ J1);
        const I2 = 1 - (S ^ J2);
        const imm32 = ((S ? 0b11111111 : 0) << 24) | ((I1 << 23) | (I2 << 22) | (imm10 << 12) | (imm11 << 1));
        regs[15] = pc + 2;
        regs[14] = (regs[15] + 2) | 1;
        regs[15] += 2 + imm32;
        d += 2;
        core.blTaken(core, false);
        core.cycles += d;
        return d;
      }
      default:
        return slow.call(core);
    }
    regs[15] = pc + 2;
    core.cycles += d;
    return d;
  };
}
