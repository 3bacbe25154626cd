// Step 7: GraphQL spec validation of the expanded document, with the messages and positions of
// Dgraph's gqlparser fork. Like gqlparser, it stops at the first error.
import type { SchemaError } from '../../api.js';
import type { Definition, Directive, TypeRef } from '../sdl-ast.js';
import { typeName, typeString } from '../sdl-ast.js';
import { errorAt } from './errors.js';

interface DirectiveSpec {
  readonly locations: readonly string[];
  readonly args: readonly string[];
}

const OBJ_INTF = ['OBJECT', 'INTERFACE'];
const FIELD = ['FIELD_DEFINITION'];

/** The directives the extras (and Apollo extras) declare, plus graphql's own. */
const KNOWN_DIRECTIVES: Readonly<Record<string, DirectiveSpec>> = {
  hasInverse: { locations: FIELD, args: ['field'] },
  search: { locations: FIELD, args: ['by'] },
  embedding: { locations: FIELD, args: [] },
  dgraph: { locations: [...OBJ_INTF, 'FIELD_DEFINITION'], args: ['type', 'pred'] },
  id: { locations: FIELD, args: ['interface'] },
  default: { locations: FIELD, args: ['add', 'update'] },
  withSubscription: { locations: [...OBJ_INTF, 'FIELD_DEFINITION'], args: [] },
  secret: { locations: OBJ_INTF, args: ['field', 'pred'] },
  auth: { locations: OBJ_INTF, args: ['password', 'query', 'add', 'update', 'delete'] },
  custom: { locations: FIELD, args: ['http', 'dql'] },
  remote: { locations: ['OBJECT', 'INTERFACE', 'UNION', 'INPUT_OBJECT', 'ENUM'], args: [] },
  remoteResponse: { locations: FIELD, args: ['name'] },
  cascade: { locations: ['FIELD'], args: ['fields'] },
  lambda: { locations: FIELD, args: [] },
  lambdaOnMutate: { locations: OBJ_INTF, args: ['add', 'update', 'delete'] },
  cacheControl: { locations: ['QUERY'], args: ['maxAge'] },
  generate: { locations: OBJ_INTF, args: ['query', 'mutation', 'subscription'] },
  external: { locations: FIELD, args: [] },
  requires: { locations: FIELD, args: ['fields'] },
  provides: { locations: FIELD, args: ['fields'] },
  key: { locations: OBJ_INTF, args: ['fields'] },
  extends: { locations: OBJ_INTF, args: [] },
  deprecated: { locations: ['FIELD_DEFINITION', 'ENUM_VALUE', 'ARGUMENT_DEFINITION', 'INPUT_FIELD_DEFINITION'], args: ['reason'] },
  skip: { locations: ['FIELD', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT'], args: ['if'] },
  include: { locations: ['FIELD', 'FRAGMENT_SPREAD', 'INLINE_FRAGMENT'], args: ['if'] },
  specifiedBy: { locations: ['SCALAR'], args: ['url'] },
};

const SPEC_SCALARS = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

class SpecValidator {
  private readonly types = new Map<string, Definition>();

  constructor(
    all: readonly Definition[],
    private readonly userDirectives: ReadonlySet<string>,
  ) {
    for (const d of all) if (!this.types.has(d.name)) this.types.set(d.name, d);
  }

  private kindOf(name: string): string | undefined {
    return SPEC_SCALARS.has(name) ? 'SCALAR' : this.types.get(name)?.kind;
  }

  private typeRef(t: TypeRef): SchemaError | undefined {
    const n = typeName(t);
    return this.kindOf(n) === undefined ? errorAt(namedPos(t), `Undefined type ${n}.`) : undefined;
  }

  private directives(dirs: readonly Directive[], location: string): SchemaError | undefined {
    for (const dir of dirs) {
      if (this.userDirectives.has(dir.name)) continue;
      const spec = KNOWN_DIRECTIVES[dir.name];
      if (!spec) return errorAt(dir.pos, `Undefined directive ${dir.name}.`);
      if (!spec.locations.includes(location)) return errorAt(dir.pos, `Directive ${dir.name} is not applicable on ${location}.`);
      for (const a of dir.args) {
        if (!spec.args.includes(a.name)) return errorAt(dir.pos, `${a.name} is not supported as an argument for ${dir.name} directive.`);
      }
    }
    return undefined;
  }

  private implementsCheck(def: Definition, iname: string): SchemaError | undefined {
    const intf = this.types.get(iname);
    if (!intf) return errorAt(def.pos, `Undefined type "${iname}".`);
    if (intf.kind !== 'INTERFACE') return errorAt(def.pos, `"${iname}" is a non interface type ${intf.kind}.`);
    for (const req of intf.fields) {
      const found = def.fields.filter((f) => f.name === req.name);
      if (found.length === 0) return errorAt(def.pos, `For ${def.name} to implement ${intf.name} it must have a field called ${req.name}.`);
      for (const f of found) {
        if (!this.isCovariant(req.type, f.type)) {
          return errorAt(def.pos, `For type ${def.name} to implement interface ${intf.name} the field ${req.name} must have type ${typeString(req.type)}`);
        }
      }
    }
    return undefined;
  }

  private isCovariant(required: TypeRef, actual: TypeRef): boolean {
    if (required.nonNull && !actual.nonNull) return false;
    if (required.name !== undefined) {
      if (actual.name === undefined) return false;
      if (required.name === actual.name) return true;
      const r = this.types.get(required.name);
      const a = this.types.get(actual.name);
      if (r?.kind === 'UNION') return r.types.includes(actual.name);
      if (r?.kind === 'INTERFACE') return a?.interfaces.includes(required.name) ?? false;
      return false;
    }
    if (actual.elem === undefined || required.elem === undefined) return false;
    return this.isCovariant(required.elem, actual.elem);
  }

  definition(def: Definition): SchemaError | undefined {
    if (def.kind === 'OBJECT' || def.kind === 'INTERFACE') {
      if (def.fields.length === 0) return errorAt(def.pos, `${def.kind} ${def.name}: must define one or more fields.`);
      for (const f of def.fields) {
        const k = this.kindOf(typeName(f.type));
        if (k === 'INPUT_OBJECT') return errorAt(f.pos, `${def.kind} ${def.name}: field must be one of SCALAR, OBJECT, INTERFACE, UNION, ENUM.`);
      }
    } else if (def.kind === 'ENUM') {
      if (def.enumValues.length === 0) return errorAt(def.pos, `${def.kind} ${def.name}: must define one or more unique enum values.`);
    } else if (def.kind === 'INPUT_OBJECT') {
      if (def.fields.length === 0) return errorAt(def.pos, `${def.kind} ${def.name}: must define one or more input fields.`);
      for (const f of def.fields) {
        const k = this.kindOf(typeName(f.type));
        if (k !== undefined && k !== 'SCALAR' && k !== 'ENUM' && k !== 'INPUT_OBJECT') {
          return errorAt(f.pos, `${def.kind} ${def.name}: field must be one of SCALAR, ENUM, INPUT_OBJECT.`);
        }
      }
    } else if (def.kind === 'UNION') {
      for (const m of def.types) {
        const k = this.kindOf(m);
        if (k === undefined) return errorAt(def.pos, `Undefined type "${m}".`);
        if (k !== 'OBJECT') return errorAt(def.pos, `UNION type "${m}" must be OBJECT.`);
      }
    }
    for (const i of def.interfaces) {
      const e = this.implementsCheck(def, i);
      if (e) return e;
    }
    for (let i = 0; i < def.fields.length; i++) {
      for (let j = i + 1; j < def.fields.length; j++) {
        if (def.fields[i]!.name === def.fields[j]!.name) return errorAt(def.fields[j]!.pos, `Field ${def.name}.${def.fields[j]!.name} can only be defined once.`);
      }
    }
    const fieldLoc = def.kind === 'INPUT_OBJECT' ? 'INPUT_FIELD_DEFINITION' : 'FIELD_DEFINITION';
    for (const f of def.fields) {
      const e =
        this.typeRef(f.type) ??
        f.args.reduce<SchemaError | undefined>((acc, a) => acc ?? this.typeRef(a.type) ?? this.directives(a.directives, 'ARGUMENT_DEFINITION'), undefined) ??
        this.directives(f.directives, fieldLoc);
      if (e) return e;
    }
    for (const v of def.enumValues) {
      const e = this.directives(v.directives, 'ENUM_VALUE');
      if (e) return e;
    }
    return this.directives(def.directives, def.kind);
  }
}

function namedPos(t: TypeRef): TypeRef['pos'] {
  return t.elem ? namedPos(t.elem) : t.pos;
}

export function specValidate(defs: readonly Definition[], all: readonly Definition[], userDirectives: ReadonlySet<string>): SchemaError[] {
  const seen = new Set<string>();
  for (const d of all) {
    if (seen.has(d.name)) return [errorAt(d.pos, `Cannot redeclare type ${d.name}.`)];
    seen.add(d.name);
  }
  const v = new SpecValidator(all, userDirectives);
  for (const d of defs) {
    const e = v.definition(d);
    if (e) return [e];
  }
  return [];
}
