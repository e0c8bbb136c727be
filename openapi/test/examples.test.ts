/**
 * Every example in the document validates against its schema with ajv (JSON Schema 2020-12, formats on),
 * every request body and every response with a body has one, and the validation is shown to bite.
 */
import { describe, expect, test } from "vitest";
import { loadSpec, SpecValidator, toPointer } from "../lib/spec.js";

const spec = loadSpec();
const validator = new SpecValidator(spec);

interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: unknown;
}

/** Collects media-type, parameter and schema-level examples with the pointer of the schema they illustrate. */
function collectExamples(): { cases: ExampleCase[]; bodiesWithoutExample: string[] } {
  const cases: ExampleCase[] = [];
  const bodiesWithoutExample: string[] = [];
  const fromMedia = (segments: string[], media: Record<string, any>) => {
    const examples = Object.entries((media.examples ?? {}) as Record<string, { value: unknown }>);
    if (media.example !== undefined) examples.push(["example", { value: media.example }]);
    if (examples.length === 0) bodiesWithoutExample.push(toPointer(segments));
    for (const [name, ex] of examples)
      cases.push({
        where: `${toPointer(segments)} (${name})`,
        schemaPointer: toPointer([...segments, "schema"]),
        value: ex.value,
      });
  };
  for (const [path, item] of Object.entries(spec.paths as Record<string, any>)) {
    for (const [method, op] of Object.entries(item as Record<string, any>)) {
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, any>)) {
        fromMedia(["paths", path, method, "requestBody", "content", type], media);
      }
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, any>)) {
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, any>)) {
          fromMedia(["paths", path, method, "responses", status, "content", type], media);
        }
      }
      (op.parameters ?? []).forEach((p: any, i: number) => {
        for (const [name, ex] of Object.entries((p.examples ?? {}) as Record<string, { value: unknown }>)) {
          cases.push({
            where: `${method.toUpperCase()} ${path} parameter ${p.name} (${name})`,
            schemaPointer: toPointer(["paths", path, method, "parameters", i, "schema"]),
            value: ex.value,
          });
        }
      });
    }
  }
  for (const [name, schema] of Object.entries(spec.components.schemas as Record<string, any>)) {
    const walk = (node: any, segments: Array<string | number>) => {
      if (!node || typeof node !== "object") return;
      if (Array.isArray(node.examples) && !segments.includes("x-field-type-discrepancy")) {
        node.examples.forEach((value: unknown, i: number) => {
          cases.push({ where: `${toPointer(segments)} examples[${i}]`, schemaPointer: toPointer(segments), value });
        });
      }
      for (const key of ["properties"])
        for (const [k, v] of Object.entries(node[key] ?? {})) walk(v, [...segments, key, k]);
    };
    walk(schema, ["components", "schemas", name]);
  }
  return { cases, bodiesWithoutExample };
}

const { cases, bodiesWithoutExample } = collectExamples();

describe("examples", () => {
  test("every request body and every response body has at least one example", () => {
    expect(bodiesWithoutExample).toEqual([]);
    // 3 request bodies + 4 response bodies (200 x3, 408, 503 = 5) at the least.
    expect(cases.filter((c) => c.where.includes("/content/")).length).toBeGreaterThanOrEqual(7);
  });

  test.each(cases.map((c) => [c.where, c] as const))("%s validates against its schema", (_where, c) => {
    const errors = validator.validate(c.schemaPointer, c.value);
    expect(errors.map((e) => `${e.instancePath || "/"} ${e.message} (${e.schemaPath})`)).toEqual([]);
  });

  test(
    "validation bites: a string field type in the schema response, " + "a bad brq_ id and a missing field are rejected",
    () => {
      const put = cases.find((c) => c.where.startsWith("/paths/~1v1~1schemas~1{id}/put/responses/200"))!;
      const broken = structuredClone(put.value) as any;
      broken.fields[6].fields[0].fields[1].fields[0].type = "double";
      expect(validator.validate(put.schemaPointer, broken).map((e) => e.instancePath)).toContain(
        "/fields/6/fields/0/fields/1/fields/0/type",
      );

      const list = cases.find((c) => c.where.startsWith("/paths/~1v1~1browser~1requests/get/responses/200"))!;
      const badList = structuredClone(list.value) as any;
      badList.data.results[2].id = "req_P5xL2mV8nQ3tR7kW1cB9zH4yD6sJ0a";
      delete badList.data.results[0].actions[1].timestamp;
      const pointers = validator.validate(list.schemaPointer, badList).map((e) => `${e.instancePath} ${e.message}`);
      expect(pointers).toContain('/data/results/2/id must match pattern "^brq_[A-Za-z0-9]+$"');
      expect(pointers).toContain("/data/results/0/actions/1 must have required property 'timestamp'");
    },
  );
});
