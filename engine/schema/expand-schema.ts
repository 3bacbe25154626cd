// Step 6 of the upload pipeline: implementing types receive their interfaces' fields (REFERENCE §4.6).
// Each interface's fields are put in front, so the last listed interface ends up first.
import type { SchemaError } from '../api.js';
import type { Definition, FieldDef } from './sdl-ast.js';
import { copyType, typeName, typeString } from './sdl-ast.js';
import { errorAt } from './validators/errors.js';

/** A fresh copy (filter arguments are added per type later); descriptions are not inherited. */
function copyInheritedField(f: FieldDef): FieldDef {
  return {
    name: f.name,
    args: f.args.map((a) => ({ ...a, type: copyType(a.type), directives: [...a.directives] })),
    type: copyType(f.type),
    directives: [...f.directives],
    pos: f.pos,
    defaultValue: f.defaultValue,
    inherited: true,
  };
}

/**
 * Every interface field is copied, so spec validation reports mismatches and fields that several
 * interfaces share, as Dgraph does. Only ID fields shared by several interfaces are merged (and
 * must agree on their type).
 */
export function inheritInterfaceFields(defs: readonly Definition[]): SchemaError | undefined {
  const interfaces = new Map(defs.filter((d) => d.kind === 'INTERFACE').map((d) => [d.name, d]));
  for (const d of defs) {
    if (d.kind !== 'OBJECT') continue;
    const idSeen = new Map<string, { iface: string; type: string }>();

    for (const name of d.interfaces) {
      const i = interfaces.get(name);
      if (!i) continue;
      const copies: FieldDef[] = [];
      for (const f of i.fields) {
        if (typeName(f.type) === 'ID') {
          const seen = idSeen.get(f.name);
          if (seen) {
            if (seen.type !== typeString(f.type)) {
              return errorAt(d.pos, `field ${f.name} is of type ${typeString(f.type)} in interface ${name} and is of type ${seen.type} in interface ${seen.iface}`);
            }
            continue;
          }
          idSeen.set(f.name, { iface: name, type: typeString(f.type) });
        }
        // A type may repeat an interface field verbatim: the inherited copy replaces it. A differing
        // redeclaration stays, so spec validation reports it.
        d.fields = d.fields.filter((x) => !(x.name === f.name && typeString(x.type) === typeString(f.type) && !x.inherited));
        copies.push(copyInheritedField(f));
      }
      d.fields = [...copies, ...d.fields];
      // An interface's @secret applies to its implementations too.
      const secret = i.directives.find((x) => x.name === 'secret');
      if (secret && !d.directives.some((x) => x.name === 'secret')) d.directives.push(secret);
    }
  }
  return undefined;
}
