/**
 * Per-attempt deadlines. The timer starts when the attempt starts (not when the client is created: the
 * trap of openapi-fetch issue #2567, where `AbortSignal.timeout()` passed to `createClient` counts from
 * construction) and covers the headers and the whole body.
 */

/** The reason an attempt signal carries when its own deadline fired. */
class AttemptTimeout {
  constructor(readonly timeoutMs: number) {}
}

/** One attempt's signal: aborts on the caller's signal or after `timeoutMs`; `dispose()` frees both. */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  /** True when the deadline (not the caller) aborted the attempt. */
  timedOut(): boolean;
  /** True when the caller's signal aborted the attempt. */
  callerAborted(): boolean;
  dispose(): void;
}

/** Links the caller's signal (if any) with a fresh deadline of `timeoutMs`, starting now. */
export function startAttemptSignal(timeoutMs: number, callerSignal?: AbortSignal | null): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  // Plain setTimeout (not AbortSignal.timeout) so the timer is cleared the moment the attempt ends.
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new AttemptTimeout(timeoutMs));
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
