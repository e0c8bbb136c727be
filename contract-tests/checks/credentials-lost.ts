import { finding } from "../model/exchange.js";
import type { Check } from "../model/types.js";

/**
 * The run lost an account the user gave: its credential, which had worked, was refused on this request, and logging
 * in again failed (its password changed, the account was deleted or disabled). One finding for the loss, on the
 * first refused request, naming the writes answered just before (the likely cause); the scenarios that needed the
 * account stop (the run is incomplete) instead of reporting each refusal. A warning: the document promises no
 * account's lifetime, and the run never changes its login accounts itself (what could is sent as a throwaway one).
 */
export const credentialsLost: Check = (ex) => {
  const lost = ex.response.credentialsLost;
  if (!lost) return [];
  const counted = new Map<string, number>();
  for (const w of lost.changedBy) counted.set(w, (counted.get(w) ?? 0) + 1);
  const writes = [...counted].map(([w, n]) => (n > 1 ? `${w} (${n} times)` : w));
  const before = writes.length
    ? `; the writes answered just before (latest first): ${writes.join("; ")}`
    : "; no write was answered 2xx before it";
  return [
    finding(ex, {
      severity: "warning",
      title: `The run lost the account ${lost.account}: its credential stopped working and logging in again failed`,
      received: `status ${ex.response.status} for a credential that had worked; logging in again: ${lost.why}${before}`,
      documented:
        "the run's login accounts keep working for the whole run (the scenarios that need the account stop here)",
    }),
  ];
};
