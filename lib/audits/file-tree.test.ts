import { describe, expect, it } from 'vitest';
import {
  buildFileTree,
  filterTree,
  flattenVisible,
  initiallyExpanded,
  nodeKey,
  type TreeInput,
  type TreeNode,
} from './file-tree';

type F = TreeInput & { name: string };

function shape(nodes: TreeNode<F>[]): unknown[] {
  return nodes.map((node) =>
    node.children.length ? { [node.file.name]: shape(node.children) } : node.file.name,
  );
}

describe('buildFileTree', () => {
  it('nests children under their parents and keeps input order', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'robots' },
      { id: 2, parentId: 1, name: 'index' },
      { id: 5, parentId: 2, name: 'b' },
      { id: 3, parentId: 2, name: 'a' },
      { id: 4, parentId: null, name: 'upload' },
    ];
    const tree = buildFileTree(files);
    expect(shape(tree)).toEqual([{ robots: [{ index: ['b', 'a'] }] }, 'upload']);
    expect(tree[0]?.descendants).toBe(3);
    expect(tree[0]?.children[0]?.descendants).toBe(2);
    expect(tree[1]?.descendants).toBe(0);
  });

  it('puts orphans whose parent is missing at the root, in order', () => {
    const files: F[] = [
      { id: 10, parentId: 99, name: 'orphan' },
      { id: 11, parentId: null, name: 'root' },
      { id: 12, parentId: 11, name: 'child' },
    ];
    expect(shape(buildFileTree(files))).toEqual(['orphan', { root: ['child'] }]);
  });

  it('orders siblings by position when given, then by input order', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'root' },
      { id: 2, parentId: 1, name: 'second', position: 2 },
      { id: 3, parentId: 1, name: 'first', position: 1 },
      { id: 4, parentId: 1, name: 'also-second', position: 2 },
    ];
    expect(shape(buildFileTree(files))).toEqual([{ root: ['first', 'second', 'also-second'] }]);
  });

  it('never drops files that form a parent cycle or point at themselves', () => {
    const files: F[] = [
      { id: 1, parentId: 2, name: 'x' },
      { id: 2, parentId: 1, name: 'y' },
      { id: 3, parentId: 3, name: 'self' },
    ];
    const tree = buildFileTree(files);
    const count = (nodes: TreeNode<F>[]): number =>
      nodes.reduce((sum, node) => sum + 1 + count(node.children), 0);
    expect(count(tree)).toBe(3);
    expect(tree.map((node) => node.file.name)).toContain('self');
  });

  it('handles thousands of files without recursion trouble', () => {
    const files: F[] = [{ id: 0, parentId: null, name: 'index' }];
    for (let i = 1; i <= 5000; i += 1) files.push({ id: i, parentId: 0, name: `s${i}` });
    const tree = buildFileTree(files);
    expect(tree).toHaveLength(1);
    expect(tree[0]?.children).toHaveLength(5000);
    expect(tree[0]?.descendants).toBe(5000);
  });

  it('returns an empty list for no files', () => {
    expect(buildFileTree([])).toEqual([]);
  });
});

describe('initiallyExpanded', () => {
  it('opens the top level of small trees but not huge branches', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'small' },
      { id: 2, parentId: 1, name: 'leaf' },
      { id: 3, parentId: null, name: 'big' },
    ];
    for (let i = 100; i < 400; i += 1) files.push({ id: i, parentId: 3, name: `c${i}` });
    const open = initiallyExpanded(buildFileTree(files), 1, 200);
    expect([...open]).toEqual([1]);
  });
});

describe('filterTree', () => {
  it('keeps matches and their ancestors only', () => {
    const files: F[] = [
      { id: 1, parentId: null, name: 'index' },
      { id: 2, parentId: 1, name: 'ok' },
      { id: 3, parentId: 1, name: 'bad' },
      { id: 4, parentId: null, name: 'other' },
    ];
    const filtered = filterTree(buildFileTree(files), (file) => file.name === 'bad');
    expect(shape(filtered)).toEqual([{ index: ['bad'] }]);
    expect(filtered[0]?.descendants).toBe(1);
  });
});

describe('flattenVisible', () => {
  const files: F[] = [
    { id: 1, parentId: null, name: 'index' },
    { id: 2, parentId: 1, name: 'a' },
    { id: 3, parentId: 1, name: 'b' },
    { id: 4, parentId: 1, name: 'c' },
    { id: 5, parentId: 3, name: 'b1' },
    { id: 6, parentId: null, name: 'upload' },
  ];
  const tree = buildFileTree(files);
  const names = (rows: ReturnType<typeof flattenVisible<F>>) =>
    rows.map((row) =>
      row.type === 'node' ? `${row.level}:${row.node.file.name}` : `${row.level}:+${row.hidden}`,
    );

  it('shows only roots when nothing is expanded', () => {
    expect(
      names(
        flattenVisible(
          tree,
          () => false,
          () => 100,
        ),
      ),
    ).toEqual(['1:index', '1:upload']);
  });

  it('walks expanded nodes depth-first with levels and set positions', () => {
    const rows = flattenVisible(
      tree,
      () => true,
      () => 100,
    );
    expect(names(rows)).toEqual(['1:index', '2:a', '2:b', '3:b1', '2:c', '1:upload']);
    const c = rows[4];
    expect(c?.type === 'node' && [c.posInSet, c.setSize, c.parentKey]).toEqual([3, 3, nodeKey(1)]);
  });

  it('caps each group and adds a "show more" row for the rest', () => {
    const rows = flattenVisible(
      tree,
      (id) => id === 1,
      (group) => (group === '1' ? 1 : 100),
    );
    expect(names(rows)).toEqual(['1:index', '2:a', '2:+2', '1:upload']);
    const more = rows[2];
    expect(more?.type === 'more' && more.groupKey).toBe('1');
  });
});
