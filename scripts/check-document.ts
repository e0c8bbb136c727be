/**
 * `npm run lint`'s first step: the document is untrusted input (a pull request may change it), and the
 * linters that follow (redocly, Spectral) resolve every `$ref`, wherever it is, fetching URLs and reading
 * files. So the document is read and checked first, as the suite and the docs build check it: every `$ref`
 * local (extensions and examples included), valid YAML, an OpenAPI 2.0/3.x document. Exit 2, naming the
 * place, when it is not; the linters do not run.
 */
import { resolve } from "node:path";
import { outsideText } from "../openapi/lib/outside-text.js";
import { loadSpec, SPEC_PATH } from "../openapi/lib/spec.js";
import { DocumentError } from "../openapi/lib/document-error.js";

const path = resolve(process.argv[2] ?? SPEC_PATH);
try {
  loadSpec(path);
} catch (err) {
  if (!(err instanceof DocumentError)) throw err;
  console.error(`check-document: ${outsideText(err.message)}`);
  process.exitCode = 2; // not process.exit: the message is written before the process ends
}
