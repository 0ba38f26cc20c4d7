/** Checks of the binary as a file: that it is the release asset, and (macOS) that it is signed. */
import { toHex } from "../compile_plan.ts";

/** The release asset a binary must be, by its line in a `sha256sum`-format file. */
export interface ExpectedAsset {
  /** Asset name, e.g. `yieldshell-aarch64-apple-darwin`. */
  name: string;
  /** Path of the release's SHA256SUMS. */
  sumsFile: string;
}

/** The digest `sums` (sha256sum format) lists for `name`, or null. */
export function listedSum(sums: string, name: string): string | null {
  for (const line of sums.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trim());
    if (match !== null && match[2] === name) return match[1].toLowerCase();
  }
  return null;
}

/** Throws unless `binary` has the digest SHA256SUMS lists for the asset; returns the digest. */
export async function checkAsset(binary: string, asset: ExpectedAsset): Promise<string> {
  const listed = listedSum(await Deno.readTextFile(asset.sumsFile), asset.name);
  if (listed === null) throw new Error(`${asset.sumsFile} has no line for ${asset.name}`);
  const actual = toHex(await crypto.subtle.digest("SHA-256", await Deno.readFile(binary)));
  if (actual !== listed) {
    throw new Error(
      `${binary} has SHA-256 ${actual}, but ${asset.sumsFile} lists ${listed} for ${asset.name}: ` +
        "it is another asset or a modified copy",
    );
  }
  return actual;
}

/** Throws unless `codesign --verify --strict` accepts `binary`; returns what it said. */
export async function checkSignature(binary: string): Promise<string> {
  const output = await new Deno.Command("codesign", {
    args: ["--verify", "--strict", "--verbose=2", binary],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(output.stderr).trim().replaceAll(/\s*\n\s*/g, "; ");
  if (!output.success) {
    throw new Error(`codesign --verify rejects it (exit code ${output.code}): ${said}`);
  }
  return said;
}

/** Mach-O magic numbers: 64- and 32-bit, either byte order, and universal ("fat") files. */
const MACH_O_MAGICS = [0xfeedfacf, 0xcffaedfe, 0xfeedface, 0xcefaedfe, 0xcafebabe, 0xbebafeca];

/** Whether `path` is a Mach-O executable (a stand-in script is not, and cannot be signed). */
export async function isMachO(path: string): Promise<boolean> {
  using file = await Deno.open(path);
  const head = new Uint8Array(4);
  if ((await file.read(head)) !== 4) return false;
  return MACH_O_MAGICS.includes(new DataView(head.buffer).getUint32(0));
}
