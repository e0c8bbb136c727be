/**
 * `npm run spec:diff:measure -- <folder> [--list]`: runs the gate's comparison on every pair of documents
 * under FOLDER (one sub-folder each: `base.yaml`, `revision.yaml`, `expected.txt` whose first word is
 * `breaking`, `warn` or `non-breaking`, the level another tool gives the change) and prints how often the
 * gate's level agrees. "Scored" pairs are the breaking and non-breaking ones (the gate's pass/fail);
 * `warn` pairs are compared on the three levels. `--list` prints every pair, not just the differences.
 * It reads the pairs where they are; it copies nothing.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { classifyChanges, type Change } from "./classify.js";

/** The words of expected.txt; "error" when the gate could not compare the pair. */
type Level = "breaking" | "warn" | "non-breaking" | "error";

/** The level of the gate's verdict on a set of changes: its highest, in expected.txt's words. */
function gateLevel(changes: Change[]): Level {
  if (changes.some((c) => c.level === "breaking")) return "breaking";
  return changes.some((c) => c.level === "warning") ? "warn" : "non-breaking";
}

const USAGE = "usage: npm run spec:diff:measure -- <folder of pairs> [--list]";

function main(): number {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: { list: { type: "boolean" } }; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), options: { list: { type: "boolean" } }, allowPositionals: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || !existsSync(positionals[0]!)) {
    process.stderr.write(`${positionals.length === 1 ? `no folder ${positionals[0]}\n` : ""}${USAGE}\n`);
    return 2;
  }
  const root = resolve(positionals[0]!);
  const cases = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, "expected.txt")))
    .map((d) => d.name)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const tally = {
    scored: 0,
    agree: 0,
    breaking: 0,
    caught: 0,
    safe: 0,
    falseAlarms: 0,
    warn: 0,
    warnAgree: 0,
    all: 0,
    allAgree: 0,
  };
  const lines: string[] = [];
  for (const name of cases) {
    const dir = join(root, name);
    const expected = readFileSync(join(dir, "expected.txt"), "utf8").trim().split(/\s+/)[0] as Level;
    let got: Level;
    let changes: Change[] = [];
    try {
      changes = classifyChanges(
        parse(readFileSync(join(dir, "base.yaml"), "utf8")),
        parse(readFileSync(join(dir, "revision.yaml"), "utf8")),
      );
      got = gateLevel(changes);
    } catch (error) {
      got = "error";
      lines.push(`!! ${name}: ${(error as Error).message.split("\n")[0]}`);
    }
    const same = got === expected;
    tally.all++;
    if (same) tally.allAgree++;
    if (expected === "warn") {
      tally.warn++;
      if (same) tally.warnAgree++;
    } else {
      tally.scored++;
      const gotBreaking = got === "breaking";
      if (gotBreaking === (expected === "breaking")) tally.agree++;
      if (expected === "breaking") {
        tally.breaking++;
        if (gotBreaking) tally.caught++;
      } else {
        tally.safe++;
        if (gotBreaking) tally.falseAlarms++;
      }
    }
    if (!same || values.list) {
      lines.push(`${same ? "  " : "≠ "}${name}: expected ${expected}, gate ${got}`);
      for (const c of changes.filter((x) => x.cls !== "annotation"))
        lines.push(`      ${c.level} ${c.rule}: ${c.text} (${c.pointer})`);
    }
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
  process.stdout.write(
    `scored pairs (breaking or not): ${tally.agree} of ${tally.scored} agree; ${tally.caught} of ${tally.breaking} ` +
      `breaking caught, ${tally.falseAlarms} false alarms on ${tally.safe} safe\n`,
  );
  process.stdout.write(
    `warn pairs: ${tally.warnAgree} of ${tally.warn} at the same level; all ` +
      `pairs, three levels: ${tally.allAgree} of ${tally.all}\n`,
  );
  return 0;
}

process.exitCode = main();
