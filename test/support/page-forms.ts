// Pages' forms as browsers send them, for tests: the token a page's form carries (the hidden field
// formToken, which a browser that sends neither Sec-Fetch-Site nor Origin must send back), and the
// headers a current browser adds to a post from the service's own page.
import { formTokenField } from '../../core/platform/form-tokens';

/** The form token of a page's HTML; null when the page has no form. */
export function formTokenOf(html: string): string | null {
  const field = new RegExp(`<input type="hidden" name="${formTokenField}" value="([^"]+)">`).exec(html);
  return field ? field[1]! : null;
}

/** What a current browser says of a post from a page of `origin`. */
export const sameOriginHeaders = (origin: string) => ({ origin, 'sec-fetch-site': 'same-origin' });
