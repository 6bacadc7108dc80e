// An object keyed by the sender's own names (answers keyed by question, texts by language) that
// checks and keeps every key as sent. valibot's v.record skips "__proto__", "constructor" and
// "prototype" without a word (guarding against prototype pollution), so such a key was neither
// refused nor kept: here each goes through the key schema like any other key, and a kept one is
// written as an own property (defineProperty), which never touches a prototype.
import * as v from 'valibot';

type Dataset = v.OutputDataset<unknown, v.BaseIssue<unknown>>;
type AnyDataset = { value: unknown; typed?: boolean; issues?: v.BaseIssue<unknown>[] };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function ownRecord<
  const Key extends v.GenericSchema<string, string>,
  const Value extends v.GenericSchema,
>(key: Key, value: Value): v.RecordSchema<Key, Value, undefined> {
  const schema = v.record(key, value);
  // Same schema for JSON Schema and types (type "record", key, value); only the run differs.
  (schema as { '~run': unknown })['~run'] = function run(
    this: typeof schema,
    given: v.UnknownDataset,
    config: v.Config<v.BaseIssue<unknown>>,
  ): Dataset {
    const input = given.value;
    // Given as valibot gives every run its input; filled in here with the outcome, as its own runs do.
    const dataset: AnyDataset = given;
    if (!isPlainObject(input)) {
      v._addIssue(this, 'type', given, config);
      return dataset as Dataset;
    }
    const output: Record<string, unknown> = {};
    dataset.typed = true;
    for (const entryKey of Object.keys(input)) {
      const entryValue = input[entryKey];
      const keyDataset = this.key['~run']({ value: entryKey }, config) as AnyDataset;
      const valueDataset = this.value['~run']({ value: entryValue }, config) as AnyDataset;
      for (const [part, origin] of [
        [keyDataset, 'key'],
        [valueDataset, 'value'],
      ] as const) {
        for (const issue of part.issues ?? []) {
          const item = { type: 'object', origin, input, key: entryKey, value: entryValue } as const;
          (issue as { path?: unknown[] }).path = [item, ...(origin === 'value' ? (issue.path ?? []) : [])];
          dataset.issues ??= [];
          dataset.issues.push(issue);
        }
      }
      if (!keyDataset.typed || !valueDataset.typed) dataset.typed = false;
      if (dataset.issues && config.abortEarly) {
        dataset.typed = false;
        break;
      }
      if (keyDataset.typed)
        Object.defineProperty(output, keyDataset.value as string, {
          value: valueDataset.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    dataset.value = output;
    return dataset as Dataset;
  };
  return schema;
}
