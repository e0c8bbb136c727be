/**
 * What a run against the embedded Prism mock leaves out, and why (issue 34). Prism answers from the document's
 * examples whatever it is sent, and checks a request with the same validator for every operation: a request that
 * can only repeat one of those answers tells nothing about the document. The mock's run still sends every
 * example, every response the mock can be made to produce, every link, the edges, and each kind of the document's
 * request rules once per operation; what it sends less of is named here, and the reports say it
 * (`lighterOnMock`, the JSON report's `target.lighter`).
 */
import type { Settings } from "../config/settings.js";

/** What makes an invalid request a kind of its own on the mock: where the rule is and which rule (a keyword). */
export interface RuleKind {
  /** `query: maxLength`, `body: required`, `body: media type`... */
  kind: string;
  demand: string;
  ambiguous: boolean;
}

/**
 * The negative phase on the mock: the first request of each kind of rule (its place, its keyword, whether its
 * refusal is demanded), in the order planned. Prism's validator checks a kind of rule one way, so a second
 * `maxLength` broken in the same place only repeats its answer.
 */
export function oncePerKind<T extends RuleKind>(cases: readonly T[]): T[] {
  const seen = new Set<string>();
  return cases.filter((c) => {
    const key = `${c.kind}\u0000${c.demand}\u0000${c.ambiguous}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The kind of an edge request, from what it says it sends (`query parameter per_page: the int32 maximum, 2147483647`):
 * its place (query, header, cookie, path, body) and its class of value with the numbers and quoted text taken out
 * (`query: the int# maximum, #`), so the same class in another parameter of the same place is the same kind.
 */
export function edgeKind(what: string): string {
  const [place = "", , ...rest] = what.split(" ");
  const value = rest.join(" ").replace(/^[^:]*: /, "");
  return `${place}: ${value.replace(/"(?:[^"\\]|\\.)*"|\d[\d.e+-]*/g, "#")}`;
}

/** The phases that ran lighter on the mock, and why: one line each (empty on a live target). */
export function lighterOnMock(settings: Pick<Settings, "kind" | "examples">): string[] {
  if (settings.kind !== "mock") return [];
  return [
    `positive: ${settings.examples} generated valid request(s) per operation (--examples; 4 on a live target): ` +
      "Prism answers every valid request with the same example, which the examples phase checks; what more " +
      "requests could show is only whether Prism accepts them",
    "negative: one invalid request per kind of rule and place per operation (a live target gets every one): " +
      "Prism checks each kind of rule with the same validator, so more of a kind only repeat its answer",
    "edges: one request per class of edge value and place per operation (a live target gets every one): Prism " +
      "answers an edge value it accepts with the same example, so only its first acceptance of a class tells",
  ];
}
