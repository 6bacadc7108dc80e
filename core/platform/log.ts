// Where core reports what must not pass silently (an inconsistency it worked around, a failure of
// background work). The composition root gives it the service's logger.
export interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLog: Log = { info: () => {}, warn: () => {}, error: () => {} };
