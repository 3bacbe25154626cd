// RegistrationLog: the first registration is a line at once; later ones wait for the interval to end and
// are one line with their count; nothing is written for an interval without registrations.

import { describe, expect, it } from 'vitest';
import { RegistrationLog } from '../../../engine/serving/registration-log.js';

describe('RegistrationLog', () => {
  it('one line per interval at most, with the count since the last line and the total', async () => {
    const lines: unknown[] = [];
    let total = 0;
    const log = new RegistrationLog({ info: (message, fields) => lines.push({ message, ...fields }), warn: () => undefined, error: () => undefined }, () => total, 100);
    const register = (): void => {
      total++;
      log.registered();
    };
    register();
    expect(lines).toEqual([{ message: 'persisted queries registered', count: 1, total: 1 }]);
    register();
    register();
    register();
    expect(lines).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(lines).toEqual([
      { message: 'persisted queries registered', count: 1, total: 1 },
      { message: 'persisted queries registered', count: 3, total: 4 },
    ]);
    log.flush();
    expect(lines).toHaveLength(2);
    // Long after the last line: the next registration is written at once again.
    register();
    expect(lines.at(-1)).toEqual({ message: 'persisted queries registered', count: 1, total: 5 });
  });
});
