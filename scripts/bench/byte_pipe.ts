/**
 * The least any stdio proxy costs: a process in the middle that copies bytes
 * both ways and does nothing else. The recorder is measured against it.
 */
import { spawn } from "node:child_process";
import process from "node:process";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on("exit", (code) => process.exit(code ?? 1));
