import { describe, expect, it } from 'vitest';
import { runBarValue, runProgressWords, WAITING_WORDS } from './run-status-words';

describe('runProgressWords', () => {
  it('says a queued run waits for a worker, whatever its phase and counts', () => {
    expect(runProgressWords('queued', 'Checking URLs', { done: 3, total: 9 })).toBe(WAITING_WORDS);
  });
  it('gives the phase with its counts once the total is known', () => {
    expect(runProgressWords('running', 'Checking URLs', { done: 1200, total: 4000 })).toBe(
      'Checking URLs: 1,200 of 4,000',
    );
  });
  it('gives the phase alone before the total is known', () => {
    expect(runProgressWords('running', 'Sampling', { done: 0, total: 0 })).toBe('Sampling…');
  });
});

describe('runBarValue', () => {
  it('is empty while queued', () => {
    expect(runBarValue('queued', { done: 5, total: 10 }, 'pulse')).toBe(0);
  });
  it('is the floored share done, capped at 100', () => {
    expect(runBarValue('running', { done: 2, total: 3 }, 'pulse')).toBe(66);
    expect(runBarValue('running', { done: 12, total: 10 }, 'empty')).toBe(100);
  });
  it('pulses or stays empty without a total, as asked', () => {
    expect(runBarValue('running', { done: 0, total: 0 }, 'pulse')).toBeNull();
    expect(runBarValue('running', { done: 0, total: 0 }, 'empty')).toBe(0);
  });
});
