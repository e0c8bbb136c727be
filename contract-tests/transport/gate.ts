/**
 * Admission of the target's requests, safe under concurrent senders: at most N requests in flight (a FIFO
 * semaphore of places), the request budget reserved before each attempt is sent (so it holds exactly under
 * concurrency), a rate-limit pause that holds every sender (a 429 is the server's word on the whole run), a hold
 * while the outage watch probes the server, and the stop that ends sending for good.
 */

/** Thrown by `send` when the run must stop sending: the scenario is reported as skipped with this reason. */
export class SkipScenario extends Error {
  override name = "SkipScenario";
}

/**
 * Why a request was not sent: `budget`, the request budget is spent; `unanswering`, the target stopped answering;
 * `boundary`, its URL would leave the target (the request boundary). `text` is the reason reports print.
 */
export interface NotSentReason {
  kind: "budget" | "unanswering" | "boundary";
  text: string;
}

/** The target did not send a request; a SkipScenario, so a scenario that meets it is skipped with its reason. */
export class NotSent extends SkipScenario {
  override name = "NotSent";
  constructor(readonly reason: NotSentReason) {
    super(reason.text);
  }
}

/** One attempt admitted to the wire: its place in send order, and when it went. */
export interface Ticket {
  readonly seq: number;
  readonly sentAt: number;
}

/** A place among the N a request holds while it is sent (its retries included); `leave` gives it to the next. */
export type Leave = () => void;

/** Admission of the target's requests; see the module's comment. */
export class Gate {
  readonly #workers: number;
  readonly #maxRequests: number;
  #active = 0;
  readonly #queue: Array<{ enter: () => void; refuse: (err: NotSent) => void }> = [];
  #sent = 0;
  #seq = 0;
  readonly #inFlight = new Map<number, Ticket>();
  #pausedUntil = 0;
  #pauseTimer: ReturnType<typeof setTimeout> | undefined;
  #holds = 0;
  #stop: NotSentReason | undefined;
  /** Settles on the next change of state (a settled attempt, a pause over, a hold released, the stop). */
  #changed = signal();

  constructor(workers: number, maxRequests: number) {
    this.#workers = Math.max(1, workers);
    this.#maxRequests = maxRequests;
  }

  /** Requests sent so far (retries included; a request the runtime refused to build is given back). */
  sent(): number {
    return this.#sent;
  }

  /** Why the gate stopped admitting, if it did. */
  stopped(): NotSentReason | undefined {
    return this.#stop;
  }

  /** The attempts on the wire now, in send order. */
  inFlight(): Ticket[] {
    return [...this.#inFlight.values()];
  }

  /** Waits for one of the places, first come first served; throws NotSent once the gate has stopped. */
  async enter(): Promise<Leave> {
    if (this.#stop) throw new NotSent(this.#stop);
    if (this.#active < this.#workers) this.#active++;
    else await new Promise<void>((enter, refuse) => this.#queue.push({ enter, refuse }));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.#queue.shift();
      if (next) next.enter();
      else this.#active--;
    };
  }

  /**
   * Before each attempt of a request: waits out a rate-limit pause and an outage's hold, then reserves one request
   * of the budget. Throws NotSent when the gate stops, or when the budget is spent (which stops it: the reason
   * text is the run's). While attempts are still on the wire the budget is not called spent: one of them may be
   * given back.
   */
  async admit(): Promise<Ticket> {
    for (;;) {
      if (this.#stop) throw new NotSent(this.#stop);
      const changed = this.#changed.promise;
      if (this.#holds > 0 || Date.now() < this.#pausedUntil || (this.#full() && this.#inFlight.size > 0)) {
        await changed;
        continue;
      }
      if (this.#full()) {
        this.stop({
          kind: "budget",
          text: `skipped: the request budget of ${this.#maxRequests} is spent (CONTRACT_MAX_REQUESTS)`,
        });
        continue;
      }
      this.#sent++;
      const ticket = { seq: ++this.#seq, sentAt: Date.now() };
      this.#inFlight.set(ticket.seq, ticket);
      return ticket;
    }
  }

  /** The attempt's outcome is known; `sent: false` gives its request back (the runtime refused to build it). */
  settle(ticket: Ticket, sent = true): void {
    if (!this.#inFlight.delete(ticket.seq)) return;
    if (!sent) this.#sent--;
    this.#notify();
  }

  /** A 429: no sender sends again before `ms` from now (a later pause only extends it). */
  pause(ms: number): void {
    const until = Date.now() + ms;
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.#armPause();
  }

  /**
   * Wakes the senders when the pause is over. A timer may fire a moment before the wall clock says the pause is
   * over: it then waits out the rest, or senders waiting on the pause would wait for a change that never comes.
   */
  #armPause(): void {
    clearTimeout(this.#pauseTimer);
    this.#pauseTimer = setTimeout(
      () => (Date.now() < this.#pausedUntil ? this.#armPause() : this.#notify()),
      Math.max(1, this.#pausedUntil - Date.now()),
    );
  }

  /** Holds every admission until the returned function is called (the outage watch, while it probes). */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      this.#notify();
    };
  }

  /** Stops admitting for good (the first reason stays): every waiting request is refused with it. */
  stop(reason: NotSentReason): void {
    if (this.#stop) return;
    this.#stop = reason;
    clearTimeout(this.#pauseTimer);
    for (const waiting of this.#queue.splice(0)) waiting.refuse(new NotSent(reason));
    this.#notify();
  }

  #full(): boolean {
    return this.#sent >= this.#maxRequests;
  }

  #notify(): void {
    this.#changed.resolve();
    this.#changed = signal();
  }
}

/** A promise and the function that settles it (Promise.withResolvers is newer than Node 20). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
