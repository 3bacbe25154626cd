// Step 8: Dgraph's own rules over the spec-valid, expanded schema: per definition the type rules,
// then per field the field rules and each directive's validator, then schema-wide rules.
import type { SchemaError } from '../../api.js';
import type { Definition } from '../sdl-ast.js';
import { TYPE_RULES } from './type-rules.js';
import { FIELD_RULES } from './field-rules.js';
import { DIRECTIVE_VALIDATORS } from './directive-rules.js';
import { predicateValidation } from './predicate-rules.js';

export interface PostValidateOptions {
  readonly secrets: ReadonlyMap<string, string>;
  readonly lambdaUrl?: string | undefined;
}

export function postValidate(defs: readonly Definition[], types: ReadonlyMap<string, Definition>, opts: PostValidateOptions): SchemaError[] {
  const ctx = { types, secrets: opts.secrets, lambdaUrl: opts.lambdaUrl };
  const errs: SchemaError[] = [];
  for (const d of defs) {
    for (const rule of TYPE_RULES) errs.push(...rule(d, ctx));
    for (const f of d.fields) {
      for (const rule of FIELD_RULES) errs.push(...rule(d, f));
      for (const dir of [...f.directives]) {
        const v = DIRECTIVE_VALIDATORS[dir.name];
        if (v) errs.push(...v(ctx, d, f, dir));
      }
    }
  }
  errs.push(...predicateValidation(defs, types));
  return errs;
}
