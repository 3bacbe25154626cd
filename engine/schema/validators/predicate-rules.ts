// Schema-wide rule: fields sharing a Dgraph predicate must agree (REFERENCE §9.2 "Predicate clashes").
import type { SchemaError } from '../../api.js';
import type { Definition, Pos } from '../sdl-ast.js';
import { findArg, findDirective, typeName } from '../sdl-ast.js';
import { dgraphTypeName, predicateName } from '../helpers.js';
import { errorAt } from './errors.js';

interface Pred {
  readonly name: string;
  readonly parent: string;
  readonly typ: string;
  readonly pos: Pos | undefined;
  readonly isId: boolean;
  readonly isSecret: boolean;
}

export function predicateValidation(defs: readonly Definition[], types: ReadonlyMap<string, Definition>): SchemaError[] {
  const errs: SchemaError[] = [];
  const preds = new Map<string, Pred>();
  const interfacePreds = new Map<string, Set<string>>();
  const parentInterface = (d: Definition, field: string): Definition | undefined =>
    d.interfaces.map((i) => types.get(i)).find((i) => i?.fields.some((f) => f.name === field));

  const typeError = (ex: Pred, p: Pred): SchemaError =>
    errorAt(
      p.pos,
      `Type ${p.parent}; Field ${p.name}: has type ${p.typ}, which is different to type ${ex.parent}; field ${ex.name}, which has the same @dgraph directive but type ${ex.typ}. These fields must have either the same GraphQL types, or use different Dgraph predicates.`,
    );
  const idError = (idp: Pred, p: Pred): SchemaError =>
    errorAt(
      p.pos,
      `Type ${p.parent}; Field ${p.name}: doesn't have @id directive, which conflicts with type ${idp.parent}; field ${idp.name}, which has the same @dgraph directive along with @id directive. Both these fields must either use @id directive, or use different Dgraph predicates.`,
    );
  const secretError = (sp: Pred, p: Pred): SchemaError =>
    errorAt(
      p.pos,
      `Type ${p.parent}; Field ${p.name}: has the @dgraph predicate, but that conflicts with type ${sp.parent} @secret directive on the same predicate. @secret predicates are stored encrypted and so the same predicate can't be used as a ${p.typ}.`,
    );
  const checkExistingInterface = (d: Definition, ex: Pred, p: Pred): void => {
    if (d.interfaces.includes(ex.parent)) {
      errs.push(
        errorAt(
          p.pos,
          `Type ${p.parent}; Field ${p.name}: has the @dgraph directive, which conflicts with interface ${ex.parent}; field ${ex.name}, that this type implements. These fields must use different Dgraph predicates.`,
        ),
      );
    }
  };
  const checkInterfaces = (d: Definition): void => {
    const report = new Map<string, string[]>();
    for (let i = 0; i < d.interfaces.length; i++) {
      const i1 = d.interfaces[i]!;
      for (let j = i + 1; j < d.interfaces.length; j++) {
        const i2 = d.interfaces[j]!;
        for (const p of interfacePreds.get(i2) ?? []) {
          if (!interfacePreds.get(i1)?.has(p)) continue;
          const list = report.get(p) ?? [i1];
          list.push(i2);
          report.set(p, list);
        }
      }
    }
    for (const [p, list] of report) {
      errs.push(errorAt(d.pos, `Type ${d.name}; implements interfaces [${list.join(' ')}], all of which have fields with @dgraph predicate: ${p}. These fields must use different Dgraph predicates.`));
    }
  };

  const ordered = [...defs.filter((d) => d.kind === 'INTERFACE'), ...defs.filter((d) => d.kind !== 'INTERFACE')];
  for (const d of ordered) {
    if (d.kind !== 'OBJECT' && d.kind !== 'INTERFACE') continue;
    const typName = dgraphTypeName(d);
    if (d.kind === 'INTERFACE') interfacePreds.set(d.name, new Set());
    else checkInterfaces(d);
    for (const f of d.fields) {
      if (typeName(f.type) === 'ID') continue;
      if (parentInterface(d, f.name)) continue;
      const fname = predicateName(f, typName);
      if (d.kind === 'INTERFACE') interfacePreds.get(d.name)?.add(fname);
      const p: Pred = {
        name: f.name,
        parent: d.name,
        typ: f.type.name === undefined ? `[${typeName(f.type)}]` : typeName(f.type),
        pos: f.pos,
        isId: findDirective(f.directives, 'id') !== undefined,
        isSecret: false,
      };
      if (fname.startsWith('~') || fname.startsWith('<~')) continue;
      const ex = preds.get(fname);
      if (!ex) {
        preds.set(fname, p);
        continue;
      }
      if (ex.isSecret) errs.push(secretError(ex, p));
      else if (p.typ !== ex.typ) errs.push(typeError(ex, p));
      if (ex.isId !== p.isId) errs.push(ex.isId ? idError(ex, p) : idError(p, ex));
      if (d.kind === 'OBJECT') checkExistingInterface(d, ex, p);
    }
    const secret = findDirective(d.directives, 'secret');
    const pwdName = findArg(secret, 'field')?.value.raw;
    const pwdPred = findArg(secret, 'pred')?.value.raw;
    if (secret && pwdName && pwdPred !== undefined) {
      const inherited = d.interfaces.some((i) => findArg(findDirective(types.get(i)?.directives ?? [], 'secret'), 'field')?.value.raw === pwdName);
      if (!inherited) {
        const p: Pred = { name: pwdName, parent: d.name, typ: 'String', pos: secret.pos, isId: false, isSecret: true };
        const ex = preds.get(pwdPred);
        if (!ex) preds.set(pwdPred, p);
        else {
          if (p.typ !== ex.typ || !ex.isSecret) errs.push(secretError(p, ex));
          if (d.kind === 'OBJECT') checkExistingInterface(d, ex, p);
        }
      }
    }
  }
  return errs;
}
