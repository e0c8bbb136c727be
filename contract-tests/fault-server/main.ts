/**
 * Runs the fault server from the command line (`npx tsx contract-tests/fault-server/main.ts`) and prints its
 * variants.
 */
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
