import { toolSpecs } from '../../tools/registry.js';

/** `autofix tools`: what the model is offered, as the request sends it. */
export function tools(options: { json?: boolean }): Promise<void> {
  const specs = toolSpecs();
  if (options.json) {
    console.log(JSON.stringify(specs, null, 2));
    return Promise.resolve();
  }
  for (const spec of specs) {
    const properties = (spec.parameters.properties ?? {}) as Record<string, unknown>;
    const required = new Set((spec.parameters.required ?? []) as string[]);
    const params = Object.keys(properties).map((p) => (required.has(p) ? p : `[${p}]`));
    console.log(`${spec.name}(${params.join(', ')})\n  ${spec.description}`);
  }
  return Promise.resolve();
}
