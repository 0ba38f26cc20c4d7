import { z } from "zod";

type Json = Record<string, unknown>;

/**
 * The JSON Schema a client reads for a tool's input or output, without what says nothing: no
 * `$schema` (our schemas use nothing that differs between drafts), no safe-integer bounds (any
 * JSON integer a client sends is one), and `["integer", "null"]` instead of an `anyOf` pair.
 * Descriptions, defaults, enums and real bounds stay.
 */
export function compactJsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: "draft-07", io }) as Json;
  return compact(json) as Json;
}

function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compact);
  if (value === null || typeof value !== "object") return value;
  const json: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "minimum" && child === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && child === Number.MAX_SAFE_INTEGER) continue;
    json[key] = compact(child);
  }
  return mergeNullable(json);
}

/** `{anyOf: [{type: T, ...}, {type: "null"}], ...}` becomes `{type: [T, "null"], ...}`. */
function mergeNullable(json: Json): Json {
  const { anyOf, ...rest } = json;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return json;
  const [inner, nullType] = anyOf as Json[];
  const isNull = Object.keys(nullType).length === 1 && nullType.type === "null";
  if (!isNull || typeof inner.type !== "string") return json;
  const merged: Json = { ...rest, ...inner, type: [inner.type, "null"] };
  // An enum lists every allowed value, so null must join it.
  if (Array.isArray(inner.enum)) merged.enum = [...inner.enum, null];
  return merged;
}
