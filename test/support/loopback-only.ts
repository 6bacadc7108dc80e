// No test sends anything beyond this machine. Every TCP connection a test process starts (its
// HTTP clients, the dispatcher's deliveries, fetches of client metadata documents) must go to a
// loopback address: one that does not is cut at once, and the test file fails after its tests,
// naming where it went. (This sandbox answers TLS at any address, so a stray delivery to a real
// host would otherwise pass unseen.) Child processes are not covered: their receivers are off.
import { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll } from 'vitest';

const elsewhere: string[] = [];
const connect = Socket.prototype.connect;

function isLoopback(address: string): boolean {
  // A Unix socket's path (PostgreSQL's on this machine) never leaves it.
  if (address.startsWith('/')) return true;
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
  this.on('connectionAttempt', (address: string, port: number) => {
    if (isLoopback(address)) return;
    elsewhere.push(`${address}:${port}`);
    // Not in the event itself: Node connects right after emitting it.
    process.nextTick(() =>
      this.destroy(new Error(`A test connected beyond loopback, to ${address}:${port}`)),
    );
  });
  return (connect as (...a: unknown[]) => Socket).apply(this, args);
} as typeof connect;

afterAll(() => {
  if (elsewhere.length > 0)
    throw new Error(`Connections beyond loopback (tests must keep to this machine): ${elsewhere.join(', ')}`);
});
