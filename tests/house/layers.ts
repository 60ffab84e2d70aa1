/**
 * The layering rule of the house: the library and the gates never reach the
 * command line. A file in a guarded folder may not import `src/cli/`, not
 * directly and not through any chain of imports (type-only imports and
 * dynamic `import("…")` of a literal included), since a module that imports
 * the CLI drags it, and its decisions, into every user of the library.
 */
import * as path from "node:path";
import ts from "typescript";
import type { Source, Violation } from "./house_check.ts";

/** What the library and the gates are made of: none of it may reach src/cli/. */
export const BELOW_THE_CLI = [
  "src/config/",
  "src/api/",
  "src/testing/",
  "src/modes/",
  "src/options/",
  "src/text/",
  "src/check/",
  "src/verify/",
  "src/lint/",
  "src/diff/",
  "src/inspect/",
  "src/surface/",
  "src/client/",
];

/** The command line: src/cli/, and the commands that are its other half. */
const CLI = ["src/cli/", "src/commands/"];

/** Relative `.ts` modules `source` imports: static, re-exported and literal dynamic. */
function importedModules(source: Source): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])
    ) specifiers.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source.ast);
  return specifiers.filter((specifier) => specifier.startsWith(".")).map((specifier) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(source.name), specifier))
  );
}

/**
 * Files under {@linkcode BELOW_THE_CLI} that reach the CLI, each with the
 * shortest chain of imports that gets there.
 */
export function cliReach(sources: Source[], guarded = BELOW_THE_CLI): Violation[] {
  const graph = new Map(sources.map((source) => [source.name, importedModules(source)]));
  const out: Violation[] = [];
  for (const source of sources) {
    if (!guarded.some((folder) => source.name.startsWith(folder))) continue;
    const chain = chainToCli(source.name, graph);
    if (!chain) continue;
    const key = `${source.name}: imports the CLI`;
    out.push({ rule: "layer", key, detail: `${key} (${chain.join(" -> ")})`, files: chain });
  }
  return out;
}

/** Breadth first from `start` to the first module of the CLI; the chain, or undefined. */
function chainToCli(start: string, graph: Map<string, string[]>): string[] | undefined {
  const cameFrom = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (CLI.some((folder) => name.startsWith(folder))) {
      const chain = [name];
      for (let at = cameFrom.get(name); at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
      return chain;
    }
    for (const next of graph.get(name) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, name);
        queue.push(next);
      }
    }
  }
  return undefined;
}
