/**
 * A server that stops answering. When a request goes unanswered (no status line, or no whole body, within its
 * deadline), the watch holds the gate (nothing new is sent) and probes the server with a cheap request:
 * - the probe gets a status line: the server answers, and the request's failure is its own (reported as such);
 *   three such requests in a row (in completion order) still stop the target, as the breaker did: a server whose
 *   probe is answered but whose requests are not (an edge refusing keyless requests at once, in front of a
 *   backend that hangs) would cost a deadline per request to the end of the run;
 * - the probe gets nothing: an outage. Bounded probes follow, with a growing wait. The requests that went
 *   unanswered meanwhile (those on the wire when it began) are not sent again (one may have had side effects):
 *   they are lost to the outage, and the one sent first among them is its culprit, "the request after which the
 *   server stopped answering". When a probe is answered, sending resumes (what was queued goes as normal); when
 *   none is, the target stops, naming the culprit.
 */
import { sleep } from "../../wire/retry-after.js";
import type { OutageRecord } from "../model/types.js";
import type { Gate, Ticket } from "./gate.js";

/**
 * Probes of one outage, the first (the one that decides there is one) included: enough to ride out a restart,
 * few enough never to weigh on a server that is struggling.
 */
const OUTAGE_PROBES = 5;
/**
 * A probe's deadline, as a share of the request deadline: a server that answers at all answers a cheap keyless
 * request in a fraction of what a real one is given.
 */
const PROBE_DEADLINE_SHARE = 1 / 4;
/**
 * Never a shorter probe deadline: a loaded machine or a distant server can take that long for any answer, and a
 * probe that times out on a server that is up would make an outage of nothing (a false alarm costs more than a
 * late stop).
 */
const PROBE_MIN_DEADLINE_MS = 1000;
/**
 * The first wait between probes, as a share of the request deadline; each wait doubles (1, 2, 4, 8 twentieths:
 * three quarters of a deadline in all), so probing ends within two request deadlines (for a deadline of 4 s or
 * more; 5 s and three quarters of it below): a server silent for longer is not coming back within what a run can
 * wait for.
 */
const FIRST_WAIT_SHARE = 1 / 20;
/** Requests in a row (in completion order) unanswered while the probe was answered, after which the target stops. */
const UNANSWERED_IN_A_ROW = 3;

/**
 * Asks the server for any answer within `timeoutMs` (a keyless GET): true when a status line arrives in time. The
 * watch's probe; it must not throw.
 */
export type Probe = (timeoutMs: number) => Promise<boolean>;

/** A request that went unanswered, as the watch is told. */
export interface Unanswered {
  /** Its attempt that went unanswered (its place in send order, and when it went). */
  ticket: Ticket;
  /** How the stop's reason names it: `GET /items (listItems)`. */
  what: string;
  /** What came instead of an answer, as the breaker's reason quotes it. */
  detail: string;
  /** A status line arrived (the body did not finish in time). */
  statusLine: boolean;
}

/** The requests that went unanswered from one to the verdict of the probes, and what the probes found. */
interface Episode {
  /** Attempts on the wire when it began: one that ends unanswered joins it. */
  pending: Set<number>;
  members: Unanswered[];
  /** `answering`: the first probe was answered (no outage); `recovered` or `gone`: an outage's end. */
  verdict?: "answering" | "recovered" | "gone";
  probing: boolean;
  probes: number;
  /** When the last probe ended. */
  endedAt: number;
  release: () => void;
  marks: Map<number, OutageRecord>;
  settled: Promise<void>;
  settle: () => void;
}

/** Watches the requests that go unanswered and probes the server; see the module's comment. */
export class OutageWatch {
  readonly #gate: Gate;
  readonly #probe: Probe;
  readonly #deadlineMs: number;
  readonly #episodes: Episode[] = [];
  #outages = 0;
  #inARow = 0;
  #last: Unanswered | undefined;

  /** `deadlineMs`: the run's request deadline, which the probes' deadlines and waits are shares of. */
  constructor(gate: Gate, probe: Probe, deadlineMs: number) {
    this.#gate = gate;
    this.#probe = probe;
    this.#deadlineMs = deadlineMs;
  }

  /**
   * An attempt ended otherwise than unanswered (told before its ticket is settled at the gate). `resets`: it breaks
   * a run of unanswered requests (an answer, the mock's crash; not the suite's own failure, nor an attempt sent
   * again).
   */
  done(ticket: Ticket, resets: boolean): void {
    if (resets) this.#inARow = 0;
    for (const episode of [...this.#episodes]) if (episode.pending.delete(ticket.seq)) this.#settleOutage(episode);
  }

  /**
   * A request went unanswered (told before its ticket is settled at the gate: it registers at once, before the
   * returned promise is awaited). Resolves once it is known what it was: its own failure (undefined), or lost to
   * an outage (its record; the culprit's says how long the server was down, how many probes it took and whether
   * it came back). Before it resolves with an outage the server never came back from, the gate is stopped with a
   * reason naming the culprit.
   */
  async unanswered(request: Unanswered): Promise<OutageRecord | undefined> {
    this.#inARow++;
    this.#last = request;
    const joined = this.#episodes.find((e) => e.pending.delete(request.ticket.seq));
    const episode = joined ?? this.#begin(request.ticket);
    episode.members.push(request);
    if (joined) this.#settleOutage(joined);
    await episode.settled;
    return episode.marks.get(request.ticket.seq);
  }

  /** Holds the gate and probes; the attempts on the wire now (but `trigger`'s) are the episode's to wait for. */
  #begin(trigger: Ticket): Episode {
    let settle!: () => void;
    const settled = new Promise<void>((r) => {
      settle = r;
    });
    const episode: Episode = {
      pending: new Set(this.#gate.inFlight().flatMap((t) => (t.seq === trigger.seq ? [] : [t.seq]))),
      members: [],
      probing: true,
      probes: 0,
      endedAt: 0,
      release: this.#gate.hold(),
      marks: new Map(),
      settled,
      settle,
    };
    this.#episodes.push(episode);
    void this.#probeServer(episode);
    return episode;
  }

  /** The first probe decides; in an outage, more follow with a growing wait until one is answered or all are spent. */
  async #probeServer(episode: Episode): Promise<void> {
    const probeMs = Math.max(this.#deadlineMs * PROBE_DEADLINE_SHARE, PROBE_MIN_DEADLINE_MS);
    const ask = async () => {
      episode.probes++;
      return this.#probe(probeMs).catch(() => false);
    };
    if (await ask()) return this.#answering(episode);
    let answered = false;
    for (let wait = this.#deadlineMs * FIRST_WAIT_SHARE; !answered && episode.probes < OUTAGE_PROBES; wait *= 2) {
      await sleep(wait);
      answered = await ask();
    }
    episode.verdict = answered ? "recovered" : "gone";
    episode.endedAt = Date.now();
    episode.probing = false;
    // Sending resumes at once; the outage's record waits for the requests still on the wire since it began.
    if (answered) episode.release();
    this.#settleOutage(episode);
  }

  /** The server answers: each unanswered request is its own failure; past three in a row, the target stops. */
  #answering(episode: Episode): void {
    episode.verdict = "answering";
    episode.probing = false;
    this.#episodes.splice(this.#episodes.indexOf(episode), 1);
    if (this.#inARow >= UNANSWERED_IN_A_ROW && this.#last) {
      const { statusLine, detail } = this.#last;
      this.#gate.stop({
        kind: "unanswering",
        text: statusLine
          ? `skipped: the target stopped answering (${this.#inARow} requests in a row got no complete answer ` +
            `within the deadline; last: ${detail})`
          : `skipped: the target stopped answering (${this.#inARow} requests in a row got no HTTP response; ` +
            `last: ${detail})`,
      });
    }
    episode.release();
    episode.settle();
  }

  /**
   * Once the probes have ended and every attempt on the wire at the outage's start has ended too, the outage is
   * known whole: its culprit is the request sent first among those that went unanswered.
   */
  #settleOutage(episode: Episode): void {
    if (episode.probing || episode.verdict === "answering" || episode.pending.size > 0) return;
    this.#episodes.splice(this.#episodes.indexOf(episode), 1);
    const id = ++this.#outages;
    const culprit = episode.members.reduce((a, b) => (b.ticket.seq < a.ticket.seq ? b : a));
    const recovered = episode.verdict === "recovered";
    const downMs = episode.endedAt - culprit.ticket.sentAt;
    for (const m of episode.members) episode.marks.set(m.ticket.seq, { id, culprit: false });
    episode.marks.set(culprit.ticket.seq, { id, culprit: true, downMs, probes: episode.probes, recovered });
    this.#inARow = 0;
    if (!recovered)
      this.#gate.stop({
        kind: "unanswering",
        text:
          `skipped: the target stopped answering after ${culprit.what}: no answer to it, nor to ` +
          `${episode.probes} probes over ${downMs} ms`,
      });
    episode.release();
    episode.settle();
  }
}
