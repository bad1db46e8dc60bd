// Turns for the pages of one rendering fetcher: a few render at once, the rest wait in call order.

/** Up to `size` renders at once; a cancelled wait gives null and takes no slot. */
export function createSlots(size: number) {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  };
  return {
    take(signal: AbortSignal): Promise<(() => void) | null> {
      if (signal.aborted) return Promise.resolve(null);
      if (busy < size) {
        busy++;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => {
        const turn = () => {
          signal.removeEventListener('abort', cancel);
          resolve(release);
        };
        const cancel = () => {
          const at = waiting.indexOf(turn);
          if (at >= 0) waiting.splice(at, 1);
          resolve(null);
        };
        waiting.push(turn);
        signal.addEventListener('abort', cancel, { once: true });
      });
    },
  };
}
