// Text contrast as WCAG 2 measures it, read from a page in the browser: every element with text
// of its own, its colour against the first opaque background behind it. For browser tests.
import type { Page } from 'playwright-core';

// Globals of the page the functions given to evaluate run in (the project compiles without DOM types).
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: unknown): any;
declare const Node: { TEXT_NODE: number };

export interface LowContrast {
  text: string;
  ratio: number;
}

/** Text on the page whose contrast is below `minimum` (4.5 for body text), with its ratio. */
export async function lowContrastText(page: Page, minimum = 4.5): Promise<LowContrast[]> {
  const found = await page.evaluate(() => {
    const rgba = (value: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (value.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a: value.startsWith('rgba') ? a : 1 };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const backgroundOf = (element: any) => {
      for (let e = element; e; e = e.parentElement) {
        const colour = rgba(getComputedStyle(e).backgroundColor);
        if (colour.a > 0.5) return colour;
      }
      return { r: 255, g: 255, b: 255, a: 1 };
    };
    const out: { text: string; ratio: number }[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const own = [...element.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      const style = getComputedStyle(element);
      if (!own || style.visibility === 'hidden' || style.display === 'none') continue;
      const a = luminance(rgba(style.color));
      const b = luminance(backgroundOf(element));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      out.push({ text: own.slice(0, 60), ratio: Math.round(ratio * 100) / 100 });
    }
    return out;
  });
  return found.filter((f) => f.ratio < minimum);
}
