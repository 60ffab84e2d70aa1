/**
 * Splits a command line the way a POSIX shell splits words: whitespace
 * separates, single quotes keep everything literal, double quotes keep
 * spaces and honour `\"`, `\\`, `\$` and `` \` ``, and a backslash outside
 * quotes escapes the next character. No expansion of any kind.
 *
 * @module
 */
import { UsageError } from "../errors/errors.ts";

/**
 * Splits `line` into words.
 *
 * @example
 * ```ts
 * splitCommandLine(`node "my server.js" --name 'a b' x\\ y`);
 * // ["node", "my server.js", "--name", "a b", "x y"]
 * ```
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1])) {
        i++;
        if (line[i] !== "\n") word += line[i];
      } else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === "\\") {
      if (i + 1 >= line.length) {
        throw new UsageError(`The command line ends with a lone backslash: ${line}`);
      }
      i++;
      if (line[i] !== "\n") word += line[i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw new UsageError(`The command line has an unclosed ${quote} quote: ${line}`);
  if (inWord) words.push(word);
  return words;
}
