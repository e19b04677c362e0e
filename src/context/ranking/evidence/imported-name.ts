/**
 * Python names the issue imports (`from pkg.mod import Name`) or dots into (`pkg.mod.Name.method`),
 * followed through the package's re-exports to the defining file (`importedName`). A submodule
 * (`from pkg import fields`) is a place to look, for half; a subpackage (`from django.db import
 * models`) is only the way in to a public API, for nothing.
 */
import {
  pythonDefinition,
  pythonModuleFile,
  pythonModules,
  type PythonModules,
} from '../../code-graph.js';
import { short } from '../format.js';
import type { RankInputs } from '../inputs.js';
import { isExceptionType } from '../names-to-locate.js';
import type { DefinitionClaim } from '../types.js';
import { WEIGHTS } from '../weights.js';

interface Wanted {
  module: string;
  name: string;
  /** How the issue wrote it. */
  label: string;
}

/** The names imported, then the names dotted into (after their longest module here). */
function wantedNames(inputs: RankInputs, modules: PythonModules): Wanted[] {
  const wanted: Wanted[] = [];
  for (const imp of inputs.refs.imports)
    for (const name of imp.names)
      wanted.push({ module: imp.module, name, label: `from ${imp.module} import ${name}` });
  for (const d of inputs.refs.dotted) {
    if (isExceptionType(d)) continue;
    const parts = d.split('.');
    for (let k = parts.length - 1; k >= 1; k--) {
      const module = parts.slice(0, k).join('.');
      if (pythonModuleFile(modules, module) === undefined) continue;
      wanted.push({ module, name: parts[k] ?? '', label: d });
      break;
    }
  }
  return wanted;
}

export function importedNameEvidence(inputs: RankInputs): DefinitionClaim[] {
  const modules = pythonModules(inputs.code);
  if (modules.files.size === 0) return [];
  return wantedNames(inputs, modules).flatMap((w): DefinitionClaim[] => {
    const factor = inputs.codeOnly.has(w.name) ? WEIGHTS.codeOnly : 1;
    const file = pythonModuleFile(modules, w.module);
    const def = file === undefined ? undefined : pythonDefinition(modules, file, w.name);
    if (!def || (def.module && /(^|\/)__init__\.pyi?$/.test(def.path))) return [];
    const via = def.via.length > 0 ? `, via ${def.via.join(' → ')}` : '';
    const label = `(\`${short(w.label, 50)}\`${via})`;
    return [
      def.module
        ? {
            path: def.path,
            name: w.name,
            kind: 'importedName',
            points: WEIGHTS.importedName * factor * WEIGHTS.importedModule,
            reason: `module \`${w.name}\` ${label}`,
            line: undefined,
          }
        : {
            path: def.path,
            name: w.name,
            kind: 'importedName',
            points: WEIGHTS.importedName * factor,
            reason: `defines \`${w.name}\` ${label}`,
            line: def.line,
          },
    ];
  });
}
