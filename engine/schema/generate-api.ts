// Completes a validated input schema into Dgraph's generated API (REFERENCE §4): per type the
// Ref/Patch/Input/Filter/Order/HasFilter/AggregateResult/Payload definitions, the root fields, and
// the filter/order/pagination arguments and `*Aggregate` fields added to the user's own types.
// Steps and their order follow Dgraph's completeSchema, because later steps read what earlier ones
// produced (e.g. `vector_distance` is added after the inputs so it never becomes an input field).
import type { RootFieldKind } from './model.js';
import type { ArgDef, Definition, FieldDef } from './sdl-ast.js';
import { copyType, findArg, findChild, findDirective, listType, namedType, newDefinition, stringValue, typeName } from './sdl-ast.js';
import {
  filterTypeNames,
  hasExtends,
  hasID,
  hasIDDirective,
  hasXID,
  isCustomOrLambda,
  isIDField,
  isMultiLangField,
  isQueryOrMutation,
  isReversePredicate,
  lowerFirst,
  secretField,
} from './helpers.js';
import { INBUILT_TYPES, NUMERIC_TYPES, ORDERABLE_TYPES } from './search-table.js';

export interface GeneratedRoot {
  readonly kind: RootFieldKind;
  readonly type: string;
}

export interface CompletedSchema {
  readonly types: Map<string, Definition>;
  /** User definitions in input order (printed as "Input Schema"). */
  readonly originalDefs: readonly string[];
  /** Names never printed among the generated definitions. */
  readonly printedElsewhere: ReadonlySet<string>;
  readonly query: Definition;
  readonly mutation: Definition;
  readonly subscription: Definition;
  readonly apollo: boolean;
  readonly apolloEntities: readonly string[];
  /** Generated root fields by operation type and name. */
  readonly generatedRoots: {
    readonly query: Map<string, GeneratedRoot>;
    readonly mutation: Map<string, GeneratedRoot>;
    readonly subscription: Map<string, GeneratedRoot>;
  };
}

export interface GenerateParams {
  get: boolean;
  query: boolean;
  password: boolean;
  aggregate: boolean;
  add: boolean;
  update: boolean;
  delete: boolean;
  subscription: boolean;
}

const DEPRECATED_INTERFACE_GET =
  '@id argument for get query on interface is being deprecated. Only those @id fields which have interface argument set to true will be available in getQuery argument on interface post v21.11.0, please update your schema accordingly.';

function parseGenerateParams(defn: Definition): GenerateParams {
  const p: GenerateParams = { get: true, query: true, password: true, aggregate: true, add: true, update: true, delete: true, subscription: false };
  const dir = findDirective(defn.directives, 'generate');
  const flag = (v: { raw: string; kind: string } | undefined, dflt: boolean): boolean =>
    v && v.kind === 'Boolean' ? v.raw === 'true' : dflt;
  if (dir) {
    const q = findArg(dir, 'query')?.value;
    p.get = flag(findChild(q, 'get')?.value, p.get);
    p.query = flag(findChild(q, 'query')?.value, p.query);
    p.password = flag(findChild(q, 'password')?.value, p.password);
    p.aggregate = flag(findChild(q, 'aggregate')?.value, p.aggregate);
    const m = findArg(dir, 'mutation')?.value;
    p.add = flag(findChild(m, 'add')?.value, p.add);
    p.update = flag(findChild(m, 'update')?.value, p.update);
    p.delete = flag(findChild(m, 'delete')?.value, p.delete);
    p.subscription = flag(findArg(dir, 'subscription')?.value, p.subscription);
  }
  if (findDirective(defn.directives, 'withSubscription')) p.subscription = true;
  return p;
}

class Generator {
  readonly query: Definition;
  readonly mutation: Definition;
  readonly subscription = newDefinition('OBJECT', 'Subscription');
  readonly roots = { query: new Map<string, GeneratedRoot>(), mutation: new Map<string, GeneratedRoot>(), subscription: new Map<string, GeneratedRoot>() };

  constructor(
    readonly types: Map<string, Definition>,
    private readonly completable: ReadonlySet<string>,
    /** Apollo `@provides(fields:)`: type name → fields another type provides (usable though @external). */
    private readonly provides: ReadonlyMap<string, ReadonlySet<string>>,
  ) {
    this.query = types.get('Query') ?? newDefinition('OBJECT', 'Query');
    this.mutation = types.get('Mutation') ?? newDefinition('OBJECT', 'Mutation');
  }

  private kindOf(name: string): Definition['kind'] | undefined {
    return this.types.get(name)?.kind;
  }

  /** Types that get a generated `<T>Filter` (so fields of that type take `filter:`). */
  private isFilterable(name: string): boolean {
    const d = this.types.get(name);
    return d !== undefined && this.completable.has(name) && (d.kind === 'OBJECT' || d.kind === 'INTERFACE' || d.kind === 'UNION');
  }

  private isInterfaceWithoutIds(name: string): boolean {
    const d = this.types.get(name);
    return d !== undefined && d.kind === 'INTERFACE' && !hasID(d) && !hasXID(d);
  }

  hasOrderables(defn: Definition | undefined): boolean {
    return defn !== undefined && defn.kind !== 'UNION' && defn.fields.some((f) => this.isOrderable(f, defn));
  }

  /** External fields are orderable only as @key or provided fields, whatever their type (Dgraph's isOrderable). */
  private isOrderable(f: FieldDef, defn: Definition): boolean {
    if (f.type.name === undefined) return false;
    if (findDirective(f.directives, 'external')) return !this.isExternalNonKey(f, defn);
    return ORDERABLE_TYPES.has(f.type.name) && !isCustomOrLambda(f) && !isMultiLangField(f, false);
  }

  /** The type has a usable ID field (an @external one counts only as a key or provided field). */
  private hasIdField(defn: Definition): boolean {
    return defn.fields.some((f) => isIDField(f) && !this.isExternalNonKey(f, defn));
  }

  /** Input fields of add/ref/patch: Dgraph's getFieldsWithoutIDType / getNonIDFields. */
  private inputFields(defn: Definition, mode: 'add' | 'ref' | 'patch'): FieldDef[] {
    const out: FieldDef[] = [];
    for (const f of defn.fields) {
      // Extended (Apollo) types must be given their @key ID when added.
      const keyId = mode === 'add' && isIDField(f) && hasExtends(defn) && this.isKeyField(f, defn);
      if ((isIDField(f) && !keyId) || isCustomOrLambda(f) || isReversePredicate(f)) continue;
      if (this.isInterfaceWithoutIds(typeName(f.type))) continue;
      if (isMultiLangField(f, true)) continue;
      if (this.isExternalNonKey(f, defn)) continue;
      const c = this.inputField(f);
      if (mode === 'patch') c.type.nonNull = false;
      if (mode === 'add' && findArg(findDirective(f.directives, 'default'), 'add')) c.type.nonNull = false;
      out.push(c);
    }
    const pwd = secretField(defn);
    if (pwd) out.push({ ...pwd, type: { ...pwd.type, nonNull: mode !== 'patch' } });
    return out;
  }

  private isKeyField(f: FieldDef, defn: Definition): boolean {
    const key = findArg(findDirective(defn.directives, 'key'), 'fields')?.value.raw;
    return key !== undefined && key.split(/\s+/).includes(f.name);
  }

  /** Dgraph's createField: object-typed fields become `<X>Ref`, scalars are copied bare. */
  private inputField(f: FieldDef): FieldDef {
    const tn = typeName(f.type);
    const k = this.kindOf(tn);
    if (k === 'OBJECT' || k === 'INTERFACE' || k === 'UNION') {
      const t = f.type.name !== undefined
        ? namedType(`${tn}Ref`, f.type.nonNull)
        : listType(namedType(`${tn}Ref`, f.type.elem?.nonNull ?? false), f.type.nonNull);
      return { name: f.name, args: [], type: t, directives: [] };
    }
    return { name: f.name, description: f.description, args: [], type: copyType(f.type), directives: [] };
  }

  private copyIdField(defn: Definition, pick: (f: FieldDef) => boolean): FieldDef[] {
    const f = defn.fields.find((x) => pick(x) && !this.isExternalNonKey(x, defn));
    return f ? [{ name: f.name, description: f.description, args: [], directives: [], type: copyType(f.type) }] : [];
  }

  addReferenceType(defn: Definition): void {
    let flds: FieldDef[];
    if (defn.kind === 'INTERFACE') {
      if (!this.hasIdField(defn) && !hasXID(defn)) return;
      flds = [...this.copyIdField(defn, isIDField), ...this.copyIdField(defn, hasIDDirective)];
    } else {
      flds = [...this.copyIdField(defn, isIDField), ...this.inputFields(defn, 'ref')];
    }
    if (flds.length === 1 && (this.hasIdField(defn) || hasXID(defn))) flds[0]!.type.nonNull = true;
    else for (const f of flds) f.type.nonNull = false;
    if (flds.length > 0) this.define('INPUT_OBJECT', `${defn.name}Ref`, flds);
  }

  private define(kind: Definition['kind'], name: string, fields: FieldDef[]): Definition {
    const d = newDefinition(kind, name);
    d.fields = fields;
    this.types.set(name, d);
    return d;
  }

  addPatchType(defn: Definition): void {
    const flds = this.inputFields(defn, 'patch');
    if (flds.length > 0) this.define('INPUT_OBJECT', `${defn.name}Patch`, flds);
  }

  addUpdateType(defn: Definition): void {
    if (!this.types.has(`${defn.name}Patch`)) return;
    this.define('INPUT_OBJECT', `Update${defn.name}Input`, [
      field('filter', namedType(`${defn.name}Filter`, true)),
      field('set', namedType(`${defn.name}Patch`)),
      field('remove', namedType(`${defn.name}Patch`)),
    ]);
  }

  /** `lc(T)(filter, order, first, offset): [T]` as used in payloads. */
  private payloadQueryField(defn: Definition): FieldDef {
    const f = field(lowerFirst(defn.name), listType(namedType(defn.name)));
    this.addFilterArgument(f);
    this.addOrderArgument(f);
    addPaginationArguments(f);
    return f;
  }

  addUpdatePayloadType(defn: Definition): void {
    if (!this.types.has(`${defn.name}Patch`)) return;
    this.define('OBJECT', `Update${defn.name}Payload`, [this.payloadQueryField(defn), field('numUids', namedType('Int'))]);
  }

  addDeletePayloadType(defn: Definition): void {
    this.define('OBJECT', `Delete${defn.name}Payload`, [
      this.payloadQueryField(defn),
      field('msg', namedType('String')),
      field('numUids', namedType('Int')),
    ]);
  }

  addInputType(defn: Definition): void {
    const flds = this.inputFields(defn, 'add');
    if (flds.length > 0) this.define('INPUT_OBJECT', `Add${defn.name}Input`, flds);
  }

  addAddPayloadType(defn: Definition): void {
    if (!this.types.has(`Add${defn.name}Input`)) return;
    this.define('OBJECT', `Add${defn.name}Payload`, [this.payloadQueryField(defn), field('numUids', namedType('Int'))]);
  }

  private addRoot(target: 'query' | 'mutation' | 'subscription', f: FieldDef, kind: RootFieldKind, type: string): void {
    this[target].fields.push(f);
    this.roots[target].set(f.name, { kind, type });
  }

  addMutations(defn: Definition, p: GenerateParams): void {
    if (p.add && this.types.has(`Add${defn.name}Input`)) {
      const f = field(`add${defn.name}`, namedType(`Add${defn.name}Payload`));
      f.args.push(argDef('input', listType(namedType(`Add${defn.name}Input`, true), true)));
      if (hasXID(defn)) f.args.push(argDef('upsert', namedType('Boolean')));
      this.addRoot('mutation', f, 'add', defn.name);
    }
    if (p.update) this.addUpdateMutation(defn);
    if (p.delete) this.addDeleteMutation(defn);
  }

  addUpdateMutation(defn: Definition): void {
    if (!this.types.has(`Update${defn.name}Input`)) return;
    const f = field(`update${defn.name}`, namedType(`Update${defn.name}Payload`));
    f.args.push(argDef('input', namedType(`Update${defn.name}Input`, true)));
    this.addRoot('mutation', f, 'update', defn.name);
  }

  addDeleteMutation(defn: Definition): void {
    const f = field(`delete${defn.name}`, namedType(`Delete${defn.name}Payload`));
    f.args.push(argDef('filter', namedType(`${defn.name}Filter`, true)));
    this.addRoot('mutation', f, 'delete', defn.name);
  }

  /** Filter input names for one field; enum hash/exact filters are generated on the way. */
  private filterTypes(f: FieldDef): string[] {
    const tn = typeName(f.type);
    const isEnum = this.kindOf(tn) === 'ENUM';
    const names = filterTypeNames(f, isEnum);
    for (const name of names) {
      if (!isEnum || !(name === `${tn}_hash` || name === `${tn}_exact`)) continue;
      const base = this.types.get(name.endsWith('_hash') ? 'StringHashFilter' : 'StringExactFilter');
      this.define(
        'INPUT_OBJECT',
        name,
        (base?.fields ?? []).map((bf) => ({
          name: bf.name,
          description: bf.description,
          args: [],
          type: bf.type.name !== undefined ? namedType(tn) : listType(namedType(tn)),
          directives: [],
        })),
      );
    }
    return names;
  }

  /** The filter input name a field gets in `<T>Filter`, creating merged filters as needed. */
  fieldFilterName(f: FieldDef): string | undefined {
    const names = this.filterTypes(f);
    if (names.length === 0) return undefined;
    const name = names.join('_');
    if (names.length > 1) {
      const fields = names.flatMap((n) => (this.types.get(n)?.fields ?? []).map((x) => ({ ...x, type: copyType(x.type) })));
      this.define('INPUT_OBJECT', name, fields);
    }
    return name;
  }

  addFilterType(defn: Definition): void {
    const fields: FieldDef[] = [];
    for (const f of defn.fields) {
      if (this.isExternalNonKey(f, defn)) continue;
      if (isIDField(f)) {
        fields.push(field(f.name, listType(namedType('ID', true))));
        continue;
      }
      const fn = this.fieldFilterName(f);
      if (fn !== undefined) fields.push(field(f.name, namedType(fn)));
    }
    if (this.inputFields(defn, 'ref').length > 0) fields.push(field('has', listType(namedType(`${defn.name}HasFilter`))));
    const name = `${defn.name}Filter`;
    if (!((fields.length === 1 && !this.hasIdField(defn)) || fields.length > 1)) {
      fields.push(field('not', namedType(name)));
    } else {
      fields.push(field('and', listType(namedType(name))), field('or', listType(namedType(name))), field('not', namedType(name)));
    }
    this.define('INPUT_OBJECT', name, fields);
  }

  private isExternalNonKey(f: FieldDef, defn: Definition): boolean {
    return (
      findDirective(f.directives, 'external') !== undefined &&
      !this.isKeyField(f, defn) &&
      !(this.provides.get(defn.name)?.has(f.name) ?? false)
    );
  }

  addTypeOrderable(defn: Definition): void {
    if (!this.hasOrderables(defn)) return;
    const order = `${defn.name}Order`;
    const orderable = `${defn.name}Orderable`;
    this.define('INPUT_OBJECT', order, [
      field('asc', namedType(orderable)),
      field('desc', namedType(orderable)),
      field('then', namedType(order)),
    ]);
    const e = newDefinition('ENUM', orderable);
    for (const f of defn.fields) {
      if (this.isOrderable(f, defn)) e.enumValues.push({ name: f.name, directives: [] });
    }
    this.types.set(orderable, e);
  }

  addFilterArgument(f: FieldDef, tn = typeName(f.type)): void {
    if (this.isFilterable(tn)) f.args.push(argDef('filter', namedType(`${tn}Filter`)));
  }

  addOrderArgument(f: FieldDef): void {
    const tn = typeName(f.type);
    if (this.completable.has(tn) && this.hasOrderables(this.types.get(tn))) f.args.push(argDef('order', namedType(`${tn}Order`)));
  }

  addFieldFilters(defn: Definition): void {
    for (const f of defn.fields) {
      if (isCustomOrLambda(f)) continue;
      if (this.isExternalNonKey(f, defn)) continue;
      this.addFilterArgument(f);
      const tn = typeName(f.type);
      if (f.type.name === undefined && !(tn in INBUILT_TYPES) && this.kindOf(tn) !== 'ENUM') {
        this.addOrderArgument(f);
        addPaginationArguments(f);
      }
    }
  }

  addAggregationResultType(defn: Definition): void {
    const fields = [field('count', namedType('Int'))];
    for (const f of defn.fields) {
      if (this.isExternalNonKey(f, defn)) continue;
      const t = f.type.name;
      if (t === undefined || isCustomOrLambda(f)) continue;
      // Unlike ordering, aggregates include multi-language fields.
      const minMax = findDirective(f.directives, 'external') ? this.isOrderable(f, defn) : ORDERABLE_TYPES.has(t);
      if (minMax) fields.push(field(`${f.name}Min`, namedType(t)), field(`${f.name}Max`, namedType(t)));
      if (NUMERIC_TYPES.has(t)) fields.push(field(`${f.name}Sum`, namedType(t)), field(`${f.name}Avg`, namedType('Float')));
    }
    this.define('OBJECT', `${defn.name}AggregateResult`, fields);
  }

  private idArgs(defn: Definition): ArgDef[] {
    const args: ArgDef[] = [];
    const hasIdField = this.hasIdField(defn);
    const xids = defn.fields.filter(hasIDDirective);
    const idf = defn.fields.find((f) => isIDField(f) && !this.isExternalNonKey(f, defn));
    if (idf) args.push(argDef(idf.name, namedType('ID', xids.length === 0)));
    for (const x of xids) args.push(argDef(x.name, namedType(typeName(x.type), !hasIdField && xids.length <= 1)));
    return args;
  }

  addGetQuery(defn: Definition, target: 'query' | 'subscription'): void {
    if (!this.hasIdField(defn) && !hasXID(defn)) return;
    const f = field(`get${defn.name}`, namedType(defn.name));
    f.args = this.idArgs(defn);
    const oldStyleXid = defn.fields.some((x) => hasIDDirective(x) && findArg(findDirective(x.directives, 'id'), 'interface')?.value.raw !== 'true');
    if (defn.kind === 'INTERFACE' && oldStyleXid) {
      f.directives.push({ name: 'deprecated', args: [{ name: 'reason', value: stringValue(DEPRECATED_INTERFACE_GET) }] });
    }
    this.addRoot(target, f, 'get', defn.name);
  }

  addPasswordQuery(defn: Definition): void {
    const pwd = secretField(defn);
    if (!pwd) return;
    const idf = defn.fields.find(isIDField) ?? defn.fields.find(hasIDDirective);
    if (!idf) return;
    const f = field(`check${defn.name}Password`, namedType(defn.name));
    f.args.push(argDef(idf.name, copyType(idf.type)), argDef(pwd.name, namedType('String', true)));
    this.addRoot('query', f, 'checkPassword', defn.name);
  }

  addFilterQuery(defn: Definition, target: 'query' | 'subscription'): void {
    const f = field(`query${defn.name}`, listType(namedType(defn.name)));
    this.addFilterArgument(f);
    this.addOrderArgument(f);
    addPaginationArguments(f);
    this.addRoot(target, f, 'query', defn.name);
  }

  addAggregationQuery(defn: Definition, target: 'query' | 'subscription'): void {
    const f = field(`aggregate${defn.name}`, namedType(`${defn.name}AggregateResult`));
    this.addFilterArgument(f, defn.name);
    this.addRoot(target, f, 'aggregate', defn.name);
  }

  addSimilarityQueries(defn: Definition): void {
    const embeddings = defn.fields.filter((f) => findDirective(f.directives, 'embedding'));
    if (embeddings.length === 0) return;
    const enumName = `${defn.name}Embedding`;
    const e = newDefinition('ENUM', enumName);
    e.enumValues = embeddings.map((f) => ({ name: f.name, directives: [] }));
    this.types.set(enumName, e);
    const common = (): ArgDef[] => [argDef('by', namedType(enumName, true)), argDef('topK', namedType('Int', true))];
    if (this.hasIdField(defn) || hasXID(defn)) {
      const byId = field(`querySimilar${defn.name}ById`, listType(namedType(defn.name)));
      byId.args = [...this.idArgs(defn), ...common()];
      this.addFilterArgument(byId);
      this.addRoot('query', byId, 'similarById', defn.name);
    }
    const byEmb = field(`querySimilar${defn.name}ByEmbedding`, listType(namedType(defn.name)));
    byEmb.args = [...common(), argDef('vector', listType(namedType('Float', true), true))];
    this.addFilterArgument(byEmb);
    this.addRoot('query', byEmb, 'similarByEmbedding', defn.name);
    defn.fields.push(field('vector_distance', namedType('Float')));
  }

  addQueries(defn: Definition, p: GenerateParams): void {
    if (p.get) {
      this.addGetQuery(defn, 'query');
      this.addSimilarityQueries(defn);
    }
    if (p.password) this.addPasswordQuery(defn);
    if (p.query) this.addFilterQuery(defn, 'query');
    if (p.aggregate) this.addAggregationQuery(defn, 'query');
    if (p.subscription) {
      if (p.get) this.addGetQuery(defn, 'subscription');
      if (p.query) this.addFilterQuery(defn, 'subscription');
      if (p.aggregate) this.addAggregationQuery(defn, 'subscription');
    }
  }

  addTypeHasFilter(defn: Definition): void {
    const e = newDefinition('ENUM', `${defn.name}HasFilter`);
    for (const f of defn.fields) {
      if (this.isExternalNonKey(f, defn)) continue;
      if (isIDField(f) || isCustomOrLambda(f) || isMultiLangField(f, false)) continue;
      e.enumValues.push({ name: f.name, directives: [] });
    }
    if (e.enumValues.length > 0) this.types.set(e.name, e);
  }

  addAggregateFields(defn: Definition): void {
    const added: FieldDef[] = [];
    for (const f of defn.fields) {
      const tn = typeName(f.type);
      const k = this.kindOf(tn);
      if (f.type.name !== undefined || isCustomOrLambda(f) || !this.completable.has(tn)) continue;
      if (k !== 'OBJECT' && k !== 'INTERFACE') continue;
      const agg = field(`${f.name}Aggregate`, namedType(`${tn}AggregateResult`));
      this.addFilterArgument(agg, tn);
      added.push(agg);
    }
    defn.fields.push(...added);
  }

  completeUnion(defn: Definition): void {
    this.define(
      'INPUT_OBJECT',
      `${defn.name}Ref`,
      defn.types.map((m) => field(`${lowerFirst(m)}Ref`, namedType(`${m}Ref`))),
    );
    this.define('INPUT_OBJECT', `${defn.name}Filter`, [
      field('memberTypes', listType(namedType(`${defn.name}Type`, true))),
      ...defn.types.map((m) => field(`${lowerFirst(m)}Filter`, namedType(`${m}Filter`))),
    ]);
    const e = newDefinition('ENUM', `${defn.name}Type`);
    e.enumValues = defn.types.map((m) => ({ name: m, directives: [] }));
    this.types.set(e.name, e);
  }

  completeType(defn: Definition): void {
    const p = parseGenerateParams(defn);
    this.addReferenceType(defn);
    if (p.update) {
      this.addPatchType(defn);
      this.addUpdateType(defn);
      this.addUpdatePayloadType(defn);
    }
    if (p.delete) this.addDeletePayloadType(defn);
    if (defn.kind === 'INTERFACE') {
      if (p.update) this.addUpdateMutation(defn);
      if (p.delete) this.addDeleteMutation(defn);
    } else {
      if (p.add) {
        this.addInputType(defn);
        this.addAddPayloadType(defn);
      }
      this.addMutations(defn, p);
    }
    this.addFilterType(defn);
    this.addTypeOrderable(defn);
    this.addFieldFilters(defn);
    this.addAggregationResultType(defn);
    this.addQueries(defn, p);
    this.addTypeHasFilter(defn);
    this.addAggregateFields(defn);
  }

  /** Dgraph's cleanSchema: drop inputs left without fields, and the mutations that needed them. */
  clean(): void {
    for (const def of [...this.types.values()]) {
      if (def.kind === 'INPUT_OBJECT' && !def.builtIn) this.cleanupInput(def, new Set());
    }
    const keep: FieldDef[] = [];
    for (const f of this.mutation.fields) {
      const root = this.roots.mutation.get(f.name);
      if (root?.kind === 'add' && !this.types.has(`Add${root.type}Input`)) {
        this.roots.mutation.delete(f.name);
        continue;
      }
      if (root?.kind === 'update' && !this.types.has(`${root.type}Patch`)) {
        this.types.delete(`Update${root.type}Input`);
        this.roots.mutation.delete(f.name);
        continue;
      }
      keep.push(f);
    }
    this.mutation.fields = keep;
  }

  private cleanupInput(def: Definition | undefined, seen: Set<string>): void {
    if (!def || seen.has(def.name) || def.kind !== 'INPUT_OBJECT') return;
    seen.add(def.name);
    def.fields = def.fields.filter((f) => {
      const tn = typeName(f.type);
      if (tn in INBUILT_TYPES || this.kindOf(tn) === 'ENUM') return true;
      this.cleanupInput(this.types.get(tn), seen);
      return this.types.has(tn);
    });
    if (def.fields.length === 0) this.types.delete(def.name);
  }
}

/** For each type, the fields some other type's field declares it `@provides`. */
function providesMap(types: Map<string, Definition>, names: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const n of names) {
    for (const f of types.get(n)?.fields ?? []) {
      const raw = findArg(findDirective(f.directives, 'provides'), 'fields')?.value.raw;
      if (raw === undefined) continue;
      const set = out.get(typeName(f.type)) ?? new Set<string>();
      for (const x of raw.split(/\s+/).filter((y) => y !== '')) set.add(x);
      out.set(typeName(f.type), set);
    }
  }
  return out;
}

function field(name: string, type: FieldDef['type']): FieldDef {
  return { name, args: [], type, directives: [] };
}

function argDef(name: string, type: ArgDef['type']): ArgDef {
  return { name, type, directives: [] };
}

function addPaginationArguments(f: FieldDef): void {
  f.args.push(argDef('first', namedType('Int')), argDef('offset', namedType('Int')));
}

/**
 * Completes `types` in place (user definitions, already expanded with inherited interface fields,
 * plus the built-in extras). `typesToComplete` are the user's non-remote definitions in input order.
 */
export function completeSchema(
  types: Map<string, Definition>,
  originalDefs: readonly string[],
  typesToComplete: readonly string[],
  builtInNames: ReadonlySet<string>,
): CompletedSchema {
  const completable = new Set(typesToComplete.filter((n) => !isQueryOrMutation(n)));
  const g = new Generator(types, completable, providesMap(types, typesToComplete));
  for (const f of g.query.fields) {
    if (isCustomOrLambda(f) && findDirective(f.directives, 'withSubscription')) g.subscription.fields.push(f);
  }
  const entities = typesToComplete.filter((n) => findDirective(types.get(n)?.directives ?? [], 'key'));
  const apollo = entities.length > 0;
  if (apollo) {
    const e = field('_entities', listType(namedType('_Entity'), true));
    e.args.push(argDef('representations', listType(namedType('_Any', true), true)));
    g.query.fields.push(e, field('_service', namedType('_Service', true)));
  }
  for (const name of typesToComplete) {
    if (isQueryOrMutation(name)) continue;
    const defn = types.get(name);
    if (!defn) continue;
    if (defn.kind === 'UNION') g.completeUnion(defn);
    else if (defn.kind === 'OBJECT' || defn.kind === 'INTERFACE') g.completeType(defn);
  }
  g.clean();
  types.delete('Query');
  types.delete('Mutation');
  const printedElsewhere = new Set<string>([...originalDefs, ...builtInNames, 'Query', 'Mutation', 'Subscription']);
  return {
    types,
    originalDefs,
    printedElsewhere,
    query: g.query,
    mutation: g.mutation,
    subscription: g.subscription,
    apollo,
    apolloEntities: entities,
    generatedRoots: g.roots,
  };
}
