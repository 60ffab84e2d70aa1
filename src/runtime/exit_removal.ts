/**
 * Folders removed when the process exits: one exit handler for all of them,
 * however many are registered, each removal synchronous (nothing
 * asynchronous runs once the process is exiting).
 *
 * @module
 */

/**
 * A `removeAtExit` over the runtime's own exit hook (`onExit`, called once,
 * at the first registration) and synchronous removal (`removeSync`, which
 * must not throw for a path already gone).
 */
export function exitRemoval(
  onExit: (handler: () => void) => void,
  removeSync: (path: string) => void,
): (path: string) => () => void {
  const pending = new Set<string>();
  let hooked = false;
  const removeAll = () => {
    for (const path of pending) {
      try {
        removeSync(path);
      } catch {
        // Exiting: nothing better to do than to leave it.
      }
    }
    pending.clear();
  };
  return (path) => {
    if (!hooked) {
      hooked = true;
      onExit(removeAll);
    }
    pending.add(path);
    return () => pending.delete(path);
  };
}
