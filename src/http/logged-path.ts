// A request's path as the log writes it: the parts of an address that are credentials are left out.
// A ticket's code (/t/{code}, /t/{code}.ics) shows and checks in its ticket; an order's id is the key
// of its page on the public form (/e/{slug}/orders/{id}); a waiting-list offer's token takes up its
// held place (/e/{slug}/waiting/{token}); the codes of /e/{slug}/registered?t=…
// are in the query, which the log never writes. Whoever reads the log (a log service, a support
// engineer) must not be able to use what it holds.

const credentials: [RegExp, string][] = [
  [/^\/t\/[^/]+?(\.ics)?$/i, '/t/[redacted]$1'],
  [/^(\/e\/[^/]+\/orders\/)[^/]+$/i, '$1[redacted]'],
  [/^(\/e\/[^/]+\/waiting\/)[^/]+$/i, '$1[redacted]'],
];

/** The path with its credentials replaced by [redacted] (never the query). */
export function loggedPath(path: string): string {
  const bare = path.split('?')[0] ?? path;
  for (const [pattern, replacement] of credentials)
    if (pattern.test(bare)) return bare.replace(pattern, replacement);
  return bare;
}
