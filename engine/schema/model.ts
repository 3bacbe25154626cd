// The validated schema model: what the rest of the engine knows about an uploaded schema.
// Built by the schema compiler from the user's SDL; read by plan/ and exec/. Plain data, no graphql-js.

/** The named GraphQL type of a field, classified the way storage and filters need it. */
export type FieldKind =
  | 'id' // the type's ID field (the node's uid)
  | 'scalar' // String, Int, Int64, Float, Boolean, DateTime
  | 'enum'
  | 'geo' // Point, Polygon, MultiPolygon
  | 'embedding' // [Float!] with @embedding
  | 'object'
  | 'interface'
  | 'union';

export type ScalarName = 'ID' | 'String' | 'Int' | 'Int64' | 'Float' | 'Boolean' | 'DateTime';

/** Index kinds as stored (the DgraphIndex names of REFERENCE §5.1; `regexp` is normalised to `trigram`). */
import type { IndexKindName } from '../indexes/index-kind.js';

export type IndexKind = IndexKindName;

export interface FieldModel {
  readonly name: string;
  /** Innermost named type: `String`, `Review`, `Point`, an enum name... */
  readonly typeName: string;
  readonly kind: FieldKind;
  readonly isList: boolean;
  /** `T!` or `[T]!` */
  readonly nonNull: boolean;
  /** `[T!]` */
  readonly itemNonNull: boolean;
  /** Storage predicate: `<DeclaringType>.<field>` unless `@dgraph(pred:)` says otherwise. */
  readonly predicate: string;
  /** `@dgraph(pred: "~p")`: this field reads the reverse of forward predicate `p`. */
  readonly reverseOf?: string;
  /** The interface that declared this field, or the type itself. */
  readonly declaringType: string;
  /** `@id` */
  readonly isXid: boolean;
  /** `id: ID! @external` of a type extension: an XID stored as a String (typeName `String`, hash index), filtered by a list of values as `in`. */
  readonly externalKey?: boolean;
  /** `@id(interface: true)`: unique across every implementation of the declaring interface. */
  readonly xidInterface: boolean;
  /** Index kinds from `@search` (with defaults applied) and `@id`, sorted as in the generated filter. */
  readonly search: readonly IndexKind[];
  /** Name of the generated filter input type for this field (e.g. `StringHashFilter_StringRegExpFilter`), if any. */
  readonly filterInput?: string;
  /** `@hasInverse`: the field on the other type that holds the reverse edge (both sides carry it). */
  readonly inverse?: { readonly type: string; readonly field: string };
  /** `@custom` / `@lambda`: resolved by the custom-logic stage, never stored. */
  readonly custom?: CustomFieldModel;
  /** `@default(add:, update:)` raw string values (`$now` allowed for DateTime). */
  readonly defaults?: { readonly add?: string; readonly update?: string };
  /** Multi-language (`pred@hi:en`) fields are read-only. */
  readonly readOnly: boolean;
  /**
   * `pred@hi:zh:.` and `pred@.` fields: the predicates read in turn, the first holding a value wins
   * (`pred` for the untagged value; `pred@*` = any language, after the untagged one). One-language
   * fields (`pred@hi`) have none: they are stored under their own predicate.
   */
  readonly languages?: readonly string[];
  readonly description?: string;
}

/** A field whose values are nodes (stored as edges), not scalars. */
export function isEdgeField(field: FieldModel): boolean {
  return field.kind === 'object' || field.kind === 'interface' || field.kind === 'union';
}

/** Resolved remotely (`@custom(http:)`, `@lambda`), never reaching the store (`@custom(dql:)` does). */
export function isRemoteField(custom: CustomFieldModel | undefined): boolean {
  return custom !== undefined && custom.dql === undefined;
}

export interface CustomFieldModel {
  readonly http?: CustomHttpModel;
  readonly dql?: string;
  readonly lambda: boolean;
}

export interface CustomHttpModel {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: string;
  readonly graphql?: string;
  readonly mode: 'SINGLE' | 'BATCH';
  readonly forwardHeaders: readonly string[];
  readonly secretHeaders: readonly string[];
  readonly introspectionHeaders: readonly string[];
  readonly skipIntrospection: boolean;
}

export type TypeKind = 'object' | 'interface' | 'union';

export interface TypeModel {
  readonly name: string;
  readonly kind: TypeKind;
  /** Storage type name (`@dgraph(type:)` or the name). */
  readonly dgraphType: string;
  /** Fields in output order (inherited interface fields included, as REFERENCE §4.6 orders them). */
  readonly fields: ReadonlyMap<string, FieldModel>;
  /** Interfaces this object/interface implements. */
  readonly interfaces: readonly string[];
  /** For interfaces: the object types implementing it; for unions: the member types. */
  readonly possibleTypes: readonly string[];
  /** The ID field's name, if the type has one. */
  readonly idField?: string;
  /** Names of `@id` fields, in field order. */
  readonly xidFields: readonly string[];
  /** `@secret(field:, pred:)` */
  readonly secret?: { readonly field: string; readonly predicate: string };
  readonly remote: boolean;
}

/** What a generated root field does; exec dispatches on this instead of parsing names. */
export type RootFieldKind =
  | 'get'
  | 'query'
  | 'aggregate'
  | 'checkPassword'
  | 'similarById'
  | 'similarByEmbedding'
  | 'add'
  | 'update'
  | 'delete'
  | 'custom';

export interface RootFieldModel {
  readonly name: string;
  readonly kind: RootFieldKind;
  /** The stored type the operation works on (absent for custom fields). */
  readonly type?: string;
  readonly custom?: CustomFieldModel;
}

export interface SchemaModel {
  /** Every object, interface and union of the input schema (remote ones included, flagged). */
  readonly types: ReadonlyMap<string, TypeModel>;
  readonly enums: ReadonlyMap<string, readonly string[]>;
  readonly queries: ReadonlyMap<string, RootFieldModel>;
  readonly mutations: ReadonlyMap<string, RootFieldModel>;
  readonly subscriptions: ReadonlyMap<string, RootFieldModel>;
  /** `# Service.Secret NAME VALUE` lines. Never printed, logged or returned in errors. */
  readonly secrets: ReadonlyMap<string, string>;
  /** `# Service.Allow-Origin` values. */
  readonly allowedOrigins: readonly string[];
  /** Raw `# Service.Authorization` JSON, parsed. */
  readonly authorization?: Readonly<Record<string, unknown>>;
}
