/**
 * @module
 * Test support: the BFF's OpenAPI document read as a reader of it would, its `$ref`s to the components followed.
 */

/** `node` with every `#/components/schemas/…` reference replaced by the schema it names, all the way down. */
export function dereferenced(
  document: { components?: { schemas?: Record<string, unknown> } },
  node: unknown,
): unknown {
  if (Array.isArray(node)) return node.map((item) => dereferenced(document, item));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  if (typeof $ref === 'string' && $ref.startsWith('#/components/schemas/')) {
    const named = document.components?.schemas?.[$ref.slice('#/components/schemas/'.length)];
    if (named === undefined) throw new Error(`${$ref} names no component`);
    return { ...(dereferenced(document, named) as object), ...(dereferenced(document, rest) as object) };
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereferenced(document, value)]));
}
