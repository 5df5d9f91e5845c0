/**
 * Short reasons, by schema: a reply schema's "reason" strings get a
 * `maxLength`, which servers that enforce JSON Schema (grammar-constrained
 * decoding) hold the model to and the others read as a hint. Our zod schemas
 * do not check the length: a longer reason is kept, never a failed row.
 */

/**
 * A copy of a JSON Schema with `maxLength: max` on every property named
 * "reason".
 *
 * @example
 * withReasonLimit({ type: "object", properties: { reason: { type: "string" } } }, 60)
 * // { type: "object", properties: { reason: { type: "string", maxLength: 60 } } }
 */
export function withReasonLimit(schema: Record<string, unknown>, max: number): Record<string, unknown> {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === "properties" && value !== null && typeof value === "object") {
        const properties: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
          properties[name] = name === "reason" && sub !== null && typeof sub === "object" ? { ...(walk(sub) as object), maxLength: max } : walk(sub);
        }
        out[key] = properties;
      } else out[key] = walk(value);
    }
    return out;
  };
  return walk(schema) as Record<string, unknown>;
}

