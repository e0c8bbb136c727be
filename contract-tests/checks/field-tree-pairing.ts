import type { Check } from "../types.js";
import { fieldPairs, schemaBodies } from "./field-tree.js";
import { payloadPrefix, show, violation } from "./helpers.js";

/** The returned field tree pairs with the sent one: same names, same order, same nesting. */
export const fieldTreePairing: Check = (ex) => {
  const bodies = schemaBodies(ex);
  if (!bodies) return [];
  return fieldPairs(bodies.sent.fields, bodies.got.fields).flatMap(({ sent, got, path }) => {
    if (sent && got && sent.name === got.name) return [];
    const title = !got ? "Sent field missing from the response" : !sent ? "Response has a field that was not sent" : "Field name or order changed";
    return [
      violation(ex, {
        check: "field_tree_pairing",
        severity: "error",
        title,
        received: got ? `field ${show(got.name)}` : "nothing",
        documented: sent ? `field ${show(sent.name)} at this position (as sent)` : "no field here (none was sent)",
        instancePath: payloadPrefix(ex) + path,
        value: got?.name,
      }),
    ];
  });
};
