/**
 * What a server that enforces a JSON Schema (grammar-constrained decoding, as
 * OpenAI's strict structured outputs, vLLM and llama.cpp do) makes of a
 * model's reply: object keys in the schema's order, keys the schema does not
 * name dropped, and strings cut to the schema's `maxLength` (at a word
 * boundary when there is one), and where the schema wants one of a list of
 * strings (a verdict alone) in place of an object (a reason and a verdict),
 * the object's value that the list allows. Scripted judges write one full
 * reply and let this shape it to whatever schema a request sends.
 */

type JsonSchema = { type?: unknown; enum?: unknown[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; maxLength?: number };

/** Cuts `text` to at most `max` characters, at the last space when there is one. */
function cut(text: string, max: number): string {
  if ([...text].length <= max) return text;
  const head = [...text].slice(0, max).join("");
  const space = head.lastIndexOf(" ");
  return (space > 0 ? head.slice(0, space) : head).trimEnd();
}

/** `value` shaped to `schema` as an enforcing server would let a model write it. */
export function conformToSchema(value: unknown, schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return value;
  if (typeof value === "string") return typeof schema.maxLength === "number" ? cut(value, schema.maxLength) : value;
  if (Array.isArray(value)) return value.map((v) => conformToSchema(v, schema.items));
  if (value !== null && typeof value === "object" && Array.isArray(schema.enum)) {
    const allowed = schema.enum;
    return Object.values(value).find((v) => allowed.includes(v)) ?? value;
  }
  if (value !== null && typeof value === "object" && schema.properties) {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (key in source) out[key] = conformToSchema(source[key], sub);
    }
    return out;
  }
  return value;
}

/** The JSON Schema a chat request body asks its reply to match, if any. */
export function requestSchema(body: { response_format?: { json_schema?: { schema?: unknown } } }): JsonSchema | undefined {
  return body.response_format?.json_schema?.schema as JsonSchema | undefined;
}
