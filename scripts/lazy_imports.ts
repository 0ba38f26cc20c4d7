/**
 * Lazy imports through a named specifier: `const X_MODULE = "./x.ts"` and later
 * `await import(X_MODULE)`. Deno builds the module graph of every literal `import()` when the
 * program starts (it reads each of those files), but not of a computed one, so the server names
 * the modules it loads on first use this way. The layer check counts them as edges, and
 * `deno compile` must be told to include them (scripts/compile_plan.ts INCLUDES).
 */
const CONSTANT = /\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*["'](\.[^"']+\.ts)["']/g;

/** The relative specifiers a source imports through a constant (`import(NAME)`). */
export function lazyImportsOf(source: string): string[] {
  const specifiers: string[] = [];
  for (const [, name, specifier] of source.matchAll(CONSTANT)) {
    if (new RegExp(`\\bimport\\(\\s*${name}\\s*\\)`).test(source)) specifiers.push(specifier);
  }
  return specifiers;
}
