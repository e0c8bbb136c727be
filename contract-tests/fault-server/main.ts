/**
 * Runs the fault servers from the command line (`npx tsx contract-tests/fault-server/main.ts`) and prints their
 * variants.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAccountsServer } from "./accounts.js";
import { writeAccountsDocuments } from "./accounts-document.js";
import { ACCOUNTS_FAULTS, ACCOUNTS_LENIENT, type AccountsVariant } from "./accounts-faults.js";
import { ACCOUNTS, OAUTH_CLIENTS } from "./accounts-store.js";
import { FAULTS } from "./faults.js";
import { FAULT_SERVER_KEY, FAULT_SERVER_SECOND_KEY, HOSTILE, startFaultServer } from "./server.js";

const server = await startFaultServer();
// The fault server's keys are local test values, not secrets.
console.log(`fault server on ${server.url}; settings for every variant:`);
console.log(
  `  CONTRACT_API_KEY=${FAULT_SERVER_KEY} CONTRACT_SECOND_API_KEY=${FAULT_SERVER_SECOND_KEY} ` +
    `CONTRACT_PARAMS='{"updateDataSchema.id":"dsc_contractSuite1"}'`,
);
console.log(`conforming: CONTRACT_BASE_URL=${server.baseUrl()}`);
for (const fault of [...Object.keys(FAULTS), ...HOSTILE])
  console.log(`${fault}: CONTRACT_BASE_URL=${server.baseUrl(fault as keyof typeof FAULTS)}`);

// The accounts server's passwords and client secrets are local test values too.
const accounts = await startAccountsServer();
const documents = writeAccountsDocuments(mkdtempSync(join(tmpdir(), "accounts-documents-")));
console.log(`\naccounts server on ${accounts.url}; its documents (CONTRACT_SPEC), by flavour:`);
for (const [auth, paths] of Object.entries(documents)) console.log(`  ${auth}: ${paths.plain} (links: ${paths.links})`);
console.log(
  `  accounts: ${Object.values(ACCOUNTS)
    .map((a) => `${a.username} / ${a.password}`)
    .join(", ")}`,
);
console.log(
  `  OAuth2 clients: ${Object.values(OAUTH_CLIENTS)
    .map((c) => `${c.client_id} / ${c.client_secret}`)
    .join(", ")}`,
);
console.log(`  another flavour's base URL: ${accounts.flavourUrl("apikey-login")} (and so on)`);
console.log(`conforming: CONTRACT_BASE_URL=${accounts.baseUrl()}`);
for (const name of [...Object.keys(ACCOUNTS_FAULTS), ...Object.keys(ACCOUNTS_LENIENT)] as AccountsVariant[])
  console.log(`${name}: CONTRACT_BASE_URL=${accounts.baseUrl(name)}`);
