// Nests sitemap files by parent into a tree and flattens it into the rows a tree view shows: filtering,
// expansion and "show more" caps per group.

export interface TreeInput {
  id: number;
  parentId: number | null;
  /** Optional explicit order; without it the input order is kept (the API sends files by position). */
  position?: number;
}

export interface TreeNode<T extends TreeInput> {
  file: T;
  children: TreeNode<T>[];
  /** Number of files below this node (children, grandchildren, ...). */
  descendants: number;
}

/**
 * Nests files by parentId. Files whose parent is missing (or that sit in a parent cycle) become roots,
 * so no file is ever dropped. Siblings keep a stable order: position, then input order, then id.
 */
export function buildFileTree<T extends TreeInput>(files: readonly T[]): TreeNode<T>[] {
  const order = new Map<number, number>();
  const nodes = new Map<number, TreeNode<T>>();
  files.forEach((file, index) => {
    if (nodes.has(file.id)) return; // duplicate ids: first one wins
    order.set(file.id, index);
    nodes.set(file.id, { file, children: [], descendants: 0 });
  });
  const compare = (a: TreeNode<T>, b: TreeNode<T>): number => {
    const pa = a.file.position ?? order.get(a.file.id) ?? 0;
    const pb = b.file.position ?? order.get(b.file.id) ?? 0;
    if (pa !== pb) return pa - pb;
    const ia = order.get(a.file.id) ?? 0;
    const ib = order.get(b.file.id) ?? 0;
    return ia !== ib ? ia - ib : a.file.id - b.file.id;
  };

  const roots: TreeNode<T>[] = [];
  for (const node of nodes.values()) {
    const parentId = node.file.parentId;
    const parent = parentId === null || parentId === node.file.id ? undefined : nodes.get(parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }

  // Nodes in a parent cycle are unreachable from any root: lift them to the root level.
  const reached = new Set<number>();
  const mark = (list: TreeNode<T>[]) => {
    const stack = [...list];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (reached.has(node.file.id)) continue;
      reached.add(node.file.id);
      stack.push(...node.children);
    }
  };
  mark(roots);
  for (const node of nodes.values()) {
    if (reached.has(node.file.id)) continue;
    const parent = node.file.parentId === null ? undefined : nodes.get(node.file.parentId);
    if (parent) parent.children = parent.children.filter((child) => child !== node);
    roots.push(node);
    mark([node]);
  }

  const finish = (list: TreeNode<T>[]): number => {
    list.sort(compare);
    let total = 0;
    for (const node of list) {
      node.descendants = finish(node.children);
      total += 1 + node.descendants;
    }
    return total;
  };
  finish(roots);
  return roots;
}

/** Ids of nodes that start expanded: the first `levels` levels, but only for reasonably small trees. */
export function initiallyExpanded<T extends TreeInput>(
  roots: readonly TreeNode<T>[],
  levels = 1,
  maxChildren = 200,
): Set<number> {
  const open = new Set<number>();
  const visit = (list: readonly TreeNode<T>[], depth: number) => {
    if (depth >= levels) return;
    for (const node of list) {
      if (node.children.length === 0 || node.children.length > maxChildren) continue;
      open.add(node.file.id);
      visit(node.children, depth + 1);
    }
  };
  visit(roots, 0);
  return open;
}

/** Keeps nodes that match and the ancestors leading to them; descendant counts describe the filtered tree. */
export function filterTree<T extends TreeInput>(
  roots: readonly TreeNode<T>[],
  matches: (file: T) => boolean,
): TreeNode<T>[] {
  const result: TreeNode<T>[] = [];
  for (const node of roots) {
    const children = filterTree(node.children, matches);
    if (children.length === 0 && !matches(node.file)) continue;
    const descendants = children.reduce((sum, child) => sum + 1 + child.descendants, 0);
    result.push({ file: node.file, children, descendants });
  }
  return result;
}

export type VisibleRow<T extends TreeInput> =
  | {
      type: 'node';
      key: string;
      node: TreeNode<T>;
      level: number;
      parentKey: string | null;
      setSize: number;
      posInSet: number;
    }
  | { type: 'more'; key: string; groupKey: string; level: number; parentKey: string | null; hidden: number };

export const ROOT_GROUP = 'root';

export function nodeKey(id: number): string {
  return `n${id}`;
}

/**
 * The rows a tree view shows, in order: expanded nodes' children, each group capped at its limit and
 * followed by a "show more" row when some are hidden. Levels start at 1 (as aria-level does).
 */
export function flattenVisible<T extends TreeInput>(
  roots: readonly TreeNode<T>[],
  isExpanded: (id: number) => boolean,
  limitOf: (groupKey: string) => number,
): VisibleRow<T>[] {
  const rows: VisibleRow<T>[] = [];
  // Iterative walk: deep trees must not overflow the stack.
  type Frame = {
    list: readonly TreeNode<T>[];
    index: number;
    level: number;
    groupKey: string;
    parentKey: string | null;
  };
  const stack: Frame[] = [{ list: roots, index: 0, level: 1, groupKey: ROOT_GROUP, parentKey: null }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (!frame) break;
    const limit = Math.max(1, limitOf(frame.groupKey));
    if (frame.index >= frame.list.length || frame.index >= limit) {
      const hidden = frame.list.length - Math.min(limit, frame.list.length);
      if (hidden > 0) {
        rows.push({
          type: 'more',
          key: `more:${frame.groupKey}`,
          groupKey: frame.groupKey,
          level: frame.level,
          parentKey: frame.parentKey,
          hidden,
        });
      }
      stack.pop();
      continue;
    }
    const node = frame.list[frame.index];
    frame.index += 1;
    if (!node) continue;
    const key = nodeKey(node.file.id);
    rows.push({
      type: 'node',
      key,
      node,
      level: frame.level,
      parentKey: frame.parentKey,
      setSize: frame.list.length,
      posInSet: frame.index,
    });
    if (node.children.length > 0 && isExpanded(node.file.id)) {
      stack.push({
        list: node.children,
        index: 0,
        level: frame.level + 1,
        groupKey: String(node.file.id),
        parentKey: key,
      });
    }
  }
  return rows;
}
