// The board around the emulated RP2040, and the rp2040js parts it needs to behave as silicon:
// - LockstepPio: PIO state machines stepped in lockstep with the core's clock, honouring each
//   state machine's clock divider and delay cycles (rp2040js runs PIO on a free loop of its own).
// - Ws2812Decoder: the LED data line's edges decoded back into LED frames.
// - Hc165Chain: the 74HC165 chain on SPI0 with its PL and CLK INH pins, fed by the world.
// - GpioButtons: buttons on their own GPIOs (revision B), fed by the world.
// - HallFrontEnd: revision B's sensors, row power and multiplexers into ADC0, fed by the world.
// - HeldCdc: USB CDC whose OUT transfer is held until there is data (rp2040js answers every
//   armed OUT endpoint with an empty packet 10 us later: an interrupt storm on an idle line).

import { RPPIO, USBCDC } from 'rp2040js';

const FUNC_SPI = 1;

// --- PIO ----------------------------------------------------------------------------------------
export class LockstepPio extends RPPIO {
  constructor(rp2040, name, firstIrq, index) {
    super(rp2040, name, firstIrq, index);
    this.done = 0; // nanos up to which the state machines have run
    this.nextTick = [0, 0, 0, 0];
    this.pending = [0, 0, 0, 0]; // delay cycles still to spend
    this.seen = [0, 0, 0, 0]; // sm.cycles already accounted for
    this.now = 0; // time of the state machine cycle being run (for pin listeners)
    this.inCatchUp = false;
    this.onWake = null; // called after every register write: a state machine may run now
  }

  // rp2040js would start a free-running setTimeout loop here; time is ours instead.
  run() {
    this.catchUp();
    const now = this.rp2040.clock.nanos;
    for (let i = 0; i < 4; i++) {
      if (this.nextTick[i] < now) this.nextTick[i] = now;
    }
  }

  stop() {
    this.catchUp();
    super.stop();
  }

  readUint32(offset) {
    this.catchUp();
    return super.readUint32(offset);
  }

  writeUint32(offset, value) {
    this.catchUp();
    const wasEnabled = this.machines.map((m) => m.enabled);
    super.writeUint32(offset, value);
    if (offset === 0) { // CTRL: a state machine enabled now starts its clock now
      const now = this.rp2040.clock.nanos;
      this.machines.forEach((m, i) => {
        if (m.enabled && !wasEnabled[i]) {
          this.nextTick[i] = now;
          this.seen[i] = m.cycles;
          this.pending[i] = 0;
        }
      });
    }
    if (this.onWake) this.onWake();
  }

  periodNanos(sm) {
    const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
    return (div * 1e9) / this.rp2040.clkSys;
  }

  /** True while a state machine runs (not stalled): the core loop must call catchUp often. */
  get active() {
    for (let i = 0; i < 4; i++) {
      const m = this.machines[i];
      if (m.enabled && (!m.waiting || this.pending[i] > 0 || m.cycles !== this.seen[i])) return true;
    }
    return false;
  }

  /** Run every enabled state machine up to the core's present time. */
  catchUp() {
    if (this.inCatchUp) return;
    const target = this.rp2040.clock.nanos;
    if (target <= this.done) return;
    this.inCatchUp = true;
    try {
      for (let i = 0; i < 4; i++) {
        const sm = this.machines[i];
        if (!sm.enabled) {
          this.nextTick[i] = target;
          continue;
        }
        const period = this.periodNanos(sm);
        let t = this.nextTick[i];
        while (t <= target) {
          const ext = sm.cycles - this.seen[i];
          if (ext < 0) this.seen[i] = sm.cycles; // restarted
          if (ext > 0) { // a stall ended outside our cycles (a FIFO write): its delay follows
            this.pending[i] += ext;
            this.seen[i] = sm.cycles;
          }
          if (this.pending[i] > 0) {
            const k = Math.min(this.pending[i], Math.floor((target - t) / period) + 1);
            this.pending[i] -= k;
            t += k * period;
            continue;
          }
          if (sm.waiting) {
            // Stalled: every wait ends through a call that rp2040js makes when its condition
            // changes (FIFO access, IRQ write, GPIO input), so the idle cycles can be skipped.
            sm.checkWait();
            if (sm.waiting) {
              t += (Math.floor((target - t) / period) + 1) * period;
              break;
            }
            continue;
          }
          this.now = t;
          sm.step();
          const d = sm.cycles - this.seen[i];
          this.seen[i] = sm.cycles;
          if (d > 1) this.pending[i] += d - 1;
          if (this.pinValues !== this.oldPinValues || this.pinDirections !== this.oldPinDirections) {
            this.checkChangedPins();
          }
          t += period;
        }
        this.nextTick[i] = t;
      }
    } finally {
      this.done = target;
      this.now = target;
      this.inCatchUp = false;
    }
  }
}

// --- WS2812 -------------------------------------------------------------------------------------
// A WS2812B reads a bit from the width of each high pulse (a 0 is 0.4 us high, a 1 0.8 us; the
// threshold is 0.6 us) and latches what it received once the line has been low for the reset
// time (>= 50 us on the original part; newer ones want 280 us: the firmware waits 10 ms).
export class Ws2812Decoder {
  constructor(nLeds, onFrame, { threshold = 600, reset = 50000 } = {}) {
    this.nLeds = nLeds;
    this.onFrame = onFrame;
    this.threshold = threshold;
    this.reset = reset;
    this.rgb = new Uint8Array(3 * nLeds);
    this.bits = [];
    this.high = -1;
    this.lastFall = 0;
    this.first = 0;
    this.frames = 0;
    this.lastDuration = 0;
  }

  edge(level, t) {
    if (level) {
      if (this.bits.length && t - this.lastFall >= this.reset) this.latch();
      if (!this.bits.length) this.first = t;
      this.high = t;
    } else if (this.high >= 0) {
      this.bits.push(t - this.high > this.threshold ? 1 : 0);
      this.high = -1;
      this.lastFall = t;
    }
  }

  /** Latch if the line has been low long enough by time t. */
  poll(t) {
    if (this.bits.length && this.high < 0 && t - this.lastFall >= this.reset) this.latch();
  }

  latch() {
    const { bits, rgb } = this;
    const n = Math.min(this.nLeds, Math.floor(bits.length / 24));
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (let k = 0; k < 24; k++) v = (v << 1) | bits[24 * i + k];
      rgb[3 * i] = (v >> 8) & 0xff; // the wire order is G, R, B
      rgb[3 * i + 1] = (v >> 16) & 0xff;
      rgb[3 * i + 2] = v & 0xff;
    }
    this.lastDuration = this.lastFall - this.first;
    this.bits = [];
    this.frames++;
    this.onFrame(rgb, n);
  }
}

// --- 74HC165 chain ------------------------------------------------------------------------------
// 16 chips: chip k's SER takes QH of chip k+1, chip 15's SER is tied high, chip 0's QH is
// SPI0 RX. Input Dj of chip k is cell 8k + j (D7 leaves first); chip 15: D0 cell 120, D1..D5 the
// buttons, D6, D7 pulled up. Inputs are active low (pull-ups; a magnet or a press pulls low).
// PL low loads the inputs (and holds QH = D7 of chip 0); CLK INH high stops the clock. The
// clock reaches the chips only through a pin in its SPI function, and RX sees QH likewise.
export class Hc165Chain {
  constructor(rp2040, spi, pins) {
    this.mcu = rp2040;
    this.spi = spi;
    this.pins = pins; // {sck, miso, pl, ce, chips, buttonByte, buttonShift}
    this.nBits = 8 * pins.chips;
    this.inputs = new Uint8Array(pins.chips); // input levels, 1 = high (inactive)
    this.inputs.fill(0xff);
    this.reg = new Uint8Array(this.nBits); // reg[0] = QH of chip 0
    this.reg.fill(1);
    this.reads = 0;
    this.onLoad = null; // called at each PL falling edge: the firmware samples the inputs
    this.busyAlarm = rp2040.clock.createAlarm(() => this.finishByte());
    this.pendingRx = 0;
    const pl = rp2040.gpio[pins.pl];
    pl.addListener(() => this.plChanged());
    spi.onTransmit = (value) => this.transmit(value);
  }

  /** The world's state: sensors (16 bytes, bit c = cell c occupied), buttons (bit i held). */
  setWorld(sensors, buttons) {
    const { chips, buttonByte, buttonShift } = this.pins;
    for (let k = 0; k < chips; k++) this.inputs[k] = ~sensors[k] & 0xff;
    let b = this.inputs[buttonByte];
    const mask = 0x1f << buttonShift;
    b = (b & ~mask) | (~(buttons << buttonShift) & mask);
    b |= 0xff & ~((1 << buttonShift) - 1) & ~mask; // spare inputs pulled up
    this.inputs[buttonByte] = b & 0xff;
    if (this.plLow()) this.load();
  }

  pinLevel(n) {
    const pin = this.mcu.gpio[n];
    return pin.outputEnable ? pin.outputValue : true; // an undriven line is pulled up
  }

  plLow() { return !this.pinLevel(this.pins.pl); }

  plChanged() {
    if (this.plLow()) {
      this.load();
      if (this.onLoad) this.onLoad();
    }
  }

  load() {
    for (let k = 0; k < this.pins.chips; k++) {
      for (let j = 0; j < 8; j++) this.reg[8 * k + (7 - j)] = (this.inputs[k] >> j) & 1;
    }
  }

  shift() {
    if (this.plLow()) { this.load(); return; }
    if (this.pinLevel(this.pins.ce)) return; // clock inhibited
    this.reg.copyWithin(0, 1);
    this.reg[this.nBits - 1] = 1; // chip 15's SER is tied high
  }

  transmit(_value) {
    const { spi, mcu } = this;
    const bits = (spi.control0 & 0xf) + 1;
    const cpol = (spi.control0 >> 6) & 1;
    const cpha = (spi.control0 >> 7) & 1;
    const clockPin = mcu.gpio[this.pins.sck].functionSelect === FUNC_SPI;
    const dataPin = mcu.gpio[this.pins.miso].functionSelect === FUNC_SPI;
    let rx = 0;
    for (let b = 0; b < bits; b++) {
      // Each bit: a leading and a trailing clock edge. The leading edge rises when the clock
      // idles low (CPOL 0). The master samples on the leading edge (CPHA 0) or the trailing
      // one (CPHA 1); a sample on the edge that shifts sees the bit before the shift.
      for (let e = 0; e < 2; e++) {
        const rising = (e === 0) === (cpol === 0);
        if (e === cpha) rx = (rx << 1) | (dataPin ? this.reg[0] : 0);
        if (rising && clockPin) this.shift();
      }
    }
    this.reads++;
    this.pendingRx = rx;
    const scr = (spi.control0 >> 8) & 0xff;
    const rate = this.mcu.clkPeri / ((spi.clockDivisor || 2) * (1 + scr));
    this.busyAlarm.schedule((bits * 1e9) / rate);
  }

  finishByte() {
    this.spi.completeTransmit(this.pendingRx);
  }
}

// --- USB CDC ------------------------------------------------------------------------------------
// --- buttons on GPIOs (revision B) ---------------------------------------------------------------
/** Buttons wired to GPIOs first..first+count-1, active low with pull-ups on the board, as on
 *  revision B. A level is driven only when it changes: rp2040js's GPIOPin.setInputValue latches
 *  an edge in the pin's INTR bits on every call, also one that does not change the level. */
export class GpioButtons {
  constructor(rp2040, first, count = 5) {
    this.pins = [];
    for (let i = 0; i < count; i++) this.pins.push(rp2040.gpio[first + i]);
    this.held = 0;
    for (const pin of this.pins) pin.setInputValue(true); // released: pulled up
  }

  /** The world's state: buttons (bit i held). */
  setWorld(buttons) {
    const changed = (buttons ^ this.held) & ((1 << this.pins.length) - 1);
    this.held = buttons;
    for (let i = 0; i < this.pins.length; i++) {
      if (changed & (1 << i)) this.pins[i].setInputValue(!(buttons & (1 << i)));
    }
  }
}

// --- revision B's analog front end ---------------------------------------------------------------
/** Revision B's 121 linear Hall sensors, powered a row at a time (74HC154 on ROW_A0..3, enabled
 *  by ROW_EN low) and read through the CD74HC4067s (the cell address mux << 4 | channel on
 *  CELL_SHIFT..+6) into ADC0 (docs/hardware.md, "Revision B"). The world gives what the scan
 *  sums per channel (`setSums`: 121 cells, the mid-supply reference, the grounded channel; SAMPLES
 *  conversions each, as hall.py reads them); a conversion gives that sum's share, spread so that
 *  SAMPLES conversions in a row add up to it exactly. What the firmware must wait for is
 *  modelled, as a caricature of the analog side (circuit/scantime.py has the figures):
 *  - a cell's sensor gives its reading only once its row has been powered ROW_ON_US (the
 *    DRV5055's power-on time); unpowered, or still powering up, it gives 0 V;
 *  - the ADC input node follows a new address, or a sensor that has just come up, in one
 *    conversion's time (SETTLE_NS): a conversion started before reads the voltage the node had.
 *  So a scan that did not wait for its row, or kept the first conversion after an address, reads
 *  other numbers than the world's; the other ADC inputs read rp2040js's channelValues. */
const SETTLE_NS = 2000;

export class HallFrontEnd {
  constructor(rp2040, pins, sums) {
    this.mcu = rp2040;
    this.cellPins = [];
    for (let i = 0; i < 7; i++) this.cellPins.push(rp2040.gpio[pins.CELL_SHIFT + i]);
    this.rowPins = [];
    for (let i = 0; i < 4; i++) this.rowPins.push(rp2040.gpio[pins.ROW_SHIFT + i]);
    this.rowEn = rp2040.gpio[pins.ROW_EN];
    this.adcInput = pins.ADC_ID;
    this.rowCells = pins.ROW_CELLS;
    this.samples = pins.SAMPLES;
    this.onNs = pins.ROW_ON_US * 1000;
    this.midAddr = pins.MID_ADDR;
    this.zeroAddr = pins.ZERO_ADDR;
    this.cells = 121;
    this.sums = sums; // Uint16Array(cells + 2), shared with the board: kept across chip resets
    this.row = -1; // the row powered, -1 none
    this.rowAt = 0; // ns it was powered
    this.addrAt = 0; // ns the cell address last changed
    this.node = 0; // the ADC input node's voltage, in ADC codes
    this.taken = 0; // conversions of the settled value since the address or the source changed
    this.settledIndex = -2; // the channel (a sums index, -1 for 0 V) the count is for ...
    this.settledSince = -1; // ... and since when it has been settled there
    for (const pin of this.cellPins) pin.addListener(() => { this.addrAt = this.now(); });
    for (const pin of [...this.rowPins, this.rowEn]) pin.addListener(() => this.rowChanged());
    const adc = rp2040.adc;
    adc.onADCRead = (channel) => {
      adc.currentChannel = channel;
      if (channel === this.adcInput) adc.channelValues[channel] = this.convert();
      adc.sampleAlarm.schedule(adc.sampleTime * 1000);
    };
  }

  now() { return this.mcu.clock.nanos; }

  level(pin, pulled) { return pin.outputEnable ? pin.outputValue : pulled; }

  rowChanged() {
    let row = -1;
    if (!this.level(this.rowEn, true)) { // ROW_EN is pulled up: no row until it is driven low
      row = 0;
      for (let i = 0; i < 4; i++) if (this.level(this.rowPins[i], false)) row |= 1 << i;
    }
    if (row !== this.row) {
      this.row = row;
      this.rowAt = this.now();
    }
  }

  /** One conversion on the Hall input: an ADC code. */
  convert() {
    const now = this.now();
    let addr = 0;
    for (let i = 0; i < 7; i++) if (this.level(this.cellPins[i], false)) addr |= 1 << i;
    let sum = -1; // -1: 0 V (a sensor without power, or an unused channel)
    let since = this.addrAt;
    let index = -1;
    if (addr === this.midAddr) index = this.cells;
    else if (addr === this.zeroAddr) index = this.cells + 1;
    else if (addr < this.cells && Math.floor(addr / this.rowCells) === this.row) {
      const valid = this.rowAt + this.onNs;
      if (now >= valid) {
        index = addr;
        since = Math.max(since, valid);
      }
    }
    if (index >= 0) sum = this.sums[index];
    if (now - since < SETTLE_NS) return this.node; // the node still holds what it had
    if (index !== this.settledIndex || since !== this.settledSince) {
      this.settledIndex = index;
      this.settledSince = since;
      this.taken = 0;
    }
    let code = 0;
    if (sum >= 0) {
      const base = Math.floor(sum / this.samples);
      code = base + ((this.taken % this.samples) < sum - base * this.samples ? 1 : 0);
      if (code > 4095) code = 4095;
    }
    this.taken++;
    this.node = code;
    return code;
  }
}

export class HeldCdc extends USBCDC {
  constructor(usb) {
    super(usb);
    this.queue = []; // bytes from the host not yet delivered, in chunks
    this.queued = 0;
    this.heldRead = -1; // size of the OUT transfer the device armed, held until data comes
    this.usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.outEndpoint) return;
      if (!this.queued) {
        this.heldRead = size;
        return;
      }
      this.deliver(size);
    };
  }

  deliver(size) {
    const buffer = new Uint8Array(Math.min(size, this.queued));
    let n = 0;
    while (n < buffer.length) {
      const head = this.queue[0];
      const k = Math.min(head.length, buffer.length - n);
      buffer.set(head.subarray(0, k), n);
      n += k;
      if (k === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(k);
    }
    this.queued -= n;
    this.usb.endpointReadDone(this.outEndpoint, buffer);
  }

  /** Bytes from the host (the pty) to the device. */
  send(bytes) {
    if (!bytes.length) return;
    this.queue.push(Uint8Array.from(bytes));
    this.queued += bytes.length;
    if (this.heldRead >= 0) {
      const size = this.heldRead;
      this.heldRead = -1;
      this.deliver(size);
    }
  }

  sendSerialByte(data) {
    this.send([data]);
  }
}
