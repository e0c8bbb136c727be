/** Runs the fault server from the command line (`npx tsx contract-tests/fault-server/main.ts`) and prints its variants. */
import { FAULTS } from "./faults.js";
import { FAULT_SERVER_KEY, startFaultServer } from "./server.js";

const server = await startFaultServer();
// The fault server's key is a local test value, not a secret.
console.log(`fault server on ${server.url}; CONTRACT_API_KEY=${FAULT_SERVER_KEY} CONTRACT_SCHEMA_ID=dsc_contractSuite1`);
console.log(`conforming: CONTRACT_BASE_URL=${server.baseUrl()}`);
for (const fault of Object.keys(FAULTS)) console.log(`${fault}: CONTRACT_BASE_URL=${server.baseUrl(fault as keyof typeof FAULTS)}`);
