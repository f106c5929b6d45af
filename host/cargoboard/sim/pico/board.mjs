// The emulated Cargoboard: an RP2040 (rp2040js) running the stock MicroPython image from its
// boot ROM and flash, with the board's parts around it (devices.mjs, flash.mjs), driven by the
// host in lockstep over stdin/stdout with the messages of docs/sim-protocol.md.
//
//   node board.mjs --bootrom ROM.bin --uf2 MICROPYTHON.uf2 --flash IMAGE [--pins PINS.json]
//                  [--unique-id HEX]
//
// IMAGE is the littlefs filesystem region of the flash (FS_SIZE bytes), read at power-on and
// written through on every completed program or erase. HEX (16 hex digits) is the flash chip's
// unique id, the board id machine.unique_id() reads (default flash.mjs's DEFAULT_UNIQUE_ID;
// `cargoboard sim --target pico --flash DIR` gives the one kept in DIR/unique_id, PicoRunner's
// unique_id). Exit status: 0 after 'Q' (or a power cut asked for with 'C'), 2 for a bad
// message from the host, 3 for bad arguments or a bad input file (one line on stderr).

import fs from 'node:fs';
import { RP2040, ConsoleLogger, LogLevel } from 'rp2040js';
import { FlashChip, QspiSsi, IoQspi, XipCtrl, FLASH_SIZE, FS_SIZE, DEFAULT_UNIQUE_ID } from './flash.mjs';
import { LockstepPio, Ws2812Decoder, Hc165Chain, GpioButtons, HallFrontEnd, HeldCdc } from './devices.mjs';
import { FastCore } from './fastcore.mjs';
import { warmUp } from './warmup.mjs';

const MAGIC = 0xa5;
const FRAME_MS = 10;
const N_LEDS = 157;
const N_SUMS = 123; // revision B: 121 cells, the mid-supply reference, the grounded channel
const PIO0_IRQ0 = 7;
const PIO1_IRQ0 = 9;
const UF2_FAMILY_RP2040 = 0xe48bff56;
const PIO_QUANTUM_NS = 2000; // a running state machine is caught up at least this often

class InputError extends Error {}

// --- inputs -------------------------------------------------------------------------------------
export function readBootrom(path) {
  let data;
  try { data = fs.readFileSync(path); } catch (e) { throw new InputError(`boot ROM ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`); }
  if (data.length !== 16384) throw new InputError(`boot ROM ${path}: ${data.length} bytes, an RP2040 boot ROM has 16384`);
  const words = new Uint32Array(4096);
  for (let i = 0; i < 4096; i++) words[i] = data.readUInt32LE(4 * i);
  // The vector table: the initial stack pointer in SRAM, the reset handler in the ROM (Thumb).
  const sp = words[0];
  const reset = words[1];
  if (sp < 0x20000000 || sp > 0x20042000 || !(reset & 1) || reset > 0x4000 || data.readUInt16LE(0x10) !== 0x754d) {
    throw new InputError(`boot ROM ${path}: not an RP2040 boot ROM (bad vector table or no 'Mu' magic at 0x10)`);
  }
  return words;
}

export function readUf2(path) {
  let data;
  try { data = fs.readFileSync(path); } catch (e) { throw new InputError(`UF2 ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`); }
  if (!data.length || data.length % 512) throw new InputError(`UF2 ${path}: ${data.length} bytes is not a whole number of 512-byte UF2 blocks`);
  const blocks = [];
  for (let off = 0; off < data.length; off += 512) {
    const magic0 = data.readUInt32LE(off);
    const magic1 = data.readUInt32LE(off + 4);
    const magicEnd = data.readUInt32LE(off + 508);
    if (magic0 !== 0x0a324655 || magic1 !== 0x9e5d5157 || magicEnd !== 0x0ab16f30) {
      throw new InputError(`UF2 ${path}: block ${off / 512} has no UF2 magic`);
    }
    const flags = data.readUInt32LE(off + 8);
    if (flags & 1) continue; // "not main flash"
    const addr = data.readUInt32LE(off + 12);
    const size = data.readUInt32LE(off + 16);
    if (flags & 0x2000 && data.readUInt32LE(off + 28) !== UF2_FAMILY_RP2040) {
      throw new InputError(`UF2 ${path}: block ${off / 512} is for another chip family (not RP2040)`);
    }
    if (size > 476 || addr < 0x10000000 || addr + size > 0x10000000 + FLASH_SIZE) {
      throw new InputError(`UF2 ${path}: block ${off / 512} targets 0x${addr.toString(16)}, outside the Pico's 2 MiB flash`);
    }
    blocks.push({ addr: addr - 0x10000000, payload: data.subarray(off + 32, off + 32 + size) });
  }
  if (!blocks.length || blocks[0].addr !== 0) throw new InputError(`UF2 ${path}: no image at the start of flash (no boot2 stage)`);
  return blocks;
}

// rp2040js looks for a peripheral before it looks at SRAM on every 32-bit store; no peripheral
// lives in SRAM's range, so a store there can go straight in (the same result, ~10% less time).
function fastSramWrites(mcu) {
  const slow = mcu.writeUint32.bind(mcu);
  const view = mcu.sramView;
  const end = 0x20000000 + mcu.sram.length - 3;
  mcu.writeUint32 = (address, value) => {
    if (address >= 0x20000000 && address < end) view.setUint32(address - 0x20000000, value, true);
    else slow(address, value);
  };
}

// rp2040js gives every core its own no-op arrow function for the BL/BLX hook, which nothing here
// listens to. One function for every chip: V8 then sees a single call target at fastcore.mjs's
// BL (every call MicroPython makes) and can inline it, also after the warm-up's throwaway chip.
function branchLinkIgnored() {}

// --- the board ----------------------------------------------------------------------------------
export class Board {
  constructor({ bootrom, uf2, image, pins, out, fastCore = true, warm = true,
    uniqueId = DEFAULT_UNIQUE_ID }) {
    // The first board of the process first trains V8 on a throwaway chip (warmup.mjs): without
    // it the first emulated second cost 1.5-1.7 CPU s (with it ~1.1; a later busy second
    // ~0.65), most of it V8 compiling fastcore.mjs's loop again and again. The throwaway chip
    // is built here too, so that V8 sees the same object shapes as on the board's chip.
    if (fastCore && warm && !Board.warmUpReport) {
      const scratch = new Board({ bootrom, uf2, image: null, pins, out: () => {}, warm: false });
      try {
        Board.warmUpReport = { instructions: warmUp(scratch) };
      } catch (e) {
        // only a speed-up: a throwaway chip that trips over a drawn state stops it, nothing
        // else (tests/pico_fastcore.mjs reports it)
        Board.warmUpReport = { error: String(e && e.stack || e) };
      }
      scratch.chip.close();
    }
    this.fastCore = fastCore;
    this.bootrom = bootrom;
    this.uf2 = uf2;
    this.image = image;
    this.uniqueId = uniqueId; // the flash chip's, kept through chip resets as the chip is
    this.pins = pins;
    this.out = out; // (type char, payload Uint8Array) => void
    this.base = 0; // host nanos at which the present chip was powered on or reset
    this.leds = new Uint8Array(3 * N_LEDS);
    this.serialOut = [];
    this.sensors = new Uint8Array(16);
    // revision B: what the scan sums per channel (121 cells, mid-supply, GND), from the world;
    // an empty, ideal board (every sensor at mid-supply) until the host says otherwise
    this.sums = new Uint16Array(N_SUMS).fill(8 * 2048);
    this.sums[N_SUMS - 1] = 0;
    this.buttons = 0;
    this.cut = null; // {at: host nanos} or {op: index, fraction}
    this.flashOps = 0;
    this.resets = 0;
    this.cycles = 0; // core cycles since the emulator started (all chips)
    this.wfiNanos = 0;
    this.statusLed = 0;
    // every flag the run loop reads exists from the start: a property added later changes the
    // object's shape and makes V8 throw away the loop's optimized code
    this.breakBurst = false;
    this.pioWake = false;
    this.resetRequested = false;
    this.ledsSent = false;
    this.decoder = new Ws2812Decoder(N_LEDS, (rgb, n) => this.ledFrame(rgb, n));
    this.powerOn(null);
  }

  static warmUpReport = null; // what the process's warm-up did: {instructions} or {error}

  get hostNanos() { return this.base + this.mcu.clock.nanos; }

  powerOn(previousFlash) {
    const mcu = new RP2040();
    mcu.logger = new ConsoleLogger(LogLevel.Error, true);
    const errors = [];
    mcu.logger.error = (component, message) => { errors.push(`${component}: ${message}`); };
    this.errors = errors;
    mcu.loadBootrom(this.bootrom);
    mcu.core.blTaken = branchLinkIgnored;
    // The board's parts, replacing rp2040js's where they fall short.
    const chip = new FlashChip(mcu, this.image, {
      now: () => this.hostNanos,
      onOp: (op) => this.flashOp(op),
    }, this.uniqueId);
    const ssi = new QspiSsi(mcu, 'SSI', chip);
    mcu.peripherals[0x18000] = ssi;
    mcu.peripherals[0x40018] = new IoQspi(mcu, 'IO_QSPI', ssi);
    mcu.peripherals[0x14000] = new XipCtrl(mcu, 'XIP_CTRL');
    mcu.pio = [new LockstepPio(mcu, 'PIO0', PIO0_IRQ0, 0), new LockstepPio(mcu, 'PIO1', PIO1_IRQ0, 1)];
    mcu.peripherals[0x50200] = mcu.pio[0];
    mcu.peripherals[0x50300] = mcu.pio[1];
    // A write to a PIO (the CPU's or the DMA's) may start a state machine: the run loop then
    // catches the PIOs up again at short intervals.
    for (const pio of mcu.pio) pio.onWake = () => { this.pioWake = true; this.breakBurst = true; };
    this.chip = chip;
    this.mcu = mcu;
    fastSramWrites(mcu);
    this.exec = this.fastCore ? new FastCore(mcu) : null;
    if (previousFlash) {
      mcu.flash.set(previousFlash);
    } else {
      for (const b of this.uf2) mcu.flash.set(b.payload, b.addr);
      chip.loadImage();
    }
    const { pins } = this;
    if (pins.BUTTON_FIRST !== undefined) {
      // revision B's pin map: the buttons on their GPIOs, the Hall sensors through the ADC
      this.chain = null;
      this.gpioButtons = new GpioButtons(mcu, pins.BUTTON_FIRST);
      this.hall = new HallFrontEnd(mcu, pins, this.sums);
    } else {
      this.gpioButtons = null;
      this.hall = null;
      this.chain = new Hc165Chain(mcu, mcu.spi[pins.SPI_ID], {
        sck: pins.SPI_SCK, miso: pins.SPI_MISO, pl: pins.PL, ce: pins.CE,
        chips: pins.CHAIN_BYTES, buttonByte: pins.BUTTON_BYTE, buttonShift: pins.BUTTON_SHIFT,
      });
      this.chain.onLoad = () => {
        // K: the chain latched its inputs (the firmware's scan of a frame), f64 host nanos
        const k = Buffer.alloc(8);
        k.writeDoubleLE(this.hostNanos, 0);
        this.out('K', k);
      };
    }
    this.setWorld();
    mcu.gpio[pins.WS2812_PIN].addListener((state) => {
      const pio = mcu.pio[0].inCatchUp ? mcu.pio[0] : mcu.pio[1].inCatchUp ? mcu.pio[1] : null;
      const t = pio ? pio.now : mcu.clock.nanos;
      this.decoder.edge(mcu.gpio[pins.WS2812_PIN].outputValue ? 1 : 0, this.base + t);
    });
    mcu.gpio[pins.STATUS_LED].addListener(() => {
      this.statusLed = mcu.gpio[pins.STATUS_LED].outputValue ? 1 : 0;
    });
    this.cdc = new HeldCdc(mcu.usbCtrl);
    this.cdc.onSerialData = (buf) => this.serialOut.push(Buffer.from(buf));
    mcu.watchdog = mcu.peripherals[0x40058];
    mcu.watchdog.onWatchdogTrigger = () => { this.resetRequested = true; };
    this.resetRequested = false;
    // The boot2 stage at the start of flash runs first, as the boot ROM would run it.
    mcu.core.PC = 0x10000000;
  }

  /** The world's sensors and buttons to the board's inputs. */
  setWorld() {
    if (this.chain) this.chain.setWorld(this.sensors, this.buttons);
    else this.gpioButtons.setWorld(this.buttons);
  }

  /** A chip reset (watchdog, machine.reset()): the flash keeps its contents and its file. */
  reset() {
    this.chip.finish();
    const flash = this.mcu.flash.slice(0, FLASH_SIZE);
    this.base = this.hostNanos;
    this.resets++;
    this.text(`chip reset (watchdog) at ${(this.base / 1e6).toFixed(3)} ms`);
    this.chip.close(); // the new chip's model opens the image file again
    this.powerOn(flash);
  }

  flashOp(op) {
    this.flashOps++;
    const p = Buffer.alloc(26);
    p.writeUInt8(op.kind === 'program' ? 0x50 : 0x45, 0);
    p.writeUInt32LE(op.index >>> 0, 1);
    p.writeUInt32LE(op.addr, 5);
    p.writeUInt32LE(op.len, 9);
    p.writeDoubleLE(op.start, 13);
    p.writeUInt8(0, 21);
    this.out('P', p);
    if (this.cut && this.cut.op !== undefined) {
      this.cut.op -= 1;
      if (this.cut.op <= 0) {
        this.cut = { at: op.start + this.cut.fraction * (op.end - op.start) };
        this.breakBurst = true; // the run loop must look at its stop time again
      }
    }
  }

  ledFrame(rgb, n) {
    const w = Buffer.alloc(18);
    w.writeDoubleLE(this.decoder.first, 0);
    w.writeDoubleLE(this.decoder.lastDuration, 8);
    w.writeUInt16LE(n, 16);
    this.out('W', w);
    let same = true;
    for (let i = 0; i < rgb.length; i++) {
      if (rgb[i] !== this.leds[i]) { same = false; break; }
    }
    if (same && this.ledsSent) return;
    this.leds.set(rgb);
    this.ledsSent = true;
    this.out('L', this.leds);
  }

  text(s) { this.out('T', Buffer.from(s)); }

  /** Run the chip until host time `until` (nanos), or a power cut. Returns false on a cut. */
  run(until) {
    for (;;) {
      const { mcu } = this;
      const { clock, core } = mcu;
      const [pio0, pio1] = mcu.pio;
      const cycleNs = 1e9 / mcu.clkSys;
      let stop = until - this.base;
      if (this.cut && this.cut.at !== undefined) stop = Math.min(stop, this.cut.at - this.base);
      let pioDue = 0;
      let cycles = 0;
      while (clock.nanosCounter < stop && !this.resetRequested) {
        if (clock.nanosCounter >= pioDue || this.pioWake) {
          this.pioWake = false;
          pio0.catchUp();
          pio1.catchUp();
          this.decoder.poll(this.base + clock.nanosCounter);
          pioDue = (pio0.active || pio1.active) ? clock.nanosCounter + PIO_QUANTUM_NS : Infinity;
        }
        if (core.waiting) {
          let dt = clock.nextAlarm ? clock.nextAlarm.nanos - clock.nanosCounter : stop - clock.nanosCounter;
          dt = Math.min(dt, stop - clock.nanosCounter, pioDue - clock.nanosCounter);
          if (dt < cycleNs) dt = cycleNs;
          this.wfiNanos += dt;
          clock.tick(dt);
        } else {
          // Run until the next alarm, the end, the next PIO catch-up or a WFI; the clock's
          // time is kept current for every instruction (the timer reads it).
          const next = Math.min(stop, pioDue);
          if (this.exec) {
            cycles += this.exec.run(next, this, cycleNs);
          } else {
            for (;;) {
              const alarm = clock.nextAlarm;
              const limit = alarm && alarm.nanos < next ? alarm.nanos : next;
              const c = core.executeInstruction();
              cycles += c;
              clock.nanosCounter += c * cycleNs;
              if (clock.nanosCounter >= limit || core.waiting || this.resetRequested || this.breakBurst) break;
            }
          }
          if (this.breakBurst) {
            this.breakBurst = false;
            if (this.cut && this.cut.at !== undefined && this.cut.at - this.base < stop) {
              stop = this.cut.at - this.base;
              if (clock.nanosCounter >= stop) break; // before the op's end alarm fires
            }
          }
          clock.tick(0); // fire the alarms that are due
        }
        if (this.cut && this.cut.at !== undefined && this.cut.at - this.base < stop) {
          stop = this.cut.at - this.base; // a cut set by a flash operation that began just now
        }
      }
      this.cycles += cycles;
      pio0.catchUp();
      pio1.catchUp();
      this.decoder.poll(this.hostNanos);
      if (this.resetRequested) {
        this.reset();
        continue;
      }
      if (this.cut && this.cut.at !== undefined && this.hostNanos >= this.cut.at) return false;
      return true;
    }
  }

  flushSerial() {
    if (!this.serialOut.length) return;
    const data = Buffer.concat(this.serialOut);
    this.serialOut = [];
    for (let i = 0; i < data.length; i += 60000) this.out('S', data.subarray(i, i + 60000));
  }

  /** Power cut: a flash operation in progress is torn; then the process ends. */
  powerCut() {
    const torn = this.chip.cut();
    const p = Buffer.alloc(8);
    p.writeDoubleLE(this.hostNanos, 0);
    const info = torn ? ` ${torn.kind} #${torn.index} at 0x${torn.addr.toString(16)} torn: ${torn.done} of ${torn.len} bytes done` : ' no flash operation in progress';
    this.out('X', Buffer.concat([p, Buffer.from(info.trim())]));
    this.chip.close();
  }
}

// --- the channel --------------------------------------------------------------------------------
function parseArgs(argv) {
  const a = {};
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i];
    if (['--bootrom', '--uf2', '--flash', '--pins', '--unique-id'].includes(w) && i + 1 < argv.length) a[w.slice(2)] = argv[++i];
    else throw new InputError(`bad argument '${w}' (usage: board.mjs --bootrom ROM --uf2 UF2 --flash IMAGE [--pins PINS.json] [--unique-id HEX])`);
  }
  for (const k of ['bootrom', 'uf2', 'flash']) if (!a[k]) throw new InputError(`--${k} is required`);
  if (a['unique-id'] !== undefined) {
    if (!/^[0-9a-fA-F]{16}$/.test(a['unique-id'])) throw new InputError(`--unique-id ${a['unique-id']}: not 16 hex digits (the flash chip's 8-byte unique id)`);
    a.uniqueId = Uint8Array.from(Buffer.from(a['unique-id'], 'hex'));
  }
  return a;
}

function readPins(path) {
  const spec = JSON.parse(fs.readFileSync(path, 'utf8'));
  const pins = {};
  for (const p of spec.pins) pins[p.name] = p.gpio;
  for (const s of spec.settings) pins[s.name] = s.value;
  return pins;
}

function writeMsg(type, payload) {
  const h = Buffer.alloc(4);
  h[0] = MAGIC;
  h[1] = type.charCodeAt(0);
  if (payload.length > 0xffff) throw new Error('message too long');
  h.writeUInt16LE(payload.length, 2);
  writeAll(Buffer.concat([h, Buffer.from(payload.buffer, payload.byteOffset, payload.length)]));
}

function writeAll(buf) {
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(1, buf, off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

function readExact(n) {
  const buf = Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    let k;
    try {
      k = fs.readSync(0, buf, got, n - got, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return null;
      throw e;
    }
    if (k === 0) return null;
    got += k;
  }
  return buf;
}

function main() {
  let board;
  try {
    const args = parseArgs(process.argv.slice(2));
    const here = new URL('.', import.meta.url).pathname;
    const pins = readPins(args.pins || `${here}../../../../hardware/pins.json`);
    const bootrom = readBootrom(args.bootrom);
    const uf2 = readUf2(args.uf2);
    let st;
    try { st = fs.statSync(args.flash); } catch { throw new InputError(`flash image ${args.flash}: no such file`); }
    if (st.size > FS_SIZE) throw new InputError(`flash image ${args.flash}: ${st.size} bytes, more than the ${FS_SIZE}-byte filesystem region`);
    board = new Board({ bootrom, uf2, image: args.flash, pins, out: writeMsg, uniqueId: args.uniqueId });
  } catch (e) {
    if (e instanceof InputError) {
      process.stderr.write(`pico: ${e.message}\n`);
      process.exit(3);
    }
    throw e;
  }
  writeMsg('H', Buffer.from('cargoboard-pico 1'));
  for (;;) {
    const h = readExact(4);
    if (!h) break;
    if (h[0] !== MAGIC) {
      process.stderr.write('pico: bad message from the host\n');
      process.exit(2);
    }
    const n = h.readUInt16LE(2);
    const payload = n ? readExact(n) : Buffer.alloc(0);
    if (n && !payload) break;
    const type = String.fromCharCode(h[1]);
    if (type === 'F' || type === 'G' || type === 'A') {
      // F: run to the next 10 ms frame boundary of emulated time; A: u32 microseconds first,
      // run that long. Then both: u32 t (echoed in D), sensors (16 bytes), buttons, serial
      // bytes; on revision B (G, and A to such a board): u32 t, buttons, the scan's sums
      // (u16 each, docs/sim-protocol.md), serial bytes.
      if ((type === 'G' && !board.hall) || (type === 'F' && board.hall)) {
        process.stderr.write(`pico: a revision-${type === 'G' ? 'B' : 'A'} frame for a board wired as revision ${board.hall ? 'B' : 'A'} (--pins)\n`);
        process.exit(2);
      }
      const us = type === 'A' ? payload.readUInt32LE(0) : 0;
      const p = type === 'A' ? payload.subarray(4) : payload;
      const t = p.readUInt32LE(0);
      let serial;
      if (board.hall) {
        board.buttons = p[4] & 0x1f;
        for (let i = 0; i < N_SUMS; i++) board.sums[i] = p.readUInt16LE(5 + 2 * i);
        serial = p.subarray(5 + 2 * N_SUMS);
      } else {
        board.sensors.set(p.subarray(4, 20));
        board.buttons = p[20] & 0x1f;
        serial = p.subarray(21);
      }
      board.setWorld();
      board.cdc.send(serial);
      const until = type === 'A' ? board.hostNanos + us * 1000
        : (Math.floor(board.hostNanos / (FRAME_MS * 1e6)) + 1) * FRAME_MS * 1e6;
      const alive = board.run(until);
      board.flushSerial();
      for (const e of board.errors.splice(0)) board.text(`rp2040js: ${e}`);
      if (!alive) {
        board.powerCut();
        process.exit(0);
      }
      const d = Buffer.alloc(4 + 1 + 8 + 8);
      d.writeUInt32LE(t, 0);
      d.writeUInt8(board.statusLed, 4);
      d.writeDoubleLE(board.hostNanos, 5);
      d.writeDoubleLE(board.cycles, 13);
      writeMsg('D', d);
    } else if (type === 'C') {
      // power cut: u8 mode 0 = at host time (f64 nanos); 1 = during the n-th flash operation
      // from now (u32 n), f64 fraction of it done
      if (payload[0] === 0) board.cut = { at: payload.readDoubleLE(1) };
      else board.cut = { op: payload.readUInt32LE(1), fraction: payload.readDoubleLE(5) };
    } else if (type === 'R') {
      // read the chip's memory without running it (tests: what lies in the heap): u32 address,
      // u16 length; answered at once with the bytes
      const addr = payload.readUInt32LE(0);
      const out = Buffer.alloc(payload.readUInt16LE(4));
      for (let i = 0; i < out.length; i++) out[i] = board.mcu.readUint8(addr + i);
      writeMsg('R', out);
    } else if (type === 'Q') {
      break;
    }
  }
  board.chip.close();
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
