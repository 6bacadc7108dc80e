// A one-shot signal for tests that hold something open until they say so: `fire` once, and every
// `await fired` goes on.
export function signal(): { fire: () => void; fired: Promise<void> } {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}
