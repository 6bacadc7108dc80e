// A valibot issue of the import format as the import answers it: its place in the file as a JSON
// path (under `prefix` when a piece of the file was checked on its own) and its message.
import type * as v from 'valibot';
import { messageOfIssue } from '../platform/issue-messages';
import { jsonPath } from './json-path';
import type { ImportIssue } from './plan';

export interface FormatIssue extends ImportIssue {
  /** The place as keys, to put a piece's issues among the others'. */
  keys: (string | number)[];
}

export function formatIssues(
  issues: readonly v.BaseIssue<unknown>[],
  prefix: readonly (string | number)[] = [],
): FormatIssue[] {
  return issues.map((issue) => {
    const keys = [...prefix, ...(issue.path ?? []).map((item) => item.key as string | number)];
    return {
      keys,
      path: jsonPath(keys),
      // A strict object's refusal of a field it does not have: say it may be misspelt.
      message:
        issue.type === 'strict_object' && issue.expected === 'never'
          ? 'Not a field of the format here (misspelt?).'
          : messageOfIssue(issue),
    };
  });
}
