// No test sends anything beyond this machine. Every TCP connection a test process starts (its
// HTTP clients, the dispatcher's deliveries, fetches of client metadata documents) must go to a
// loopback address: one that does not is cut at once, and the test file fails after its tests,
// naming where it went. (This sandbox answers TLS at any address, so a stray delivery to a real
// host would otherwise pass unseen.) Child processes are not covered: their receivers are off.
import { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll } from 'vitest';

/** Where the connections of the file running now went beyond loopback. */
const beyond = globalThis as { tesseraBeyondLoopback?: string[] };

function isLoopback(address: string): boolean {
  // A Unix socket's path (PostgreSQL's on this machine) never leaves it.
  if (address.startsWith('/')) return true;
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

// Once a process: several test files may run one after another in it (vitest without isolation),
// each running this file again, and a second wrapper would check every connection twice.
if (!beyond.tesseraBeyondLoopback) {
  beyond.tesseraBeyondLoopback = [];
  const connect = Socket.prototype.connect;
  Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
    this.on('connectionAttempt', (address: string, port: number) => {
      if (isLoopback(address)) return;
      beyond.tesseraBeyondLoopback?.push(`${address}:${port}`);
      // Not in the event itself: Node connects right after emitting it.
      process.nextTick(() =>
        this.destroy(new Error(`A test connected beyond loopback, to ${address}:${port}`)),
      );
    });
    return (connect as (...a: unknown[]) => Socket).apply(this, args);
  } as typeof connect;
}

// Each file answers for its own connections.
beforeAll(() => {
  beyond.tesseraBeyondLoopback = [];
});

afterAll(() => {
  const elsewhere = beyond.tesseraBeyondLoopback ?? [];
  if (elsewhere.length > 0)
    throw new Error(`Connections beyond loopback (tests must keep to this machine): ${elsewhere.join(', ')}`);
});
