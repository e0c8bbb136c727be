/**
 * `npm run contract:schema`: writes contract.config.schema.json, the JSON Schema of the contract
 * suite's config file, from the option table (contract-tests/config/options.ts). A self-test fails when it is stale.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configSchema } from "../contract-tests/config/options.js";

export const CONFIG_SCHEMA_PATH = fileURLToPath(new URL("../contract.config.schema.json", import.meta.url));

/** The file's text. */
export const configSchemaText = (): string => `${JSON.stringify(configSchema(), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CONFIG_SCHEMA_PATH, configSchemaText());
  console.log(`wrote ${CONFIG_SCHEMA_PATH}`);
}
