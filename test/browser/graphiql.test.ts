// GraphiQL in a real headless browser: Debian's chromium driven by playwright-core (no browser download)
// against the real server process. The page must load with no console error and no request leaving
// 127.0.0.1; a query typed into the editor and a subscription run from the page show their answers.
// A screenshot is kept in test-artifacts/ (gitignored). Skips when no Chromium is installed.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions } from '../integration/helpers/http.js';
import { projectRoot, startWithSchema, type ServerProcess } from '../integration/helpers/server-process.js';

const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const installed = existsSync(chromiumPath);
const artifacts = join(projectRoot, 'test-artifacts');
if (!installed) console.warn(`GraphiQL browser tests skipped: no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

const schema = 'type Todo @withSubscription { id: ID! text: String! @search(by: [term]) done: Boolean }\n';

/** What the page did that it must not: console errors, uncaught exceptions, requests to another host. */
interface Misdeeds {
  readonly errors: string[];
  readonly foreign: string[];
}

describe.skipIf(!installed)('GraphiQL in headless Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    server = await startWithSchema(schema);
    await askWithoutExtensions(server.url, 'mutation { addTodo(input: [{ text: "alpha one", done: false }]) { numUids } }');
    browser = await chromium.launch({ executablePath: chromiumPath });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens the page, watching for console errors and for any request that leaves the loopback host. */
  async function open(path: string): Promise<{ page: Page; misdeeds: Misdeeds }> {
    const misdeeds: Misdeeds = { errors: [], foreign: [] };
    const page = await context.newPage();
    const local = (url: string): boolean => new URL(url).hostname === '127.0.0.1';
    await page.route('**/*', (route) => {
      if (local(route.request().url())) return route.continue();
      misdeeds.foreign.push(route.request().url());
      return route.abort();
    });
    page.on('websocket', (socket) => {
      if (!local(socket.url())) misdeeds.foreign.push(socket.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') misdeeds.errors.push(message.text());
    });
    page.on('pageerror', (error) => misdeeds.errors.push(String(error)));
    await page.goto(`${server.url}${path}`);
    // The docs button appears once the schema's introspection has arrived.
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
    await page.locator('[aria-label="Show Documentation Explorer"]').waitFor();
    return { page, misdeeds };
  }

  /** Types an operation into the query editor the way a person does, runs it, and waits for `expected` in the result pane. */
  async function run(page: Page, operation: string, expected: string): Promise<void> {
    await page.locator('.graphiql-query-editor .CodeMirror').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(operation);
    await page.keyboard.press('Escape'); // close the autocompletion list, if open
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => resultText(page), { timeout: 15_000 }).toContain(expected);
  }

  const resultText = (page: Page): Promise<string> => page.locator('.graphiql-response').innerText();

  it('loads at /graphql with no console error and nothing from another origin; a typed query shows its data', async () => {
    const { page, misdeeds } = await open('/graphql');
    await run(page, '{ queryTodo { text done } }', 'alpha one');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'graphiql.png') });
    expect(misdeeds).toEqual({ errors: [], foreign: [] });
    await page.close();
  });

  it('runs a subscription over the WebSocket: the first answer, then one pushed after a mutation over HTTP', async () => {
    const { page, misdeeds } = await open('/');
    await run(page, 'subscription { queryTodo(filter: { text: { anyofterms: "beta" } }) { text } }', '"queryTodo": []');
    await askWithoutExtensions(server.url, 'mutation { addTodo(input: [{ text: "beta two", done: true }]) { numUids } }');
    await expect.poll(() => resultText(page), { timeout: 15_000 }).toContain('beta two');
    await page.screenshot({ path: join(artifacts, 'graphiql-subscription.png') });
    expect(misdeeds).toEqual({ errors: [], foreign: [] });
    await page.close();
  });
});
