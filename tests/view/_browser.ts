/**
 * Debian's chromium, headless, driven by puppeteer-core: for the viewer's
 * browser tests, scripts/bench_view.ts and scripts/view_screenshot.ts. Every
 * launch gets a new empty profile, removed on close.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";
import type { Browser, Page } from "puppeteer-core";

/** Where `.ci/run` installs chromium (`apt-get install chromium`). */
export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the viewer's browser tests`;
}

/** A page opened from disk, with what it said and asked for. */
export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Every request the page made, the page load itself included. */
  requests: string[];
}

/** A headless chromium with its own throw-away profile. */
export class HeadlessChromium {
  private constructor(private readonly browser: Browser, private readonly profile: string) {}

  /** Starts chromium with no network side channels (no sync, updates or background fetches). */
  static async launch(): Promise<HeadlessChromium> {
    const profile = mkdtempSync(path.join(tmpdir(), "mcp-cassette-chromium-"));
    try {
      const browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        userDataDir: profile,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      return new HeadlessChromium(browser, profile);
    } catch (error) {
      rmSync(profile, { recursive: true, force: true });
      throw error;
    }
  }

  /** Opens a file, waits until the viewer says it is ready. */
  async open(file: string, options: { hash?: string; width?: number } = {}): Promise<OpenedPage> {
    const page = await this.browser.newPage();
    await page.setViewport({ width: options.width ?? 1400, height: 900 });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(String(error)));
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(`file://${file}${options.hash ?? ""}`, { timeout: 120_000 });
    await page.waitForSelector("body[data-ready]", { timeout: 120_000 });
    return { page, errors, requests };
  }

  /** Closes the browser and removes its profile. */
  async close(): Promise<void> {
    try {
      await this.browser.close();
    } finally {
      rmSync(this.profile, { recursive: true, force: true });
    }
  }
}
