/**
 * The size figures docs/install.md states, checked against what the release
 * measured: the tarball packed and unpacked, and the host binary. A figure
 * more than a tenth off (or gone from the page) fails the release, with the
 * figure to write instead.
 *
 * @module
 */
import * as fs from "node:fs";
import path from "node:path";
import { type Outcome, ROOT } from "./common.ts";

/** Where the figures live. */
export const INSTALL_MD = path.join(ROOT, "docs", "install.md");

/** What the release measured, in bytes. */
export interface Measured {
  packedBytes?: number;
  unpackedBytes?: number;
  binaryBytes?: number;
}

interface Figure {
  what: string;
  pattern: RegExp;
  unit: number;
  measured?: number;
}

/** How each figure is written in docs/install.md: `≈ 470 KB packed`, `≈ 2.1 MB unpacked`, `binary is ≈ 110 MB`. */
function figures(measured: Measured): Figure[] {
  return [
    {
      what: "KB packed",
      pattern: /≈ ([\d.]+) KB\s+packed/,
      unit: 1024,
      measured: measured.packedBytes,
    },
    {
      what: "MB unpacked",
      pattern: /≈ ([\d.]+) MB\s+unpacked/,
      unit: 1024 * 1024,
      measured: measured.unpackedBytes,
    },
    {
      what: "MB binary",
      pattern: /binary is\s+≈ ([\d.]+) MB/,
      unit: 1024 * 1024,
      measured: measured.binaryBytes,
    },
  ];
}

/** Compares docs/install.md's size figures with `measured`; one outcome for all of them. */
export function checkFigures(measured: Measured, file = INSTALL_MD): Outcome {
  const text = fs.readFileSync(file, "utf8");
  const wrong: string[] = [];
  let checked = 0;
  for (const figure of figures(measured)) {
    if (figure.measured === undefined) continue;
    const actual = figure.measured / figure.unit;
    const stated = text.match(figure.pattern);
    const shown = `${actual.toFixed(figure.unit === 1024 ? 0 : 1)} ${figure.what}`;
    if (!stated) wrong.push(`no "≈ N ${figure.what}" figure (measured ${shown})`);
    else if (Math.abs(Number(stated[1]) - actual) > actual / 10) {
      wrong.push(`says ≈ ${stated[1]} ${figure.what}, measured ${shown}`);
    }
    checked++;
  }
  const artifact = "docs/install.md figures";
  if (wrong.length) return { artifact, files: [], status: "failed", detail: wrong.join("; ") };
  return {
    artifact,
    files: [],
    status: "proven",
    detail: `${checked} size figures within a tenth of the release's`,
  };
}
