// The one rule receivers are checked by, at creation and at connection (core/webhooks/
// receiver-address.ts receiverVerdict), and the operator's list it reads (TESSERA_WEBHOOKS_ALLOW).
import { describe, expect, it } from 'vitest';
import { parseReceiverAllowList } from '../../core/platform/receiver-allow-list';
import { type ReceiverRule, receiverVerdict } from '../../core/webhooks/receiver-address';

const refuse = (message: string) => new Error(message);
const allow = (value: string) => parseReceiverAllowList(value, refuse);

describe('TESSERA_WEBHOOKS_ALLOW', () => {
  it('takes networks, single addresses (IPv4 and IPv6) and host names, comma-separated', () => {
    const list = allow(' 127.0.0.1/32, 10.0.0.0/8,fd00::/8,[::1],192.168.1.20, N8N.lan., ,');
    expect(list.entries).toEqual([
      '127.0.0.1/32',
      '10.0.0.0/8',
      'fd00::/8',
      '[::1]',
      '192.168.1.20',
      'N8N.lan.',
    ]);
    expect(list.networks.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual([
      '127.0.0.1/32',
      '10.0.0.0/8',
      'fd00::/8',
      '::1/128',
      '192.168.1.20/32',
    ]);
    expect([...list.names]).toEqual(['n8n.lan']);
    expect(allow('').entries).toEqual([]);
  });

  it.each([
    '10.0.0.0/33',
    '10.0.0.300',
    '10',
    '0x0a.0.0.1',
    'fd00::/129',
    'n8n lan',
    'http://n8n.lan',
    '*.lan',
    '10.0.0.0/8/8',
  ])('refuses %s, naming it', (entry) => {
    expect(() => allow(`127.0.0.1/32,${entry}`)).toThrow(
      `TESSERA_WEBHOOKS_ALLOW: "${entry}" is not a network`,
    );
  });
});

describe('the receiver rule', () => {
  const rule: ReceiverRule = { allowPrivate: false, allow: allow('10.0.0.0/8,fd00::/8,n8n.lan,0.0.0.0/0') };
  const strict: ReceiverRule = { allowPrivate: false, allow: allow('10.0.0.0/8,fd00::/8,n8n.lan') };

  it('takes public addresses, and private ones only inside a listed network or for a listed name (https)', () => {
    expect(receiverVerdict(strict, false, 'hooks.example.com', '93.184.216.34')).toBe('ok');
    expect(receiverVerdict(strict, false, 'inside', '10.1.2.3')).toBe('ok');
    expect(receiverVerdict(strict, false, 'inside', '::ffff:10.1.2.3')).toBe('ok');
    expect(receiverVerdict(strict, false, 'inside', 'fd12::1')).toBe('ok');
    expect(receiverVerdict(strict, false, 'N8N.lan.', '192.168.1.9')).toBe('ok');
    expect(receiverVerdict(strict, false, 'other.lan', '192.168.1.9')).toBe('notAllowed');
    expect(receiverVerdict(strict, false, '127.0.0.1', '127.0.0.1')).toBe('notAllowed');
    expect(receiverVerdict(strict, false, 'inside', 'fe80::1')).toBe('notAllowed');
    expect(receiverVerdict({ allowPrivate: false }, false, 'inside', '10.1.2.3')).toBe('notAllowed');
  });

  it('takes plain http only to allowed addresses that are not public, whatever the list says', () => {
    expect(receiverVerdict(strict, true, 'inside', '10.1.2.3')).toBe('ok');
    expect(receiverVerdict(strict, true, 'n8n.lan', '192.168.1.9')).toBe('ok');
    expect(receiverVerdict(strict, true, 'other.lan', '192.168.1.9')).toBe('notAllowed');
    expect(receiverVerdict(strict, true, 'n8n.lan', '93.184.216.34')).toBe('plainToPublic');
    expect(receiverVerdict(rule, true, 'hooks.example.com', '93.184.216.34')).toBe('plainToPublic');
  });

  it("lets the test suite's switch reach every private address over https, never over http", () => {
    const tests: ReceiverRule = { allowPrivate: true };
    expect(receiverVerdict(tests, false, 'localhost', '127.0.0.1')).toBe('ok');
    expect(receiverVerdict(tests, true, 'localhost', '127.0.0.1')).toBe('notAllowed');
  });
});
