import { describe, expect, it } from 'vitest';
import { newTicketCode, ticketCodeIn } from '../../core/platform/ticket-codes';

describe('ticket codes', () => {
  it('are 26 characters of base 32, drawn evenly: 130 random bits each', () => {
    const codes = Array.from({ length: 20_000 }, newTicketCode);
    expect(new Set(codes).size).toBe(codes.length);
    const counts = new Map<string, number>();
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z2-7]{26}$/);
      for (const c of code) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // 520,000 characters over 32 letters: 16,250 each; a skewed draw would stray far from it.
    expect(counts.size).toBe(32);
    for (const n of counts.values()) expect(Math.abs(n - 16_250)).toBeLessThan(800);
  });

  it('are read out of what a scanner read: the code in any case, with spaces or dashes, or the ticket address', () => {
    const code = newTicketCode();
    expect(ticketCodeIn(code)).toBe(code);
    expect(ticketCodeIn(` ${code.toLowerCase()} `)).toBe(code);
    expect(ticketCodeIn(code.replace(/(.{4})/g, '$1-'))).toBe(code);
    expect(ticketCodeIn(`https://tickets.example.org/t/${code}`)).toBe(code);
    expect(ticketCodeIn(`https://tickets.example.org/t/${code}.ics`)).toBe(code);
    expect(ticketCodeIn(`https://tickets.example.org/t/${code}?from=mail`)).toBe(code);
  });

  it('are not read out of anything else', () => {
    const code = newTicketCode();
    for (const scanned of [
      '',
      'hello',
      code.slice(1),
      `${code}A`,
      code.replace(/./, '1'),
      `https://x/v/${code}`,
    ])
      expect(ticketCodeIn(scanned), scanned).toBeNull();
  });
});
