/**
 * The request plan of an operation: what every phase needs to build a request, derived once from the operation
 * (its parameters by location and name, and the body the suite sends: media, schema, Content-Type, how it is
 * written and its Encoding Object). A phase builds its requests from the plan and its values.
 */
import {
  essence,
  isJsonMedia,
  type MediaEntry,
  type OperationEntry,
  type ParameterEntry,
} from "../../openapi/lib/operations.js";

/** How a body is written on the wire. */
export type BodyWriting = "json" | "form" | "multipart" | "text";

/** The body the suite sends an operation. */
export interface BodyPlan {
  /** The media entry of the request body the suite writes (its examples, schema and encoding). */
  media: MediaEntry;
  /** JSON pointer of the body schema, when the media entry has one. */
  pointer: string | undefined;
  /** The Content-Type it is sent with: the media type, or for a range a concrete type in it. */
  contentType: string;
  writing: BodyWriting;
  /** A form's Encoding Object, by property (empty when the document gives none). */
  encoding: NonNullable<MediaEntry["encoding"]>;
  /** The document's `requestBody.required` (false when absent). */
  required: boolean;
}

/** What building a request of one operation needs, derived once per operation. */
export interface RequestPlan {
  op: OperationEntry;
  /** The parameters by location, then name (the first the document lists, when a name repeats). */
  parameters: Record<ParameterEntry["in"], ReadonlyMap<string, ParameterEntry>>;
  /** The body the suite sends; undefined when the operation takes none or only media the suite cannot write. */
  body: BodyPlan | undefined;
}

const FORM_MEDIA = /^application\/x-www-form-urlencoded\b/i;
const MULTIPART_MEDIA = /^multipart\/form-data\b/i;

/**
 * The media type the suite sends an operation's body as: JSON when the operation takes JSON, else a URL-encoded
 * form, else a multipart form, else text; undefined when it takes no body or only media the suite cannot write.
 */
function bodyMedia(op: OperationEntry): MediaEntry | undefined {
  const content = op.requestBody?.content ?? [];
  // application/json itself first, then any other concrete JSON type, then a JSON range (application/*+json).
  const json = content.filter((m) => isJsonMedia(m.mediaType));
  const exact =
    json.find((m) => essence(m.mediaType) === "application/json") ?? json.find((m) => !m.mediaType.includes("*"));
  return (
    exact ??
    json[0] ??
    content.find((m) => FORM_MEDIA.test(m.mediaType)) ??
    content.find((m) => MULTIPART_MEDIA.test(m.mediaType)) ??
    content.find((m) => /^text\//i.test(m.mediaType))
  );
}

/**
 * The Content-Type a body documented under `mediaType` is sent with: itself, or for a range a concrete type in
 * it (a Content-Type is never a range): `*\/*` and `application/*` as application/json, `text/*` as text/plain,
 * `application/*+json` as application/vnd.contract-suite+json.
 */
function concreteMedia(mediaType: string): string {
  const type = essence(mediaType);
  if (!type.includes("*")) return mediaType;
  if (type === "*/*" || type === "application/*") return "application/json";
  if (type === "text/*") return "text/plain";
  return type.replace("*", "vnd.contract-suite");
}

/** How the suite writes a body of `mediaType`: as JSON, a URL-encoded form, a multipart form, or text. */
export const writingOf = (mediaType: string): BodyWriting =>
  isJsonMedia(mediaType)
    ? "json"
    : FORM_MEDIA.test(mediaType)
      ? "form"
      : MULTIPART_MEDIA.test(mediaType)
        ? "multipart"
        : "text";

const PLANS = new WeakMap<OperationEntry, RequestPlan>();

/** The request plan of `op`, derived on first use and kept for the operation entry. */
export function planOf(op: OperationEntry): RequestPlan {
  const kept = PLANS.get(op);
  if (kept) return kept;
  const parameters: Record<ParameterEntry["in"], Map<string, ParameterEntry>> = {
    path: new Map(),
    query: new Map(),
    header: new Map(),
    cookie: new Map(),
  };
  for (const p of op.parameters) if (!parameters[p.in]?.has(p.name)) parameters[p.in]?.set(p.name, p);
  const media = bodyMedia(op);
  const plan: RequestPlan = {
    op,
    parameters,
    body: media && {
      media,
      pointer: media.schemaPointer,
      contentType: concreteMedia(media.mediaType),
      writing: writingOf(media.mediaType),
      encoding: media.encoding ?? {},
      required: op.requestBody?.required ?? false,
    },
  };
  PLANS.set(op, plan);
  return plan;
}
