/**
 * One deadline over a whole exchange: connect, status line, headers and body. The timer starts when the exchange
 * starts (not when a client is created: the trap of openapi-fetch issue #2567, where `AbortSignal.timeout()`
 * passed to `createClient` counts from construction).
 */

/** The reason the signal carries when the deadline (not the caller) ended the exchange. */
class DeadlinePassed {
  constructor(readonly timeoutMs: number) {}
}

/** One exchange's signal: aborts on the caller's signal or after `timeoutMs`; `dispose()` frees both. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True when the deadline (not the caller) aborted the exchange. */
  timedOut(): boolean;
  /** True when the caller's signal aborted the exchange. */
  callerAborted(): boolean;
  dispose(): void;
}

/** Links the caller's signal (if any) with a fresh deadline of `timeoutMs`, starting now. */
export function startDeadline(timeoutMs: number, callerSignal?: AbortSignal | null): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  // A timer this function holds (not AbortSignal.timeout, which the runtime may collect), cleared the moment the
  // exchange ends.
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new DeadlinePassed(timeoutMs));
      }, timeoutMs)
    : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    callerAborted: () => !timedOut && !!callerSignal?.aborted,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
