/**
 * Checks on cassette paths that give one clear error instead of a failure
 * deep inside a recorder.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";
import { runtime } from "../runtime/mod.ts";

function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (cut < 0) return ".";
  return cut === 0 ? path.slice(0, 1) : path.slice(0, cut);
}

/** Throws when the folder a cassette would be written in does not exist. */
export async function checkCassetteFolder(cassette: string): Promise<void> {
  const folder = folderOf(cassette);
  const info = await runtime.stat(folder);
  if (!info) {
    throw new UsageError(
      `Cannot write the cassette ${cassette}: the folder ${folder} does not exist`,
    );
  }
  if (!info.isDirectory && !info.isSymlink) {
    throw new UsageError(`Cannot write the cassette ${cassette}: ${folder} is not a folder`);
  }
}

/** The folder part of a path (`.` for a bare file name). */
export { folderOf };
