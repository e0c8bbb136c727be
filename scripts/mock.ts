/**
 * `npm run mock`: serves the OpenAPI document with Prism on 127.0.0.1 until interrupted.
 * Port: `--port N`, or `MOCK_PORT`, default 4010.
 */
import { startPrism } from "../openapi/lib/prism.js";

const flag = process.argv.indexOf("--port");
const port = Number(flag >= 0 ? process.argv[flag + 1] : process.env.MOCK_PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`mock: port must be an integer from 0 to 65535, got ${JSON.stringify(process.argv[flag + 1] ?? process.env.MOCK_PORT)}`);
  process.exit(2);
}
const prism = await startPrism({ port });
console.log(`Prism mock of openapi/openapi.yaml listening on ${prism.url} (Ctrl-C to stop)`);
const stop = async () => {
  await prism.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
