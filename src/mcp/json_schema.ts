import { z } from "zod";

type Json = Record<string, unknown>;
type Io = "input" | "output";

/** What this converter reads of a zod schema's internals (zod 4's `_zod`). */
interface Internals {
  def: {
    type: string;
    [key: string]: unknown;
  };
  optin?: string;
  optout?: string;
  traits: Set<string>;
}

const internals = (schema: z.ZodType) => (schema as unknown as { _zod: Internals })._zod;

/**
 * The JSON Schema a client reads for a tool's input or output, without what says nothing: no
 * `$schema` (our schemas use nothing that differs between drafts), no safe-integer bounds (any
 * JSON integer a client sends is one), and `["integer", "null"]` instead of an `anyOf` pair.
 * Descriptions, defaults, enums and real bounds stay.
 *
 * It converts the zod types the tool schemas use itself, in one walk: zod's own `toJSONSchema`
 * (the test's oracle, which must agree) took tens of milliseconds for the tool list, a large
 * part of the time to a client's first `tools/list`. A type it does not know is an error.
 */
export function compactJsonSchema(schema: z.ZodType, io: Io): Json {
  return convert(schema, io);
}

function convert(schema: z.ZodType, io: Io): Json {
  const { def } = internals(schema);
  const meta = z.globalRegistry.get(schema) as Json | undefined;
  const json = own(schema, io);
  if (meta !== undefined) {
    for (const [key, value] of Object.entries(meta)) if (value !== undefined) json[key] = value;
  }
  const inner = innerOf(schema, io);
  if (inner !== undefined) {
    // A wrapper's own keys (default, description) over its inner schema's.
    const merged = { ...convert(inner, io), ...json };
    return def.type === "prefault" && io === "input" && !("default" in merged)
      ? { ...merged, default: jsonCopy(def.defaultValue) }
      : merged;
  }
  return mergeNullable(json);
}

/** The schema a wrapper stands for in the direction asked, or undefined for a leaf. */
function innerOf(schema: z.ZodType, io: Io): z.ZodType | undefined {
  const { def } = internals(schema);
  switch (def.type) {
    case "optional":
    case "default":
    case "prefault":
      return def.innerType as z.ZodType;
    case "pipe": {
      const input = def.in as z.ZodType;
      const transforms = internals(input).traits.has("$ZodTransform");
      return io === "input" ? (transforms ? def.out : input) as z.ZodType : def.out as z.ZodType;
    }
  }
  return undefined;
}

/** A schema's own keywords, before its metadata. */
function own(schema: z.ZodType, io: Io): Json {
  const { def } = internals(schema);
  const bag = checksOf(def.checks as z.ZodType[] | undefined);
  switch (def.type) {
    case "optional":
    case "pipe":
    case "prefault":
      return {};
    case "default":
      return { default: jsonCopy(def.defaultValue) };
    case "string":
      return bounded({ type: "string" }, bag, "minLength", "maxLength");
    case "boolean":
      return { type: "boolean" };
    case "unknown":
    case "any":
      return {};
    case "number":
      return numberOf(bag);
    case "enum":
      return enumOf(def.entries as Record<string, string | number>);
    case "array":
      return {
        ...bounded({}, bag, "minItems", "maxItems"),
        type: "array",
        items: convert(def.element as z.ZodType, io),
      };
    case "object":
      return objectOf(schema, io);
    case "record":
      return {
        type: "object",
        propertyNames: convert(def.keyType as z.ZodType, io),
        additionalProperties: convert(def.valueType as z.ZodType, io),
      };
    case "nullable":
      return { anyOf: [convert(def.innerType as z.ZodType, io), { type: "null" }] };
    case "union":
      return { anyOf: (def.options as z.ZodType[]).map((option) => convert(option, io)) };
  }
  throw new Error(`compactJsonSchema cannot convert a zod ${def.type} schema; add it here`);
}

/** The bounds and format the checks of a string, array or number set. */
interface Checks {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  integer?: boolean;
}

function checksOf(checks: z.ZodType[] | undefined): Checks {
  const bag: Checks = {};
  for (const check of checks ?? []) {
    const def = internals(check).def as unknown as {
      check: string;
      minimum?: number;
      maximum?: number;
      value?: number;
      inclusive?: boolean;
      format?: string;
    };
    switch (def.check) {
      case "min_length":
        bag.minimum = Math.max(bag.minimum ?? -Infinity, def.minimum!);
        break;
      case "max_length":
        bag.maximum = Math.min(bag.maximum ?? Infinity, def.maximum!);
        break;
      case "number_format":
        bag.integer ||= def.format?.includes("int") ?? false;
        break;
      case "greater_than":
        if (def.inclusive) bag.minimum = Math.max(bag.minimum ?? -Infinity, def.value!);
        else bag.exclusiveMinimum = Math.max(bag.exclusiveMinimum ?? -Infinity, def.value!);
        break;
      case "less_than":
        if (def.inclusive) bag.maximum = Math.min(bag.maximum ?? Infinity, def.value!);
        else bag.exclusiveMaximum = Math.min(bag.exclusiveMaximum ?? Infinity, def.value!);
        break;
      default:
        throw new Error(`compactJsonSchema cannot convert a zod ${def.check} check; add it here`);
    }
  }
  return bag;
}

function bounded(json: Json, bag: Checks, min: string, max: string): Json {
  if (typeof bag.minimum === "number") json[min] = bag.minimum;
  if (typeof bag.maximum === "number") json[max] = bag.maximum;
  return json;
}

/** A number's type and real bounds (the safe-integer bounds of `int()` say nothing). */
function numberOf(bag: Checks): Json {
  const json: Json = { type: bag.integer ? "integer" : "number" };
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = bag;
  if (exclusiveMinimum !== undefined && exclusiveMinimum >= (minimum ?? -Infinity)) {
    json.exclusiveMinimum = exclusiveMinimum;
  } else if (minimum !== undefined) {
    json.minimum = minimum;
  }
  if (exclusiveMaximum !== undefined && exclusiveMaximum <= (maximum ?? Infinity)) {
    json.exclusiveMaximum = exclusiveMaximum;
  } else if (maximum !== undefined) {
    json.maximum = maximum;
  }
  return json;
}

function enumOf(entries: Record<string, string | number>): Json {
  const values = [...new Set(Object.values(entries))];
  if (values.every((value) => typeof value === "string")) return { type: "string", enum: values };
  if (values.every((value) => typeof value === "number")) return { type: "number", enum: values };
  return { enum: values };
}

function objectOf(schema: z.ZodType, io: Io): Json {
  const { def } = internals(schema);
  const shape = def.shape as Record<string, z.ZodType>;
  const properties: Json = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    properties[key] = convert(field, io);
    const optional = io === "input" ? inputOptin(field) : internals(field).optout;
    if (optional === undefined) required.push(key);
  }
  const json: Json = { type: "object", properties };
  if (required.length > 0) json.required = required;
  const catchall = def.catchall as z.ZodType | undefined;
  if (catchall !== undefined && internals(catchall).def.type === "never") {
    json.additionalProperties = false;
  } else if (catchall !== undefined) {
    json.additionalProperties = convert(catchall, io);
  } else if (io === "output") {
    json.additionalProperties = false;
  }
  return json;
}

/** Whether a field may be left out on input (zod's rule: a transform's optionality is not). */
function inputOptin(schema: z.ZodType): string | undefined {
  const { def, optin } = internals(schema);
  if (def.type === "pipe" && internals(def.in as z.ZodType).traits.has("$ZodTransform")) {
    return inputOptin(def.out as z.ZodType);
  }
  return optin;
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

/** A default as JSON carries it (zod's conversion round-trips it the same way). */
function jsonCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
