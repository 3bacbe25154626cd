// What the second stage needs to know about one @custom(http:) / @lambda field, worked out once per
// schema version: the parsed body template, URL variables, remote GraphQL operation, required parent fields.

import type { CustomHttpModel } from '../schema/model.js';
import { compileBodyWriter, valuesWriter, type BodyWriter } from './body-writer.js';
import { parseRemoteOperation, type RemoteOperation } from './remote-query.js';
import { parseBodyTemplate, templateVariables, urlVariables, type BodyTemplate } from './template.js';

export interface CustomFieldSpec {
  readonly parentType: string;
  readonly field: string;
  readonly http: CustomHttpModel;
  readonly lambda: boolean;
  readonly body: BodyTemplate | undefined;
  readonly graphql: RemoteOperation | undefined;
  /** Parent fields (type fields) or arguments (root fields) the call reads. */
  readonly required: readonly string[];
  /** One parent's item of a call body, as JSON text: the body template, or the parent values when there is none. */
  readonly itemWriter: BodyWriter | undefined;
}

export function customFieldSpec(parentType: string, field: string, http: CustomHttpModel, lambda: boolean): CustomFieldSpec {
  const body = http.body === undefined ? undefined : parseBodyTemplate(http.body);
  const graphql = http.graphql === undefined ? undefined : parseRemoteOperation(http.graphql);
  const required = templateVariables(body, urlVariables(http.url));
  if (graphql !== undefined && http.mode === 'SINGLE') for (const v of graphql.variables) required.add(v);
  const names = [...required];
  return { parentType, field, http, lambda, body, graphql, required: names, itemWriter: body === undefined ? valuesWriter(names) : compileBodyWriter(body) };
}
