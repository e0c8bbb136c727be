/**
 * Command-line plumbing shared by `spec:diff` and `spec:changelog`: option parsing (node:util's
 * parseArgs) and exit codes. 2 is a usage error (bad or missing option, unknown git ref, not a
 * repository); 3 is any other failure (say, a document that does not parse), so that 1 keeps meaning
 * "breaking change without a major bump".
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** A mistake in the command line; the CLI prints its message and exits 2. */
export class UsageError extends Error {}

/** Options every spec-diff command takes. */
export interface CommonOptions {
  base: string;
  repo: string;
}

type StringOptions = Record<string, { type: "string" }>;

/** Parses `--base REF [--repo DIR]` plus the command's own string options; throws UsageError. */
export function parseOptions<E extends StringOptions>(
  argv: string[],
  extra: E,
  usage: string,
): CommonOptions & { [K in keyof E]?: string } {
  const config: ParseArgsConfig = {
    args: argv,
    options: { base: { type: "string" }, repo: { type: "string" }, ...extra },
    strict: true,
    allowPositionals: false,
  };
  let values: Record<string, unknown>;
  try {
    values = parseArgs(config).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  for (const [name, value] of Object.entries(values)) {
    if (value === "" || (typeof value === "string" && value.startsWith("-"))) {
      throw new UsageError(`--${name} needs a value, got ${JSON.stringify(value)}\n${usage}`);
    }
  }
  if (typeof values.base !== "string") throw new UsageError(`missing --base <git ref>\n${usage}`);
  return {
    ...values,
    base: values.base,
    repo: (values.repo as string | undefined) ?? process.cwd(),
  } as CommonOptions & {
    [K in keyof E]?: string;
  };
}

/** Runs a command's main function and exits with its code, mapping thrown errors to 2 or 3. */
export function runCli(main: () => number): void {
  try {
    process.exitCode = main();
  } catch (error) {
    const usage = error instanceof UsageError;
    process.stderr.write(`${usage ? "usage error" : "error"}: ${(error as Error).message}\n`);
    process.exitCode = usage ? 2 : 3;
  }
}
