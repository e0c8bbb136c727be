/**
 * Ends the process once what it wrote has reached its readers. `process.exit` drops whatever stdout and stderr
 * still hold: when they are pipes whose reader is slower than the writer (a CI runner, `| tee`, a test harness
 * busy with another run), a report's last lines, its verdict among them, were lost. Writing an empty chunk to
 * each stream and exiting from its callback waits for every chunk queued before it. Unlike process.exit it
 * returns: the promise it returns never settles, so `await` it where nothing after it may run.
 */
export function exitAfterOutput(code: number): Promise<never> {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    // A closed reader (EPIPE) has nothing left to wait for; write's callback gets the error and so do we.
    if (stream.destroyed || !stream.writable) done();
    else stream.write("", done);
  }
  // Never settles: `await` it (or return it) where the code after it must not run, as after process.exit.
  return new Promise<never>(() => undefined);
}
