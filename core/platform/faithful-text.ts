// The text rules of everything Tessera reads as JSON (API bodies, import files): UTF-8 bytes, and no
// string or key JSON can carry but a database cannot keep faithfully. A NUL character is refused by
// PostgreSQL and cut or kept as a raw 0x00 byte by SQLite; a lone surrogate (from a \u escape) is
// not a Unicode character and would be stored as invalid UTF-8. One rule, so every door agrees.

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of UTF-8 bytes (a leading byte-order mark dropped), or null when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Why a string cannot be kept as it is, completing "Text ...", or null when it can. */
export function textFault(text: string): string | null {
  if (text.includes('\u0000')) return 'may not contain NUL characters';
  if (!text.isWellFormed()) return 'contains a lone surrogate (not a Unicode character)';
  return null;
}

export interface TextFault {
  /** Keys from the top of the value down to the string, or to the key, at fault. */
  path: (string | number)[];
  fault: string;
}

interface Node {
  value: unknown;
  parent: Node | null;
  key: string | number | null;
}

const pathOf = (node: Node | null, last?: string): (string | number)[] => {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let at = node; at?.parent; at = at.parent) path.unshift(at.key!);
  return path;
};

/**
 * Every string and key of a parsed JSON value that breaks the rule, with its place, up to `most`.
 * Iterative (a deep value cannot overflow the stack); paths are built only for what is found.
 */
export function textFaults(value: unknown, most = 100): TextFault[] {
  const found: TextFault[] = [];
  const stack: Node[] = [{ value, parent: null, key: null }];
  while (stack.length > 0 && found.length < most) {
    const node = stack.pop()!;
    const { value: item } = node;
    if (typeof item === 'string') {
      const fault = textFault(item);
      if (fault) found.push({ path: pathOf(node), fault });
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], parent: node, key: i });
    } else if (item !== null && typeof item === 'object') {
      // Object.keys holds every key JSON.parse made, "__proto__" included (an own property there).
      const keys = Object.keys(item);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const fault = textFault(key);
        if (fault) found.push({ path: pathOf(node, key), fault });
        else stack.push({ value: (item as Record<string, unknown>)[key], parent: node, key });
      }
    }
  }
  return found;
}
