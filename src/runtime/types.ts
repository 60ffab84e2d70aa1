/**
 * The one interface through which the rest of mcp-cassette touches the host
 * runtime. Everything outside `src/runtime/` sees only Web Streams and these
 * types, so the core runs unchanged on Deno, Node and Bun.
 *
 * @module
 */

/** A child process started with piped stdio. */
export interface ChildProcess {
  readonly pid: number;
  /** The child's stdin. Closing it gives the child EOF. */
  readonly stdin: WritableStream<Uint8Array>;
  /** The child's stdout. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** Resolves with the exit code (128 + signal number when killed by a signal). */
  readonly exited: Promise<number>;
  kill(signal?: Signal): void;
  /**
   * The child's stdin and stdout as paths that other threads of this process
   * can open for blocking reads and writes (Deno on Linux); undefined where
   * they cannot, or once the child is gone. Call it before using `stdin` or
   * `stdout`, and use only one of the two.
   */
  sharePipes?(): SharedPipes | undefined;
}

/** A child's pipes, opened by other threads through these paths. */
export interface SharedPipes {
  /** Opens, for writing, the pipe to the child's stdin. */
  readonly stdin: string;
  /** Opens, for reading, the pipe from the child's stdout. */
  readonly stdout: string;
  /**
   * Lets go of this thread's own ends, once the other threads have opened
   * theirs: until then opening cannot block, and from then on the child sees
   * the end of its input when the thread writing to it closes.
   */
  release(): Promise<void>;
}

/** A pipe or file read and written synchronously: the calling thread waits until the bytes move. */
export interface BlockingEnd {
  /** Reads into `buffer`; the count read, or null at the end. */
  read(buffer: Uint8Array): number | null;
  /** Writes all of `bytes`. */
  write(bytes: Uint8Array): void;
  close(): void;
}

/** How a child's stderr is handled. */
export type StderrMode = "inherit" | "ignore" | "pipe";

/** Options for {@linkcode Runtime.spawn}. */
export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string>;
  stderr?: StderrMode;
}

/** A child whose stderr was piped. */
export interface PipedChildProcess extends ChildProcess {
  readonly stderr: ReadableStream<Uint8Array>;
}

/** A signal the runtime sends to a child process. */
export type Signal = "SIGINT" | "SIGTERM" | "SIGKILL";

/**
 * A file opened for appending, one synchronous write per call. A write that
 * fails throws an error whose `written` says how many of its bytes landed
 * (a full disk takes part of a write before it refuses the rest).
 */
export interface AppendFile {
  /** Writes all of `bytes` before returning, so a kill -9 after it loses nothing. */
  write(bytes: Uint8Array): void;
  /** The file's size now. */
  size(): number;
  /** Cuts the file to `length` bytes (the torn end of a failed write). */
  truncate(length: number): void;
  close(): void;
}

/** How {@linkcode Runtime.openAppend} opens its file. */
export interface AppendOptions {
  /**
   * Create the file, failing with `EEXIST` when anything is at the path, a
   * symbolic link too (`O_EXCL`: nothing is followed). Without it the file
   * is opened if it exists, created if not.
   */
  createNew?: boolean;
  /** With `createNew`, the new file's permission bits (a key file is 0600). */
  mode?: number;
}

/** What {@linkcode Runtime.stat} tells. */
export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtimeMs: number;
}

/**
 * A file open for reads at any position, synchronously: a replay that keeps
 * its recorded frames on disk reads one back per answer.
 */
export interface RandomReads {
  /** Fills `buffer` from byte `position` on; returns the count read (0 at the end). */
  readAt(buffer: Uint8Array, position: number): number;
  close(): void;
}

/** A running HTTP server. */
export interface HttpServer {
  readonly hostname: string;
  readonly port: number;
  close(): Promise<void>;
  /** Requests answered 408 and cut so far, their body not in within `requestTimeoutMs`. */
  requestsCut?(): number;
}

/** Options for {@linkcode Runtime.serve}. */
export interface ServeOptions {
  hostname: string;
  port: number;
  /** Largest request header block, in bytes. */
  maxHeaderBytes?: number;
  /**
   * Connections idle this long are closed: those that never send a request,
   * those that stop in the middle of one, and keep-alive connections between
   * requests (one whose response is still streaming is left alone).
   */
  idleTimeoutMs?: number;
  /**
   * Once a request's headers are in, its body must arrive in full within
   * this many ms (chunked or not), or the request is answered 408 and its
   * connection closed. Default: the idle timeout, else 30000.
   */
  requestTimeoutMs?: number;
  /** Called for each request so cut (for a diagnostic). */
  onRequestCut?(info: { remoteAddress: string; method: string; path: string }): void;
  /**
   * The address is reachable from other machines. A runtime whose fastest
   * server cannot close idle connections (a Deno without per-connection
   * serving) uses one that can.
   */
  exposed?: boolean;
  /**
   * The handler keeps the body deadline itself, with `info.bodyDeadline`
   * (where the runtime offers one): the request reaches it as received,
   * rather than re-wrapped around a stream that watches the body arrive.
   * Under Deno the re-wrapped request cost the replay half its throughput
   * (11.6k against 21k requests/s, 50 sessions on loopback).
   */
  handlerReadsBody?: boolean;
}

/** A request's headers as received: [name, value] pairs, names as the client wrote them, repeats kept apart. */
export type RawHeaders = readonly (readonly [string, string])[];

/** What a handler knows of a request besides the request itself. */
export interface ServeInfo {
  remoteAddress: string;
  /** Set when the handler was asked to keep the body deadline (`handlerReadsBody`). */
  bodyDeadline?: BodyDeadline;
  /**
   * The request's headers, when the server read them all anyway (Deno's, for
   * its header cap): a handler can take the few it needs from here in one
   * pass rather than ask `request.headers` for each (a call into the runtime).
   */
  rawHeaders?: RawHeaders;
}

/** A request's body deadline, kept by the handler that reads the body. */
export interface BodyDeadline {
  /**
   * Waits for `reading` (the body being read) within what is left of the
   * deadline. Resolves with its value; or, when the deadline passes first,
   * with undefined: the request is then counted as cut, its connection is
   * closed shortly after, and the handler answers with `requestTimeout()`.
   */
  within<T>(reading: Promise<T>): Promise<T | undefined>;
}

/** A Web-standard request handler. */
export type HttpHandler = (request: Request, info: ServeInfo) => Promise<Response>;

/** The host runtime, as the rest of the code sees it. */
export interface Runtime {
  readonly name: "deno" | "node" | "bun";
  /** The command-line arguments after the script. */
  readonly args: readonly string[];
  readonly stdin: ReadableStream<Uint8Array>;
  readonly stdout: WritableStream<Uint8Array>;
  readonly stderr: WritableStream<Uint8Array>;
  /** Writes to stderr synchronously; for diagnostics that must not be lost on exit. */
  writeStderr(text: string): void;
  env(name: string): string | undefined;
  cwd(): string;
  exit(code: number): never;
  /** Registers a handler for a signal; returns a function that removes it. */
  onSignal(signal: "SIGINT" | "SIGTERM", handler: () => void): () => void;
  pid(): number;
  /**
   * The command line that starts this same CLI again (for servers the CLI
   * bundles, such as the demo pair): `deno run -A cli.ts`, `node cli.js`, or
   * the compiled binary alone.
   */
  selfCommand(): string[];
  hostname(): string;
  isProcessAlive(pid: number): boolean;
  /** Sends `signal` to another process; one already gone is not an error. */
  kill(pid: number, signal: "SIGTERM"): void;

  spawn(command: readonly string[], options?: SpawnOptions): ChildProcess;
  spawnPiped(command: readonly string[], options?: SpawnOptions): PipedChildProcess;

  readTextFile(path: string): Promise<string>;
  /** The file's text, decoded as UTF-8 a chunk at a time (for files too large to hold as one string). */
  readFileText(path: string): ReadableStream<string>;
  /** The file's bytes, a chunk at a time (each chunk is the caller's to keep). */
  readFileBytes(path: string): ReadableStream<Uint8Array>;
  /** Opens a file for reads at any position (a replay reads its frames back). */
  openRandomReads(path: string): RandomReads;
  // Writing a whole file is src/files/safe_write.ts's job, over openAppend: no link is followed.
  /**
   * Opens a file to append to. A symbolic link at the path is never
   * followed: the open fails with code `ELOOP`.
   */
  openAppend(path: string, options?: AppendOptions): AppendFile;
  rename(from: string, to: string): Promise<void>;
  /** The path with every symbolic link resolved. */
  realPath(path: string): Promise<string>;
  /** Removes a file or a whole directory; absent is fine. */
  remove(path: string): Promise<void>;
  /** Like `lstat`: does not follow a final symlink. Resolves undefined when absent. */
  stat(path: string): Promise<FileInfo | undefined>;
  mkdir(path: string): Promise<void>;
  readDir(path: string): Promise<string[]>;
  makeTempDir(prefix: string): Promise<string>;
  /**
   * Removes `path` (a folder with all it holds) when this process exits,
   * unless the function returned is called first: for a temp folder whose
   * owner may never get to remove it (a test that never finishes its server).
   */
  removeAtExit(path: string): () => void;

  serve(options: ServeOptions, handler: HttpHandler): Promise<HttpServer>;

  /**
   * Opens this process's `"stdin"` or `"stdout"`, or a {@linkcode SharedPipes}
   * path, for blocking reads or writes. Only where a thread of its own can
   * wait on one (Deno); callable from such a thread.
   */
  openBlocking?(where: string, mode: "read" | "write"): BlockingEnd;
}

/** One TCP connection, its two directions as Web Streams. */
export interface TcpConnection {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  readonly remoteAddress: string;
  /** Ends both directions at once (a failure, or a peer that is done). */
  close(): void;
}

/** A TCP listener started by {@linkcode Tcp.listen}. */
export interface TcpListener {
  readonly hostname: string;
  readonly port: number;
  /** Stops accepting; connections already open are the caller's. */
  close(): void;
}

/** Plain TCP, for the byte-level HTTP recorder (src/record/http_bytes.ts). */
export interface Tcp {
  listen(
    address: { hostname: string; port: number },
    onConnection: (connection: TcpConnection) => void,
  ): Promise<TcpListener>;
  connect(address: { hostname: string; port: number }): Promise<TcpConnection>;
}
