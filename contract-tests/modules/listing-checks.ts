/** The listing's semantics as checks: defaults, paging arithmetic, filters, pages that do not overlap. */
import { finding, isObject, isSuccess, show } from "../model/exchange.js";
import type { Check, Exchange, Finding } from "../model/types.js";

type Out = Array<Omit<Finding, "check">>;

/** The listing page (`data`) of a successful listing response, or undefined. */
export function listingPage(ex: Exchange): Record<string, any> | undefined {
  const json = ex.response.json;
  return isSuccess(ex) && isObject(json) && isObject(json.data) ? json.data : undefined;
}

/** The results of a page that are objects. */
export function listingResults(page: Record<string, any>): Array<Record<string, any>> {
  return Array.isArray(page.results) ? page.results.filter(isObject) : [];
}

/**
 * The values a comma-joined (or repeated) query parameter was sent with; an empty value reads as not sent (no filter
 * claimed).
 */
function queryList(ex: Exchange, name: string): string[] | undefined {
  const v = ex.request.query[name];
  const list = v === undefined ? [] : (Array.isArray(v) ? v : v.split(",")).filter((x) => x !== "");
  return list.length > 0 ? list : undefined;
}

const askedNumber = (ex: Exchange, name: string, fallback: number) => {
  const v = ex.request.query[name];
  return v === undefined ? fallback : Number(Array.isArray(v) ? v[0] : v);
};

/** With `page` / `pageSize` omitted the page is 1 and the page size 30 (seed section 8). */
export const listingDefaults: Check = (ex) => {
  const page = listingPage(ex);
  if (!page) return [];
  const out: Out = [];
  const expect = (field: "page" | "page_size", param: string, value: number) => {
    // A null member is not given: it claims no page.
    if (ex.request.query[param] === undefined && page[field] !== null && page[field] !== value)
      out.push(
        finding(ex, {
          severity: "error",
          title: `Wrong default for ${param}`,
          received: `${field}: ${show(page[field])}`,
          documented: `${field}: ${value} when ${param} is omitted`,
          instancePath: `/data/${field}`,
          value: page[field],
        }),
      );
  };
  expect("page", "page", 1);
  expect("page_size", "pageSize", 30);
  return out;
};

/** `total_pages` is ceil(total_records / page_size); an empty listing may say 0 or 1 page. */
export const listingTotalPages: Check = (ex) => {
  const page = listingPage(ex);
  if (!page) return [];
  const { total_pages: pages, total_records: records, page_size: size } = page;
  if (![pages, records, size].every(Number.isInteger) || size < 1) return []; // the schema check reports these
  const expected = Math.ceil(records / size);
  if (pages === expected || (records === 0 && pages === 1)) return [];
  return [
    finding(ex, {
      severity: "error",
      title: "total_pages disagrees with total_records and page_size",
      received: `total_pages: ${pages}, total_records: ${records}, page_size: ${size} (ceil gives ${expected})`,
      documented: "total_pages = ceil(total_records / page_size) (0 or 1 for an empty listing)",
      instancePath: "/data/total_pages",
      value: pages,
    }),
  ];
};

/** The page returned is the one asked for, its size honours `pageSize`, and it holds the right number of results. */
export const listingPageSize: Check = (ex) => {
  const page = listingPage(ex);
  if (
    !page ||
    !Array.isArray(page.results) ||
    !Number.isInteger(page.page_size) ||
    !Number.isInteger(page.total_records)
  )
    return [];
  const out: Out = [];
  const add = (title: string, received: string, documented: string, instancePath: string) =>
    out.push(finding(ex, { severity: "error", title, received, documented, instancePath }));
  const askedPage = askedNumber(ex, "page", 1);
  const askedSize = askedNumber(ex, "pageSize", 30);
  // A null page is not given: neither the page asked for nor the count of its results can be related to it.
  if (page.page === null) return [];
  if (page.page !== askedPage)
    add("Wrong page returned", `page: ${page.page} for page=${askedPage}`, "the page asked for", "/data/page");
  // The maximum page size is not shown: a server may cap a large pageSize, never exceed it, and 30 (the default) must
  // fit.
  if (page.page_size > askedSize || (askedSize <= 30 && page.page_size !== askedSize))
    add(
      "page_size does not honour pageSize",
      `page_size: ${page.page_size} for pageSize=${askedSize}`,
      "page_size = pageSize (or less above the server's maximum, which is not shown; 30 always fits)",
      "/data/page_size",
    );
  const expected = Math.max(0, Math.min(page.page_size, page.total_records - (page.page - 1) * page.page_size));
  if (page.results.length !== expected)
    add(
      "Wrong number of results on the page",
      `${page.results.length} results (the formula gives ${expected})`,
      "min(page_size, total_records - (page - 1) * page_size) results",
      "/data/results",
    );
  return out;
};

/** A successful listing carries `error: null` next to `data`. */
export const listingErrorNull: Check = (ex) => {
  const json = ex.response.json;
  if (!isSuccess(ex) || !isObject(json)) return [];
  if ("error" in json && json.error === null) return [];
  return [
    finding(ex, {
      severity: "error",
      title: "error is not null on success",
      received: "error" in json ? `error: ${show(json.error)}` : "no error member",
      documented: "error: null",
      instancePath: "/error",
      value: json.error,
    }),
  ];
};

/**
 * With `status` given, both ways: every result is in one of the asked states (a null state is not given: no
 * claim), and the records of every asked state are there, as listings of each state alone (`alone`, of the
 * same scenario) showed them: when the first page holds every matching record, each asked state that had
 * records alone has one on it; else total_records is at least what the asked states had alone together (a
 * record has one state, so the filter is their union).
 */
export const listingStatusFilter: Check = (ex, ctx) => {
  const page = listingPage(ex);
  const asked = queryList(ex, "status");
  if (!page || !asked) return [];
  const results = listingResults(page);
  const out: Out = results.flatMap((r, i) =>
    r.state === null || r.state === undefined || asked.includes(r.state)
      ? []
      : [
          finding(ex, {
            severity: "error",
            title: "Result outside the status filter",
            received: `state: ${show(r.state)} (id ${show(r.id, 60)})`,
            documented: `state in ${asked.join(", ")}`,
            instancePath: `/data/results/${i}/state`,
            value: r.state,
          }),
        ],
  );
  const total = page.total_records;
  if (asked.length < 2 || !Number.isInteger(total) || askedNumber(ex, "page", 1) !== 1) return out;
  // Each asked state's records when listed alone (first pages of the same scenario).
  const alone = new Map<string, number>();
  for (const r of ctx.alone ?? []) {
    const single = queryList(r, "status");
    const p = listingPage(r);
    const [state] = single ?? [];
    if (
      single?.length === 1 &&
      state !== undefined &&
      askedNumber(r, "page", 1) === 1 &&
      p &&
      Number.isInteger(p.total_records)
    )
      alone.set(state, p.total_records);
  }
  const states = [...new Set(asked)].filter((s) => (alone.get(s) ?? 0) > 0);
  const missing = (documented: string, received: string) =>
    out.push(
      finding(ex, {
        severity: "error",
        title: "An asked state missing from the status filter's result",
        received,
        documented,
        instancePath: "/data/results",
      }),
    );
  const had = states.map((s) => `${s}: ${alone.get(s)}`).join(", ");
  if (results.length >= total) {
    for (const s of states.filter((st) => !results.some((r) => r.state === st)))
      missing(
        `records of every state asked for (${asked.join(", ")}); status=${s} alone had ${alone.get(s)}`,
        `no result in state ${show(s)} among all ${results.length} results`,
      );
  } else {
    const together = states.reduce((sum, s) => sum + (alone.get(s) ?? 0), 0);
    if (total < together)
      missing(
        `total_records at least the asked states' records alone together (${had}: ${together})`,
        `total_records: ${total}`,
      );
  }
  return out;
};

/** With `ids` given, results are only those ids, each once, and every asked id known to exist is returned. */
export const listingIdsFilter: Check = (ex, ctx) => {
  const page = listingPage(ex);
  const asked = queryList(ex, "ids");
  if (!page || !asked) return [];
  const out: Out = [];
  const add = (title: string, received: string, documented: string, instancePath = "/data/results") =>
    out.push(finding(ex, { severity: "error", title, received, documented, instancePath }));
  // A null id is not given: it claims no record.
  const given = listingResults(page)
    .map((r, i) => ({ id: r.id, i }))
    .filter((r) => r.id !== null && r.id !== undefined);
  const ids = given.map((r) => r.id);
  for (const { id, i } of given)
    if (!asked.includes(id))
      add("Result outside the ids filter", `id: ${show(id, 60)}`, `id in ${asked.join(", ")}`, `/data/results/${i}/id`);
  if (new Set(ids).size !== ids.length) add("The same id returned twice", show(ids, 300), "each asked id at most once");
  const missing = (ctx.expectIds ?? []).filter((id) => !ids.includes(id));
  if (missing.length > 0 && askedNumber(ex, "page", 1) === 1)
    add(
      "Existing ids missing from the result",
      `missing ${missing.join(", ")}`,
      "every asked id that exists on the account",
    );
  return out;
};

/** Pages of one walk do not overlap, and a complete walk holds exactly total_records records. */
export const listingPagesDisjoint: Check = (ex, ctx) => {
  const pages = (ctx.related ?? [ex]).map(listingPage).filter((p): p is Record<string, any> => p !== undefined);
  if (pages.length < 2) return [];
  const out: Out = [];
  const seen = new Map<string, number>();
  let unnamed = 0;
  for (const page of pages)
    for (const r of listingResults(page)) {
      // A null id is not given: it names no record to compare (nor to count).
      if (r.id === null || r.id === undefined) {
        unnamed++;
        continue;
      }
      if (seen.has(r.id))
        out.push(
          finding(ex, {
            severity: "error",
            title: "A record appears on two pages",
            received: `${show(r.id, 60)} on page ${seen.get(r.id)} and page ${page.page}`,
            documented: "pages that do not overlap",
          }),
        );
      else seen.set(r.id, page.page);
    }
  const first = pages[0]!;
  const complete = first.page_size > 0 && pages.length >= Math.ceil(first.total_records / first.page_size);
  if (complete && out.length === 0 && unnamed === 0 && seen.size !== first.total_records)
    out.push(
      finding(ex, {
        severity: "error",
        title: "The pages together do not hold total_records records",
        received: `${seen.size} distinct records over ${pages.length} pages`,
        documented: `total_records: ${first.total_records}`,
      }),
    );
  return out;
};
