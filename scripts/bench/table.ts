/** One line of the bench table. */
export interface Row {
  /** What was measured, e.g. `round trip p50 (echo hello)`. */
  figure: string;
  /** Our value, in `unit`. */
  ours: number;
  /** The same work done without MCP (or the comparison floor), in `unit`; null if none. */
  baseline: number | null;
  unit: string;
  /** Human text of the target, or "—" when the figure is informational. */
  target: string;
  /** Whether the target is met; null when there is no target. */
  met: boolean | null;
}

/** A section's result: its rows plus notes on how it was measured. */
export interface SectionResult {
  rows: Row[];
  notes: string[];
  /** Why the section did not run, when it did not. */
  skipped?: string;
  /** A table of its own (Markdown), written under the results. */
  markdown?: string;
}

/** `ours / baseline`, or null when there is no usable baseline. */
export function ratioOf(row: Row): number | null {
  if (row.baseline === null || row.baseline === 0) return null;
  return row.ours / row.baseline;
}

function formatValue(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

const HEADERS = ["figure", "ours", "baseline", "ratio", "target", "met"];

function cells(row: Row): string[] {
  const ratio = ratioOf(row);
  return [
    row.figure,
    formatValue(row.ours, row.unit),
    row.baseline === null ? "—" : formatValue(row.baseline, row.unit),
    ratio === null ? "—" : `${ratio.toFixed(2)}×`,
    row.target,
    row.met === null ? "—" : row.met ? "yes" : "NO",
  ];
}

/** The table as aligned plain text for the terminal. */
export function renderText(rows: readonly Row[]): string {
  const table = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, column) => Math.max(...table.map((line) => line[column].length)));
  const line = (values: string[]) =>
    values.map((value, column) => value.padEnd(widths[column])).join("  ").trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [line(HEADERS), rule, ...table.slice(1).map(line)].join("\n");
}

/** The table as GitHub-flavoured Markdown. */
export function renderMarkdown(rows: readonly Row[]): string {
  const escape = (value: string) => value.replaceAll("|", "\\|");
  const line = (values: string[]) => `| ${values.map(escape).join(" | ")} |`;
  return [
    line(HEADERS),
    // Figure and target read as text, numbers align right, the verdict sits in the middle.
    "| :--- | ---: | ---: | ---: | :--- | :---: |",
    ...rows.map((row) => line(cells(row))),
  ].join("\n");
}
