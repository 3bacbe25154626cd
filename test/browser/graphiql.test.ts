// GraphiQL in a real headless browser: Debian's chromium driven by playwright-core (no browser download)
// against the real server process. The page must load with no console error and no request leaving
// 127.0.0.1; a query typed into the editor and a subscription run from the page show their answers.
// A screenshot is kept in test-artifacts/ (gitignored). Skips when no Chromium is installed.

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions, postGraphql, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { projectRoot, startServer, startWithSchema, type ServerProcess } from '../integration/helpers/server-process.js';

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
  let keyed: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    [server, keyed] = await Promise.all([startWithSchema(schema), startServer({ args: ['--client-key', 'client-secret', '--admin-key', 'admin-secret'] })]);
    expect(await uploadSchema(keyed.url, schema, { 'x-auth-token': 'admin-secret' })).toEqual(uploadSucceeded);
    await askWithoutExtensions(server.url, 'mutation { addTodo(input: [{ text: "alpha one", done: false }]) { numUids } }');
    browser = await chromium.launch({ executablePath: chromiumPath });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), keyed?.stop()]);
  });

  /** Opens the page, watching for console errors and for any request that leaves the loopback host. */
  async function open(url: string, introspected = true): Promise<{ page: Page; misdeeds: Misdeeds }> {
    const misdeeds: Misdeeds = { errors: [], foreign: [] };
    // A context of its own: no tabs or headers kept in localStorage by an earlier test.
    const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('close', () => void context.close());
    const local = (address: string): boolean => new URL(address).hostname === '127.0.0.1';
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
    const schema = introspected ? schemaLoaded(page) : undefined;
    await page.goto(url);
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
    await schema;
    return { page, misdeeds };
  }

  /** The schema's introspection answered 200 (docs and autocompletion ready). */
  const schemaLoaded = (page: Page): Promise<unknown> =>
    page.waitForResponse((response) => response.status() === 200 && (response.request().postData() ?? '').includes('IntrospectionQuery'));

  /** Clicks an editor, selects all and types `text` the way a person does. */
  async function typeInto(page: Page, editor: string, text: string): Promise<void> {
    await page.locator(`${editor} .CodeMirror`).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(text);
    await page.keyboard.press('Escape'); // close the autocompletion list, if open
  }

  /** Types an operation into the query editor, runs it, and waits for `expected` in the result pane. */
  async function run(page: Page, operation: string, expected: string): Promise<void> {
    await typeInto(page, '.graphiql-query-editor', operation);
    // GraphiQL reads the operation (is it a subscription?) 100 ms after the last keystroke (debounced).
    await page.waitForTimeout(500);
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => resultText(page), { timeout: 15_000 }).toContain(expected);
  }

  const resultText = (page: Page): Promise<string> => page.locator('.graphiql-response').innerText();

  it('loads at /graphql with no console error and nothing from another origin; a typed query shows its data', async () => {
    const { page, misdeeds } = await open(`${server.url}/graphql`);
    await run(page, '{ queryTodo { text done } }', 'alpha one');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'graphiql.png') });
    expect(misdeeds).toEqual({ errors: [], foreign: [] });
    await page.close();
  });

  it('runs a subscription over the WebSocket: the first answer, then one pushed after a mutation over HTTP', async () => {
    const { page, misdeeds } = await open(`${server.url}/`);
    await run(page, 'subscription { queryTodo(filter: { text: { anyofterms: "beta" } }) { text } }', '"queryTodo": []');
    await askWithoutExtensions(server.url, 'mutation { addTodo(input: [{ text: "beta two", done: true }]) { numUids } }');
    await expect.poll(() => resultText(page), { timeout: 15_000 }).toContain('beta two');
    await page.screenshot({ path: join(artifacts, 'graphiql-subscription.png') });
    expect(misdeeds).toEqual({ errors: [], foreign: [] });
    await page.close();
  });

  it('with a client key: the page loads without it, a query needs it, and the key in the headers pane opens queries and subscriptions', async () => {
    const { page, misdeeds } = await open(`${keyed.url}/graphql`, false);
    await run(page, '{ queryTodo { text } }', 'the X-Auth-Token header is missing');
    await page.getByRole('button', { name: 'Headers', exact: true }).click();
    await typeInto(page, 'section[aria-label="Headers"] .graphiql-editor:not(.hidden)', '{ "X-Auth-Token": "client-secret" }');
    await run(page, '{ queryTodo { text } }', '"queryTodo": []');
    // With the key, the schema loads too (the keyless introspection was refused).
    const schema = schemaLoaded(page);
    await page.locator('[aria-label="Re-fetch GraphQL schema"]').click();
    await schema;
    await run(page, 'subscription { todos: queryTodo { text } }', '"todos": []'); // the alias tells its answer from the query's
    const added = await postGraphql(keyed.url, { query: 'mutation { addTodo(input: [{ text: "gamma three" }]) { numUids } }' }, { 'x-auth-token': 'client-secret' });
    expect(added.json()).toMatchObject({ data: { addTodo: { numUids: 1 } } });
    await expect.poll(() => resultText(page), { timeout: 15_000 }).toContain('gamma three');
    await page.screenshot({ path: join(artifacts, 'graphiql-keyed.png') });
    // Only the keyless requests failed (Chrome logs each refused fetch); nothing left the host.
    expect(misdeeds.foreign).toEqual([]);
    for (const error of misdeeds.errors) expect(error).toContain('401');
    await page.close();
  });
});
