import { describe, expect, it } from 'vitest';
import { newTicketCode, ticketCodeAt, ticketCodeIn } from '../../core/platform/ticket-codes';

describe('ticket codes', () => {
  it('are 26 characters of base 32: the moment they were made, then 85 random bits drawn evenly', () => {
    const codes = Array.from({ length: 20_000 }, () => newTicketCode());
    expect(new Set(codes).size).toBe(codes.length);
    const counts = new Map<string, number>();
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z2-7]{26}$/);
      for (const c of code.slice(9)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // 340,000 random characters over 32 letters: 10,625 each; a skewed draw would stray far from it.
    expect(counts.size).toBe(32);
    for (const n of counts.values()) expect(Math.abs(n - 10_625)).toBeLessThan(650);
  });

  it("sort as text by the moment they were made, so a registration's codes sit side by side in their index", () => {
    const moments = [
      0,
      1,
      31,
      32,
      1_000,
      Date.parse('2026-11-28T00:00:00Z'),
      Date.parse('3084-01-01T00:00:00Z'),
    ];
    const codes = moments.map((ms) => ticketCodeAt(ms));
    expect([...codes].sort()).toEqual(codes);
    // Within one millisecond only the random part differs.
    const now = Date.parse('2027-05-01T09:00:00.123Z');
    const same = Array.from({ length: 50 }, () => ticketCodeAt(now));
    expect(new Set(same.map((c) => c.slice(0, 9))).size).toBe(1);
    expect(new Set(same).size).toBe(50);
    expect(ticketCodeAt(now + 1).slice(0, 9) > same[0]!.slice(0, 9)).toBe(true);
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
