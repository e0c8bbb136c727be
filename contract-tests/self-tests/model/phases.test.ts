/**
 * The phase table is the one list of phases: the README's phase table and its --phases row, --help, the
 * implementations in engine/phases/ and the scenarios a run plans all follow it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { helpText } from "../../config/options.js";
import { readSettings } from "../../config/settings.js";
import { ContractRun } from "../../cli/contract-run.js";
import { ALWAYS_RUN, PHASE_IDS, PHASES, SELECTABLE_PHASES } from "../../model/phases.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** The first column of the README's phase table, in its order. */
function readmePhases(): string[] {
  const at = readme.indexOf("| phase | what is sent | what must happen |");
  expect(at, "the README has its phase table").toBeGreaterThan(0);
  const rows = readme.slice(at).split("\n").slice(2);
  const ids: string[] = [];
  for (const row of rows) {
    if (!row.startsWith("|")) break;
    ids.push(/^\|\s*`([^`]+)`/.exec(row)?.[1] ?? row);
  }
  return ids;
}

describe("the phase table", () => {
  it("is the README's phase table, row for row and in its order", () => {
    expect(readmePhases()).toEqual([...PHASE_IDS]);
  });

  it("is what the README's --phases row and --help offer (the clean-up always runs)", () => {
    const row = readme.split("\n").find((l) => l.startsWith("| `--phases`"))!;
    const offered = [...row.split("|")[5]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    expect(offered).toEqual([...SELECTABLE_PHASES, ...ALWAYS_RUN]);
    const help = helpText();
    for (const id of PHASE_IDS) expect(help).toContain(id);
  });

  it("has one implementation file per row in engine/phases/, and no file without a row", () => {
    const files = readdirSync(join(ROOT, "contract-tests/engine/phases"))
      .filter((f) => f.endsWith(".ts") && !["index.ts", "phase.ts"].includes(f))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(files).toEqual([...PHASE_IDS].sort());
  });

  it("names every scenario a run plans, the scenario's title starting with its phase's id", () => {
    const settings = readSettings({ CONTRACT_BASE_URL: "http://127.0.0.1:9", CONTRACT_API_KEY: "k" });
    const planned = new ContractRun({ ...settings, secondApiKey: "k2" }).scenarios();
    for (const s of planned) {
      expect(PHASE_IDS).toContain(s.phase);
      expect(s.title.startsWith(`${s.phase}: `), s.title).toBe(true);
    }
    // A live run of the project's document plans every operation phase but those of resources (it has no create).
    expect(new Set(planned.map((s) => s.phase))).toEqual(
      new Set(
        PHASES.filter(
          (p) => !["lifecycle", "owned-members", "authorization", "unknown-ids", "cleanup"].includes(p.id),
        ).map((p) => p.id),
      ),
    );
  });
});
