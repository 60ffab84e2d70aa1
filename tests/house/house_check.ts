/**
 * The house rules of `src/` as a checker: function and file length, import
 * cycles (type-only imports included), host globals outside `src/runtime/`,
 * a doc comment on every export, and the library never reaching the CLI
 * (layers.ts). It parses with the TypeScript compiler
 * (a devDependency) rather than with regular expressions, so comments,
 * strings and nested functions are told apart from code.
 *
 * Each violation has a `key` that names the file and what is wrong without
 * any figure, so a list of known violations stays valid while a long
 * function grows or shrinks, and a `detail` with the figures for the
 * failure message.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { cliReach } from "./layers.ts";

/** The longest a function may be, in lines. */
export const MAX_FUNCTION_LINES = 80;
/** The longest a file may be, in lines. */
export const MAX_FILE_LINES = 400;

/** Which rule a violation breaks. */
export type Rule = "function" | "file" | "cycle" | "host" | "doc" | "helper" | "layer";

/** One broken rule at one place. */
export interface Violation {
  rule: Rule;
  /** Stable name: file (or cycle members) and what, no figures. */
  key: string;
  /** The key with figures, for a failure message. */
  detail: string;
  /** Files the violation lives in, relative to the checked root. */
  files: string[];
}

/** A parsed source file under the checked folder. */
export interface Source {
  /** Path relative to the root, with forward slashes (`src/a/b.ts`). */
  name: string;
  text: string;
  ast: ts.SourceFile;
}

/** Every `.ts` file under `dir`, relative to `root`, sorted. */
function listSources(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const child = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(".ts")) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** Reads and parses every source under `root/dir`. */
export function loadSources(root: string, dir = "src"): Source[] {
  return listSources(root, dir).map((name) => {
    const text = fs.readFileSync(path.join(root, name), "utf8");
    const ast = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    return { name, text, ast };
  });
}

/** Lines as `wc -l` counts them: a final newline does not start a line. */
function lineCount(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/** Files longer than {@linkcode MAX_FILE_LINES}. */
export function longFiles(sources: Source[]): Violation[] {
  return sources.flatMap((source) => {
    const lines = lineCount(source.text);
    if (lines <= MAX_FILE_LINES) return [];
    const key = `${source.name}: file over ${MAX_FILE_LINES} lines`;
    return [{ rule: "file", key, detail: `${key} (${lines})`, files: [source.name] }];
  });
}

/** A readable name for a function node: its own, or what it is assigned to. */
function functionName(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (ts.isConstructorDeclaration(node)) return `${className(node)}constructor`;
  if (named.name && ts.isIdentifier(named.name)) {
    const prefix = ts.isMethodDeclaration(node) || ts.isAccessor(node) ? className(node) : "";
    return prefix + named.name.text;
  }
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    if (ts.isIdentifier(parent.name)) return parent.name.text;
  }
  if (parent && ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return className(parent) + parent.name.text;
  }
  return "<anonymous>";
}

/** `Class.` for a class member, empty otherwise. */
function className(member: ts.Node): string {
  const owner = member.parent;
  return owner && ts.isClassLike(owner) && owner.name ? `${owner.name.text}.` : "";
}

function isFunctionLike(node: ts.Node): boolean {
  return ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) || ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) || ts.isAccessor(node);
}

/** Functions (any kind, nested ones too) longer than {@linkcode MAX_FUNCTION_LINES}. */
export function longFunctions(sources: Source[]): Violation[] {
  const out: Violation[] = [];
  for (const source of sources) {
    const visit = (node: ts.Node) => {
      if (isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
        const start = source.ast.getLineAndCharacterOfPosition(node.getStart(source.ast)).line;
        const end = source.ast.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > MAX_FUNCTION_LINES) {
          const key = `${source.name}: function ${
            functionName(node)
          } over ${MAX_FUNCTION_LINES} lines`;
          out.push({
            rule: "function",
            key,
            detail: `${key} (${lines}, line ${start + 1})`,
            files: [source.name],
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source.ast);
  }
  return out;
}

/** The relative `.ts` modules a file imports or re-exports statically, type-only included. */
function importsOf(source: Source, known: Set<string>): string[] {
  const out = new Set<string>();
  for (const statement of source.ast.statements) {
    const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))
      ? statement.moduleSpecifier
      : undefined;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".")) continue;
    const target = path.posix.normalize(
      path.posix.join(path.posix.dirname(source.name), specifier.text),
    );
    if (known.has(target)) out.add(target);
  }
  return [...out];
}

/** Strongly connected components of the import graph with more than one file (or a self import). */
export function importCycles(sources: Source[]): Violation[] {
  const names = new Set(sources.map((source) => source.name));
  const graph = new Map(sources.map((source) => [source.name, importsOf(source, names)]));
  const components = stronglyConnected(graph);
  return components
    .filter((members) => members.length > 1 || graph.get(members[0])!.includes(members[0]))
    .map((members) => {
      const files = [...members].sort();
      const key = `${files.join(" <-> ")}: import cycle`;
      return { rule: "cycle", key, detail: key, files };
    });
}

/** Tarjan's algorithm, iterative so a deep graph cannot overflow the stack. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node)!;
      if (frame.next < edges.length) {
        const child = edges[frame.next++];
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, next: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== frame.node);
        out.push(members);
      }
    }
  }
  return out;
}

const HOST_GLOBALS = new Set(["Deno", "Bun", "process"]);

/** True when `name` at `node` is a local binding (a parameter or variable), not the global. */
function isShadowed(node: ts.Node, name: string): boolean {
  for (let scope: ts.Node | undefined = node.parent; scope; scope = scope.parent) {
    const locals = (scope as ts.Node & { locals?: Map<string, unknown> }).locals;
    if (locals?.has(name)) return true;
  }
  return false;
}

/** Uses of `Deno.`, `Bun.`, `process.` (or `globalThis.` any of them) outside `src/runtime/`. */
export function hostGlobals(sources: Source[]): Violation[] {
  const out: Violation[] = [];
  for (const source of sources) {
    if (source.name.startsWith("src/runtime/")) continue;
    const found = new Map<string, number>();
    bindLocals(source.ast);
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const name = hostName(node);
        if (name && !isShadowed(node, name)) {
          if (!found.has(name)) {
            found.set(name, source.ast.getLineAndCharacterOfPosition(node.getStart()).line + 1);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source.ast);
    for (const [name, line] of found) {
      const key = `${source.name}: ${name}. outside src/runtime/`;
      out.push({ rule: "host", key, detail: `${key} (line ${line})`, files: [source.name] });
    }
  }
  return out;
}

/** The host global a property access reads from, if any. */
function hostName(
  node: ts.PropertyAccessExpression | ts.ElementAccessExpression,
): string | undefined {
  const target = node.expression;
  if (ts.isIdentifier(target) && HOST_GLOBALS.has(target.text)) return target.text;
  if (
    ts.isPropertyAccessExpression(node) && ts.isIdentifier(target) &&
    target.text === "globalThis" && HOST_GLOBALS.has(node.name.text)
  ) return node.name.text;
  return undefined;
}

/** Lets the binder fill each scope's `locals`, so a local named `process` is not the global. */
function bindLocals(ast: ts.SourceFile): void {
  const binder = (ts as unknown as { bindSourceFile?: (f: ts.SourceFile, o: object) => void })
    .bindSourceFile;
  binder?.(ast, {});
}

/** The names a statement exports, or none when it exports nothing of its own. */
function exportedNames(statement: ts.Statement): string[] {
  const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
  if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return [];
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.map((d) => d.name.getText());
  }
  const named = statement as ts.Statement & { name?: ts.Identifier };
  return [named.name?.text ?? "default"];
}

/** Exported declarations without a `/** … *\/` doc comment (re-exports are documented at home). */
export function undocumentedExports(sources: Source[]): Violation[] {
  const out: Violation[] = [];
  for (const source of sources) {
    for (const statement of source.ast.statements) {
      const names = exportedNames(statement);
      if (names.length === 0 || hasDocComment(source, statement)) continue;
      for (const name of names) {
        const key = `${source.name}: export ${name} has no doc comment`;
        out.push({ rule: "doc", key, detail: key, files: [source.name] });
      }
    }
  }
  return out;
}

function hasDocComment(source: Source, statement: ts.Statement): boolean {
  const ranges = ts.getLeadingCommentRanges(source.text, statement.getFullStart()) ?? [];
  return ranges.some((range) => source.text.startsWith("/**", range.pos));
}

/** The shared helpers and their one home each. */
const HELPER_HOMES: Readonly<Record<string, string>> = {
  isObject: "src/util/helpers.ts",
  asObject: "src/util/helpers.ts",
  isPlainObject: "src/util/helpers.ts",
  sleep: "src/util/helpers.ts",
  isRequest: "src/jsonrpc/messages.ts",
};

/** Functions named as a shared helper declared anywhere but the helper's home. */
export function helperCopies(sources: Source[]): Violation[] {
  const out: Violation[] = [];
  for (const source of sources) {
    for (const statement of source.ast.statements) {
      const name = ts.isFunctionDeclaration(statement) ? statement.name?.text : undefined;
      const home = name === undefined ? undefined : HELPER_HOMES[name];
      if (home === undefined || home === source.name) continue;
      const key = `${source.name}: a copy of ${name} (use ${home})`;
      out.push({ rule: "helper", key, detail: key, files: [source.name] });
    }
  }
  return out;
}

/** Every rule over every source. */
export function allViolations(sources: Source[]): Violation[] {
  return [
    ...longFunctions(sources),
    ...longFiles(sources),
    ...importCycles(sources),
    ...hostGlobals(sources),
    ...undocumentedExports(sources),
    ...helperCopies(sources),
    ...cliReach(sources),
  ];
}

/**
 * What is new against a list of known violations. A known cycle also
 * covers a smaller cycle among its files, so breaking part of it never
 * makes the check fail.
 */
export function unexpected(found: Violation[], known: readonly string[]): Violation[] {
  const knownSet = new Set(known);
  const knownCycles = known.filter((key) => key.endsWith(": import cycle")).map(cycleFiles);
  return found.filter((violation) => {
    if (knownSet.has(violation.key)) return false;
    if (violation.rule !== "cycle") return true;
    return !knownCycles.some((files) => violation.files.every((file) => files.has(file)));
  });
}

/** Known entries that no longer occur: the list must shrink when a violation is fixed. */
export function stale(found: Violation[], known: readonly string[]): string[] {
  const keys = new Set(found.map((violation) => violation.key));
  return known.filter((key) => {
    if (keys.has(key)) return false;
    if (!key.endsWith(": import cycle")) return true;
    const files = cycleFiles(key);
    // A known cycle lives on while any cycle remains among its files.
    return !found.some((v) => v.rule === "cycle" && v.files.every((file) => files.has(file)));
  });
}

function cycleFiles(key: string): Set<string> {
  return new Set(key.replace(/: import cycle$/, "").split(" <-> "));
}
