/** Values read back from their wire form, as the document's parameter schemas type them. */
import { isJsonMedia, type ParameterEntry } from "../../openapi/lib/operations.js";
import type { SpecModel } from "./model.js";

/** Reads a wire string back as the parameter's schema type (as servers and Prism coerce query values). */
export function fromWire(model: SpecModel, p: ParameterEntry, wire: string | string[]): unknown {
  const s = model.deref(p.schema, "").schema ?? {};
  const types: string[] = s.type === undefined ? [] : [s.type].flat();
  const scalar = (text: string, t: string[]): unknown =>
    (t.includes("integer") || t.includes("number")) && /^-?\d+(\.\d+)?$/.test(text)
      ? Number(text)
      : t.includes("boolean") && (text === "true" || text === "false")
        ? text === "true"
        : text;
  const whole = Array.isArray(wire) ? wire.join(",") : wire;
  if (p.contentType !== undefined && isJsonMedia(p.contentType)) {
    try {
      return JSON.parse(whole) as unknown;
    } catch {
      return whole; // not JSON: read as the text it is
    }
  }
  if (types.includes("object") && whole !== "") {
    // `k,v,k2,v2` (or `k=v,k2=v2` exploded) back to an object, each member read as its property's type.
    const parts = whole.split(",");
    const pairs = p.explode
      ? parts.map((x) => x.split("=") as [string, string?])
      : parts.flatMap((x, i) => (i % 2 === 0 ? [[x, parts[i + 1]] as [string, string?]] : []));
    if (pairs.every(([, v]) => v !== undefined)) {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(
        pairs.map(([k, v]) => [k, scalar(v!, [model.deref(props[k] ?? {}, "").schema?.type ?? []].flat())]),
      );
    }
  }
  if (types.includes("array")) {
    const items: string[] = Array.isArray(wire)
      ? wire
      : wire === ""
        ? []
        : wire.split(p.style === "pipeDelimited" ? "|" : p.style === "spaceDelimited" ? " " : ",");
    const itemTypes: string[] = [model.deref(s.items ?? {}, "").schema?.type ?? []].flat();
    return items.map((i) => scalar(i, itemTypes));
  }
  return scalar(Array.isArray(wire) ? wire.join(",") : wire, types);
}
