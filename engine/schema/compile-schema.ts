// The schema compiler's entry point: uploaded SDL → validated model → generated API schema text
// (Dgraph's exact layout) → graphql-js schema of that API. The steps are REFERENCE §1's pipeline.
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'graphql';
import type { SchemaError } from '../api.js';
import type { SchemaModel } from './model.js';
import { parseMetaLines } from './parse-meta-lines.js';
import { parseSdl } from './parse-sdl.js';
import { preValidate } from './validators/pre-validate.js';
import { inheritInterfaceFields } from './expand-schema.js';
import { builtInDefinitions, builtInTypeNames } from './builtins.js';
import { specValidate } from './validators/spec-validate.js';
import { postValidate } from './validators/post-validate.js';
import { assembleModel, buildModelTypes } from './build-model.js';
import { completeSchema } from './generate-api.js';
import { printSchema } from './print-schema.js';
import { isRemote } from './helpers.js';
import type { Definition } from './sdl-ast.js';
import { parseAuthorization } from './parse-authorization.js';
import { validateAuthRules } from './validators/auth-rules.js';

export interface CompiledSchema {
  readonly sdl: string;
  readonly model: SchemaModel;
  readonly generatedSchema: string;
  readonly apiSchema: GraphQLSchema;
}

export type CompileResult = { readonly ok: true; readonly compiled: CompiledSchema } | { readonly ok: false; readonly errors: readonly SchemaError[] };

export interface CompileOptions {
  /** `--lambda-url`: required by `@lambda` / `@lambdaOnMutate`. */
  readonly lambdaUrl?: string;
}

/** The Query root served when a schema generates no query field (see compileSchema). */
const placeholderQuery = 'type Query {\n\t_empty: Boolean\n}\n';

const fail = (errors: readonly SchemaError[]): CompileResult => ({ ok: false, errors });

export function compileSchema(sdl: string, options: CompileOptions = {}): CompileResult {
  if (sdl === '') return fail([{ message: 'No schema specified' }]);

  const meta = parseMetaLines(sdl);
  if (!meta.ok) return fail([{ message: meta.message }]);
  const auth = parseAuthorization(meta.meta.authorizationLine);
  if (!auth.ok) return fail([{ message: auth.message }]);

  const parsed = parseSdl(sdl);
  if (!parsed.ok) return fail(parsed.errors);
  const defs = parsed.definitions;

  const preErrors = preValidate(defs);
  if (preErrors.length > 0) return fail(preErrors);

  const originalDefs = defs.map((d) => d.name);
  const typesToComplete = defs
    .filter((d) => !((d.kind === 'OBJECT' || d.kind === 'INTERFACE' || d.kind === 'UNION') && isRemote(d)))
    .map((d) => d.name);

  const expandError = inheritInterfaceFields(defs);
  if (expandError) return fail([expandError]);
  const all: Definition[] = [...defs, ...builtInDefinitions()];
  const specErrors = specValidate(defs, all, new Set(parsed.directiveNames));
  if (specErrors.length > 0) return fail(specErrors);

  const types = new Map(all.map((d) => [d.name, d]));
  const postErrors = postValidate(defs, types, { secrets: meta.meta.secrets, lambdaUrl: options.lambdaUrl });
  if (postErrors.length > 0) return fail(postErrors);

  const modelInput = {
    defs,
    meta: meta.meta,
    lambdaUrl: options.lambdaUrl,
    ...(auth.authorization ? { authorization: auth.authorization } : {}),
  };
  const modelTypes = buildModelTypes(modelInput);
  const completed = completeSchema(types, originalDefs, typesToComplete, builtInTypeNames());
  if (completed.query.fields.length === 0 && completed.mutation.fields.length === 0) {
    return fail([{ message: 'No query or mutation found in the generated schema' }]);
  }
  const generatedSchema = printSchema(completed);
  // Dgraph serves a schema whose only root fields are custom mutations (no stored types, so no Query
  // fields; REFERENCE §1 step 10 only refuses a schema with neither). graphql-js needs a Query root to
  // validate requests, so the served API gets a placeholder one; the generated schema text has none.
  const servedSchema = completed.query.fields.length === 0 ? `${generatedSchema}\n${placeholderQuery}` : generatedSchema;
  const apiSchema = buildSchema(servedSchema, { assumeValidSDL: true, noLocation: true });
  const authErrors = validateAuthRules(defs, apiSchema);
  if (authErrors.length > 0) return fail(authErrors);
  const model = assembleModel(modelTypes, completed, modelInput);
  return { ok: true, compiled: { sdl, model, generatedSchema, apiSchema } };
}
