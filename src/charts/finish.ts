/**
 * The last step of every chart builder: the spec made safe to render,
 * whatever the labels and however many categories there are.
 */
import { setField } from "../dataset/table";
import type { VegaLiteSpec } from "./spec";
import { chartText, fitLabels, labelChars } from "./text";

/**
 * The longest category order a spec writes out as a `sort` list. Vega-Lite
 * compiles such a list into one nested expression, which Vega's expression
 * compiler cannot parse past about 900 entries ("Maximum call stack size
 * exceeded"); longer orders are carried as a number in the data rows instead
 * (see {@link finishSpec}).
 */
export const MAX_SORT_LIST = 100;

/** Vega's default label limits in pixels (axes, legends) and label font size. */
const AXIS_LABEL_LIMIT = 180;
const LEGEND_LABEL_LIMIT = 160;
const LABEL_FONT_SIZE = 10;

type Node = Record<string, unknown>;
type Rows = Record<string, unknown>[];

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);

/** A deep copy of a JSON value with every string passed through {@link chartText}. */
function cleaned(value: unknown): unknown {
  if (typeof value === "string") return chartText(value);
  if (Array.isArray(value)) return value.map(cleaned);
  if (!isNode(value)) return value;
  const out: Node = {};
  for (const [key, v] of Object.entries(value)) setField<unknown>(out, key, cleaned(v));
  return out;
}

/** The inline rows of a node's `data`, if any. */
function inlineRows(node: Node): Rows | undefined {
  const data = node["data"];
  return isNode(data) && Array.isArray(data["values"]) ? (data["values"] as Rows) : undefined;
}

/** The child views of a node: layers, the facet's inner spec, concatenations. */
function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const key of ["layer", "hconcat", "vconcat", "concat"]) {
    const list = node[key];
    if (Array.isArray(list)) out.push(...list.filter(isNode));
  }
  if (isNode(node["spec"])) out.push(node["spec"]);
  return out;
}

/** The field definitions of a node that may carry a sort or labels: its encoding channels and facet rows/columns. */
function channels(node: Node): [string, Node][] {
  const out: [string, Node][] = [];
  if (isNode(node["encoding"])) for (const [channel, def] of Object.entries(node["encoding"])) if (isNode(def)) out.push([channel, def]);
  const facet = node["facet"];
  if (isNode(facet)) {
    if (typeof facet["field"] === "string") out.push(["facet", facet]);
    for (const channel of ["row", "column"]) if (isNode(facet[channel])) out.push([channel, facet[channel] as Node]);
  }
  return out;
}

/** Every inline row array in a view and the views under it. */
function rowsUnder(node: Node): Rows[] {
  const own = inlineRows(node);
  return [...(own ? [own] : []), ...children(node).flatMap(rowsUnder)];
}

/** A field name not yet used by any of the rows. */
function freeField(base: string, rows: readonly Rows[]): string {
  let name = base;
  while (rows.some((list) => list.some((r) => Object.prototype.hasOwnProperty.call(r, name)))) name += "_";
  return name;
}

/**
 * Long `sort` lists become a number in the rows: `<field>_order`, the place
 * of the row's category in the list (categories not listed after it), and
 * the channel sorts by its minimum. Rows in scope are those the view and its
 * layers draw; a view with no inline rows is left as it is.
 */
function orderLongSorts(node: Node, scope: Rows | undefined, made = new Map<string, string>()): void {
  const here = inlineRows(node) ?? scope;
  for (const [, def] of channels(node)) {
    const sort = def["sort"];
    const field = def["field"];
    if (!Array.isArray(sort) || sort.length <= MAX_SORT_LIST || typeof field !== "string") continue;
    const targets = [...new Set([...(here ? [here] : []), ...children(node).flatMap(rowsUnder)])];
    if (targets.length === 0) continue;
    const rank = new Map<unknown, number>();
    sort.forEach((value, i) => {
      if (!rank.has(value)) rank.set(value, i);
    });
    // One order field per field and order, whichever layers sort by it.
    const key = JSON.stringify([field, sort]);
    const orderField = made.get(key) ?? freeField(`${field}_order`, targets);
    made.set(key, orderField);
    for (const list of targets) {
      for (const row of list) {
        if (!Object.prototype.hasOwnProperty.call(row, field)) continue;
        row[orderField] = rank.get(row[field]) ?? sort.length;
      }
    }
    def["sort"] = { field: orderField, op: "min" };
  }
  for (const child of children(node)) orderLongSorts(child, here, made);
}

/** The label budget in characters of an axis or legend (its labelLimit over the width of a character). */
function budget(guide: Node | undefined, limit: number): number | undefined {
  if (guide !== undefined && typeof guide["labelExpr"] === "string") return undefined;
  const px = typeof guide?.["labelLimit"] === "number" ? (guide["labelLimit"] as number) : limit;
  if (!(px > 0)) return undefined;
  const font = typeof guide?.["labelFontSize"] === "number" ? (guide["labelFontSize"] as number) : LABEL_FONT_SIZE;
  return labelChars(px, font);
}

/** Every nominal field shown as axis or legend labels, with the guides showing it and their budgets. */
function labelledFields(node: Node, found: Map<string, { guides: [Node, string][]; chars: number }>): void {
  for (const [channel, def] of channels(node)) {
    const field = def["field"];
    if (typeof field !== "string" || (def["type"] !== "nominal" && def["type"] !== "ordinal")) continue;
    const isAxis = channel === "x" || channel === "y";
    const isLegend = ["color", "fill", "stroke", "shape", "size", "opacity"].includes(channel);
    if (!isAxis && !isLegend) continue;
    const key = isAxis ? "axis" : "legend";
    if (def[key] === null) continue;
    const guide = isNode(def[key]) ? (def[key] as Node) : undefined;
    const chars = budget(guide, isAxis ? AXIS_LABEL_LIMIT : LEGEND_LABEL_LIMIT);
    if (chars === undefined) continue;
    const entry = found.get(field) ?? { guides: [], chars };
    entry.guides.push([def, key]);
    entry.chars = Math.min(entry.chars, chars);
    found.set(field, entry);
  }
  for (const child of children(node)) labelledFields(child, found);
}

/**
 * Labels longer than their axis or legend has room for are cut in the
 * middle, distinct from one another ({@link fitLabels}), and shown through a
 * lookup table in a top-level param (`<field>_labels`); the data keep the
 * full names, so tooltips show them whole. Without this Vega cuts labels at
 * their end, and two long names that share a prefix read the same.
 */
function shortenLabels(spec: VegaLiteSpec): void {
  const found = new Map<string, { guides: [Node, string][]; chars: number }>();
  labelledFields(spec, found);
  if (found.size === 0) return;
  const allRows = rowsUnder(spec);
  const params: Node[] = [];
  for (const [field, { guides, chars }] of found) {
    const names = new Set<string>();
    for (const list of allRows) for (const row of list) if (typeof row[field] === "string") names.add(row[field] as string);
    for (const [def] of guides) {
      const domain = isNode(def["scale"]) ? def["scale"]["domain"] : undefined;
      if (Array.isArray(domain)) for (const v of domain) if (typeof v === "string") names.add(v);
    }
    const list = [...names];
    const labels = fitLabels(list, chars);
    const table: Node = {};
    list.forEach((name, i) => {
      if (labels[i] !== name) setField<unknown>(table, name, labels[i]!);
    });
    if (Object.keys(table).length === 0) continue;
    const name = `${field.replace(/[^A-Za-z0-9_]/g, "_")}_labels`;
    params.push({ name, value: table });
    const expr = `isString(${name}[datum.value]) ? ${name}[datum.value] : datum.label`;
    for (const [def, key] of guides) def[key] = { ...(isNode(def[key]) ? (def[key] as Node) : {}), labelExpr: expr };
  }
  if (params.length > 0) spec["params"] = [...(Array.isArray(spec["params"]) ? spec["params"] : []), ...params];
}

/**
 * A chart builder's spec made safe to render (every builder returns its spec
 * through this; a new copy, the argument is left as it is):
 * - every string (titles, subtitles, axis titles, data values, tooltips)
 *   passed through {@link chartText}: no control character or lone
 *   surrogate reaches the SVG;
 * - a `sort` list longer than {@link MAX_SORT_LIST} replaced by a number in
 *   the rows (`<field>_order`), so that any number of categories renders;
 * - labels longer than their axis or legend allows cut in the middle,
 *   distinct from one another (the data keep the full text, for tooltips).
 *
 * @example
 * return finishSpec({ ...baseSpec("Wins"), data: { values }, layer });
 */
export function finishSpec(spec: VegaLiteSpec): VegaLiteSpec {
  const out = cleaned(spec) as VegaLiteSpec;
  orderLongSorts(out, undefined);
  shortenLabels(out);
  return out;
}
