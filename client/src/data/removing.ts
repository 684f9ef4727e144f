// Items this page is moving to the trash: a resource of one is not refreshed by the `changed` event its own
// delete makes, which would ask for what is gone (a 404, and a "Could not refresh" toast) while the page leaves.
const removing = new Set<string>();

/** Mark `key` as being removed; the answer unmarks it. */
export function markRemoving(key: string): () => void {
  removing.add(key);
  return () => removing.delete(key);
}

export const isRemoving = (key: string): boolean => removing.has(key);
