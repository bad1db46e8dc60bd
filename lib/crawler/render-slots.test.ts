import { describe, expect, it } from 'vitest';
import { createSlots } from './render-slots';

const open = new AbortController().signal;

describe('createSlots', () => {
  it('gives out at most its size at once, the rest in call order as turns come back', async () => {
    const slots = createSlots(2);
    const first = await slots.take(open);
    const second = await slots.take(open);
    const order: string[] = [];
    const third = slots.take(open).then((release) => {
      order.push('third');
      return release;
    });
    const fourth = slots.take(open).then((release) => {
      order.push('fourth');
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    first?.();
    expect(await third).not.toBeNull();
    expect(order).toEqual(['third']);
    second?.();
    expect(await fourth).not.toBeNull();
    expect(order).toEqual(['third', 'fourth']);
  });

  it('lets a cancelled wait go without taking a turn', async () => {
    const slots = createSlots(1);
    const held = await slots.take(open);
    const stop = new AbortController();
    const cancelled = slots.take(stop.signal);
    const next = slots.take(open);
    stop.abort();
    expect(await cancelled).toBeNull();
    held?.();
    // The turn passes over the cancelled wait to the next one.
    expect(await next).not.toBeNull();
    expect(await slots.take(AbortSignal.abort())).toBeNull();
  });
});
