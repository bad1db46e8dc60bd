/** See bundle.mjs: the entry module bundled into plain JavaScript; resolves with the bundle's entry. */
export function bundle(entry: URL): Promise<URL>;
