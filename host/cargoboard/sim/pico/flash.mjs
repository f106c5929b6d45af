// The Pico's QSPI flash chip (a W25Q16JV, 2 MiB) behind the RP2040's SSI, for rp2040js.
//
// rp2040js reads XIP flash straight from `rp2040.flash` and its SSI model only answers "read
// status", so every erase and program the boot ROM's flash functions send is lost. Here:
// - FlashChip: the chip at the command level (write enable, page program, sector and block
//   erase, status registers, read, unique id, JEDEC id). Program and erase take the chip's
//   typical times (busy bit set, polled by the ROM) and change the array only when they end;
//   a power cut in the middle leaves a torn operation (see `cut`). Changes inside the
//   filesystem region are written through to the image file at once.
// - QspiSsi: the SSI with real FIFOs (each DR0 write in standard SPI mode clocks one byte
//   through the chip and queues the byte it returns).
// - IoQspi: IO_QSPI's SS_CTRL output override, which the boot ROM uses as the chip select.
// - XipCtrl: XIP_CTRL's registers (flush, enable), so the ROM's cache flush is not an error.

import fs from 'node:fs';
import { BasePeripheral } from 'rp2040js';

export const FLASH_SIZE = 2 * 1024 * 1024;
// MicroPython's RPI_PICO image keeps its littlefs filesystem here (its _boot.py mounts
// rp2.Flash(), which spans this region).
export const FS_OFFSET = 0xa0000;
export const FS_BLOCK = 4096;
export const FS_BLOCKS = 352;
export const FS_SIZE = FS_BLOCK * FS_BLOCKS;

const PAGE = 256;
// Typical times of the W25Q16JV (datasheet, tPP, tSE, tBE1, tBE2, tCE), in nanoseconds.
export const TYPICAL_NS = {
  program: 400e3,
  erase4k: 45e6,
  erase32k: 120e6,
  erase64k: 150e6,
  chip: 5e9,
};

// The unique id (command 0x4B, which machine.unique_id() reads: the board id) of a chip whose
// board gives none (--unique-id): every emulated Pico but one of `cargoboard sim --target pico
// --flash DIR`, which has its own (DIR/unique_id). Its digits change the firmware's timing
// (by microseconds), so tests keep this one to compare runs.
export const DEFAULT_UNIQUE_ID = Uint8Array.from([0xe6, 0x60, 0x58, 0x38, 0x83, 0x45, 0x2c, 0x27]);

export class FlashChip {
  /**
   * @param rp2040    the RP2040 whose `flash` array is the chip's array (XIP reads it directly)
   * @param image     path of the filesystem image file (FS_SIZE bytes), or null
   * @param hooks     { onOp(op), now() } — op = {kind, addr, len, start, end} in nanoseconds
   * @param uniqueId  the chip's 8-byte unique id
   */
  constructor(rp2040, image, hooks, uniqueId = DEFAULT_UNIQUE_ID) {
    this.mcu = rp2040;
    this.array = rp2040.flash;
    this.image = image;
    this.fd = image ? fs.openSync(image, 'r+') : null;
    this.hooks = hooks;
    this.selected = false;
    this.cmd = -1;
    this.count = 0; // bytes of the current command after the opcode
    this.addr = 0;
    this.wel = false; // write enable latch
    this.sr2 = 0x02; // QE set, as on the Pico's chip
    this.busy = null; // the operation in progress: {kind, addr, len, data, start, end}
    this.pageBuf = null;
    this.uniqueId = uniqueId;
    this.alarm = rp2040.clock.createAlarm(() => this.finish());
    this.ops = 0;
  }

  loadImage() {
    if (!this.fd) return;
    const buf = Buffer.alloc(FS_SIZE, 0xff);
    fs.readSync(this.fd, buf, 0, FS_SIZE, 0);
    this.array.set(buf, FS_OFFSET);
  }

  select(on) {
    if (on === this.selected) return;
    this.selected = on;
    if (on) {
      this.cmd = -1;
      this.count = 0;
    } else {
      this.endCommand();
    }
  }

  get status1() {
    return (this.busy ? 1 : 0) | (this.wel ? 2 : 0);
  }

  /** One byte clocked in while selected; returns the byte the chip drives out. */
  transfer(b) {
    if (!this.selected) return 0xff;
    if (this.cmd < 0) {
      this.cmd = b;
      this.count = 0;
      this.addr = 0;
      if (b === 0x02) this.pageBuf = [];
      return 0xff;
    }
    const n = this.count++;
    switch (this.cmd) {
      case 0x05: return this.status1;
      case 0x35: return this.sr2;
      case 0x15: return 0x60;
      case 0x9f: return [0xef, 0x40, 0x15][n % 3];
      case 0x4b: return n < 4 ? 0xff : this.uniqueId[(n - 4) % 8];
      case 0xab: return n < 3 ? 0xff : 0x14;
      case 0x90: return n < 3 ? 0 : (n & 1 ? 0x14 : 0xef);
      case 0x03:
      case 0x0b: {
        if (n < 3) {
          this.addr = (this.addr << 8) | b;
          return 0xff;
        }
        if (this.cmd === 0x0b && n === 3) return 0xff; // dummy byte
        if (this.busy) return 0xff;
        const a = this.addr % FLASH_SIZE;
        this.addr++;
        return this.array[a];
      }
      case 0x02:
      case 0x20:
      case 0x52:
      case 0xd8:
        if (n < 3) this.addr = (this.addr << 8) | b;
        else if (this.cmd === 0x02) this.pageBuf.push(b);
        return 0xff;
      case 0x01: // write status registers 1 (and 2)
        if (n === 1) this.pendingSr2 = b;
        return 0xff;
      case 0x31:
        if (n === 0) this.pendingSr2 = b;
        return 0xff;
      default:
        return 0xff;
    }
  }

  endCommand() {
    const { cmd } = this;
    this.cmd = -1;
    if (cmd < 0) return;
    if (cmd === 0x06) { this.wel = true; return; }
    if (cmd === 0x04) { this.wel = false; return; }
    if ((cmd === 0x01 || cmd === 0x31) && this.wel && !this.busy) {
      if (this.pendingSr2 !== undefined) this.sr2 = this.pendingSr2 & 0x7b;
      this.pendingSr2 = undefined;
      this.wel = false;
      return;
    }
    if (this.busy || !this.wel) return; // the chip ignores program/erase without WEL or while busy
    const addr = this.addr & (FLASH_SIZE - 1);
    if (cmd === 0x02 && this.count > 3) {
      const data = this.pageBuf.slice(-PAGE);
      this.start({ kind: 'program', addr, len: data.length, data }, TYPICAL_NS.program);
    } else if (cmd === 0x20 && this.count >= 3) {
      this.start({ kind: 'erase', addr: addr & ~0xfff, len: 0x1000 }, TYPICAL_NS.erase4k);
    } else if (cmd === 0x52 && this.count >= 3) {
      this.start({ kind: 'erase', addr: addr & ~0x7fff, len: 0x8000 }, TYPICAL_NS.erase32k);
    } else if (cmd === 0xd8 && this.count >= 3) {
      this.start({ kind: 'erase', addr: addr & ~0xffff, len: 0x10000 }, TYPICAL_NS.erase64k);
    } else if ((cmd === 0xc7 || cmd === 0x60)) {
      this.start({ kind: 'erase', addr: 0, len: FLASH_SIZE }, TYPICAL_NS.chip);
    }
  }

  start(op, ns) {
    this.wel = false;
    op.start = this.hooks.now();
    op.end = op.start + ns;
    op.index = this.ops++;
    this.busy = op;
    this.alarm.schedule(ns);
    if (this.hooks.onOp) this.hooks.onOp(op);
  }

  /** The busy operation completes: the array changes now. */
  finish() {
    const op = this.busy;
    if (!op) return;
    this.apply(op, op.len);
    this.busy = null;
  }

  /** Power cut: an operation in progress is torn (the part done by now is applied: a prefix
   *  of a page program's bytes, a prefix of an erase's range); returns what was torn. */
  cut() {
    const op = this.busy;
    if (!op) return null;
    const frac = Math.min(1, Math.max(0, (this.hooks.now() - op.start) / (op.end - op.start)));
    const done = Math.floor(op.len * frac);
    this.apply(op, done);
    this.busy = null;
    this.alarm.cancel();
    return { ...op, done };
  }

  apply(op, n) {
    const { array } = this;
    if (op.kind === 'program') {
      // A page program wraps within its page; it can only clear bits.
      const base = op.addr & ~(PAGE - 1);
      let off = op.addr & (PAGE - 1);
      for (let i = 0; i < n; i++) {
        array[base + off] &= op.data[i];
        off = (off + 1) & (PAGE - 1);
      }
      this.writeThrough(base, PAGE);
    } else {
      array.fill(0xff, op.addr, op.addr + n);
      this.writeThrough(op.addr, n);
    }
  }

  writeThrough(addr, len) {
    if (!this.fd || len <= 0) return;
    const lo = Math.max(addr, FS_OFFSET);
    const hi = Math.min(addr + len, FS_OFFSET + FS_SIZE);
    if (hi <= lo) return;
    fs.writeSync(this.fd, this.array, lo, hi - lo, lo - FS_OFFSET);
  }

  close() {
    if (this.fd !== null) {
      fs.closeSync(this.fd);
      this.fd = null;
    }
  }
}

// --- the SSI (XIP_SSI_BASE 0x18000000) ---------------------------------------------------------
const SSI_CTRLR0 = 0x00;
const SSI_CTRLR1 = 0x04;
const SSI_SSIENR = 0x08;
const SSI_SER = 0x10;
const SSI_BAUDR = 0x14;
const SSI_TXFLR = 0x20;
const SSI_RXFLR = 0x24;
const SSI_SR = 0x28;
const SSI_IMR = 0x2c;
const SSI_ISR = 0x30;
const SSI_RISR = 0x34;
const SSI_IDR = 0x58;
const SSI_VERSION_ID = 0x5c;
const SSI_DR0 = 0x60;
const SSI_RX_SAMPLE_DLY = 0xf0;
const SSI_SPI_CTRLR0 = 0xf4;
const SSI_TXD_DRIVE_EDGE = 0xf8;
const SR_TFNF = 0x02;
const SR_TFE = 0x04;
const SR_RFNE = 0x08;
const SR_RFF = 0x10;
const FIFO_DEPTH = 16;

export class QspiSsi extends BasePeripheral {
  constructor(rp2040, name, chip) {
    super(rp2040, name);
    this.chip = chip;
    this.regs = new Map();
    this.rx = [];
    this.ctrlr0 = 0;
    this.enabled = 0;
    this.ser = 1; // the boot ROM leaves slave 0 selected when it hands over to boot2
    this.csOverride = 0; // IO_QSPI SS_CTRL OUTOVER: 0 SSI drives CS, 2 low, 3 high
    this.autoSelected = false;
  }

  get standardFrames() {
    return ((this.ctrlr0 >> 21) & 3) === 0 && ((this.ctrlr0 >> 8) & 3) === 0;
  }

  setOverride(over) {
    this.csOverride = over;
    if (over === 2) this.chip.select(true);
    else if (over === 3) this.chip.select(false);
    else { this.autoSelected = false; this.chip.select(false); }
  }

  readUint32(offset) {
    switch (offset) {
      case SSI_CTRLR0: return this.ctrlr0;
      case SSI_SSIENR: return this.enabled;
      case SSI_SER: return this.ser;
      case SSI_TXFLR: return 0; // every byte is clocked out at once
      case SSI_RXFLR: return this.rx.length;
      case SSI_SR:
        return SR_TFNF | SR_TFE | (this.rx.length ? SR_RFNE : 0) |
          (this.rx.length >= FIFO_DEPTH ? SR_RFF : 0);
      case SSI_ISR:
      case SSI_RISR:
        return 0;
      case SSI_IDR: return 0x51535049;
      case SSI_VERSION_ID: return 0x3430312a;
      case SSI_DR0: {
        const v = this.rx.length ? this.rx.shift() : 0;
        // With the SSI driving CS itself, a command ends when the bytes clocked are read back.
        if (this.csOverride === 0 && this.autoSelected && !this.rx.length) {
          this.autoSelected = false;
          this.chip.select(false);
        }
        return v;
      }
    }
    if (offset >= 0x38 && offset <= 0x48) return 0; // interrupt clear registers
    return this.regs.get(offset) ?? 0;
  }

  writeUint32(offset, value) {
    switch (offset) {
      case SSI_CTRLR0: this.ctrlr0 = value; return;
      case SSI_SER: this.ser = value; return;
      case SSI_SSIENR:
        this.enabled = value & 1;
        this.rx.length = 0;
        if (this.csOverride === 0 && this.autoSelected) {
          this.autoSelected = false;
          this.chip.select(false);
        }
        return;
      case SSI_DR0: {
        if (!this.enabled) return;
        let out = 0;
        if (this.standardFrames) {
          if (this.csOverride === 0 && this.ser && !this.autoSelected) {
            this.autoSelected = true;
            this.chip.select(true);
          }
          out = this.chip.transfer(value & 0xff);
        }
        // Quad XIP set-up frames (boot2) are not modelled at the bit level: XIP reads go to
        // the array directly.
        if (this.rx.length < FIFO_DEPTH) this.rx.push(out);
        return;
      }
    }
    this.regs.set(offset, value);
  }
}

// --- IO_QSPI (0x40018000): the QSPI pins' controls; SS_CTRL's OUTOVER is the ROM's chip select.
export class IoQspi extends BasePeripheral {
  constructor(rp2040, name, ssi) {
    super(rp2040, name);
    this.ssi = ssi;
    this.regs = new Uint32Array(0x40);
  }

  readUint32(offset) {
    return this.regs[(offset >> 2) & 0x3f];
  }

  writeUint32(offset, value) {
    this.regs[(offset >> 2) & 0x3f] = value;
    if (offset === 0x0c) this.ssi.setOverride((value >> 8) & 3);
  }
}

// --- XIP_CTRL (0x14000000): cache control; the cache itself is not modelled.
export class XipCtrl extends BasePeripheral {
  constructor(rp2040, name) {
    super(rp2040, name);
    this.ctrl = 3;
  }

  readUint32(offset) {
    if (offset === 0) return this.ctrl;
    if (offset === 8) return 0x4; // STAT: FIFO empty, flush ready
    return 0;
  }

  writeUint32(offset, value) {
    if (offset === 0) this.ctrl = value;
  }
}
