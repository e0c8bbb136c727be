/** The code blocks of the README, by language, for the tests that type-check and run them. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One fenced block of the README. */
export interface Block {
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Every fenced code block of README.md. */
export function readmeBlocks(): Block[] {
  const text = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
  const out: Block[] = [];
  for (const m of text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm))
    out.push({ lang: m[1]!, code: m[2]!, line: text.slice(0, m.index).split("\n").length });
  return out;
}
