// A small seeded generator (mulberry32), so sample data is the same on every run, and the made-up
// people it draws from.
export class SampleRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: [[value, weight], ...]. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((n, [, w]) => n + w, 0);
    let r = this.next() * total;
    for (const [value, weight] of items) {
      r -= weight;
      if (r < 0) return value;
    }
    return items[items.length - 1]![0];
  }
}

/** A made-up address at example.com from a name: accents dropped, lower-cased, other runs a dot. */
export function dottedEmail(name: string): string {
  return `${name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')}@example.com`;
}

/** A made-up address at example.com (RFC 2606): `local` lower-cased, its accents dropped. */
export function exampleEmail(local: string): string {
  return `${local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()}@example.com`;
}

export const firstNames = [
  'Ingrid',
  'Lars',
  'Aiko',
  'Kenji',
  'Fatima',
  'Omar',
  'Sofia',
  'Mateus',
  'Chloé',
  'Noah',
  'Amara',
  'Liam',
  'Yuki',
  'Priya',
  'Jonas',
  'Elif',
  'Mia',
  'Tomás',
  'Hana',
  'Ola',
  'Sara',
  'Ahmed',
  'Lucía',
  'Emil',
];
export const lastNames = [
  'Hansen',
  'Nakamura',
  'Al-Sabah',
  'Silva',
  'Dubois',
  'Berg',
  'Tanaka',
  'Okafor',
  'Kowalski',
  'Haddad',
  'Johansen',
  'Costa',
  'Sato',
  'Novak',
  'Lindqvist',
  'Moreau',
  'Rahman',
  'Ferreira',
];
export const companies = [
  'Fjord Labs',
  'Kitsune Works',
  'Desert Bloom Analytics',
  'Atlântico Design',
  'Northwind AS',
  'Sakura Systems',
  null,
  null,
  'Lumen Studio',
  'Polar Data',
];
export const jobTitles = [
  'Product Manager',
  'Frontend Engineer',
  'Data Scientist',
  'Designer',
  'CTO',
  'Founder',
  null,
  'Engineering Manager',
  'Researcher',
];
