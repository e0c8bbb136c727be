/**
 * The bounds of the work a document can ask of the suite, in one place: every generator (valid samples,
 * boundary values, negative values, big values) reads its caps from here. The work is synchronous, so no
 * timeout could stop a run that a small hostile document sends into a huge string, a `$ref` fan-out or a
 * catastrophic regular expression: these bounds prevent it. Where a bound cuts generation short, the
 * scenario is skipped with a reason that names the place in the document and the bound
 * ({@link BoundExceeded}); where a smaller value serves as well (a maxLength of 2147483647), the cap is applied.
 */
import { SkipScenario } from "../transport/target.js";

/** The longest string any generator builds (a document's larger maxLength is capped to it). */
export const MAX_GENERATED_LENGTH = 10_000;
/** The most items of an array any generator builds. */
export const MAX_GENERATED_ITEMS = 10_000;
/**
 * The most schema nodes one inlined (reference-free) copy of a schema may have: a `$ref` fan-out without a
 * cycle (7 levels of 30 properties each is 30^6 nodes from 13 kB) stops here instead of filling the memory.
 */
export const INLINE_NODE_BUDGET = 50_000;

/** Generation stopped at a bound: the scenario is skipped with this reason (place and bound named). */
export class BoundExceeded extends SkipScenario {
  override name = "BoundExceeded";
  constructor(
    /** Where in the document (a JSON pointer). */
    readonly place: string,
    /** The bound, as a sentence. */
    readonly bound: string,
  ) {
    super(`skipped: generation stopped at ${place || "/"}: ${bound}`);
  }
}
