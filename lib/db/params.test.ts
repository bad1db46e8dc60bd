import { describe, expect, it } from 'vitest';
import { SqlParams } from './params';

describe('SqlParams', () => {
  it('numbers placeholders in the order values are added', () => {
    const p = new SqlParams();
    const sql = `UPDATE t SET a = ${p.add(1)}, b = ${p.json({ x: 1 })}, c = ${p.json(null)} WHERE id = ${p.add('i')}`;
    expect(sql).toBe('UPDATE t SET a = $1, b = $2::jsonb, c = $3::jsonb WHERE id = $4');
    expect(p.values).toEqual([1, '{"x":1}', null, 'i']);
  });
});
