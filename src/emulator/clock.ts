/**
 * The emulator's only source of time: real time plus an offset that the control API can advance.
 * Every expiry is decided by comparing stored timestamps with `nowMs()` at request time, never by a timer,
 * so advancing the clock expires codes and tokens at once and deterministically.
 */
export class Clock {
  #offsetMs = 0;

  /**
   * `acceptMachineTime`: a client's timestamp current by the machine's clock is current too (`isCurrent`), whatever
   * the offset: a sandbox's chat clients sign with their machine's clock, which moving this one does not move.
   */
  constructor(private readonly realNow: () => number = Date.now, private readonly options: { readonly acceptMachineTime?: boolean } = {}) {}

  nowMs(): number {
    return this.realNow() + this.#offsetMs;
  }

  /** Whether a client's timestamp is within `windowMs` of now, either way: by this clock, or by the machine's when accepted. */
  isCurrent(ms: number, windowMs: number): boolean {
    const near = (now: number) => Math.abs(ms - now) <= windowMs;
    return near(this.nowMs()) || (this.options.acceptMachineTime === true && near(this.realNow()));
  }

  /** Integer Unix seconds, the unit of every timestamp the spec puts on the wire. */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  date(): Date {
    return new Date(this.nowMs());
  }

  /** Time only moves forward: a clock running backwards would resurrect expired credentials. */
  advance(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds < 0) throw new RangeError('advance needs a non-negative integer');
    this.#offsetMs += seconds * 1000;
  }

  reset(): void {
    this.#offsetMs = 0;
  }

  get offsetSeconds(): number {
    return Math.floor(this.#offsetMs / 1000);
  }
}

/**
 * `date` plus whole calendar months in UTC. A day that does not exist in the target month is clamped to the
 * month's last day (31 January + 1 month = 28/29 February), the usual reading of "N months" in billing and
 * date libraries; overflowing into the next month would silently add days.
 */
export function addCalendarMonthsUtc(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  const target = new Date(ms);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}
